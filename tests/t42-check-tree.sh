#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-tree, the gate for kernel trees: clean on a converted tree and
# on one never converted; on a converted unit it names, file:line:col,
# a try_to_freeze() put back into its thread, a WQ_FREEZABLE put back
# into its workqueue, a use no rule converts, a type of it that lacks
# the flag, and the flag on a type that should not carry it; BASE=
# checks only the units a git diff touches, whatever the files' names
# (and all of them when the diff touches the suspend freeze), and fails
# (exit 2) when git cannot tell what changed, never passing on 0 units;
# bad input is exit 2, one line; the tree is only read.
# test-run: light

. "$(dirname "$0")/lib.sh"

# the fixtures' threads and workqueues, judged for these tests
JUDGMENTS=$TESTS/helper/judgments.tsv
export JUDGMENTS

CT=$TOP/scripts/check-tree.sh

# fresh: ck as make apply left it
fresh()
{
	rm -rf ck && cp -a ck.orig ck
}

# put_back_in FILE: put_back_try_to_freeze, in FILE (xfsaild()'s)
put_back_in()
{
	sed -i "s/^\(\t*\)tout = xfsaild_push(ailp);/\1try_to_freeze();\n&/" "$1" &&
	test "$(grep -c "try_to_freeze();" "$1")" = 1
}

# put_back_try_to_freeze: the try_to_freeze() of xfsaild()'s loop
# again, where 6.1 has it: before "tout = xfsaild_push(ailp);"
put_back_try_to_freeze()
{
	put_back_in ck/fs/xfs/xfs_trans_ail.c
}

# at FILE PATTERN: "FILE:LINE:COL" of the first PATTERN (a fixed
# string) in FILE, relative to the tree ck
at()
{
	awk -v f="$1" -v p="$2" 'i = index($0, p) {
		printf "%s:%d:%d\n", f, NR, i; exit }' "ck/$1"
}

# one_error WHERE MESSAGE: check-tree on ck fails (exit 1) with one
# finding, "WHERE: error: MESSAGE" (a grep pattern); its summary in err
one_error()
{
	test_exit_code 1 "$CT" "$TRASH"/ck fs >out 2>err &&
	test_line_count out 1 &&
	grep -qx "$1: error: $2" out
}

test_expect_success SPATCH "set up a tree, never converted: clean, nothing checked" '
	make -s -C "$TOP" helper >/dev/null &&
	ck_tree ck &&
	$CT "$TRASH"/ck fs >out 2>err &&
	test_cmp /dev/null out &&
	grep -qx "check-tree.sh: fs: 0 units with FS_AUTOFREEZE checked: 0 errors" err
'

test_expect_success SPATCH "converted by make apply: clean, the unit checked, the tree only read" '
	$TOP/scripts/apply.sh "$TRASH"/ck fs 2>/dev/null &&
	grep -q FS_AUTOFREEZE ck/fs/xfs/xfs_super.c &&
	! grep -q "try_to_freeze\|WQ_FREEZABLE" ck/fs/xfs/xfs_trans_ail.c ck/fs/xfs/xfs_wq.c &&
	cp -a ck ck.orig &&
	$CT "$TRASH"/ck fs >out 2>err &&
	test_cmp /dev/null out &&
	grep -qx "check-tree.sh: fs: 1 unit with FS_AUTOFREEZE checked: 0 errors" err &&
	diff -r ck.orig ck
'

test_expect_success SPATCH "a try_to_freeze() put back into xfsaild(): exit 1, file:line:col" '
	fresh &&
	put_back_try_to_freeze &&
	where=$(at fs/xfs/xfs_trans_ail.c "try_to_freeze();") &&
	one_error "$where" "try_to_freeze in kernel thread xfsaild(): fs/xfs carries FS_AUTOFREEZE, yet this is still here: cocci/kthread_freezer.cocci would remove it (make apply DIR=fs/xfs)" &&
	grep -qx "check-tree.sh: fs: 1 unit with FS_AUTOFREEZE checked: 1 error" err
'

test_expect_success SPATCH "a WQ_FREEZABLE put back into an xfs workqueue: exit 1, file:line:col" '
	fresh &&
	sed -i "0,/WQ_MEM_RECLAIM/s//WQ_FREEZABLE | WQ_MEM_RECLAIM/" ck/fs/xfs/xfs_wq.c &&
	where=$(at fs/xfs/xfs_wq.c WQ_FREEZABLE) &&
	one_error "$where" "WQ_FREEZABLE workqueue flag in xfs_init_mount_workqueues(): fs/xfs carries FS_AUTOFREEZE, yet this is still here: cocci/wq_freezable.cocci would remove it (make apply DIR=fs/xfs)"
'

test_expect_success SPATCH "a use no rule converts, in a flagged unit: exit 1, manual" '
	fresh &&
	cp "$FIXTURES"/try-to-freeze-value-used/mm/vmscan.c ck/fs/xfs/xfs_manual.c &&
	echo "obj-y += xfs_super.o xfs_trans_ail.o xfs_wq.o xfs_manual.o" >ck/fs/xfs/Makefile &&
	where=$(at fs/xfs/xfs_manual.c "try_to_freeze()") &&
	test_exit_code 1 $CT "$TRASH"/ck fs >out 2>err &&
	grep -q "^$where: error: try_to_freeze: fs/xfs carries FS_AUTOFREEZE, yet this is still here: .* (remove it by hand, or the flag)$" out
'

test_expect_success SPATCH "the flag on a type that is not block-backed: exit 1 at the flag, with the reason" '
	fresh &&
	sed -i "s/FS_USERNS_MOUNT,/FS_USERNS_MOUNT | FS_AUTOFREEZE,/" ck/fs/ramfs/inode.c &&
	where=$(at fs/ramfs/inode.c FS_AUTOFREEZE) &&
	one_error "$where" "ramfs_fs_type carries FS_AUTOFREEZE, but fs/ramfs is not eligible: not block-backed: no FS_REQUIRES_DEV file_system_type" &&
	grep -qx "check-tree.sh: fs: 2 units with FS_AUTOFREEZE checked: 1 error" err
'

test_expect_success SPATCH "a second type of a flagged unit without the flag: exit 1, fs_autofreeze would add it" '
	fresh &&
	sed -n "/^static struct file_system_type xfs_fs_type/,/^};/p" ck.orig/fs/xfs/xfs_super.c |
		sed "s/xfs_fs_type/xfs2_fs_type/; s/ | FS_AUTOFREEZE//" >>ck/fs/xfs/xfs_super.c &&
	where=$(awk "/xfs2_fs_type/ { f = 1 } f && i = index(\$0, \".fs_flags\") { printf \"fs/xfs/xfs_super.c:%d:%d\", NR, i; exit }" ck/fs/xfs/xfs_super.c) &&
	one_error "$where" "xfs2_fs_type lacks FS_AUTOFREEZE, which the other types of fs/xfs carry: cocci/fs_autofreeze.cocci would add it"
'

test_expect_success SPATCH "FORMAT=json: an array of findings with their place" '
	fresh &&
	sed -i "s/FS_USERNS_MOUNT,/FS_USERNS_MOUNT | FS_AUTOFREEZE,/" ck/fs/ramfs/inode.c &&
	test_exit_code 1 env FORMAT=json $CT "$TRASH"/ck fs >out 2>err &&
	python3 -c "import json, sys
f = json.load(open(sys.argv[1]))
assert len(f) == 1, f
assert (f[0][\"file\"], f[0][\"line\"], f[0][\"severity\"], f[0][\"unit\"], f[0][\"code\"]) == (\"fs/ramfs/inode.c\", 8, \"error\", \"fs/ramfs\", \"misplaced\"), f" out &&
	cp ck.orig/fs/ramfs/inode.c ck/fs/ramfs/ &&
	FORMAT=json $CT "$TRASH"/ck fs >out 2>err &&
	python3 -c "import json, sys; assert json.load(open(sys.argv[1])) == []" out
'

test_expect_success SPATCH "BASE=: only the units a git diff touches are checked" '
	fresh &&
	git -C ck init -q && git -C ck add -A && git -C ck -c user.name=t -c user.email=t@t commit -qm base &&
	sed -i "s/FS_USERNS_MOUNT,/FS_USERNS_MOUNT | FS_AUTOFREEZE,/" ck/fs/ramfs/inode.c &&
	git -C ck -c user.name=t -c user.email=t@t commit -qam "ramfs: flag" &&
	BASE=HEAD $CT "$TRASH"/ck fs >out 2>err &&
	test_cmp /dev/null out &&
	grep -qx "check-tree.sh: fs: 0 units with FS_AUTOFREEZE checked (of those BASE=HEAD touches): 0 errors" err &&
	test_exit_code 1 env BASE=HEAD~1 $CT "$TRASH"/ck fs >out 2>err &&
	grep -q "^fs/ramfs/inode.c:8:[0-9]*: error: " out &&
	grep -q "(of those BASE=HEAD~1 touches): 1 error" err &&
	put_back_try_to_freeze &&
	test_exit_code 1 env BASE=HEAD $CT "$TRASH"/ck fs >out 2>err &&
	test_line_count out 1 && grep -q "^fs/xfs/xfs_trans_ail.c:.*try_to_freeze in kernel thread xfsaild()" out &&
	grep -q ": 1 unit with FS_AUTOFREEZE checked (of those BASE=HEAD touches): 1 error" err &&
	git -C ck checkout -q fs/xfs/xfs_trans_ail.c
'

# commit_all DIR MESSAGE: every file of git work tree DIR committed
commit_all()
{
	git -C "$1" add -A && git -C "$1" -c user.name=t -c user.email=t@t commit -qm "$2"
}

# gitck DIR: ck.orig (converted, clean) at DIR, the top of its own git
# work tree, all of it committed
gitck()
{
	rm -rf "$1" && cp -a ck.orig "$1" &&
	git -C "$1" init -q && commit_all "$1" base
}

# The gate never passes for want of knowing what changed.
test_expect_success SPATCH "BASE= on a tree untracked inside another git work tree (as build/ trees are): exit 2, one line, with a regression in it" '
	rm -rf outer && mkdir outer && git -C outer init -q &&
	echo x >outer/README && commit_all outer readme &&
	cp -a ck.orig outer/linux &&
	put_back_in outer/linux/fs/xfs/xfs_trans_ail.c &&
	test_exit_code 2 env BASE=HEAD $CT "$TRASH"/outer/linux fs >out 2>err &&
	test_cmp /dev/null out && test_line_count err 1 &&
	grep -q "^check-tree.sh: BASE=HEAD: .*/outer/linux is not the top of its own git work tree (it lies inside .*/outer.s): cannot tell what changed" err &&
	echo linux/ >outer/.gitignore &&
	test_exit_code 2 env BASE=HEAD $CT "$TRASH"/outer/linux fs/xfs 2>err &&
	test_line_count err 1 && grep -q "is not the top of its own git work tree" err
'

test_expect_success SPATCH "BASE= on a tree tracked inside a larger repository (not the top of its own): exit 2, one line" '
	rm -rf super && mkdir super && cp -a ck.orig super/linux &&
	git -C super init -q && commit_all super base &&
	test_exit_code 2 env BASE=HEAD $CT "$TRASH"/super/linux fs 2>err &&
	test_line_count err 1 && grep -q "is not the top of its own git work tree" err
'

test_expect_success SPATCH "BASE= where git tracks no file of DIR: exit 2, one line" '
	rm -rf notr && cp -a ck.orig notr && git -C notr init -q &&
	git -C notr add Makefile && git -C notr -c user.name=t -c user.email=t@t commit -qm top &&
	put_back_in notr/fs/xfs/xfs_trans_ail.c &&
	test_exit_code 2 env BASE=HEAD $CT "$TRASH"/notr fs 2>err &&
	test_line_count err 1 &&
	grep -q "^check-tree.sh: BASE=HEAD: git tracks no file of fs in .*/notr: cannot tell what changed" err
'

test_expect_success SPATCH "BASE= a commit git cannot diff against (its tree object lost): exit 2, one line" '
	gitck lost &&
	tree=$(git -C lost rev-parse "HEAD^{tree}") &&
	rm -f lost/.git/objects/${tree:0:2}/${tree:2} &&
	git -C lost rev-parse -q --verify "HEAD^{commit}" >/dev/null &&
	test_exit_code 2 env BASE=HEAD $CT "$TRASH"/lost fs >out 2>err &&
	test_cmp /dev/null out && test_line_count err 1 &&
	grep -q "^check-tree.sh: BASE=HEAD: git diff failed: .*: cannot tell what changed" err
'

test_expect_success SPATCH "BASE=: a regression in a file whose name git quotes (a quote, a non-ASCII letter) is checked" '
	gitck odd &&
	git -C odd mv fs/xfs/xfs_trans_ail.c "fs/xfs/xfs \"trans\" ail-é.c" &&
	commit_all odd rename &&
	f="odd/fs/xfs/xfs \"trans\" ail-é.c" &&
	put_back_in "$f" &&
	test_exit_code 1 env BASE=HEAD $CT "$TRASH"/odd fs >out 2>err &&
	test_line_count out 1 && grep -q "try_to_freeze in kernel thread xfsaild()" out &&
	grep -q ": 1 unit with FS_AUTOFREEZE checked (of those BASE=HEAD touches): 1 error" err
'

test_expect_success SPATCH "BASE=: a new file not yet added to git, in a flagged unit, is checked" '
	gitck new &&
	cp "$FIXTURES"/try-to-freeze-value-used/mm/vmscan.c new/fs/xfs/xfs_manual.c &&
	test_exit_code 1 env BASE=HEAD $CT "$TRASH"/new fs >out 2>err &&
	grep -q "^fs/xfs/xfs_manual.c:.*: error: try_to_freeze: fs/xfs carries FS_AUTOFREEZE, yet this is still here" out &&
	grep -q "(of those BASE=HEAD touches): 3 errors" err
'

test_expect_success SPATCH "BASE=: a change to the suspend freeze (fs/super.c) checks every flagged unit of DIR" '
	gitck frz &&
	put_back_in frz/fs/xfs/xfs_trans_ail.c &&
	commit_all frz "regression, before BASE" &&
	echo "/* changed */" >>frz/fs/super.c && commit_all frz "the freeze" &&
	test_exit_code 1 env BASE=HEAD~1 $CT "$TRASH"/frz fs/xfs >out 2>err &&
	test_line_count out 1 && grep -q "try_to_freeze in kernel thread xfsaild()" out &&
	grep -q "^check-tree.sh: fs/xfs: 1 unit with FS_AUTOFREEZE checked (BASE=HEAD~1 touches the suspend freeze: fs/super.c): 1 error" err &&
	mkdir -p frz/kernel/power && echo "/* pm */" >frz/kernel/power/main.c && commit_all frz pm &&
	test_exit_code 1 env BASE=HEAD~1 $CT "$TRASH"/frz fs/xfs >out 2>err &&
	grep -q "touches the suspend freeze: kernel/power/main.c" err
'

test_expect_success SPATCH "BASE=: a change that only moves a file out of a flagged unit: the unit checked" '
	gitck ren &&
	put_back_in ren/fs/xfs/xfs_trans_ail.c &&
	commit_all ren regression &&
	git -C ren mv fs/xfs/xfs_wq.c fs/ramfs/wq.c && commit_all ren move &&
	test_exit_code 1 env BASE=HEAD~1 $CT "$TRASH"/ren fs >out 2>err &&
	grep -q "try_to_freeze in kernel thread xfsaild()" out &&
	grep -q "(of those BASE=HEAD~1 touches)" err
'

test_expect_success SPATCH "make check-tree: the same findings, a failing status" '
	test_must_fail make -s -C "$TOP" check-tree KTREE="$TRASH"/ck DIR=fs >out 2>err &&
	grep -q "^fs/ramfs/inode.c:8:[0-9]*: error: ramfs_fs_type carries FS_AUTOFREEZE" out &&
	make -s -C "$TOP" check-tree KTREE="$TRASH"/ck DIR=fs/xfs >out 2>err &&
	test_cmp /dev/null out
'

for bad in "FORMAT=xml:FORMAT=xml: unknown format" \
	"BASE=no-such-rev:BASE=no-such-rev: not a commit of" \
	"J=0:J=0: not a number of jobs"; do
	test_expect_success SPATCH "${bad%%:*}: exit 2, one line, nothing read" '
		test_exit_code 2 env "${bad%%:*}" $CT "$TRASH"/ck fs >out 2>err &&
		test_cmp /dev/null out && test_line_count err 1 &&
		grep -q "^check-tree.sh: ${bad#*:}" err
	'
done

test_expect_success SPATCH "BASE= on a tree that is not a git work tree: exit 2, one line" '
	ck_tree plain &&
	test_exit_code 2 env BASE=HEAD $CT "$TRASH"/plain fs >out 2>err &&
	test_line_count err 1 && grep -q "is not a git work tree" err
'

test_expect_success SPATCH "a missing KTREE, a DIR outside it: exit 2, one line" '
	test_exit_code 2 $CT "$TRASH"/nope fs 2>err && test_line_count err 1 &&
	test_exit_code 2 $CT "$TRASH"/ck ../.. 2>err && test_line_count err 1
'

test_done
