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
# that hold come under the unit, after its flag line.  -v: every line
# whole, after the table of the units.
report_tree()
{
	rm -rf "$1" && cp -r "$TESTS/helper/ktree" "$1"
}

test_expect_success SPATCH "report: a thread that never calls set_freezable(): dead code; the unit's notes that hold" '
	report_tree rk &&
	JUDGMENTS=$TESTS/helper/judgments.tsv "$TOP"/scripts/report.sh -v "$TRASH"/rk fs/jfs >rk.report &&
	dead="which never calls set_freezable(): the removed lines were dead code (no functional change)" &&
	cat >want <<-EOF &&
	UNIT    VERDICT  CONVERTED  KEPT  MANUAL  FLAG
	fs/jfs  convert          7     0       0  jfs_fs_type

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
	"$AF" report -v plan flags unparsed rules scan >got &&
	gone="in the definition of kw_freezable(), which the conversion removes: its uses, all in the unit${SQ}s kernel threads, become kw()" &&
	cat >want <<-EOF &&
	UNIT   VERDICT  CONVERTED  KEPT  MANUAL  FLAG
	fs/bc  convert          4     3       0  bc_fs_type

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
	"$AF" report -v plan.used flags unparsed rules scan >used &&
	grep -q "^${TAB}fs/bc/u.h:10:9: kw_freezable: kept: kw_freezable in a macro definition\$" used &&
	grep -q "^${TAB}fs/bc/u.h:20:3: try_to_freeze: kept: try_to_freeze in a macro definition\$" used &&
	printf "noflag\tfs/bc\tkthread freezer uses left: fs/bc/a.c:5:2 kw_freezable\n" >noflag &&
	"$AF" report -v plan noflag unparsed rules scan >whole &&
	grep -q "^${TAB}fs/bc/u.h:20:3: try_to_freeze: kept: unit left whole, it gets no FS_AUTOFREEZE: would convert (in the definition of kw_freezable(), which the conversion removes: " whole &&
	! grep ": converted: " whole &&
	echo "fs/bc/u.h:20: try_to_freeze" >unparsed &&
	"$AF" report -v plan flags unparsed rules scan >unp &&
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
	JUDGMENTS=$TRASH/ut.tsv "$TOP"/scripts/report.sh -v "$TRASH"/ut fs/bcachefs >ut.report &&
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

# make report at a glance: the table of the units first, lines of at
# most 100 columns (tabs at 8), the freeze's mechanism once and not on
# every flag line, a unit's reason on its own line and not again on its
# uses, a long unit line wrapped, a use's line cut with "..." and a line
# that says where the whole text is; -v and JSON keep every reason
# whole.  On inputs written here, each text longer than a line.
words() { printf "$1%d " $(seq 1 "$2") | sed "s/ \$//"; }
glance_inputs()
{
	mech=$(words mech 30) && nfwhy=$(words nfwhy 40) &&
	ev=$(words ev 40) && note=$(words note 30) &&
	printf "optin\ttree\tFS_AUTOFREEZE\tfs_suspend_freeze_sb\tfs/super.c\t%s\n" "$mech" >plan &&
	printf "unit\tfs/bc\teligible\teligible: bc_fs_type\n" >>plan &&
	printf "file\tfs/bc\tfs/bc/a.c\n" >>plan &&
	printf "quiesced\tfs/bc\tfs/bc/a.c\t5:2\tquiesced: %s\n" "$ev" >>plan &&
	printf "note\tfs/bc\trisk: %s\n" "$note" >>plan &&
	printf "kthread\tfs/bc\tbc_thread\n" >>plan &&
	printf "fstype\tfs/bc\t%s\tfs/bc/a.c\n" bc_fs_type bc2_fs_type >>plan &&
	printf "unit\tfs/nf\tskip\tnot block-backed: %s\n" "$nfwhy" >>plan &&
	printf "flag\tfs/bc\tbc_fs_type,bc2_fs_type\n" >flags &&
	: >unparsed &&
	echo "fs/bc/a.c:5:2-14: set_freezable in kernel thread bc_thread(): convert, the VFS freezes the filesystem" >rules &&
	cat >scan <<-\EOF
	fs/bc/a.c:5:2: set_freezable kthread bc_thread
	fs/nf/b.c:3:2: set_freezable kthread nf_thread
	fs/nf/b.c:9:3: try_to_freeze kthread nf_thread
	EOF
}

# wider FILE: its lines wider than 100 columns, tabs at 8
wider() { expand "$1" | awk "length > 100"; }

test_expect_success "report at a glance: the table first, 100 columns, each reason once; -v and JSON whole" '
	glance_inputs &&
	"$AF" report plan flags unparsed rules scan >short &&
	"$AF" report -v plan flags unparsed rules scan >long &&
	wider short >over && test_cmp /dev/null over &&
	cat >want <<-EOF &&
	UNIT   VERDICT  CONVERTED  KEPT  MANUAL  FLAG
	fs/bc  convert          1     0       0  bc_fs_type,bc2_fs_type
	fs/nf  skip             0     2       0  -

	EOF
	head -n 4 short >got && test_cmp want got &&
	head -n 4 long >got && test_cmp want got &&
	test "$(grep -c "mech1 " short)" = 1 &&
	grep -q "^FS_AUTOFREEZE: mech1 mech2 " short &&
	grep -qx "${TAB}FS_AUTOFREEZE: bc_fs_type,bc2_fs_type" short &&
	grep -qxF "${TAB}FS_AUTOFREEZE: bc_fs_type,bc2_fs_type; $mech" long &&
	test "$(grep -c "nfwhy1 " short)" = 1 &&
	test "$(grep -c "nfwhy1 " long)" = 3 &&
	grep -qx "${TAB}fs/nf/b.c:3:2: set_freezable: kept: unit not converted" short &&
	grep -qx "${TAB}fs/nf/b.c:9:3: try_to_freeze: kept: unit not converted" short &&
	grep -qxF "${TAB}fs/nf/b.c:9:3: try_to_freeze: kept: unit not converted: not block-backed: $nfwhy" long &&
	awk "/^fs\/nf: / { p = 1; s = \$0; next } p && /^    / { sub(/^ +/, \"\"); s = s \" \" \$0; next } p { print s; exit }" short >joined &&
	echo "fs/nf: not block-backed: $nfwhy" >want && test_cmp want joined &&
	awk "/^\tnote: / { p = 1; s = \$0; next } p && /^\t    / { sub(/^\t +/, \"\"); s = s \" \" \$0; next } p { print s; exit }" short >joined &&
	printf "\tnote: %s\n" "$note" >want && test_cmp want joined &&
	grep "^${TAB}fs/bc/a.c:5:2: set_freezable: converted: in kernel thread bc_thread(); quiesced: ev1 .*\.\.\.\$" short >cut &&
	test_line_count cut 1 &&
	grep -qF "$(sed "s/\.\.\.\$//" cut)" long &&
	grep -qxF "${TAB}fs/bc/a.c:5:2: set_freezable: converted: in kernel thread bc_thread(); quiesced: $ev" long &&
	grep -qx "Lines that end in \"...\" are cut at 100 columns: make report V=1 or FORMAT=json gives them whole." short &&
	test "$(tail -n 1 short)" = "1 converted, 2 kept, 0 manual" &&
	test "$(tail -n 1 long)" = "1 converted, 2 kept, 0 manual" &&
	grep -v "^fs/nf\|^fs/bc/a.c" plan >plan.nf && : >flags.nf &&
	grep "^fs/nf" scan >scan.nf &&
	"$AF" report plan.nf flags.nf unparsed rules scan.nf >nf &&
	! grep -q "are cut at" nf
'

test_expect_success "report JSON: a schema version, each unit its verdict, counts and flag types; fs_autofreeze kept" '
	glance_inputs &&
	"$AF" report -f json plan flags unparsed rules scan >got.json &&
	python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
assert d[\"schema_version\"] == 2, d
u = {x[\"unit\"]: x for x in d[\"units\"]}
bc, nf = u[\"fs/bc\"], u[\"fs/nf\"]
assert bc[\"verdict\"] == \"convert\" and nf[\"verdict\"] == \"skip\", (bc, nf)
assert bc[\"counts\"] == {\"converted\": 1, \"kept\": 0, \"manual\": 0}, bc[\"counts\"]
assert nf[\"counts\"] == {\"converted\": 0, \"kept\": 2, \"manual\": 0}, nf[\"counts\"]
f = bc[\"flag\"]
assert f[\"verdict\"] == \"flag\" and f[\"types\"] == [\"bc_fs_type\", \"bc2_fs_type\"] and f[\"reason\"] is None, f
assert bc[\"fs_autofreeze\"] == f[\"text\"] and f[\"text\"].endswith(sys.argv[2]), bc
assert nf[\"flag\"] is None and nf[\"fs_autofreeze\"] is None, nf
assert bc[\"uses\"][0][\"reason\"].endswith(sys.argv[3]), bc[\"uses\"]
assert d[\"totals\"] == {\"converted\": 1, \"kept\": 2, \"manual\": 0}, d[\"totals\"]" got.json "$mech" "$ev" &&
	printf "noflag\tfs/bc\tkthread freezer uses left: fs/bc/a.c:5:2 set_freezable\n" >noflag &&
	"$AF" report -f json plan noflag unparsed rules scan >whole.json &&
	python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
bc = [x for x in d[\"units\"] if x[\"unit\"] == \"fs/bc\"][0]
assert bc[\"verdict\"] == \"left-whole\", bc[\"verdict\"]
assert bc[\"counts\"] == {\"converted\": 0, \"kept\": 1, \"manual\": 0}, bc[\"counts\"]
f = bc[\"flag\"]
assert f[\"verdict\"] == \"noflag\" and f[\"types\"] == [] and f[\"reason\"].startswith(\"kthread freezer uses left: \"), f" whole.json
'

test_expect_success "report at a glance: a unit left whole says so on each use once, briefly" '
	glance_inputs &&
	printf "noflag\tfs/bc\tkthread freezer uses left: fs/bc/a.c:5:2 set_freezable\n" >noflag &&
	"$AF" report plan noflag unparsed rules scan >short &&
	"$AF" report -v plan noflag unparsed rules scan >long &&
	wider short >over && test_cmp /dev/null over &&
	grep -q "^fs/bc  left-whole  *0  *1  *0  -\$" short &&
	grep -qx "${TAB}no FS_AUTOFREEZE, left whole: kthread freezer uses left: fs/bc/a.c:5:2 set_freezable" short &&
	grep -q "^${TAB}fs/bc/a.c:5:2: set_freezable: kept: unit left whole: would convert (in kernel thread" short &&
	grep -q "^${TAB}fs/bc/a.c:5:2: set_freezable: kept: unit left whole, it gets no FS_AUTOFREEZE: would convert (in kernel thread bc_thread(); quiesced: ev1 .* ev40)\$" long
'

# make report's options: V=1 (make) is -v (report.sh); a V or an
# AUTOFREEZE_PROGRESS it cannot take: one line, exit 2, nothing run.
# A run longer than AUTOFREEZE_PROGRESS seconds (2) says what it does
# on stderr, a pipe here, not a tty, and the report is the same; a
# refusal stays one line.
test_expect_success SPATCH "report.sh: V=1 is -v; a bad V or AUTOFREEZE_PROGRESS: exit 2, one line" '
	report_tree ro &&
	JUDGMENTS=$TESTS/helper/judgments.tsv V=1 "$TOP"/scripts/report.sh "$TRASH"/ro fs/jfs >v1 &&
	JUDGMENTS=$TESTS/helper/judgments.tsv "$TOP"/scripts/report.sh -v "$TRASH"/ro fs/jfs >v &&
	test_cmp v v1 &&
	JUDGMENTS=$TESTS/helper/judgments.tsv V=0 "$TOP"/scripts/report.sh "$TRASH"/ro fs/jfs >v0 &&
	! cmp -s v v0 && wider v0 >over && test_cmp /dev/null over &&
	V=2 test_exit_code 2 "$TOP"/scripts/report.sh "$TRASH"/ro fs/jfs >out 2>err &&
	test_line_count err 1 && grep -qx "report.sh: V=2: 0 or 1" err && test_cmp /dev/null out &&
	AUTOFREEZE_PROGRESS=soon test_exit_code 2 "$TOP"/scripts/report.sh "$TRASH"/ro fs/jfs >out 2>err &&
	test_line_count err 1 && grep -qx "report.sh: AUTOFREEZE_PROGRESS=soon: not a number of seconds" err &&
	test_cmp /dev/null out
'

test_expect_success SPATCH "report.sh: a run longer than 2 s says what it does on stderr, tty or not; the report is the same; a refusal stays one line" '
	report_tree rp &&
	mkdir slow &&
	printf "%s\n" "#!/bin/sh" "case \" \$* \" in *\" --version \"*) ;; *) sleep 3 ;; esac" \
		"exec \"$SPATCH\" \"\$@\"" >slow/spatch &&
	chmod +x slow/spatch &&
	JUDGMENTS=$TESTS/helper/judgments.tsv SPATCH=$TRASH/slow/spatch AUTOFREEZE_CACHE=$TRASH/cold \
		"$TOP"/scripts/report.sh "$TRASH"/rp fs/jfs >slow.report 2>slow.err &&
	JUDGMENTS=$TESTS/helper/judgments.tsv AUTOFREEZE_PROGRESS=600 \
		"$TOP"/scripts/report.sh "$TRASH"/rp fs/jfs >quick.report 2>quick.err &&
	test_cmp quick.report slow.report &&
	test_cmp /dev/null quick.err &&
	grep -qx "report.sh: fs/jfs: 1 unit to convert, 3 files: the rules, in report mode" slow.err &&
	tail -n 1 slow.err | grep -qx "report.sh: fs/jfs: done in [0-9]*\.[0-9] s" &&
	! grep -v "^report.sh: fs/jfs: " slow.err &&
	printf "fs/jfs\tquiesced\n" >bad.tsv &&
	JUDGMENTS=$TRASH/bad.tsv AUTOFREEZE_PROGRESS=0 SPATCH=$TRASH/slow/spatch \
		test_exit_code 2 "$TOP"/scripts/report.sh "$TRASH"/rp fs/jfs >out 2>err &&
	test_line_count err 1 && grep -q "^report.sh: " err
'

test_done
