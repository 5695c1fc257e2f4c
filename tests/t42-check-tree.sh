#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-tree, the gate for kernel trees: clean on a converted tree and
# on one never converted; on a converted unit it names, file:line:col,
# a try_to_freeze() put back into its thread, a WQ_FREEZABLE put back
# into its workqueue, a use no rule converts, a type of it that lacks
# the flag, and the flag on a type that should not carry it; BASE=
# checks only the units a git diff touches; bad input is exit 2, one
# line; the tree is only read.
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

# put_back_try_to_freeze: the try_to_freeze() of xfsaild()'s loop
# again, where 6.1 has it: before "tout = xfsaild_push(ailp);"
put_back_try_to_freeze()
{
	sed -i "s/^\(\t*\)tout = xfsaild_push(ailp);/\1try_to_freeze();\n&/" \
		ck/fs/xfs/xfs_trans_ail.c &&
	test "$(grep -c "try_to_freeze();" ck/fs/xfs/xfs_trans_ail.c)" = 1
}

# at FILE PATTERN: "FILE:LINE:COL" of the first PATTERN (a fixed
# string) in FILE, relative to the tree ck
at()
{
	awk -v f="$1" -v p="$2" 'i = index($0, p) {
		printf "%s:%d:%d\n", f, NR, i; exit }' "ck/$1"
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
	test_exit_code 1 $CT "$TRASH"/ck fs >out 2>err &&
	test_line_count out 1 &&
	grep -qx "$where: error: try_to_freeze in kernel thread xfsaild(): fs/xfs carries FS_AUTOFREEZE, yet this is still here: cocci/kthread_freezer.cocci would remove it (make apply DIR=fs/xfs)" out &&
	grep -qx "check-tree.sh: fs: 1 unit with FS_AUTOFREEZE checked: 1 error" err
'

test_expect_success SPATCH "a WQ_FREEZABLE put back into an xfs workqueue: exit 1, file:line:col" '
	fresh &&
	sed -i "0,/WQ_MEM_RECLAIM/s//WQ_FREEZABLE | WQ_MEM_RECLAIM/" ck/fs/xfs/xfs_wq.c &&
	where=$(at fs/xfs/xfs_wq.c WQ_FREEZABLE) &&
	test_exit_code 1 $CT "$TRASH"/ck fs >out 2>err &&
	test_line_count out 1 &&
	grep -qx "$where: error: WQ_FREEZABLE workqueue flag in xfs_init_mount_workqueues(): fs/xfs carries FS_AUTOFREEZE, yet this is still here: cocci/wq_freezable.cocci would remove it (make apply DIR=fs/xfs)" out
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
	test_exit_code 1 $CT "$TRASH"/ck fs >out 2>err &&
	test_line_count out 1 &&
	grep -qx "$where: error: ramfs_fs_type carries FS_AUTOFREEZE, but fs/ramfs is not eligible: not block-backed: no FS_REQUIRES_DEV file_system_type" out &&
	grep -qx "check-tree.sh: fs: 2 units with FS_AUTOFREEZE checked: 1 error" err
'

test_expect_success SPATCH "a second type of a flagged unit without the flag: exit 1, fs_autofreeze would add it" '
	fresh &&
	sed -n "/^static struct file_system_type xfs_fs_type/,/^};/p" ck.orig/fs/xfs/xfs_super.c |
		sed "s/xfs_fs_type/xfs2_fs_type/; s/ | FS_AUTOFREEZE//" >>ck/fs/xfs/xfs_super.c &&
	where=$(awk "/xfs2_fs_type/ { f = 1 } f && i = index(\$0, \".fs_flags\") { printf \"fs/xfs/xfs_super.c:%d:%d\", NR, i; exit }" ck/fs/xfs/xfs_super.c) &&
	test_exit_code 1 $CT "$TRASH"/ck fs >out 2>err &&
	test_line_count out 1 &&
	grep -qx "$where: error: xfs2_fs_type lacks FS_AUTOFREEZE, which the other types of fs/xfs carry: cocci/fs_autofreeze.cocci would add it" out
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
