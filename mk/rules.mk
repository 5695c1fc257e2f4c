# SPDX-License-Identifier: GPL-2.0
#
# The conversion itself, on KTREE and DIR:
#   FORCE=1  convert units that are not freeze-capable too (no flag)
#   J=N      spatch jobs (default: the number of CPUs)
#   FORMAT=json  for make report

FORCE  ?=
FORMAT ?= text
export FORCE

## diff: print the conversion of DIR in KTREE as a -p1 diff (tree untouched)
.PHONY: diff
diff: helper
	@J="$(J)" $(TOP)/scripts/diff.sh "$(KTREE)" "$(DIR)"

## apply: convert DIR in KTREE in place, all or nothing
.PHONY: apply
apply: helper
	@J="$(J)" $(TOP)/scripts/apply.sh "$(KTREE)" "$(DIR)"

## report: every freezer use in DIR (converted / kept / manual) and each unit's eligibility; FORMAT=json
.PHONY: report
report: helper
	@J="$(J)" FORMAT="$(FORMAT)" $(TOP)/scripts/report.sh "$(KTREE)" "$(DIR)"
