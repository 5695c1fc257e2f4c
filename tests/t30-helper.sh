#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t30-helper: the C helper scripts/autofreeze.  Builds it and its C unit
# tests (tests/helper/unit-tests.c) with -fsanitize=address,undefined,
# runs those, then every sub-command on the fixture tree
# tests/helper/ktree (trimmed copies of Linux 6.1 files) against
# tests/helper/expected/, and on the real Debian trees when they are
# unpacked under build/.  A sanitizer report anywhere fails the script.
#
# AF_HELPER=path uses that binary instead of the sanitizer build.
# test-run: light

. "$(dirname "$0")/lib.sh"

H=$TESTS/helper
SANDIR=$TOP/build/helper-san
AF=${AF_HELPER:-$SANDIR/autofreeze}
UNIT=$SANDIR/unit-tests
export AF H

# sanitizer reports go to files; their exit codes are not 1 or 2
export ASAN_OPTIONS="detect_leaks=1:exitcode=86:log_path=$TRASH/san"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=87:log_path=$TRASH/san"
export LSAN_OPTIONS="exitcode=86"

test_expect_success "helper and sanitizer builds" '
	make -s -C "$TOP" helper helper-san >build.log 2>&1 ||
		{ cat build.log; false; } &&
	test -x "$TOP/scripts/autofreeze" && test -x "$AF" && test -x "$UNIT"
'

test_expect_success "C unit tests (lexer, contexts, objects, prefilter)" '
	"$UNIT" >unit.out; rc=$?
	grep "^not ok" unit.out; tail -n 1 unit.out
	[ $rc -eq 0 ] && grep -q "^# [0-9]* checks, 0 failed" unit.out
'

test_expect_success "usage: no command, unknown command, --help" '
	test_exit_code 2 "$AF" 2>err1 &&
	grep -q "^usage: autofreeze scan" err1 &&
	test_exit_code 2 "$AF" frobnicate 2>err2 &&
	grep -q "^autofreeze: unknown command .frobnicate." err2 &&
	"$AF" --help | grep -q "autofreeze units" &&
	test_exit_code 2 "$AF" scan 2>err3 &&
	grep -q "^autofreeze: scan: no PATH given" err3 &&
	test_exit_code 2 "$AF" scan -j 0 . 2>/dev/null
'

test_expect_success "apis lists the 30 names, once each" '
	"$AF" apis >apis &&
	[ "$(wc -l <apis)" -eq 30 ] &&
	[ "$(sort -u apis | wc -l)" -eq 30 ] &&
	grep -qx kthread_wait_freezable apis &&
	grep -qx freezable_schedule_timeout_killable_unsafe apis
'

test_expect_success "apis --starters, --wq: the thread starters, the workqueue names; a bad argument is usage" '
	"$AF" apis --starters >starters &&
	grep -qx "kthread_run 0" starters &&
	grep -qx "svc_create -1" starters &&
	"$AF" apis --wq >wq &&
	grep -qx WQ_FREEZABLE wq && grep -qx system_freezable_wq wq &&
	! grep -qx try_to_freeze wq &&
	test_exit_code 2 "$AF" apis --frob 2>err &&
	grep -qx "autofreeze: apis: usage: apis \[--starters|--wq\]" err
'

# The rules spell out what spatch needs literally; the helper's tables
# are the vocabulary, and every name a rule spells must be in them.
test_expect_success "the rules start threads with exactly the helper's starters" '
	"$AF" apis --starters | sort >want &&
	"$H"/rule-names.pl "$COCCI"/kthread_freezer.cocci |
		sed -n "s/^starter //p" | sort >have &&
	test -s have &&
	test_cmp want have
'

test_expect_success "every freezer name a rule spells is one of the helper's apis" '
	"$AF" apis | sort >apis &&
	"$H"/rule-names.pl "$COCCI"/*.cocci >names &&
	{
		sed -n "s/^list \(freezer_token\|wq_token\) //p" names &&
		sed -n "s/^sleep //p" names
	} | sort -u >spelled &&
	test "$(wc -l <spelled)" -ge 20 &&
	comm -13 apis spelled >unknown &&
	{ test ! -s unknown || { cat unknown; false; }; }
'

# Each rule stands alone (by hand, make coccicheck), so each carries the
# Python that asks autofreeze for the plan and finds the tree top: one
# text, the same in every rule, never three that drift apart.
test_expect_success "the rules carry ask_autofreeze() and tree_path() word for word" '
	for f in ask_autofreeze tree_path; do
		for r in kthread_freezer wq_freezable fs_autofreeze; do
			awk -v f="$f" "index(\$0, \"def \" f \"(\") == 1 { on = 1; print; next }
				on && /^[^\t ]/ { on = 0 } on" "$COCCI"/$r.cocci >$f-$r &&
			test "$(wc -l <$f-$r)" -gt 10 || { echo "$r: no $f"; return 1; }
		done &&
		test_cmp $f-kthread_freezer $f-wq_freezable &&
		test_cmp $f-kthread_freezer $f-fs_autofreeze || return 1
	done
'

test_expect_success "one API list per rule file: the other rules inherit it" '
	"$H"/rule-names.pl "$COCCI"/kthread_freezer.cocci |
		sed -n "s/^list \([a-z_]*\) .*/\1/p" | sort -u >lists &&
	printf "freezer_token\nstill_uses_freezer\n" >want &&
	test_cmp want lists &&
	"$H"/rule-names.pl "$COCCI"/wq_freezable.cocci |
		sed -n "s/^list \([a-z_]*\) .*/\1/p" | sort -u >lists &&
	echo wq_token >want &&
	test_cmp want lists
'

test_expect_success "scan: a missing path is bad input, named" '
	test_exit_code 2 "$AF" scan nope.c 2>err &&
	grep -qx "autofreeze: nope.c: No such file or directory" err
'

test_expect_success "scan of the fixture tree" '
	(cd "$H/ktree" && "$AF" scan fs) >out &&
	test_cmp "$H/expected/scan-fs.txt" out
'

test_expect_success "scan: same output whatever -j" '
	(cd "$H/ktree" && "$AF" scan -j 1 fs && "$AF" scan -j 7 fs) >out &&
	cat "$H/expected/scan-fs.txt" "$H/expected/scan-fs.txt" >want &&
	test_cmp want out
'

test_expect_success "scan: lexing cases (comments, literals, splices, EOF)" '
	(cd "$H/files" && "$AF" scan tricky.c eof-comment.c eof-string.c) >out &&
	test_cmp "$H/expected/scan-files.txt" out
'

test_expect_success "scan of one file knows its unit (jfs: thread started in super.c)" '
	(cd "$H/ktree" && "$AF" scan fs/jfs/jfs_txnmgr.c) >out &&
	grep "jfs_txnmgr.c" "$H/expected/scan-fs.txt" >want &&
	test_cmp want out &&
	grep -q "try_to_freeze kthread jfs_lazycommit" out
'

test_expect_success "scan: frozen in a comment, a string, a member is no use" '
	(cd "$H/ktree" && "$AF" scan fs/xfs/libxfs) >out &&
	test_must_fail test -s out
'

test_expect_success "scan outside a kernel tree: the unit is the paths given" '
	mkdir -p loose &&
	cp "$H/ktree/fs/jfs/jfs_txnmgr.c" "$H/ktree/fs/jfs/super.c" loose/ &&
	"$AF" scan loose/jfs_txnmgr.c >alone &&
	grep -q "try_to_freeze user jfs_lazycommit" alone &&
	"$AF" scan loose >both &&
	grep -q "try_to_freeze kthread jfs_lazycommit" both
'

test_expect_success "scan --json: valid, same uses as the text" '
	(cd "$H/ktree" && "$AF" scan --json fs) >out.json &&
	python3 -c "
import json, sys
uses = json.load(open(\"out.json\"))
for u in uses:
    print(\"%s:%d:%d: %s %s %s\" % (u[\"file\"], u[\"line\"], u[\"col\"],
          u[\"api\"], u[\"context\"], u[\"function\"] or \"-\"))
" >out &&
	test_cmp "$H/expected/scan-fs.txt" out &&
	"$AF" scan --json "$H/ktree/fs/open.c" >empty.json &&
	python3 -c "import json; assert json.load(open(\"empty.json\")) == []"
'

test_expect_success "units of the fixture tree" '
	"$AF" units "$H/ktree" fs >out &&
	test_cmp "$H/expected/units-fs.txt" out
'

test_expect_success "units: fs/xfs eligible, nfs and ocfs2 not, jbd2 a library of ext4 and ocfs2" '
	"$AF" units "$H/ktree" fs >out &&
	grep -qx "fs/xfs: eligible: xfs_fs_type is FS_REQUIRES_DEV and xfs_super_operations has .freeze_fs, which the suspend freeze calls: fs_suspend_freeze_sb() -> freeze_super() -> .freeze_fs (fs/super.c)" out &&
	grep -qx "fs/nfs: not block-backed: no FS_REQUIRES_DEV file_system_type" out &&
	grep -qx "fs/ocfs2: not freeze-capable: no .freeze_fs/.freeze_super (ocfs2_fs_type: ocfs2_sops)" out &&
	grep -qx "fs/jbd2: library: no file_system_type, used by fs/ext4 (eligible), fs/ocfs2 (not eligible)" out &&
	grep -q "^fs (core): the files at the top of fs/ are the VFS" out
'

# A unit is converted whole or not at all: a DIR inside one is refused,
# never widened to it (ktree_resolve(), so every command and driver).
test_expect_success "units: a DIR inside a unit is refused, naming it; a parent of units is not" '
	test_exit_code 2 "$AF" units "$H/ktree" fs/xfs/libxfs >out 2>err &&
	test_cmp /dev/null out &&
	echo "autofreeze: DIR=fs/xfs/libxfs is inside the unit fs/xfs, which is converted whole or not at all: use DIR=fs/xfs" >want &&
	test_cmp want err &&
	test_exit_code 2 "$AF" plan "$H/ktree" fs/xfs/libxfs/ >out 2>err &&
	test_cmp want err &&
	"$AF" units "$H/ktree" fs/smb | grep "^[^	]" | cut -d: -f1 >out &&
	printf "fs/smb/client\nfs/smb/server\n" >want &&
	test_cmp want out
'

test_expect_success "units --json: valid, one object per unit" '
	"$AF" units --json "$H/ktree" fs >out.json &&
	python3 -c "
import json
u = {x[\"dir\"]: x for x in json.load(open(\"out.json\"))}
assert u[\"fs/xfs\"][\"status\"] == \"eligible\"
assert u[\"fs/xfs\"][\"fstypes\"][0][\"requires_dev\"] is True
assert u[\"fs/xfs\"][\"fstypes\"][0][\"s_ops\"] == [\"xfs_super_operations\"]
assert u[\"fs/jbd2\"][\"users\"] == [
    {\"unit\": \"fs/ext4\", \"freeze_capable\": True},
    {\"unit\": \"fs/ocfs2\", \"freeze_capable\": False}]
assert u[\"fs/nfs\"][\"kthreads\"] == [\"nfs41_callback_svc\", \"nfs4_callback_svc\"]
assert u[\"fs\"][\"status\"] == \"core\" and u[\"fs\"][\"unit\"] == \"fs (core)\"
"
'

test_expect_success "plan of the fixture tree, and with --force" '
	"$AF" plan "$H/ktree" fs >out &&
	test_cmp "$H/expected/plan-fs.txt" out &&
	"$AF" plan --force "$H/ktree" fs >out &&
	test_cmp "$H/expected/plan-fs-force.txt" out &&
	! grep -q "^fstype	fs/nfs" out && ! grep -q "^file	fs	" out
'

# judgments FILE LINE...: a judgments file of tab-separated lines, each
# given with "|" between its fields.
judgments()
{
	local f=$1
	shift
	printf "%s\n" "$@" | tr "|" "\t" >"$f"
}

test_expect_success "plan applies the judgments whose anchors are in the tree, whatever its version" '
	judgments j.tsv \
		"fs/jfs|unit|-|-|cluster|jfs_lazycommit() -> try_to_freeze()|jfs evidence" \
		"fs/ext4|fstype|ext4_fs_type|-|no-superblock|ext4_lazyinit_thread()|ext4 evidence" \
		"fs/xfs|use|xfs_init_mount_workqueues|\"xfs-buf/%s\"|not-quiesced|xfs_init_mount_workqueues() !-> destroy_workqueue()|buf evidence" \
		"fs/xfs|quiesced|xfsaild|-|quiesced|xfsaild() -> xfsaild_push(); xfs_trans_ail_init() => kthread_run()|ail evidence ({xfsaild() -> xfsaild_push()}, {:xfsaild() .. xfsaild() -> \"try_to_freeze ( )\"}, {fs/super.c:fs_suspend_freeze_sb() -> freeze_super()})" &&
	"$AF" plan --judgments j.tsv "$H/ktree" fs >out &&
	grep -qx "unit	fs/jfs	skip	not eligible: cluster: jfs evidence" out &&
	! grep -q "^file	fs/jfs" out &&
	grep -qx "unit	fs/ext4	skip	not freeze-capable; ext4_fs_type not flagged: no-superblock: ext4 evidence" out &&
	! grep -q "^fstype	fs/ext4" out &&
	grep -q "^unit	fs/xfs	eligible" out &&
	grep -qx "keep	fs/xfs	fs/xfs/xfs_super.c	10:16	not-quiesced: buf evidence" out &&
	grep "^quiesced	fs/xfs	fs/xfs/xfs_trans_ail.c	" out >q &&
	test_line_count q 4 &&
	! grep -v "	quiesced: ail evidence (xfs_trans_ail.c:28, :6-26, fs/super.c:[0-9]*)\$" q &&
	cp -r "$H/ktree" k9 && sed -i "s/^VERSION = 6\$/VERSION = 9/" k9/Makefile &&
	"$AF" plan --judgments j.tsv k9 fs >out9 &&
	test_cmp out out9 &&
	"$AF" plan --judgments /dev/null "$H/ktree" fs >out &&
	! grep -q "	not eligible: " out &&
	grep -qx "unit	fs/smb/server	library	library: no file_system_type, no users (no Kconfig symbol selects or depends on it)" out
'

test_expect_success "judgments: a use no judgment holds for is unreviewed; the flags keep the unit whole" '
	judgments j.tsv \
		"fs/xfs|quiesced|xfsaild|-|quiesced|xfsaild() -> xfsaild_push()|ail evidence" \
		"fs/xfs|quiesced|xfs_init_mount_workqueues|-|quiesced|xfs_init_mount_workqueues() -> xfs_no_such_call()|wq evidence" &&
	"$AF" plan --judgments j.tsv "$H/ktree" fs/xfs >plan &&
	grep -qx "unreviewed	fs/xfs	fs/xfs/xfs_super.c	10:16	unreviewed: the quiesced judgment on xfs_init_mount_workqueues() (j.tsv:2) no longer holds: xfs_init_mount_workqueues() -> xfs_no_such_call(): xfs_init_mount_workqueues() (xfs_super.c:6) calls no xfs_no_such_call()" plan &&
	grep -c "^quiesced	fs/xfs	" plan >n && test "$(cat n)" = 4 &&
	"$AF" plan --judgments /dev/null "$H/ktree" fs/ext4 >plan &&
	grep -qx "unreviewed	fs/ext4	fs/ext4/super.c	11:2	unreviewed: no reviewed judgment says what the filesystem.s freeze does to the work of kernel thread ext4_lazyinit_thread() (/dev/null)" plan &&
	! grep -q "^unreviewed	fs/ext4	fs/ext4/mballoc.c" plan &&
	"$AF" scan "$H/ktree/fs/ext4" | sed "s|^$H/ktree/||" >scan &&
	"$AF" flags plan scan >flags &&
	grep -qx "noflag	fs/ext4	unreviewed: 2 uses the conversion would take off the freezer, and no reviewed judgment holds here for them: fs/ext4/super.c:11, fs/ext4/super.c:14" flags
'

test_expect_success "judgments: a unit judgment whose anchor is gone holds the unit back, unreviewed; --force converts it" '
	judgments j.tsv "fs/jfs|unit|-|-|cluster|jfs_lazycommit() -> jfs_no_such_call()|jfs evidence" &&
	"$AF" plan --judgments j.tsv "$H/ktree" fs/jfs >plan &&
	grep -qx "unit	fs/jfs	unreviewed	unreviewed: cluster (j.tsv:1) no longer holds: jfs_lazycommit() -> jfs_no_such_call(): jfs_lazycommit() (jfs_txnmgr.c:5) calls no jfs_no_such_call(); the unit stays as it is until that is reviewed again" plan &&
	! grep -q "^file	" plan &&
	"$AF" plan --force --judgments j.tsv "$H/ktree" fs/jfs >plan &&
	grep -q "^file	fs/jfs	" plan
'

test_expect_success "judgments KTREE DIR: each judgment on DIR, holds with its evidence or lapsed with why" '
	judgments j.tsv \
		"fs/xfs|quiesced|xfsaild|-|quiesced|xfsaild() -> xfsaild_push()|ail ({xfsaild()})" \
		"fs/xfs|use|xfs_init_mount_workqueues|-|not-quiesced|xfs_init_mount_workqueues() !-> alloc_workqueue()|wq" \
		"fs/jfs|unit|-|-|cluster|nope()|jfs" &&
	"$AF" judgments --judgments j.tsv "$H/ktree" fs/xfs >out &&
	printf "%s\n" "j.tsv:1: fs/xfs: quiesced on xfsaild(): holds: ail (xfs_trans_ail.c:6)" \
		"j.tsv:2: fs/xfs: not-quiesced on xfs_init_mount_workqueues(): lapsed: xfs_init_mount_workqueues() !-> alloc_workqueue(): xfs_init_mount_workqueues() (xfs_super.c:6) calls alloc_workqueue() (xfs_super.c:9)" >want &&
	test_cmp want out &&
	"$AF" judgments --judgments j.tsv "$H/ktree" fs >out &&
	grep -qx "j.tsv:3: fs/jfs: cluster: lapsed: nope(): nope() is not defined in fs/jfs" out
'

test_expect_success "judgments: anchors reach through the unit's calls, look in another file of the tree, match C text" '
	cp -r "$H/ktree" rt &&
	printf "%s\n" "static void leaf(struct super_block *sb)" "{" "	sb_start_intwrite(sb);" "}" \
		"static void mid(struct super_block *sb)" "{" "	leaf(sb);" "}" \
		"int top(struct super_block *sb)" "{" "	mid(sb);" "	sb->s_op->other(sb);" "}" >rt/fs/xfs/xfs_reach.c &&
	judgments j.tsv \
		"fs/xfs|quiesced|xfsaild|-|quiesced|top() => sb_start_intwrite(); fs/super.c:fs_suspend_freeze_sb() -> \"freeze_super(sb, false)\"; xfsaild() !-> msleep*()|e {top() => sb_start_intwrite()} {fs/super.c:super_should_freeze() -> \"FS_AUTOFREEZE\"}" &&
	"$AF" judgments --judgments j.tsv rt fs/xfs >out &&
	grep -qx "j.tsv:1: fs/xfs: quiesced on xfsaild(): holds: e xfs_reach.c:3 fs/super.c:[0-9]*" out &&
	judgments j.tsv "fs/xfs|quiesced|xfsaild|-|quiesced|top() -> sb_start_intwrite()|e" &&
	"$AF" judgments --judgments j.tsv rt fs/xfs >out &&
	grep -qx "j.tsv:1: fs/xfs: quiesced on xfsaild(): lapsed: top() -> sb_start_intwrite(): top() (xfs_reach.c:9) calls no sb_start_intwrite()" out &&
	judgments j.tsv "fs/xfs|quiesced|xfsaild|-|quiesced|top() => other()|e" &&
	"$AF" judgments --judgments j.tsv rt fs/xfs >out &&
	grep -qx "j.tsv:1: fs/xfs: quiesced on xfsaild(): lapsed: top() => other(): top() (xfs_reach.c:9) reaches no other()" out &&
	judgments j.tsv "fs/xfs|quiesced|xfsaild|-|quiesced|xfsaild() !-> try_to_*()|e" &&
	"$AF" judgments --judgments j.tsv rt fs/xfs >out &&
	grep -qx "j.tsv:1: fs/xfs: quiesced on xfsaild(): lapsed: xfsaild() !-> try_to_\*(): xfsaild() (xfs_trans_ail.c:6) calls try_to_freeze() (xfs_trans_ail.c:26)" out
'

# unit_tree DEST UNIT FILE LINE...: the test tree copied to DEST, with
# a unit UNIT of one file FILE, whose lines are LINE...
unit_tree()
{
	local dest=$1 unit=$2 file=$3
	shift 3
	cp -r "$H/ktree" "$dest" && mkdir "$dest/$unit" &&
	echo "obj-y += ${file%.c}.o" >"$dest/$unit/Makefile" &&
	printf "%s\n" "$@" >"$dest/$unit/$file"
}

# A gfs2-like type: block-backed, .freeze_super and no .freeze_fs.  The
# tree's fs/super.c tells which suspend freeze it has: the 6.1 series'
# (the VFS freeze_super() only), the 6.12 series' (->freeze_super too),
# or none; its version number tells nothing.
test_expect_success "the suspend freeze is read from the tree's code: ->freeze_super or not" '
	unit_tree fp fs/gfs2 super.c "static const struct super_operations gfs2_super_ops = {" \
		"	.freeze_super = gfs2_freeze_super," "};" \
		"static int fill(struct super_block *sb) { sb->s_op = &gfs2_super_ops; }" \
		"struct file_system_type gfs2_fs_type = {" \
		"	.fs_flags = FS_REQUIRES_DEV," "	.mount = fill," "};" &&
	"$AF" plan --judgments /dev/null fp fs/gfs2 >out &&
	grep -qx "unit	fs/gfs2	skip	not freeze-capable: the suspend freeze, fs_suspend_freeze_sb() (fs/super.c), calls only the VFS freeze_super(), which calls .freeze_fs, and gfs2_super_ops has .freeze_super alone" out &&
	"$AF" plan --judgments /dev/null fp fs/xfs >out &&
	grep -q "^unit	fs/xfs	eligible	.* has .freeze_fs, which the suspend freeze calls: fs_suspend_freeze_sb() -> freeze_super() -> .freeze_fs (fs/super.c)\$" out &&
	sed -i "s/^PATCHLEVEL = 1\$/PATCHLEVEL = 12/" fp/Makefile &&
	"$AF" plan --judgments /dev/null fp fs/gfs2 >out12 &&
	grep -q "^unit	fs/gfs2	skip	not freeze-capable" out12 &&
	series_super_c 6.12 >fp/fs/super.c &&
	"$AF" plan --judgments /dev/null fp fs/gfs2 >out &&
	grep -qx "unit	fs/gfs2	eligible	eligible: gfs2_fs_type is FS_REQUIRES_DEV and gfs2_super_ops has .freeze_super, which the suspend freeze calls: fs_suspend_freeze_sb() -> .freeze_super (fs/super.c)" out &&
	sed -i "s/^VERSION = 6\$/VERSION = 5/" fp/Makefile &&
	sed -i "s/fs_suspend_freeze_sb/some_other_fn/" fp/fs/super.c &&
	"$AF" plan --judgments /dev/null fp fs/gfs2 >out &&
	grep -qx "unit	fs/gfs2	eligible	eligible: gfs2_fs_type is FS_REQUIRES_DEV and gfs2_super_ops has .freeze_super" out
'

# The opt-in flag is the tree's: FS_AUTOFREEZE where our series is
# applied, FS_POWER_FREEZE where upstream's filesystems_freeze() (7.3's,
# trimmed) decides by it, nothing where neither is, nor 6.18's reversed
# test (which freezes every type, whatever its flags).
test_expect_success "plan names the tree's opt-in: optin tree, or none" '
	cp -r "$H/ktree" oi &&
	"$AF" plan oi fs/xfs | head -n 1 >out &&
	printf "optin	tree	FS_AUTOFREEZE	fs_suspend_freeze_sb	fs/super.c	frozen on suspend and hibernation by fs_suspend_freeze_sb() (fs/super.c)
" >want &&
	test_cmp want out &&
	sed -i "/FS_AUTOFREEZE/d" oi/include/linux/fs.h &&
	"$AF" plan oi fs/xfs | head -n 1 >out &&
	printf "optin	none	-	-	-	fs_suspend_freeze_sb() tests FS_AUTOFREEZE, which include/linux/fs.h does not define
" >want &&
	test_cmp want out &&
	rm oi/fs/super.c &&
	sed -i "s/^PATCHLEVEL = 1\$/PATCHLEVEL = 3/; s/^VERSION = 6\$/VERSION = 7/" oi/Makefile &&
	"$AF" plan oi fs/xfs | head -n 1 >out &&
	printf "optin	none	-	-	-	fs/super.c has no suspend freeze (filesystems_freeze_callback() or fs_suspend_freeze_sb()), and no core series autofreeze ships applies to it (patches/linux-6.1/: 0001-fs-unify-locking-semantics-for-fs-freeze-thaw.patch: block/bdev.c: no such file; patches/linux-6.12/: 0001-fs-add-FS_AUTOFREEZE-and-kernel-freeze-thaw-of-files.patch: fs/super.c: no such file; patches/linux-mainline/: 0001-fs-thaw-only-the-filesystems-that-filesystems_freeze.patch: fs/super.c: no such file)
" >want &&
	test_cmp want out &&
	printf "%s
" "static void filesystems_freeze_callback(struct super_block *sb, void *freeze_all_ptr)" "{" 		"	if (!sb->s_op->freeze_fs && !sb->s_op->freeze_super)" "		return;" 		"	if (!freeze_all_ptr && !(sb->s_type->fs_flags & FS_POWER_FREEZE))" "		return;" 		"	if (sb->s_op->freeze_super)" "		sb->s_op->freeze_super(sb, FREEZE_EXCL | FREEZE_HOLDER_KERNEL, p);" 		"	else" "		freeze_super(sb, FREEZE_EXCL | FREEZE_HOLDER_KERNEL, p);" "}" >oi/fs/super.c &&
	"$AF" plan oi fs/xfs | head -n 1 >out &&
	printf "optin	none	-	-	-	filesystems_freeze_callback() tests FS_POWER_FREEZE, which include/linux/fs.h does not define
" >want &&
	test_cmp want out &&
	echo "#define FS_POWER_FREEZE		256	/* Always freeze on suspend/hibernate */" >>oi/include/linux/fs.h &&
	"$AF" plan oi fs/xfs | head -n 1 >out &&
	grep -q "^optin	none	-	-	-	filesystems_freeze_callback() lacks thaw-only-frozen (.*); failed-freeze-fails (.*); snapshot-freeze (.*), and no series autofreeze ships applies to the tree (.*patches/linux-mainline/: 0001-" out &&
	cp -r "$H"/upstream/ready/. oi/ &&
	"$AF" plan oi fs/xfs >plan &&
	head -n 1 plan >out &&
	printf "optin	tree	FS_POWER_FREEZE	filesystems_freeze_callback	fs/super.c	frozen on suspend and hibernation by filesystems_freeze_callback() (fs/super.c)
" >want &&
	test_cmp want out &&
	grep -q "^unit	fs/xfs	eligible	.*: filesystems_freeze_callback() -> freeze_super() -> .freeze_fs (fs/super.c)\$" plan &&
	sed -i "s/!state->freeze_all &&/state->freeze_all \&\&/" oi/fs/super.c &&
	"$AF" plan oi fs/xfs | head -n 1 >out &&
	printf "optin	none	-	-	-	filesystems_freeze_callback() tests FS_POWER_FREEZE, but freezes every type, whatever its flags
" >want &&
	sed -i "s/whatever its flags/whether it carries it or not/" want &&
	sed -i "s|\$|	fs/super.c:27:2|" want &&
	test_cmp want out
'

# optin series: the files a series changes, as Debian ships them, are
# what makes a tree take it, whatever its Makefile says its version is.
for v in 6.1 6.12; do
	test_expect_success KTREE_${v/./_} "optin series: the $v tree's code takes patches/linux-$v/, relabeled or not" '
		src=$TOP/build/linux-source-'$v' &&
		rm -rf os && cp -r "$H/ktree" os && rm os/fs/super.c &&
		sed -i "/FS_AUTOFREEZE/d" os/include/linux/fs.h &&
		sed -n "s|^+++ b/||p" "$TOP"/patches/linux-'$v'/*.patch | sort -u |
		while IFS= read -r f; do
			mkdir -p "os/$(dirname "$f")" && cp "$src/$f" "os/$f" || return 1
		done &&
		"$AF" optin os >out &&
		printf "optin	series	FS_AUTOFREEZE	fs_suspend_freeze_sb	patches/linux-'$v'/	frozen on suspend and hibernation by fs_suspend_freeze_sb() once make vfs applies patches/linux-'$v'/\n" >want &&
		test_cmp want out &&
		sed -i "s/^VERSION = .*/VERSION = 9/; s/^PATCHLEVEL = .*/PATCHLEVEL = 99/" os/Makefile &&
		"$AF" optin os >out && test_cmp want out
	'
done

# 6.1 btrfs: btrfs_fs_type mounts through btrfs_root_fs_type, whose
# btrfs_mount_root() calls sget(): only the second owns superblocks.
test_expect_success "a block-backed type whose mount creates no superblock is not flagged" '
	unit_tree sb fs/btrfs super.c "static const struct super_operations btrfs_super_ops = {" \
		"	.freeze_fs = btrfs_freeze," "};" \
		"static int fill(struct super_block *sb) { sb->s_op = &btrfs_super_ops; }" \
		"static struct dentry *mount_root(struct file_system_type *t)" \
		"{ s = sget(t, NULL, NULL, 0, NULL); fill(s); }" \
		"static struct file_system_type btrfs_root_fs_type = {" \
		"	.mount = mount_root," "	.fs_flags = FS_REQUIRES_DEV," "};" \
		"static struct dentry *btrfs_mount(struct file_system_type *t)" \
		"{ return vfs_kern_mount(&btrfs_root_fs_type, 0, NULL, NULL); }" \
		"static struct file_system_type btrfs_fs_type = {" \
		"	.mount = btrfs_mount," "	.fs_flags = FS_REQUIRES_DEV," "};" \
		"static struct file_system_type test_type = {" "	.name = \"t\"," "};" &&
	"$AF" plan --judgments /dev/null sb fs/btrfs >out &&
	grep -q "^unit	fs/btrfs	eligible	eligible: btrfs_root_fs_type is FS_REQUIRES_DEV .*; btrfs_fs_type not flagged: no-superblock: btrfs_fs_type.s mount reaches no call that creates a superblock; btrfs_root_fs_type.s calls sget()\$" out &&
	grep -qx "fstype	fs/btrfs	btrfs_root_fs_type	fs/btrfs/super.c" out &&
	! grep -q "^fstype	fs/btrfs	btrfs_fs_type" out &&
	! grep -q "test_type" out
'

# gfs2meta_fs_type (6.12, 7.3): its init_fs_context calls gfs2's, then
# puts its own ops in place, whose get_tree only finds gfs2's superblock
# (sget_fc() with a set callback that always fails).
test_expect_success "a type whose fs_context get_tree only finds another type's superblock owns none" '
	unit_tree mt fs/gfs2 ops_fstype.c "static const struct super_operations gfs2_super_ops = {" \
		"	.freeze_fs = gfs2_freeze_fs," "};" \
		"static int gfs2_fill_super(struct super_block *sb, struct fs_context *fc)" \
		"{ sb->s_op = &gfs2_super_ops; return 0; }" \
		"static int gfs2_get_tree(struct fs_context *fc)" \
		"{ return get_tree_bdev(fc, gfs2_fill_super); }" \
		"static const struct fs_context_operations gfs2_context_ops = {" \
		"	.get_tree = gfs2_get_tree," "};" \
		"int gfs2_init_fs_context(struct fs_context *fc)" \
		"{ fc->ops = &gfs2_context_ops; return 0; }" \
		"static int set_meta_super(struct super_block *s, struct fs_context *fc)" \
		"{" "	return -EINVAL;" "}" \
		"static int gfs2_meta_get_tree(struct fs_context *fc)" \
		"{ s = sget_fc(fc, test_meta_super, set_meta_super); return 0; }" \
		"static const struct fs_context_operations gfs2_meta_context_ops = {" \
		"	.get_tree = gfs2_meta_get_tree," "};" \
		"static int gfs2_meta_init_fs_context(struct fs_context *fc)" \
		"{" "	int ret = gfs2_init_fs_context(fc);" "	fc->ops = &gfs2_meta_context_ops;" "	return ret;" "}" \
		"struct file_system_type gfs2_fs_type = {" \
		"	.init_fs_context = gfs2_init_fs_context," "	.fs_flags = FS_REQUIRES_DEV," "};" \
		"struct file_system_type gfs2meta_fs_type = {" \
		"	.init_fs_context = gfs2_meta_init_fs_context," "	.fs_flags = FS_REQUIRES_DEV," "};" &&
	"$AF" plan --judgments /dev/null mt fs/gfs2 >out &&
	grep -qx "fstype	fs/gfs2	gfs2_fs_type	fs/gfs2/ops_fstype.c" out &&
	! grep -q "^fstype	fs/gfs2	gfs2meta_fs_type" out &&
	grep -q "^unit	fs/gfs2	eligible	.*; gfs2meta_fs_type not flagged: no-superblock: gfs2meta_fs_type.s mount reaches no call that creates a superblock; gfs2_fs_type.s calls get_tree_bdev()\$" out &&
	sed -i "s/	return -EINVAL;/	return set_anon_super(s, NULL);/" mt/fs/gfs2/ops_fstype.c &&
	"$AF" plan --judgments /dev/null mt fs/gfs2 >out &&
	grep -qx "fstype	fs/gfs2	gfs2meta_fs_type	fs/gfs2/ops_fstype.c" out &&
	sed -i "s/	return set_anon_super(s, NULL);/	return -EINVAL;/; s/	fc->ops = &gfs2_meta_context_ops;/	fc->s_fs_info = NULL;/" mt/fs/gfs2/ops_fstype.c &&
	"$AF" plan --judgments /dev/null mt fs/gfs2 >out &&
	grep -qx "fstype	fs/gfs2	gfs2meta_fs_type	fs/gfs2/ops_fstype.c" out
'

test_expect_success "judgments: a bad file is one line naming it, exit 2" '
	test_exit_code 2 "$AF" plan --judgments nope.tsv "$H/ktree" fs 2>err &&
	test_line_count err 1 && grep -q "^autofreeze: nope.tsv: No such file" err &&
	judgments short.tsv "fs/jfs|unit|-" &&
	test_exit_code 2 "$AF" plan --judgments short.tsv "$H/ktree" fs 2>err &&
	test_line_count err 1 && grep -q "^autofreeze: short.tsv: line 1: not 7 tab-separated fields" err &&
	printf "# c\n\nfs/jfs\tdir\t-\t-\tx\tf()\ty\n" >what.tsv &&
	test_exit_code 2 "$AF" plan --judgments what.tsv "$H/ktree" fs 2>err &&
	test_line_count err 1 && grep -q "what.tsv: line 3: \"dir\" is not unit, fstype, use, quiesced, flagged or note" err &&
	judgments n.tsv "fs/jfs|note|jfs_sync|-|x|jfs_sync()|e" &&
	test_exit_code 2 "$AF" plan --judgments n.tsv "$H/ktree" fs 2>err &&
	test_line_count err 1 && grep -q "n.tsv: line 1: a note is on its unit: its NAME and MATCH are \"-\"" err &&
	judgments q.tsv "fs/xfs|quiesced|xfsaild|-|not-quiesced|xfsaild()|x()" &&
	test_exit_code 2 "$AF" plan --judgments q.tsv "$H/ktree" fs 2>err &&
	test_line_count err 1 && grep -q "q.tsv: line 1: the code \"quiesced\" goes with a quiesced judgment, and only there" err &&
	judgments kt.tsv "fs/xfs|use|xfsaild|-|not-quiesced|xfsaild()|x" &&
	test_exit_code 2 "$AF" plan --judgments kt.tsv "$H/ktree" fs 2>err &&
	test_line_count err 1 && grep -q "may keep only a workqueue flag, not set_freezable" err
'

test_expect_success "judgments: a line that names versions, or no anchor, or an anchor or citation that does not parse, is refused" '
	judgments v.tsv "6.1,6.12|fs/jfs|unit|-|-|cluster|jfs evidence" &&
	test_exit_code 2 "$AF" plan --judgments v.tsv "$H/ktree" fs 2>err &&
	test_line_count err 1 &&
	grep -q "v.tsv: line 1: \"6.1,6.12\" names kernel versions; a judgment names the code it rests on" err &&
	for a in "*" "-" "xfsaild" "xfsaild() calls x()" "xfsaild() -> \"\"" "x() => \"y\"" "a b() -> c()"; do
		judgments a.tsv "fs/xfs|quiesced|xfsaild|-|quiesced|$a|e" &&
		test_exit_code 2 "$AF" plan --judgments a.tsv "$H/ktree" fs 2>err &&
		test_line_count err 1 && grep -q "a.tsv: line 1: " err || return 1
	done &&
	for e in "e {xfsaild()" "e }" "e {xfsaild() !-> x()}" "e {xfsaild() .. }"; do
		judgments e.tsv "fs/xfs|quiesced|xfsaild|-|quiesced|xfsaild()|$e" &&
		test_exit_code 2 "$AF" plan --judgments e.tsv "$H/ktree" fs 2>err &&
		test_line_count err 1 && grep -q "e.tsv: line 1: " err || return 1
	done
'

# A note judgment: a caveat of the unit's conversion, on the plan where
# its anchors hold (under the unit's file lines), and nowhere else.
test_expect_success "judgments: a note that holds is a plan note line, one that lapses is none; two on one caveat are refused" '
	judgments n.tsv \
		"fs/jfs|note|-|-|sync-note|jfs_sync() -> txBegin()|sync note ({jfs_sync() -> txBegin()})" \
		"fs/jfs|note|-|-|anchor-gone|jfs_sync() -> set_freezable()|never" \
		"fs/jfs|note|-|-|cite-gone|jfs_sync()|gone ({jfs_sync() -> set_freezable()})" &&
	"$AF" plan --judgments n.tsv "$H/ktree" fs/jfs >plan &&
	grep "^note	" plan >notes &&
	printf "note\tfs/jfs\tsync-note: sync note (jfs_txnmgr.c:45)\n" >want &&
	test_cmp want notes &&
	"$AF" judgments --judgments n.tsv "$H/ktree" fs/jfs >out &&
	printf "%s\n" "n.tsv:1: fs/jfs: sync-note: holds: sync note (jfs_txnmgr.c:45)" \
		"n.tsv:2: fs/jfs: anchor-gone: lapsed: jfs_sync() -> set_freezable(): jfs_sync() (jfs_txnmgr.c:31) calls no set_freezable()" \
		"n.tsv:3: fs/jfs: cite-gone: lapsed: jfs_sync() (jfs_txnmgr.c:31) calls no set_freezable()" >want &&
	test_cmp want out &&
	judgments d.tsv \
		"fs/jfs|note|-|-|same|jfs_sync()|one" \
		"fs/jfs|note|-|-|same|jfs_sync() -> txBegin()|two" &&
	test_exit_code 2 "$AF" plan --judgments d.tsv "$H/ktree" fs/jfs 2>err &&
	test_line_count err 1 &&
	grep -q "d.tsv: lines 1 and 2 both hold here, on the same note of fs/jfs" err
'

# A kernel thread that never calls set_freezable() (tests/helper/ktree's
# jfs_lazycommit() and jfs_sync(), as in 6.1): each of its uses has a
# nofreeze line; jfsIOWait(), which calls it, none.
test_expect_success "plan: nofreeze lines for the uses of a thread that never becomes freezable" '
	"$AF" plan "$H/ktree" fs/jfs | grep "^nofreeze	" >out &&
	printf "nofreeze\tfs/jfs\tfs/jfs/jfs_txnmgr.c\t%s\n" "14:7	jfs_lazycommit" \
		"16:4	jfs_lazycommit" "51:7	jfs_sync" "53:4	jfs_sync" >want &&
	test_cmp want out
'

test_expect_success "judgments: two that hold on one subject are refused, naming both lines" '
	judgments d.tsv \
		"fs/xfs|quiesced|xfsaild|-|quiesced|xfsaild()|one" \
		"fs/xfs|quiesced|xfsaild|-|quiesced|xfsaild() -> xfsaild_push()|two" &&
	test_exit_code 2 "$AF" plan --judgments d.tsv "$H/ktree" fs/xfs 2>err &&
	test_line_count err 1 &&
	grep -q "d.tsv: lines 1 and 2 both hold here, on the same quiesced of fs/xfs" err &&
	judgments d.tsv \
		"fs/xfs|quiesced|xfsaild|-|quiesced|xfsaild()|one" \
		"fs/xfs|quiesced|xfsaild|-|quiesced|xfsaild() -> nope()|two" &&
	"$AF" plan --judgments d.tsv "$H/ktree" fs/xfs >/dev/null
'

test_expect_success "policy/judgments.tsv: every line is well formed, names its anchor and its evidence, and no version" '
	"$AF" plan --judgments "$TOP/policy/judgments.tsv" "$H/ktree" fs >/dev/null &&
	"$AF" plan "$H/ktree" fs >default &&
	(cd "$TOP" && "$AF" plan --judgments policy/judgments.tsv "$H/ktree" fs) >given &&
	test_cmp default given &&
	! grep -vE "^(#|$)" "$TOP/policy/judgments.tsv" |
		awk -F"\t" "NF != 7 || \$1 !~ /^fs\// || \$5 !~ /^[a-z-]+\$/ ||
			\$6 !~ /[a-z_0-9]+\(\)/ || \$7 !~ /[a-z_0-9]+\(\)/" | grep .
'

test_expect_success "units/plan: bad KTREE or DIR is bad input" '
	test_exit_code 2 "$AF" units "$TRASH" fs 2>err &&
	grep -q "not a kernel tree" err &&
	test_exit_code 2 "$AF" plan "$H/ktree" fs/nope 2>err &&
	grep -q "^autofreeze: DIR=fs/nope: no such directory" err &&
	test_exit_code 2 "$AF" plan "$H/ktree" ../.. 2>err &&
	grep -q "outside KTREE" err &&
	test_exit_code 2 "$AF" plan "$H/ktree" /fs 2>err &&
	grep -q "must be relative to KTREE" err &&
	test_exit_code 2 "$AF" plan "$H/ktree" /fs 2>/dev/null &&
	test_exit_code 2 "$AF" units "$H/ktree" include 2>err &&
	grep -q "no unit" err &&
	test_exit_code 2 "$AF" units "$H/ktree" 2>/dev/null
'

test_expect_success "spatch: output in input order whatever the timing" '
	SPATCH=$H/fake-spatch SPATCH_PYTHON= "$AF" spatch -j 3 -- --sp-file r.cocci \
		::: slow-a.c b.c slow-c.c d.c >out 2>err &&
	printf "args: --sp-file r.cocci %s\n" slow-a.c b.c slow-c.c d.c >want &&
	test_cmp want out &&
	printf "stderr: %s\n" slow-a.c b.c slow-c.c d.c >want &&
	test_cmp want err
'

test_expect_success "spatch: a failing job is named, exit 1, the others still run" '
	SPATCH=$H/fake-spatch test_exit_code 1 "$AF" spatch -j 2 -- x \
		::: a.c fail.c c.c >out 2>err &&
	grep -qx "autofreeze: fail.c: spatch exited with status 3" err &&
	[ "$(grep -c "^args:" out)" -eq 3 ]
'

test_expect_success "spatch: -g groups, -o OUTDIR with an index" '
	SPATCH=$H/fake-spatch SPATCH_PYTHON= "$AF" spatch -g -o od -- y \
		::: a.c b.c ::: c.c >out &&
	test_must_fail test -s out &&
	printf "0001\t0\ta.c\tb.c\n0002\t0\tc.c\n" >want &&
	test_cmp want od/index &&
	grep -qx "args: y a.c b.c" od/0001.out &&
	grep -qx "args: y c.c" od/0002.out
'

test_expect_success 'spatch: -G deals the files largest first into N --file-groups jobs' '
	printf "%0500d" 0 >big.c && printf "%0300d" 0 >mid.c &&
	printf "%0100d" 0 >small.c &&
	SPATCH=$H/fake-spatch SPATCH_PYTHON= "$AF" spatch -G -j 2 -o gd -- y \
		::: small.c big.c mid.c >out &&
	printf "0001\t0\tbig.c\tsmall.c\n0002\t0\tmid.c\n" >want &&
	test_cmp want gd/index &&
	printf "big.c\n\nsmall.c\n\n" >want &&
	test_cmp want gd/0001.groups &&
	grep -qx "args: y --file-groups gd/0001.groups" gd/0001.out &&
	test_exit_code 2 "$AF" spatch -g -G -- y ::: a.c 2>/dev/null
'

test_expect_success 'spatch: every spatch gets --python once resolved, unless given one' '
	SPATCH=$H/fake-spatch SPATCH_PYTHON=/usr/bin/python3 "$AF" spatch -- y \
		::: a.c >out &&
	grep -qx "args: --python /usr/bin/python3 y a.c" out &&
	SPATCH=$H/fake-spatch SPATCH_PYTHON=/usr/bin/python3 "$AF" spatch -- \
		--python /x y ::: a.c >out &&
	grep -qx "args: --python /x y a.c" out &&
	test "$(SPATCH_PYTHON=/usr/bin/python3 "$AF" python)" = /usr/bin/python3 &&
	py=$(env -u SPATCH_PYTHON "$AF" python) && test -x "$py"
'

test_expect_success "spatch: no spatch, bad usage" '
	SPATCH=$TRASH/no-such-spatch test_exit_code 2 "$AF" spatch -- x \
		::: a.c 2>err &&
	grep -q "cannot run" err &&
	test_exit_code 2 "$AF" spatch x ::: a.c 2>/dev/null &&
	test_exit_code 2 "$AF" spatch -- x 2>/dev/null &&
	test_exit_code 2 "$AF" spatch -- x ::: 2>/dev/null
'

test_expect_success "spatch: SIGINT kills the running jobs" '
	: >pids
	FAKE_SPATCH_PIDS=$TRASH/pids SPATCH=$H/fake-spatch \
		"$AF" spatch -j 2 -- x ::: hang1.c hang2.c hang3.c >out 2>err &
	pid=$!
	for i in $(seq 100); do
		[ "$(wc -l <pids)" -ge 2 ] && break
		sleep 0.1
	done
	kill -INT $pid
	wait $pid
	rc=$?
	alive=1
	for i in $(seq 50); do
		alive=0
		for p in $(cat pids); do
			kill -0 $p 2>/dev/null && alive=1
		done
		[ $alive -eq 0 ] && break
		sleep 0.1
	done
	echo "rc=$rc alive=$alive jobs=$(wc -l <pids)"; cat err
	[ $rc -eq 130 ] && [ $alive -eq 0 ] && [ "$(wc -l <pids)" -eq 2 ] &&
	grep -q "interrupted" err
'

# ---- the real trees ----

# A case marked "derive: plan" gives the rules by hand what the helper
# decides: its kthread_fns= and twins= defines are the plan's kthread
# and twin lines for the case's tree, no more, no less.
for c in $(case_list); do
	[ "$(case_field $c derive)" = plan ] || continue
	test_expect_success "$c: the defines are what the plan finds (call graph, twins)" '
		fake_ktree $c $c.tree &&
		"$AF" plan --force $c.tree fs >$c.plan &&
		awk -F"\t" "\$1 == \"kthread\" { print \$3 }" $c.plan |
			LC_ALL=C sort | paste -sd, - | sed "s/^/kthread_fns=/" >$c.want &&
		awk -F"\t" "\$1 == \"twin\" { print \$3 \":\" \$4 }" $c.plan |
			LC_ALL=C sort | paste -sd, - | sed "s/^/twins=/" >>$c.want &&
		case_field $c define | grep -E "^(kthread_fns|twins)=" >$c.got &&
		test_cmp $c.want $c.got
	'
done

test_expect_success "plan: no twin when the plain macro differs in more than the freeze point" '
	fake_ktree bcachefs-callgraph-6.12 twin.tree &&
	"$AF" plan --force twin.tree fs | grep -q "^twin" &&
	sed -i "0,/\tschedule();/s//\tio_schedule();/" twin.tree/fs/bcachefs/util.h &&
	grep -q io_schedule twin.tree/fs/bcachefs/util.h &&
	"$AF" plan --force twin.tree fs >twin.plan &&
	! grep "^twin" twin.plan
'

real_checks()
{
	local v=$1 tree=$TOP/build/linux-source-$1 prereq=KTREE_${1/./_}

	test_expect_success $prereq "$v: units of fs: xfs eligible, nfs not block-backed, jbd2 library of ext4 and ocfs2" '
		"$AF" units "$tree" fs >units.$v &&
		grep -qx "fs/xfs: eligible: xfs_fs_type is FS_REQUIRES_DEV and xfs_super_operations has .freeze_fs, which the suspend freeze calls: fs_suspend_freeze_sb() -> freeze_super() -> .freeze_fs (patches/linux-$v/)" units.$v &&
		grep -qx "fs/nfs: not block-backed: no FS_REQUIRES_DEV file_system_type" units.$v &&
		grep -qx "fs/jbd2: library: no file_system_type, used by fs/ext4 (eligible), fs/ocfs2 (not eligible)" units.$v &&
		grep -q "^fs/ext4: eligible: " units.$v &&
		grep -q "^fs/smb/client: not block-backed" units.$v &&
		grep -q "^fs/lockd: library: " units.$v
	'

	test_expect_success $prereq "$v: plan of fs/jfs: both thread files, jfs_lazycommit" '
		"$AF" plan "$tree" fs/jfs >plan &&
		grep -qx "file	fs/jfs	fs/jfs/jfs_txnmgr.c" plan &&
		grep -qx "kthread	fs/jfs	jfs_lazycommit" plan &&
		grep -qx "fstype	fs/jfs	jfs_fs_type	fs/jfs/super.c" plan
	'

	test_expect_success $prereq "$v: scan finds what grep -rnwE finds, minus comments, literals, members, variables" '
		"$AF" apis >apis &&
		(cd "$tree" && grep -rnwE "$(paste -sd"|" "$TRASH/apis")" \
			fs kernel mm include --include="*.[ch]") >grep.out
		(cd "$tree" && "$AF" scan fs kernel mm include) >scan.out &&
		cut -d: -f1,2 scan.out | sort -u >scan.lines &&
		awk -F: "NR == FNR { g[\$1\":\"\$2] = 1; next }
			!((\$1\":\"\$2) in g)" grep.out scan.lines >extra &&
		test_must_fail test -s extra &&
		awk -F: "NR == FNR { s[\$1\":\"\$2] = 1; next }
			!((\$1\":\"\$2) in s)" scan.lines grep.out >grep-only &&
		(cd "$tree" && perl "$H/grep-diff.pl" "$TRASH/apis" \
			"$TRASH/grep-only") >why &&
		echo "grep $(wc -l <grep.out) lines, scan $(wc -l <scan.lines)," \
			"grep only: $(tail -n 1 why)" >summary.$v &&
		tail -n 1 why | grep -q "unexplained 0$"
	'
	[ -f "$TRASH/summary.$v" ] &&
		say "# $v (fs kernel mm include): $(cat "$TRASH/summary.$v")"
}

for v in 6.1 6.12; do
	real_checks "$v"
done

# clang with libFuzzer (bookworm: clang libclang-rt-14-dev)
test_lazy_prereq LIBFUZZER '
	echo "int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }" \
		>probe.c &&
	clang -fsanitize=fuzzer -o probe probe.c
'

test_expect_success LIBFUZZER "fuzz target builds and runs its seed corpus" '
	make -s -C "$TOP" "$TOP/build/fuzz/fuzz_lex" >fuzz.log 2>&1 ||
		{ cat fuzz.log; false; } &&
	"$TOP/build/fuzz/fuzz_lex" -runs=0 "$TOP/scripts/helper/fuzz/corpus" \
		>fuzz.out 2>&1 || { tail -n 20 fuzz.out; false; }
'

# autofreeze layout: the statements the rules changed, laid out for
# checkpatch.pl --strict (layout.c; its cases are in
# tests/helper/layout-tests.c).
test_expect_success "layout: no FILE, no LINE, a LINE out of range, an unreadable FILE: one line, exit 2" '
	printf "\tx = a|b;\n\tfoo(a,\n\t\tb);\n" >l.c &&
	test_exit_code 2 "$AF" layout >out 2>err &&
	test_cmp /dev/null out &&
	echo "autofreeze: layout: usage: layout FILE LINE..." >want &&
	test_cmp want err &&
	test_exit_code 2 "$AF" layout l.c >out 2>err &&
	test_cmp /dev/null out &&
	echo "autofreeze: l.c: layout: no LINE given" >want &&
	test_cmp want err &&
	for bad in 0 4 -1 1x "" 99999999999999999999999; do
		test_exit_code 2 "$AF" layout l.c 1 "$bad" >out 2>err &&
		test_cmp /dev/null out &&
		echo "autofreeze: l.c: layout: line '\''$bad'\'' is not in the file (lines 1 to 3)" >want &&
		test_cmp want err || return 1
	done &&
	test_exit_code 2 "$AF" layout nope.c 1 >out 2>err &&
	test_cmp /dev/null out &&
	echo "autofreeze: nope.c: No such file or directory" >want &&
	test_cmp want err &&
	test_exit_code 2 "$AF" layout . 1 2>err &&
	grep -qx "autofreeze: .: Is a directory" err &&
	"$AF" --help | grep -qx "       autofreeze layout FILE LINE..."
'

test_expect_success "layout: the whole file on stdout, only the listed statements tidied" '
	printf "\tx = a|b;\n\tfoo(a,\n\t\tb);\n\ty = c|d;" >l.c &&
	"$AF" layout l.c 1 2 >out &&
	printf "\tx = a | b;\n\tfoo(a,\n\t    b);\n\ty = c|d;" >want &&
	cmp want out &&
	"$AF" layout l.c 4 >out &&
	printf "\tx = a|b;\n\tfoo(a,\n\t\tb);\n\ty = c | d;" >want &&
	cmp want out
'

# layout_real V UNIT...: the files of linux-source-V that the golden
# expected-diffs/linux-V/fs-UNIT.diff changes, before (a/) and after it
# (b/), then each laid out by autofreeze layout at the lines the golden
# added, if any (c/); checkpatch.pl --strict of the tree itself on the
# diffs a/ -> b/ (b.patch) and a/ -> c/ (c.patch), its findings in
# checkpatch.before and checkpatch.after.  All in $TRASH/layout-V,
# where it leaves the caller.
layout_real()
{
	local v=$1 tree=$TOP/build/linux-source-$1 unit f s lines
	shift
	rm -rf "$TRASH/layout-$v" && mkdir "$TRASH/layout-$v" &&
	cd "$TRASH/layout-$v" && mkdir a &&
	for unit in "$@"; do
		cat "$GOLDEN/linux-$v/fs-$unit.diff" >>golden.diff || return 1
	done &&
	sed -n "s|^+++ b/||p" golden.diff >files &&
	test -s files &&
	while read -r f; do
		mkdir -p "a/${f%/*}" && cp "$tree/$f" "a/$f" || return 1
	done <files &&
	cp -r a b &&
	(cd b && patch -s -p1 --no-backup-if-mismatch) <golden.diff &&
	cp -r b c &&
	while read -r f; do
		lines=$(diff --unchanged-line-format= --old-line-format= \
			--new-line-format="%dn
" "a/$f" "b/$f")
		test -z "$lines" ||
			"$AF" layout "b/$f" $lines >"c/$f" || return 1
	done <files &&
	for s in b c; do
		git diff --no-index a "$s" >"$s.patch"
		[ $? -eq 1 ] || return 1
		(cd "$tree" && perl scripts/checkpatch.pl --strict --no-tree \
			--no-signoff --show-types "$TRASH/layout-$v/$s.patch") |
			checkpatch_findings "$s.findings" || return 1
	done &&
	mv b.findings checkpatch.before && mv c.findings checkpatch.after
}

# checkpatch_findings OUT: checkpatch.pl's report on stdin, one finding
# a line in OUT: "b/fs/f2fs/gc.c:50: CHECK:TYPE: message" ("?:" when it
# names no line).
checkpatch_findings()
{
	awk '
	/^(ERROR|WARNING|CHECK):/ { if (m != "") print "?: " m; m = $0; next }
	m != "" && /^#[0-9]+: FILE: / { print $3 " " m; m = ""; next }
	m != "" { print "?: " m; m = "" }
	END { if (m != "") print "?: " m }' >"$1"
}

# checkpatch_clean [gc]: checkpatch.after has no ERROR, WARNING or
# CHECK; with "gc", but for one WAITQUEUE_ACTIVE in f2fs gc.c: aligning
# the arguments of the renamed call makes its unchanged
# "waitqueue_active(fggc_wq) ||" line part of the patch, and checkpatch
# asks any such line for a comment (a finding on the kernel's code, not
# on its layout).
checkpatch_clean()
{
	local gc="^c/fs/f2fs/gc.c:[0-9]*: WARNING:WAITQUEUE_ACTIVE:"
	if [ "${1:-}" = gc ]; then
		test "$(grep -c "$gc" checkpatch.after)" -le 1 || return 1
	else
		gc='^$'
	fi
	grep -v "$gc" checkpatch.after >left
	test_must_fail test -s left || { cat left; return 1; }
}

test_expect_success KTREE_7_3 "layout: 7.3 f2fs and xfs as the goldens leave them, checkpatch.pl --strict clean" '
	layout_real 7.3 f2fs xfs &&
	cat checkpatch.before &&
	grep -q "^b/fs/f2fs/gc.c:[0-9]*: CHECK:PARENTHESIS_ALIGNMENT:" checkpatch.before &&
	grep -q "^b/fs/f2fs/segment.c:[0-9]*: CHECK:PARENTHESIS_ALIGNMENT:" checkpatch.before &&
	grep -q "^b/fs/xfs/xfs_super.c:[0-9]*: CHECK:PARENTHESIS_ALIGNMENT:" checkpatch.before &&
	cat checkpatch.after && checkpatch_clean gc &&
	grep -qx "+	xfs_alloc_wq = alloc_workqueue(\"xfsalloc\", XFS_WQFLAGS(WQ_MEM_RECLAIM | WQ_PERCPU)," c.patch &&
	grep -qx "+				       0);" c.patch &&
	grep -qx "+						 msecs_to_jiffies(wait_ms));" c.patch &&
	# those statements only: one line of xfs_super.c, six of f2fs
	diff -r b c | grep -c "^>" >count &&
	echo 7 >want && test_cmp want count
'

test_expect_success KTREE_6_12 "layout: 6.12 bcachefs, btrfs and f2fs as the goldens leave them, checkpatch.pl --strict clean" '
	layout_real 6.12 bcachefs btrfs f2fs &&
	cat checkpatch.before &&
	grep -q "^b/fs/bcachefs/journal.c:[0-9]*: CHECK:SPACING: spaces preferred around that .|." checkpatch.before &&
	grep -q "^b/fs/bcachefs/super.c:[0-9]*: CHECK:SPACING: spaces preferred around that .|." checkpatch.before &&
	grep -q "^b/fs/btrfs/super.c:[0-9]*: WARNING:LONG_LINE: line length of 105 exceeds 100 columns" checkpatch.before &&
	grep -q "^b/fs/f2fs/gc.c:[0-9]*: CHECK:PARENTHESIS_ALIGNMENT:" checkpatch.before &&
	cat checkpatch.after && checkpatch_clean gc &&
	grep -qx "+	.fs_flags		= FS_REQUIRES_DEV | FS_BINARY_MOUNTDATA | FS_ALLOW_IDMAP |" c.patch &&
	grep -qx "+				  FS_AUTOFREEZE," c.patch &&
	grep -qx "+				WQ_HIGHPRI | WQ_UNBOUND | WQ_MEM_RECLAIM, 512);" c.patch
'

test_expect_success KTREE_6_1 "layout: 6.1 f2fs, xfs and btrfs as the goldens leave them: nothing to do, nothing done" '
	layout_real 6.1 f2fs xfs btrfs &&
	diff -r b c &&
	cat checkpatch.after && checkpatch_clean
'

# report -f changelog: what series.sh writes a unit's changelog from,
# "UNIT<TAB>KIND<TAB>TEXT": every unit's count of uses; the notes; the
# converted and kept uses, one line a reason, the places of another
# file than the group's first named, each API once, the rules' hint to
# the tool's user cut, the evidence a sentence of its own.
TAB=$(printf "\t")
test_expect_success "report -f changelog: a unit's uses grouped by reason, its notes, its count" '
	{
		printf "optin\ttree\tFS_AUTOFREEZE\tfs_suspend_freeze_sb\tfs/super.c\tfrozen on suspend\n" &&
		printf "unit\tfs/bc\teligible\teligible: bc_fs_type\n" &&
		printf "file\tfs/bc\tfs/bc/%s\n" a.c b.c &&
		printf "quiesced\tfs/bc\t%s\tquiesced: the thread stops (a.c:9)\n" \
			"fs/bc/a.c${TAB}5:2" "fs/bc/a.c${TAB}7:2" "fs/bc/b.c${TAB}4:2" &&
		printf "note\tfs/bc\trisk: it may block (b.c:3)\n" &&
		printf "kthread\tfs/bc\tbc_thread\n" &&
		printf "fstype\tfs/bc\tbc_fs_type\tfs/bc/a.c\n" &&
		printf "unit\tfs/qq\teligible\teligible: qq_fs_type\n"
	} >cl.plan &&
	printf "flag\tfs/bc\tbc_fs_type\n" >cl.flags &&
	: >cl.unparsed &&
	cat >cl.rules <<-\EOF &&
	fs/bc/a.c:5:2-15: set_freezable in kernel thread bc_thread(): convert, the VFS freezes the filesystem
	fs/bc/a.c:7:2-15: try_to_freeze in kernel thread bc_thread(): convert, the VFS freezes the filesystem
	fs/bc/b.c:4:2-15: try_to_freeze in kernel thread bc_thread(): convert, the VFS freezes the filesystem
	fs/bc/b.c:9:2-10: kept: freezing in bc_helper(): not a kernel thread here (-D kthread_fns=bc_helper if it is one)
	EOF
	cat >cl.scan <<-\EOF &&
	fs/bc/a.c:5:2: set_freezable kthread bc_thread
	fs/bc/a.c:7:2: try_to_freeze kthread bc_thread
	fs/bc/b.c:4:2: try_to_freeze kthread bc_thread
	fs/bc/b.c:9:2: freezing user bc_helper
	EOF
	"$AF" report -f changelog cl.plan cl.flags cl.unparsed cl.rules cl.scan >got &&
	cat >want <<-EOF &&
	fs/bc${TAB}count${TAB}4
	fs/bc${TAB}note${TAB}it may block (b.c:3)
	fs/bc${TAB}converted${TAB}- fs/bc/a.c:5,7, fs/bc/b.c:4 (set_freezable, try_to_freeze), in kernel thread bc_thread(). Quiesced: the thread stops (a.c:9).
	fs/bc${TAB}kept${TAB}- fs/bc/b.c:9 (freezing), freezing in bc_helper(): not a kernel thread here.
	fs/qq${TAB}count${TAB}0
	EOF
	test_cmp want got &&
	test_exit_code 2 "$AF" report -f series cl.plan cl.flags cl.unparsed cl.rules cl.scan 2>err &&
	grep -q "unknown format" err
'

test_expect_success "convert: usage, a bad option or job count, --touched without --check: one line, exit 2" '
	for args in "" "k d" "--report=2 k d o" "-j 0 k d o" "-j x k d o" \
		"--touched f k d o" "--frob k d o"; do
		test_exit_code 2 "$AF" convert $args 2>err &&
		test_line_count err 1 &&
		grep -q "^autofreeze: convert: usage: convert " err || return 1
	done
'

test_expect_success "convert: an OUT that is not a directory: one line naming it, exit 2" '
	: >notdir &&
	test_exit_code 2 "$AF" convert --rules . k d notdir 2>err &&
	echo "autofreeze: notdir: convert: not a directory" >want &&
	test_cmp want err
'

test_expect_success "no sanitizer report from any run above" '
	! grep -l -E "runtime error|AddressSanitizer|LeakSanitizer" \
		"$TRASH"/.out.* "$TRASH"/san.* 2>/dev/null
'

test_done
