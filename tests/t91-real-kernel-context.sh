#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# On the whole fs/ of each Debian tree (6.1, 6.12, 7.3): every edit that touches a
# freezer API is one report mode lists as converted (so none lands
# outside kthread context), every use is accounted for in the report,
# and make diff DIR=<unit> prints hunks of that unit only.

. "$(dirname "$0")/lib.sh"

for v in ${T91_VERSIONS:-6.1 6.12 7.3}; do
	prereq=KTREE_${v/./_},SPATCH
	src=$TOP/build/linux-source-$v

	test_expect_success $prereq "linux-source-$v fs/: every freezer edit is a reported conversion" '
		mkdir -p $v/old $v/new && cp -a $src/fs $v/old/ && cp -a $src/fs $v/new/ &&
		"$TOP"/tests/tools/rules.sh -j $(nproc) -m report $v/old >$v/report &&
		"$TOP"/tests/tools/rules.sh -j $(nproc) $v/new &&
		"$TOP"/scripts/lib/tree-diff.sh $v/old $v/new >$v/fs.diff &&
		test -s $v/fs.diff && grep -q "^fs/xfs/" $v/report &&
		"$TOP"/tests/tools/check-edits.sh $v/fs.diff $v/report
	'

	test_expect_success $prereq "linux-source-$v fs/: report accounts for every use grep finds in code" '
		(cd $src && grep -rnwE --include="*.[ch]" \
			"set_freezable|try_to_freeze|freezing|TASK_FREEZABLE|TASK_FREEZABLE_UNSAFE|wait_event_freezable|wait_event_freezable_timeout|kthread_freezable_should_stop|WQ_FREEZABLE|__refrigerator" fs |
			grep -vE ":[0-9]+:[[:space:]]*(/?\\*|//)" |
			grep -vE "\"[^\"]*(freezing|set_freezable|try_to_freeze)[^\"]*\"" |
			cut -d: -f1,2 | sort -u) >$v/grep-uses &&
		cut -d: -f1,2 $v/report | sort -u >$v/report-uses &&
		comm -23 $v/grep-uses $v/report-uses >$v/unreported &&
		test_cmp /dev/null $v/unreported
	'

	test_expect_success $prereq "linux-source-$v: make diff DIR=fs/xfs stays in fs/xfs" '
		tgt=$(target_tree $v) &&
		make -s -C "$TOP" diff KTREE=$tgt DIR=fs/xfs >$v/xfs.diff &&
		test -s $v/xfs.diff &&
		! grep -E "^(---|\\+\\+\\+) " $v/xfs.diff | grep -vE " [ab]/fs/xfs/"
	'
done

test_done
