# SPDX-License-Identifier: GPL-2.0
#
# autofreeze: convert filesystems from the kthread freezer to the VFS
# freezing them on suspend (FS_POWER_FREEZE on mainline, FS_AUTOFREEZE
# with our core series), with Coccinelle.  `make help` lists every
# entry point.
#
# Common variables (each mk/*.mk adds its own):
#   KTREE  kernel tree to work on (default: build/linux-7.3-vfs, the
#          Debian linux-source-7.3 tree with make vfs applied, which
#          `make deps` prepares)
#   DIR    a unit or a directory of units, relative to KTREE (e.g. fs/xfs)

TOP     := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
BUILD   := $(TOP)/build
KTREE   ?= $(BUILD)/linux-7.3-vfs
DIR     ?= fs
SPATCH  ?= spatch

# Every variable a user may set reaches the scripts through the
# environment, never pasted into a recipe's shell text: a quote, a
# backtick or a $$(...) in a value is data (recipes say "$$KTREE", not
# "$(KTREE)").  Each mk/*.mk exports its own.
export TOP BUILD KTREE DIR SPATCH DEPS

.DEFAULT_GOAL := help

## help: list the entry points
.PHONY: help
help:
	@echo 'autofreeze: retire the kthread freezer from filesystems'
	@echo
	@echo 'Targets:'
	@sed -n 's/^## \([^:]*\): \(.*\)/  \1|\2/p' $(MAKEFILE_LIST) | \
		awk -F'|' '{ printf "  %-22s %s\n", $$1, $$2 }'
	@echo
	@echo 'Variables: KTREE=<kernel tree> DIR=<unit or directory of units, relative to KTREE>'
	@echo '           FORCE=1 (convert units that are not freeze-capable, no flag)'
	@echo '           JUDGMENTS=<file> (reviewed judgments instead of policy/judgments.tsv)'
	@echo '           J=<jobs> FORMAT=json (report, check-tree) BASE=<rev> (check-tree)'
	@echo '           OUT=<dir> COMPILE=0 BRANCH=<topic branch> SUBJECT_PREFIX=RFC REROLL=<n>'
	@echo '           IN_REPLY_TO=<msgid> ADD_TO=/ADD_CC=<addr,...> CHANGES=<file> SMPL_URL=<url>'
	@echo '           O=<build dir> (series)   O=/KCONFIG=/FILES= (build-check)'
	@echo '           KVER=6.1|6.12|7.3 E2E_ROLES= E2E_HIBERNATE= E2E_SNAPSHOT= E2E_CYCLES='
	@echo '           E2E_TIMEOUT= E2E_ACCEL= (e2e)'
	@printf '           (default KTREE: %s)\n' "$$KTREE"

## deps: install coccinelle and the Debian kernel sources, unpack them under build/; DEPS=tools: only what make check-tree and friends need on your own tree
.PHONY: deps
deps:
	@"$$TOP/scripts/deps.sh"

## check: run the test suite
.PHONY: check
check:
	@"$$TOP/tests/run"

include $(sort $(wildcard $(TOP)/mk/*.mk))
