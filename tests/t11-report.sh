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
SQ="'"

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

# A freezable twin the conversion leaves with no use (the plan's
# "unusedtwin UNIT FROM" line, -D unused_twins to kthread_freezer.cocci)
# loses its #define: the uses in that definition are converted, and
# say so, unless the unit is left whole.  First "autofreeze report" on
# inputs written here: the scan knows a preprocessor line, not which
# #define; the definition runs from its name to its one try_to_freeze().
AF=$TOP/scripts/autofreeze
twin_inputs()
{
	printf "optin\ttree\tFS_AUTOFREEZE\tfs_suspend_freeze_sb\tfs/super.c\tfrozen on suspend\n" >plan &&
	printf "unit\tfs/bc\teligible\teligible: bc_fs_type\n" >>plan &&
	printf "file\tfs/bc\tfs/bc/%s\n" a.c u.h v.h >>plan &&
	printf "quiesced\tfs/bc\tfs/bc/a.c\t5:2\tquiesced: the thread stops (a.c:9)\n" >>plan &&
	printf "kthread\tfs/bc\tbc_thread\n" >>plan &&
	printf "twin\tfs/bc\tkw_freezable\tkw\n" >>plan &&
	printf "unusedtwin\tfs/bc\tkw_freezable\n" >>plan &&
	printf "fstype\tfs/bc\tbc_fs_type\tfs/bc/a.c\n" >>plan &&
	printf "flag\tfs/bc\tbc_fs_type\n" >flags &&
	: >unparsed &&
	echo "fs/bc/a.c:5:2-14: kw_freezable in kernel thread bc_thread(): convert, the VFS freezes the filesystem" >rules &&
	cat >scan <<-\EOF
	fs/bc/a.c:5:2: kw_freezable kthread bc_thread
	fs/bc/u.h:10:9: kw_freezable macro -
	fs/bc/u.h:20:3: try_to_freeze macro -
	fs/bc/u.h:30:22: try_to_freeze macro -
	fs/bc/v.h:10:9: kw_freezable macro -
	fs/bc/v.h:14:3: freezing user bc_other
	fs/bc/v.h:20:3: try_to_freeze macro -
	EOF
}

test_expect_success "report: the definition of a twin the conversion removes is converted, and says what becomes of its uses" '
	twin_inputs &&
	"$AF" report plan flags unparsed rules scan >got &&
	gone="in the definition of kw_freezable(), which the conversion removes: its uses, all in the unit${SQ}s kernel threads, become kw()" &&
	cat >want <<-EOF &&
	fs/bc: eligible: bc_fs_type
	${TAB}FS_AUTOFREEZE: bc_fs_type; frozen on suspend
	${TAB}fs/bc/a.c:5:2: kw_freezable: converted: in kernel thread bc_thread(); quiesced: the thread stops (a.c:9)
	${TAB}fs/bc/u.h:10:9: kw_freezable: converted: $gone; quiesced: as at those uses, in bc_thread()
	${TAB}fs/bc/u.h:20:3: try_to_freeze: converted: $gone; quiesced: as at those uses, in bc_thread()
	${TAB}fs/bc/u.h:30:22: try_to_freeze: kept: try_to_freeze in a macro definition
	${TAB}fs/bc/v.h:10:9: kw_freezable: converted: $gone; quiesced: as at those uses, in bc_thread()
	${TAB}fs/bc/v.h:14:3: freezing: kept: freezing in bc_other(): not a kernel thread
	${TAB}fs/bc/v.h:20:3: try_to_freeze: kept: try_to_freeze in a macro definition
	4 converted, 3 kept, 0 manual
	EOF
	test_cmp want got &&
	"$AF" report -f json plan flags unparsed rules scan >got.json &&
	python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
u = {(x[\"file\"], x[\"line\"]): x for x in d[\"units\"][0][\"uses\"]}
t = u[(\"fs/bc/u.h\", 20)]
assert t[\"status\"] == \"converted\" and t[\"code\"] == \"unused-twin\", t
assert t[\"reason\"] == u[(\"fs/bc/u.h\", 10)][\"reason\"], t
assert t[\"reason\"].startswith(\"in the definition of kw_freezable(), which the conversion removes: \"), t
assert t[\"evidence\"] == \"the thread stops (a.c:9)\", t
assert u[(\"fs/bc/u.h\", 30)][\"code\"] == \"macro\"
assert d[\"totals\"] == {\"converted\": 4, \"kept\": 3, \"manual\": 0}, d[\"totals\"]" got.json
'

test_expect_success "report: a twin's definition stays a macro's without unusedtwin, when the unit is left whole, or when spatch could not parse it" '
	twin_inputs &&
	grep -v "^unusedtwin" plan >plan.used &&
	"$AF" report plan.used flags unparsed rules scan >used &&
	grep -q "^${TAB}fs/bc/u.h:10:9: kw_freezable: kept: kw_freezable in a macro definition\$" used &&
	grep -q "^${TAB}fs/bc/u.h:20:3: try_to_freeze: kept: try_to_freeze in a macro definition\$" used &&
	printf "noflag\tfs/bc\tkthread freezer uses left: fs/bc/a.c:5:2 kw_freezable\n" >noflag &&
	"$AF" report plan noflag unparsed rules scan >whole &&
	grep -q "^${TAB}fs/bc/u.h:20:3: try_to_freeze: kept: unit left whole, it gets no FS_AUTOFREEZE: would convert (in the definition of kw_freezable(), which the conversion removes: " whole &&
	! grep ": converted: " whole &&
	echo "fs/bc/u.h:20: try_to_freeze" >unparsed &&
	"$AF" report plan flags unparsed rules scan >unp &&
	grep -q "^${TAB}fs/bc/u.h:20:3: try_to_freeze: manual: spatch cannot parse" unp
'

# Then make report on bcachefs-unused-twin-6.12 (the real util.h,
# trimmed) given a file_system_type and a judgment on its thread: what
# the report calls converted in util.h is what make diff removes there.
test_expect_success SPATCH "report: bcachefs-unused-twin-6.12, the uses in kthread_wait_freezable()'s definition are converted, as the diff removes them" '
	fake_ktree bcachefs-unused-twin-6.12 ut &&
	cat >ut/fs/bcachefs/fs.c <<-\EOF &&
	// SPDX-License-Identifier: GPL-2.0
	/* For the test: a file_system_type, its super_operations. */
	static const struct super_operations bch_super_operations = {
		.freeze_fs	= bch2_freeze,
	};

	static int bch2_fs_get_tree(struct fs_context *fc)
	{
		struct super_block *sb = sget(fc->fs_type, NULL, bch2_set_super, fc->sb_flags, NULL);

		sb->s_op = &bch_super_operations;
		return 0;
	}

	static struct file_system_type bcache_fs_type = {
		.name		= "bcachefs",
		.init_fs_context = bch2_init_fs_context,
		.fs_flags	= FS_REQUIRES_DEV,
	};
	EOF
	echo "obj-y += fs.o" >>ut/fs/bcachefs/Makefile &&
	printf "fs/bcachefs\tquiesced\tbch2_rebalance_thread\t-\tquiesced\tbch2_rebalance_thread() -> bch2_moving_ctxt_init()\tfixture judgment: the rebalance thread ({bch2_rebalance_thread() -> bch2_moving_ctxt_init()})\n" >ut.tsv &&
	"$AF" plan --judgments ut.tsv ut fs/bcachefs >ut.plan &&
	grep -qx "unusedtwin${TAB}fs/bcachefs${TAB}kthread_wait_freezable" ut.plan &&
	JUDGMENTS=$TRASH/ut.tsv "$TOP"/scripts/report.sh "$TRASH"/ut fs/bcachefs >ut.report &&
	gone="in the definition of kthread_wait_freezable(), which the conversion removes: its uses, all in the unit${SQ}s kernel threads, become kthread_wait(); quiesced: as at those uses, in do_rebalance()" &&
	cat >want <<-EOF &&
	${TAB}fs/bcachefs/util.h:52:9: kthread_wait_freezable: converted: $gone
	${TAB}fs/bcachefs/util.h:66:3: try_to_freeze: converted: $gone
	EOF
	grep "util\.h" ut.report >got &&
	test_cmp want got &&
	JUDGMENTS=$TRASH/ut.tsv "$TOP"/scripts/diff.sh "$TRASH"/ut fs/bcachefs >ut.diff &&
	awk "/^--- / { f = (\$2 == \"a/fs/bcachefs/util.h\"); next }
	     /^\+\+\+ / { next }
	     f && /^@@ / { split(\$2, a, \",\"); n = -a[1]; next }
	     f && /^-/ { print n++; next }
	     f && /^ / { n++ }" ut.diff >removed &&
	for l in 52 66; do grep -qx $l removed || return 1; done &&
	JUDGMENTS=$TRASH/ut.tsv FORMAT=json "$TOP"/scripts/report.sh "$TRASH"/ut fs/bcachefs >ut.json &&
	python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
u = [x for x in d[\"units\"][0][\"uses\"] if x[\"file\"] == \"fs/bcachefs/util.h\"]
assert [(x[\"line\"], x[\"status\"], x[\"code\"]) for x in u] == [(52, \"converted\", \"unused-twin\"), (66, \"converted\", \"unused-twin\")], u
assert all(x[\"reason\"] == sys.argv[2] for x in u), u
assert all(x[\"evidence\"] == \"fixture judgment: the rebalance thread (rebalance.c:101)\" for x in u), u" ut.json "$gone"
'

test_done
