# SPDX-License-Identifier: GPL-2.0
#
# autofreeze: convert filesystems from the kthread freezer to the VFS
# freezing them on suspend (FS_POWER_FREEZE on mainline, FS_AUTOFREEZE
# with our core series), with Coccinelle.  `make help` lists every
# entry point.
#
# Common variables (each mk/*.mk adds its own):
#   KTREE  kernel tree to work on, relative to the directory make was
#          started from (make -C too); default: the kernel tree that
#          directory is in, else build/linux-7.3-vfs, the Debian
#          linux-source-7.3 tree with make vfs applied, which `make deps`
#          prepares
#   DIR    a unit or a directory of units, relative to KTREE (e.g. fs/xfs)

TOP     := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
# An installed copy (make install leaves INSTALLED in it) or one this
# user cannot write is read-only: its helper is never rebuilt
# (mk/helper.mk) and BUILD, where the tools write, is the user's cache.
INSTALLED := $(or $(wildcard $(TOP)/INSTALLED),$(shell test -w '$(TOP)' || echo read-only))
ifeq ($(INSTALLED),)
BUILD   := $(TOP)/build
else
BUILD   := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/autofreeze/build
endif
KTREE_DEFAULT := $(BUILD)/linux-7.3-vfs
KTREE   ?= $(KTREE_DEFAULT)
DIR     ?= fs
SPATCH  ?= spatch

# Where the caller stands, which a relative KTREE is relative to: make -C
# TOP has left it, but PWD, as the caller's shell exported it, still
# names it; run in place (or with -f), make's own directory is it.  With
# no KTREE given, AF_KTREE_DEFAULT tells the drivers that the default
# gives way to the kernel tree the caller stands in (ktree.sh:
# ktree_check, which asks the helper what a kernel tree is); make deps,
# which prepares that default itself, is not told.
ifeq ($(CURDIR),$(TOP))
AF_CALLER_DIR := $(if $(filter /%,$(PWD)),$(PWD),$(CURDIR))
else
AF_CALLER_DIR := $(CURDIR)
endif
AF_KTREE_DEFAULT := $(if $(filter file,$(origin KTREE)),$(KTREE_DEFAULT))
export AF_CALLER_DIR AF_KTREE_DEFAULT KTREE_DEFAULT

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
	@echo '           J=<jobs> FORMAT=json (report, check-tree) V=1 (report: every line whole) BASE=<rev> (check-tree)'
	@echo '           OUT=<dir> COMPILE=0 BRANCH=<topic branch> SUBJECT_PREFIX=RFC REROLL=<n>'
	@echo '           IN_REPLY_TO=<msgid> ADD_TO=/ADD_CC=<addr,...> CHANGES=<file> SMPL_URL=<url>'
	@echo '           O=<build dir> (series)   O=/KCONFIG=/FILES= (build-check)'
	@echo '           KVER=6.1|6.12|7.3 E2E_ROLES= E2E_HIBERNATE= E2E_SNAPSHOT= E2E_CYCLES='
	@echo '           E2E_TIMEOUT= E2E_ACCEL= (e2e)'
	@printf '           (default KTREE: the kernel tree the current directory is in, else %s)\n' "$$KTREE_DEFAULT"
	@echo '           (a relative KTREE is relative to the current directory, with make -C too)'

## deps: install coccinelle and the Debian kernel sources, unpack them under build/; DEPS=tools: only what make check-tree and friends need on your own tree
.PHONY: deps
deps:
	@env -u AF_KTREE_DEFAULT "$$TOP/scripts/deps.sh"

## check: run the test suite
.PHONY: check
check:
	@[ -x "$$TOP/tests/run" ] || { echo "check: the test suite is a checkout's, not in $$TOP" >&2; exit 2; }
	@# the tests name their trees and install prefixes: make's exported
	@# defaults are no KTREE, DIR or PREFIX given (an install test would
	@# otherwise write into /usr/local)
	@env -u KTREE -u DIR -u KTREE_DEFAULT -u AF_CALLER_DIR -u AF_KTREE_DEFAULT \
		-u PREFIX -u DESTDIR -u BINDIR -u DATADIR -u LIBEXECDIR -u MANDIR \
		-u RULE -u SPATCH_DIR \
		"$$TOP/tests/run"

include $(sort $(wildcard $(TOP)/mk/*.mk))
