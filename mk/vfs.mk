# SPDX-License-Identifier: GPL-2.0
#
# The core VFS series (patches/linux-<version>/) and the compile check.
#   make vfs KTREE=<tree>
#   make build-check KTREE=<tree> [O=<dir>] [FILES="..."] [KCONFIG=allmodconfig] [J=n]

KCONFIG ?= allmodconfig
J       ?= $(shell nproc)
O       ?=
FILES   ?=
export KCONFIG J O FILES

## vfs: apply the series of patches/ KTREE's code needs before a conversion: the core VFS series (FS_AUTOFREEZE) on a stable tree, what the suspend freeze lacks on mainline (patches/linux-mainline/)
.PHONY: vfs
vfs:
	@"$$TOP/scripts/vfs.sh" "$$KTREE"

## build-check: compile every object make vfs/apply touched in KTREE, report failures and new warnings
.PHONY: build-check
build-check:
	@"$$TOP/scripts/build-check.sh"
