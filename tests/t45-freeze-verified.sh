#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t45-freeze-verified: the tree's suspend freeze is verified, not
# assumed.  On hard-linked copies of the Debian trees (patch, sed and
# the tools replace files, never write into them; the last test checks
# that the Debian trees are untouched), one copy per version:
#   6.12 with only patch 0001 of patches/linux-6.12/ (FS_AUTOFREEZE, no
#        PM hook), 6.1 with 0001-0003 and then 0001-0006: the optin is
#        partial, naming the patches in and missing; apply, diff refuse
#        in one line naming make vfs; report says it; make vfs applies
#        exactly the missing patches (patch -p1; git am in a git tree).
#   check-tree on a converted tree (fs/ext2, flagged) fails in
#        fs/super.c when the freeze skips flagged types (the flag test
#        inverted, a return before the freeze, the freeze call gone), and
#        in kernel/power/ when the PM core no longer calls it.
#   7.3 without suspend_prepare()'s call of filesystems_freeze(): no
#        conversion, and make vfs refuses in one line.

. "$(dirname "$0")/lib.sh"

AF=$TOP/scripts/autofreeze

# edit_new FILE SED-SCRIPT: edit FILE into a new inode (it may be
# hard-linked to the Debian tree).
edit_new()
{
	sed "$2" "$1" >"$1.t45" && mv -f "$1.t45" "$1" &&
	! cmp -s "$1" "$3" 2>/dev/null
}

# put_back FILE SAVED: FILE as SAVED holds it, into a new inode.
put_back()
{
	cp -p "$2" "$1.t45" && mv -f "$1.t45" "$1"
}

# patch_in TREE PATCH...: apply the patches to TREE as a user would.
patch_in()
{
	local t=$1 p
	shift
	for p in "$@"; do
		patch -d "$t" -p1 -s -f --no-backup-if-mismatch <"$p" || return 1
	done
}

# sums TREE: checksums of what the series and a conversion of fs/ext2
# touch in TREE, and its bookkeeping's list.
sums()
{
	(cd "$1" && md5sum fs/super.c include/linux/fs.h kernel/power/*.c \
		fs/ext2/super.c) &&
	cat "$(ktree_state "$1")/touched" 2>/dev/null
	return 0
}

# one_line PROG ERR: ERR is one line, from PROG.
one_line()
{
	test_line_count "$2" 1 && grep -q "^$1: " "$2"
}

# check_fails TREE PATTERN: check-tree DIR=fs/ext2 exits 1 with a
# finding matching PATTERN (a grep -E pattern of the whole line).
check_fails()
{
	local rc=0
	"$TOP"/scripts/check-tree.sh "$1" fs/ext2 >out 2>err || rc=$?
	cat out err
	test $rc -eq 1 && grep -Eq "$2" out
}

# both_refuse TREE TEXT: make vfs and make apply DIR=fs/ext2 on TREE
# each refuse in one line holding TEXT, and leave TREE as it was.
both_refuse()
{
	sums "$1" >before &&
	test_exit_code 2 "$TOP"/scripts/vfs.sh "$1" >out 2>err &&
	cat err && one_line vfs.sh err && grep -qF "$2" err &&
	test_exit_code 2 "$TOP"/scripts/apply.sh "$1" fs/ext2 >out 2>err &&
	one_line apply.sh err && grep -qF "$2" err &&
	sums "$1" >after &&
	test_cmp before after
}

P612=$TOP/patches/linux-6.12
P61=$TOP/patches/linux-6.1
S612=$TOP/build/linux-source-6.12
S61=$TOP/build/linux-source-6.1
S73=$TOP/build/linux-source-7.3

test_expect_success KTREE_6_12 "6.12 with only 0001 of its series: optin partial, naming 0001 in and 0002 missing" '
	ktree_link_copy "$S612" k612 &&
	patch_in k612 "$P612"/0001-*.patch &&
	grep -q "define FS_AUTOFREEZE" k612/include/linux/fs.h &&
	"$AF" optin k612 >out &&
	cat out &&
	test "$(cut -f2,3 out)" = "partial	FS_AUTOFREEZE" &&
	grep -q "patches/linux-6.12/ is only partly in: 0001 in, 0002 missing; so freeze_processes() (kernel/power/process.c:[0-9]*) calls no fs_suspend_freeze()" out &&
	"$AF" series k612 >out &&
	printf "partial\tpatches/linux-6.12\tpatches/linux-6.12/ is only partly in: 0001 in, 0002 missing\n%s\n" "$P612"/0002-*.patch >want &&
	test_cmp want out
'

test_expect_success KTREE_6_12,SPATCH "6.12, 0001 only: apply and diff refuse in one line naming what is missing and make vfs; report says it; the tree is left as it was" '
	sums k612 >before &&
	test_exit_code 2 "$TOP"/scripts/apply.sh k612 fs/ext2 >out 2>err &&
	cat err &&
	one_line apply.sh err &&
	grep -q "only partly in: 0001 in, 0002 missing.*make vfs KTREE=.*k612 applies the missing patches" err &&
	test_exit_code 2 "$TOP"/scripts/diff.sh k612 fs/ext2 >out 2>err &&
	test ! -s out &&
	one_line diff.sh err &&
	grep -q "0002 missing.*make vfs" err &&
	"$TOP"/scripts/report.sh -v k612 fs/ext2 >out 2>err &&
	grep -q "only partly in: 0001 in, 0002 missing" out &&
	sums k612 >after &&
	test_cmp before after
'

test_expect_success KTREE_6_12 "6.12, 0001 only: make vfs applies 0002 alone, then the freeze is the tree's and the series is in" '
	"$TOP"/scripts/vfs.sh k612 >out 2>err &&
	cat out err &&
	test ! -s err &&
	grep -q "^vfs.sh: applied the VFS series patches/linux-6.12 (only what the tree lacked: 0002) to .*k612 (patch -p1, 1 patches)$" out &&
	echo kernel/power/process.c >want &&
	test_cmp want "$(ktree_state k612)/touched" &&
	test "$("$AF" optin k612 | cut -f2)" = tree &&
	test "$("$AF" series k612 | head -n 1)" = "applied	patches/linux-6.12"
'

test_expect_success KTREE_6_12,SPATCH "6.12: check-tree fails in fs/super.c when the freeze skips the flagged types: test inverted, a return before the freeze, no freeze call" '
	"$TOP"/scripts/apply.sh k612 fs/ext2 >out 2>&1 &&
	grep -q "fs_flags.*FS_AUTOFREEZE" k612/fs/ext2/super.c &&
	"$TOP"/scripts/check-tree.sh k612 fs/ext2 >out 2>err &&
	test ! -s out &&
	cp -p k612/fs/super.c super.c.good &&
	edit_new k612/fs/super.c "s/if (\*error || !(sb->s_type->fs_flags & FS_AUTOFREEZE))/if (*error || (sb->s_type->fs_flags \& FS_AUTOFREEZE))/" super.c.good &&
	check_fails k612 "^fs/super.c:[0-9]+:2: error: fs/ext2 carries .*, which the tree.s suspend freeze does not honour: fs_suspend_freeze_sb\(\) tests FS_AUTOFREEZE, but skips the types that carry it$" &&
	test_line_count out 1 &&
	put_back k612/fs/super.c super.c.good &&
	edit_new k612/fs/super.c "/^static void fs_suspend_freeze_sb(/,/^}/s/^\tif (\*error || /\treturn;\n&/" super.c.good &&
	check_fails k612 "^fs/super.c:[0-9]+:2: error: .*returns before its freeze_super\(\), whatever the type: it freezes nothing$" &&
	put_back k612/fs/super.c super.c.good &&
	edit_new k612/fs/super.c "/^static void fs_suspend_freeze_sb(/,/^}/s/ret = \(sb->s_op->\)\{0,1\}freeze_super(sb, FREEZE_HOLDER_KERNEL);/ret = 0;/" super.c.good &&
	check_fails k612 "^fs/super.c:[0-9]+:[0-9]+: error: .*calls no freeze_super\(\): it freezes nothing$" &&
	put_back k612/fs/super.c super.c.good &&
	"$TOP"/scripts/check-tree.sh k612 fs/ext2 >out 2>err &&
	test ! -s out
'

test_expect_success KTREE_6_12,SPATCH "6.12: without freeze_processes()'s call, check-tree fails in kernel/power/process.c; make vfs and apply refuse in one line" '
	f=k612/kernel/power/process.c &&
	cp -p "$f" process.c.good &&
	edit_new "$f" "/error = fs_suspend_freeze();/d" process.c.good &&
	check_fails k612 "^kernel/power/process.c:[0-9]+:1: error: fs/ext2 carries .*: the PM core never gets to fs_suspend_freeze_sb\(\): freeze_processes\(\) \(kernel/power/process.c:[0-9]+\) calls no fs_suspend_freeze\(\)" &&
	both_refuse k612 "calls no fs_suspend_freeze()" &&
	put_back "$f" process.c.good &&
	"$TOP"/scripts/check-tree.sh k612 fs/ext2 >out 2>err
'

test_expect_success KTREE_6_12 "6.12 in git with only 0001 committed: make vfs commits 0002 alone (git am)" '
	mkdir g612 &&
	(cd "$S612" && cp --parents Makefile Kconfig fs/super.c include/linux/fs.h \
		kernel/power/process.c "$TRASH/g612/") &&
	git -C g612 init -q &&
	git -C g612 config gc.auto 0 &&
	git -C g612 add -f -A &&
	git -C g612 -c user.name=t45 -c user.email=t45@localhost commit -q -m base &&
	git -C g612 -c user.name=t45 -c user.email=t45@localhost am -q "$P612"/0001-*.patch &&
	test "$("$AF" optin g612 | cut -f2)" = partial &&
	"$TOP"/scripts/vfs.sh g612 >out 2>err &&
	cat out err &&
	grep -q "(only what the tree lacked: 0002) .*(git am, 1 commits)" out &&
	test "$(git -C g612 rev-list --count HEAD)" -eq 3 &&
	test -z "$(git -C g612 status --porcelain)" &&
	test "$("$AF" series g612 | head -n 1)" = "applied	patches/linux-6.12"
'

test_expect_success KTREE_6_1 "6.1 with 0001-0003, then 0001-0006: optin partial, naming what is in and missing; apply refuses; make vfs applies 0007 alone" '
	ktree_link_copy "$S61" k61 &&
	patch_in k61 "$P61"/000[1-3]-*.patch &&
	"$AF" optin k61 >out &&
	test "$(cut -f2 out)" = partial &&
	grep -q "patches/linux-6.1/ is only partly in: 0001-0003 in, 0004-0007 missing" out &&
	patch_in k61 "$P61"/000[4-6]-*.patch &&
	"$AF" optin k61 >out &&
	cat out &&
	test "$(cut -f2 out)" = partial &&
	grep -q "patches/linux-6.1/ is only partly in: 0001-0006 in, 0007 missing; so freeze_processes() (kernel/power/process.c:[0-9]*) calls no fs_suspend_freeze()" out &&
	sums k61 >before &&
	test_exit_code 2 "$TOP"/scripts/apply.sh k61 fs/ext2 >out 2>err &&
	one_line apply.sh err &&
	grep -q "0001-0006 in, 0007 missing.*make vfs" err &&
	sums k61 >after &&
	test_cmp before after &&
	"$TOP"/scripts/vfs.sh k61 >out 2>err &&
	cat out err &&
	grep -q "applied the VFS series patches/linux-6.1 (only what the tree lacked: 0007) to .* (patch -p1, 1 patches)" out &&
	test "$("$AF" optin k61 | cut -f2)" = tree &&
	test "$("$AF" series k61 | head -n 1)" = "applied	patches/linux-6.1"
'

test_expect_success KTREE_7_3 "7.3 without suspend_prepare()'s call of filesystems_freeze(): optin none naming it; make vfs and apply refuse in one line" '
	ktree_link_copy "$S73" k73 &&
	f=k73/kernel/power/suspend.c &&
	edit_new "$f" "/^static int suspend_prepare(/,/^}/{/filesystems_freeze(/d}" "$S73/kernel/power/suspend.c" &&
	"$AF" optin k73 >out &&
	cat out &&
	test "$(cut -f2 out)" = none &&
	grep -q "suspend_prepare() (kernel/power/suspend.c:[0-9]*) calls no filesystems_freeze()" out &&
	both_refuse k73 "calls no filesystems_freeze()"
'

test_expect_success KTREE_7_3,SPATCH "7.3 converted: check-tree fails in kernel/power/suspend.c without the call, in fs/super.c with the flag test inverted" '
	f=k73/kernel/power/suspend.c &&
	put_back "$f" "$S73/kernel/power/suspend.c" &&
	"$TOP"/scripts/vfs.sh k73 >out &&
	"$TOP"/scripts/apply.sh k73 fs/ext2 >out 2>&1 &&
	grep -q "fs_flags.*FS_POWER_FREEZE" k73/fs/ext2/super.c &&
	"$TOP"/scripts/check-tree.sh k73 fs/ext2 >out 2>err &&
	test ! -s out &&
	cp -p "$f" suspend.c.good &&
	edit_new "$f" "/^static int suspend_prepare(/,/^}/s/error = filesystems_freeze(/error = 0; (/" suspend.c.good &&
	check_fails k73 "^kernel/power/suspend.c:[0-9]+:1: error: fs/ext2 carries .*suspend_prepare\(\) \(kernel/power/suspend.c:[0-9]+\) calls no filesystems_freeze\(\)" &&
	put_back "$f" suspend.c.good &&
	cp -p k73/fs/super.c super73.c.good &&
	edit_new k73/fs/super.c "/^static void filesystems_freeze_callback(/,/^}/s/!(sb->s_type->fs_flags & FS_POWER_FREEZE)/(sb->s_type->fs_flags \& FS_POWER_FREEZE)/" super73.c.good &&
	check_fails k73 "^fs/super.c:[0-9]+:[0-9]+: error: fs/ext2 carries .*filesystems_freeze_callback\(\) tests FS_POWER_FREEZE, but skips the types that carry it$" &&
	put_back k73/fs/super.c super73.c.good &&
	"$TOP"/scripts/check-tree.sh k73 fs/ext2 >out 2>err &&
	test ! -s out
'

test_expect_success KTREE_6_1,KTREE_6_12,KTREE_7_3 "the Debian trees are untouched" '
	! grep -q fs_suspend_freeze_sb "$S612/fs/super.c" &&
	! grep -q fs_suspend_freeze_sb "$S61/fs/super.c" &&
	! grep -q FS_AUTOFREEZE "$S612/include/linux/fs.h" &&
	grep -q "^	filesystems_freeze(filesystem_freeze_enabled);" "$S73/kernel/power/suspend.c" &&
	! grep -q FS_POWER_FREEZE "$S73/fs/ext2/super.c" &&
	test ! -e "$(ktree_state "$S612")/touched"
'

test_done
