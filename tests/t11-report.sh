#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every rule in report mode over every fixture case: the sorted
# file:line: messages must be the case's golden report, which says of
# every freezer use whether it is converted, kept (and why) or manual;
# and the helper's report, which says it unit by unit, with the unit's
# notes and dead freezer code.
# test-run: light

. "$(dirname "$0")/lib.sh"

TAB=$(printf "\t")

for c in $(case_list); do
	test_expect_success SPATCH "$c: report is the golden" '
		case_tree $c $c &&
		mapfile -t defs < <(case_defines $c) &&
		"$TOP"/tests/tools/rules.sh -m report "${defs[@]}" $c >$c.report &&
		test -f "$FIXTURES"/$c/expected.report &&
		test_cmp "$FIXTURES"/$c/expected.report $c.report
	'
done

# Report mode never writes: the tree is byte-identical afterwards.
test_expect_success SPATCH "report mode leaves the tree alone" '
	for c in $(case_list); do
		case_tree $c ro/$c || return 1
	done &&
	cp -r ro ro.orig &&
	for c in $(case_list); do
		mapfile -t defs < <(case_defines $c) &&
		"$TOP"/tests/tools/rules.sh -m report "${defs[@]}" ro/$c >/dev/null || return 1
	done &&
	diff -r ro.orig ro
'

# The helper's report (make report) on tests/helper/ktree's jfs,
# trimmed from 6.1: jfs_lazycommit() and jfs_sync() never call
# set_freezable(), so their conversion is dead code and the report says
# so; jfsIOWait() calls it.  The notes of tests/helper/judgments.tsv
# that hold come under the unit, after its flag line.
report_tree()
{
	rm -rf "$1" && cp -r "$TESTS/helper/ktree" "$1"
}

test_expect_success SPATCH "report: a thread that never calls set_freezable(): dead code; the unit's notes that hold" '
	report_tree rk &&
	JUDGMENTS=$TESTS/helper/judgments.tsv "$TOP"/scripts/report.sh "$TRASH"/rk fs/jfs >rk.report &&
	dead="which never calls set_freezable(): the removed lines were dead code (no functional change)" &&
	cat >want <<-EOF &&
	fs/jfs: eligible: jfs_fs_type is FS_REQUIRES_DEV and jfs_super_operations has .freeze_fs, which the suspend freeze calls: fs_suspend_freeze_sb() -> freeze_super() -> .freeze_fs (fs/super.c)
	${TAB}FS_AUTOFREEZE: jfs_fs_type; frozen on suspend and hibernation by fs_suspend_freeze_sb() (fs/super.c)
	${TAB}note: fixture note: jfs_sync() starts transactions (jfs_txnmgr.c:45)
	${TAB}fs/jfs/jfs_logmgr.c:12:2: set_freezable: converted: in kernel thread jfsIOWait(); quiesced: fixture judgment: the log redrive thread (jfs_logmgr.c:19)
	${TAB}fs/jfs/jfs_logmgr.c:23:7: freezing: converted: in kernel thread jfsIOWait(); quiesced: fixture judgment: the log redrive thread (jfs_logmgr.c:19)
	${TAB}fs/jfs/jfs_logmgr.c:25:4: try_to_freeze: converted: in kernel thread jfsIOWait(); quiesced: fixture judgment: the log redrive thread (jfs_logmgr.c:19)
	${TAB}fs/jfs/jfs_txnmgr.c:14:7: freezing: converted: in kernel thread jfs_lazycommit(), $dead; quiesced: fixture judgment: the commit threads (jfs_txnmgr.c:23)
	${TAB}fs/jfs/jfs_txnmgr.c:16:4: try_to_freeze: converted: in kernel thread jfs_lazycommit(), $dead; quiesced: fixture judgment: the commit threads (jfs_txnmgr.c:23)
	${TAB}fs/jfs/jfs_txnmgr.c:51:7: freezing: converted: in kernel thread jfs_sync(), $dead; quiesced: fixture judgment: the sync thread (jfs_txnmgr.c:45)
	${TAB}fs/jfs/jfs_txnmgr.c:53:4: try_to_freeze: converted: in kernel thread jfs_sync(), $dead; quiesced: fixture judgment: the sync thread (jfs_txnmgr.c:45)
	7 converted, 0 kept, 0 manual
	EOF
	test_cmp want rk.report
'

test_expect_success SPATCH "report FORMAT=json: the same, as the unit's notes and each use's reason" '
	report_tree rj &&
	JUDGMENTS=$TESTS/helper/judgments.tsv FORMAT=json "$TOP"/scripts/report.sh "$TRASH"/rj fs/jfs >rj.json &&
	python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
u = [x for x in d[\"units\"] if x[\"unit\"] == \"fs/jfs\"][0]
assert u[\"notes\"] == [\"fixture note: jfs_sync() starts transactions (jfs_txnmgr.c:45)\"], u[\"notes\"]
dead = \", which never calls set_freezable(): the removed lines were dead code (no functional change); \"
for x in u[\"uses\"]:
    assert (dead in x[\"reason\"]) == (x[\"function\"] != \"jfsIOWait\"), x
    assert x[\"status\"] == \"converted\", x" rj.json
'

test_expect_success SPATCH "report: a unit left whole carries no note" '
	report_tree rw &&
	grep -v "^fs/jfs	quiesced	jfsIOWait	" "$TESTS"/helper/judgments.tsv >rw.tsv &&
	JUDGMENTS="$TRASH"/rw.tsv "$TOP"/scripts/report.sh "$TRASH"/rw fs/jfs >rw.report &&
	grep -q "^	no FS_AUTOFREEZE, left whole: unreviewed: " rw.report &&
	! grep -q "note:" rw.report &&
	JUDGMENTS="$TRASH"/rw.tsv FORMAT=json "$TOP"/scripts/report.sh "$TRASH"/rw fs/jfs >rw.json &&
	python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
assert [x[\"notes\"] for x in d[\"units\"]] == [[]]" rw.json
'

test_done
