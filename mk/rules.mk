# SPDX-License-Identifier: GPL-2.0
#
# The conversion itself, on KTREE and DIR:
#   FORCE=1  convert units that are not freeze-capable too (no flag)
#   JUDGMENTS=FILE  the reviewed judgments to apply, instead of
#            policy/judgments.tsv (an absolute path)
#   J=N      spatch jobs (default: the number of CPUs)
#   FORMAT=json  for make report and make check-tree
#   BASE=REV     make check-tree: only the units git diff REV touches

FORCE  ?=
JUDGMENTS ?=
FORMAT ?= text
BASE   ?=
OUT    ?=
COMPILE ?=
BRANCH ?=
SUBJECT_PREFIX ?=
REROLL ?=
IN_REPLY_TO ?=
ADD_TO ?=
ADD_CC ?=
CHANGES ?=
SMPL_URL ?=
export FORCE JUDGMENTS FORMAT BASE OUT COMPILE BRANCH SUBJECT_PREFIX REROLL \
	IN_REPLY_TO ADD_TO ADD_CC CHANGES SMPL_URL

## diff: print the conversion of DIR in KTREE as a -p1 diff (tree untouched)
.PHONY: diff
diff: helper
	@"$$TOP/scripts/diff.sh" "$$KTREE" "$$DIR"

## by-hand: the spatch command lines, unit by unit, that make diff's edits by hand from KTREE's top (the -D values of the plan); RULE=NAME: the values rule NAME asks for when run with no -D (SPATCH_DIR=: its --dir)
.PHONY: by-hand
by-hand: helper
	@"$$TOP/scripts/by-hand.sh" "$$KTREE" "$$DIR"

## apply: convert DIR in KTREE in place, all or nothing
.PHONY: apply
apply: helper
	@"$$TOP/scripts/apply.sh" "$$KTREE" "$$DIR"

## report: the units of DIR at a glance, then every freezer use (converted / kept / manual); V=1: every line whole; FORMAT=json
.PHONY: report
report: helper
	@"$$TOP/scripts/report.sh" "$$KTREE" "$$DIR"

## check-tree: the CI gate: fail (exit 1) on freezer uses or misplaced flags in units that carry the opt-in flag; BASE=<rev> checks only the units a git diff touches; FORMAT=json
.PHONY: check-tree
check-tree: helper
	@"$$TOP/scripts/check-tree.sh" "$$KTREE" "$$DIR"

## series: in a git KTREE, on a topic branch (BRANCH=), one commit per converted unit of DIR (after make vfs where needed), compiled at its head (COMPILE=0: not), then git format-patch into OUT= with a cover letter; SUBJECT_PREFIX=RFC REROLL=N IN_REPLY_TO= ADD_TO= ADD_CC= CHANGES=FILE SMPL_URL=
.PHONY: series
series: helper
	@"$$TOP/scripts/series.sh" "$$KTREE" "$$DIR" "$$OUT"
