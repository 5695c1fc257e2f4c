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
		sed -n "s/^list \(freezer_use\|freezable_use\) //p" names &&
		sed -n "s/^sleep //p" names
	} | sort -u >spelled &&
	test "$(wc -l <spelled)" -ge 20 &&
	comm -13 apis spelled >unknown &&
	{ test ! -s unknown || { cat unknown; false; }; }
'

test_expect_success "one API list per rule file: the other rules inherit it" '
	"$H"/rule-names.pl "$COCCI"/kthread_freezer.cocci |
		sed -n "s/^list \([a-z_]*\) .*/\1/p" | sort -u >lists &&
	printf "freezer_use\nstill_uses_freezer\n" >want &&
	test_cmp want lists &&
	"$H"/rule-names.pl "$COCCI"/wq_freezable.cocci |
		sed -n "s/^list \([a-z_]*\) .*/\1/p" | sort -u >lists &&
	echo freezable_use >want &&
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
	grep -qx "fs/xfs: eligible: xfs_fs_type is FS_REQUIRES_DEV and xfs_super_operations has .freeze_fs, which the suspend freeze calls: fs_suspend_freeze_sb() -> freeze_super() -> .freeze_fs (patches/linux-6.1/)" out &&
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

test_expect_success "plan applies the judgments that hold for the version of the tree" '
	printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n" \
		6.1 fs/jfs unit - - cluster "jfs evidence" \
		6.1,6.12 fs/ext4 fstype ext4_fs_type - no-superblock "ext4 evidence" \
		"*" fs/xfs use xfs_init_mount_workqueues "\"xfs-buf/%s\"" not-quiesced "buf evidence" \
		6.1 fs/xfs quiesced xfsaild - quiesced "ail evidence" \
		6.12 fs/xfs unit - - cluster "not on 6.1" >j.tsv &&
	"$AF" plan --judgments j.tsv "$H/ktree" fs >out &&
	grep -qx "unit	fs/jfs	skip	not eligible: cluster: jfs evidence" out &&
	! grep -q "^file	fs/jfs" out &&
	grep -qx "unit	fs/ext4	skip	not freeze-capable; ext4_fs_type not flagged: no-superblock: ext4 evidence" out &&
	! grep -q "^fstype	fs/ext4" out &&
	grep -q "^unit	fs/xfs	eligible" out &&
	grep -qx "keep	fs/xfs	fs/xfs/xfs_super.c	10:16	not-quiesced: buf evidence" out &&
	grep "^quiesced	fs/xfs	fs/xfs/xfs_trans_ail.c	" out >q &&
	test_line_count q 4 && ! grep -v "	quiesced: ail evidence\$" q &&
	"$AF" plan --judgments /dev/null "$H/ktree" fs >out &&
	! grep -q "	not eligible: " out &&
	grep -qx "unit	fs/smb/server	library	library: no file_system_type, no users (no Kconfig symbol selects or depends on it)" out
'

# A gfs2-like type: block-backed, .freeze_super and no .freeze_fs.
test_expect_success "the suspend freeze is read from the tree, else the series: ->freeze_super or not" '
	cp -r "$H/ktree" fp &&
	mkdir fp/fs/gfs2 &&
	echo "obj-y += super.o" >fp/fs/gfs2/Makefile &&
	printf "%s\n" "static const struct super_operations gfs2_super_ops = {" \
		"	.freeze_super = gfs2_freeze_super," "};" \
		"static int fill(struct super_block *sb) { sb->s_op = &gfs2_super_ops; }" \
		"struct file_system_type gfs2_fs_type = {" \
		"	.fs_flags = FS_REQUIRES_DEV," "	.mount = fill," "};" \
		>fp/fs/gfs2/super.c &&
	"$AF" plan --judgments /dev/null fp fs/gfs2 >out &&
	grep -qx "unit	fs/gfs2	skip	not freeze-capable: the suspend freeze, fs_suspend_freeze_sb() (patches/linux-6.1/), calls only the VFS freeze_super(), which calls .freeze_fs, and gfs2_super_ops has .freeze_super alone" out &&
	"$AF" plan --judgments /dev/null fp fs/xfs >out &&
	grep -q "^unit	fs/xfs	eligible	.* has .freeze_fs, which the suspend freeze calls: fs_suspend_freeze_sb() -> freeze_super() -> .freeze_fs (patches/linux-6.1/)\$" out &&
	sed -i "s/^PATCHLEVEL = 1\$/PATCHLEVEL = 12/" fp/Makefile &&
	"$AF" plan --judgments /dev/null fp fs/gfs2 >out &&
	grep -qx "unit	fs/gfs2	eligible	eligible: gfs2_fs_type is FS_REQUIRES_DEV and gfs2_super_ops has .freeze_super, which the suspend freeze calls: fs_suspend_freeze_sb() -> .freeze_super (patches/linux-6.12/)" out &&
	sed -i "s/^PATCHLEVEL = 12\$/PATCHLEVEL = 1/" fp/Makefile &&
	printf "%s\n" "static void fs_suspend_freeze_sb(struct super_block *sb)" "{" \
		"	/* not freeze_super(sb): */" "	sb->s_op->freeze_super(sb);" "}" \
		>>fp/fs/super.c &&
	"$AF" plan --judgments /dev/null fp fs/gfs2 >out &&
	grep -q "^unit	fs/gfs2	eligible	.*-> .freeze_super (fs/super.c)\$" out &&
	sed -i "s/^VERSION = 6\$/VERSION = 5/" fp/Makefile &&
	sed -i "s/fs_suspend_freeze_sb/some_other_fn/" fp/fs/super.c &&
	"$AF" plan --judgments /dev/null fp fs/gfs2 >out &&
	grep -qx "unit	fs/gfs2	eligible	eligible: gfs2_fs_type is FS_REQUIRES_DEV and gfs2_super_ops has .freeze_super" out
'

# The opt-in flag is the tree's: FS_AUTOFREEZE where our series is
# applied, FS_POWER_FREEZE where upstream's filesystems_freeze() (7.3's,
# trimmed) decides by it, nothing where neither is, nor 6.18's reversed
# test (which freezes every type, whatever its flags).
test_expect_success "plan names the tree's opt-in: optin tree, series or none" '
	cp -r "$H/ktree" oi &&
	"$AF" plan oi fs/xfs | head -n 1 >out &&
	printf "optin	tree	FS_AUTOFREEZE	fs_suspend_freeze_sb	patches/linux-6.1/	frozen on suspend and hibernation by fs_suspend_freeze_sb() (patches/linux-6.1/)
" >want &&
	test_cmp want out &&
	sed -i "/FS_AUTOFREEZE/d" oi/include/linux/fs.h &&
	"$AF" plan oi fs/xfs | head -n 1 >out &&
	printf "optin	series	FS_AUTOFREEZE	fs_suspend_freeze_sb	patches/linux-6.1/	frozen on suspend and hibernation by fs_suspend_freeze_sb() once make vfs applies patches/linux-6.1/
" >want &&
	test_cmp want out &&
	sed -i "s/^PATCHLEVEL = 1\$/PATCHLEVEL = 3/; s/^VERSION = 6\$/VERSION = 7/" oi/Makefile &&
	"$AF" plan oi fs/xfs | head -n 1 >out &&
	printf "optin	none	-	-	-	fs/super.c has no suspend freeze (filesystems_freeze_callback() or fs_suspend_freeze_sb()), and autofreeze ships no core series for Linux 7.3
" >want &&
	test_cmp want out &&
	printf "%s
" "static void filesystems_freeze_callback(struct super_block *sb, void *freeze_all_ptr)" "{" 		"	if (!sb->s_op->freeze_fs && !sb->s_op->freeze_super)" "		return;" 		"	if (!freeze_all_ptr && !(sb->s_type->fs_flags & FS_POWER_FREEZE))" "		return;" 		"	if (sb->s_op->freeze_super)" "		sb->s_op->freeze_super(sb, FREEZE_EXCL | FREEZE_HOLDER_KERNEL, p);" 		"	else" "		freeze_super(sb, FREEZE_EXCL | FREEZE_HOLDER_KERNEL, p);" "}" >oi/fs/super.c &&
	"$AF" plan oi fs/xfs | head -n 1 >out &&
	printf "optin	none	-	-	-	filesystems_freeze_callback() tests FS_POWER_FREEZE, which include/linux/fs.h does not define
" >want &&
	test_cmp want out &&
	echo "#define FS_POWER_FREEZE		256	/* Always freeze on suspend/hibernate */" >>oi/include/linux/fs.h &&
	"$AF" plan oi fs/xfs >plan &&
	head -n 1 plan >out &&
	printf "optin	tree	FS_POWER_FREEZE	filesystems_freeze_callback	fs/super.c	frozen on suspend and hibernation by filesystems_freeze_callback() (fs/super.c)
" >want &&
	test_cmp want out &&
	grep -q "^unit	fs/xfs	eligible	.*: filesystems_freeze_callback() -> freeze_super() -> .freeze_fs (fs/super.c)\$" plan &&
	sed -i "s/!freeze_all_ptr &&/freeze_all_ptr \&\&/" oi/fs/super.c &&
	"$AF" plan oi fs/xfs | head -n 1 >out &&
	printf "optin	none	-	-	-	filesystems_freeze_callback() tests FS_POWER_FREEZE, but freezes every type, whether it carries it or not
" >want &&
	test_cmp want out
'

# 6.1 btrfs: btrfs_fs_type mounts through btrfs_root_fs_type, whose
# btrfs_mount_root() calls sget(): only the second owns superblocks.
test_expect_success "a block-backed type whose mount creates no superblock is not flagged" '
	cp -r "$H/ktree" sb &&
	mkdir sb/fs/btrfs &&
	echo "obj-y += super.o" >sb/fs/btrfs/Makefile &&
	printf "%s\n" "static const struct super_operations btrfs_super_ops = {" \
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
		"static struct file_system_type test_type = {" "	.name = \"t\"," "};" \
		>sb/fs/btrfs/super.c &&
	"$AF" plan --judgments /dev/null sb fs/btrfs >out &&
	grep -q "^unit	fs/btrfs	eligible	eligible: btrfs_root_fs_type is FS_REQUIRES_DEV .*; btrfs_fs_type not flagged: no-superblock: btrfs_fs_type.s mount reaches no call that creates a superblock; btrfs_root_fs_type.s calls sget()\$" out &&
	grep -qx "fstype	fs/btrfs	btrfs_root_fs_type	fs/btrfs/super.c" out &&
	! grep -q "^fstype	fs/btrfs	btrfs_fs_type" out &&
	! grep -q "test_type" out
'

test_expect_success "judgments: a bad file is one line naming it, exit 2" '
	test_exit_code 2 "$AF" plan --judgments nope.tsv "$H/ktree" fs 2>err &&
	test_line_count err 1 && grep -q "^autofreeze: nope.tsv: No such file" err &&
	printf "6.1\tfs/jfs\tunit\t-\n" >short.tsv &&
	test_exit_code 2 "$AF" plan --judgments short.tsv "$H/ktree" fs 2>err &&
	test_line_count err 1 && grep -q "^autofreeze: short.tsv: line 1: not 7 tab-separated fields" err &&
	printf "# c\n\n6.1\tfs/jfs\tdir\t-\t-\tx\ty\n" >what.tsv &&
	test_exit_code 2 "$AF" plan --judgments what.tsv "$H/ktree" fs 2>err &&
	test_line_count err 1 && grep -q "what.tsv: line 3: \"dir\" is not unit, fstype, use, quiesced or flagged" err &&
	printf "6.1\tfs/xfs\tquiesced\txfsaild\t-\tnot-quiesced\tx()\n" >q.tsv &&
	test_exit_code 2 "$AF" plan --judgments q.tsv "$H/ktree" fs 2>err &&
	test_line_count err 1 && grep -q "q.tsv: line 1: the code \"quiesced\" goes with a quiesced judgment, and only there" err &&
	printf "6.1\tfs/xfs\tuse\txfsaild\t-\tnot-quiesced\tx\n" >kt.tsv &&
	test_exit_code 2 "$AF" plan --judgments kt.tsv "$H/ktree" fs 2>err &&
	test_line_count err 1 && grep -q "may keep only a workqueue flag, not set_freezable" err
'

test_expect_success "policy/judgments.tsv: every line is well formed and names its evidence" '
	"$AF" plan --judgments "$TOP/policy/judgments.tsv" "$H/ktree" fs >/dev/null &&
	"$AF" plan "$H/ktree" fs >default &&
	"$AF" plan --judgments "$TOP/policy/judgments.tsv" "$H/ktree" fs >given &&
	test_cmp default given &&
	! grep -vE "^(#|$)" "$TOP/policy/judgments.tsv" |
		awk -F"\t" "NF != 7 || \$6 !~ /^[a-z-]+\$/ || \$7 !~ /[a-z_0-9]+\(\)/" | grep .
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

test_expect_success "no sanitizer report from any run above" '
	! grep -l -E "runtime error|AddressSanitizer|LeakSanitizer" \
		"$TRASH"/.out.* "$TRASH"/san.* 2>/dev/null
'

test_done
