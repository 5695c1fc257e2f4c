#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make series on a small git tree: one commit per converted unit with
# its flag and its removals together, a message that says what was
# removed, why the freeze covers it and how it was made; git
# format-patch into OUT with a cover letter accounting for every unit;
# git am takes the series on a fresh copy; check-tree passes after it;
# bad input changes nothing.
# test-run: light

. "$(dirname "$0")/lib.sh"

# the fixtures' threads and workqueues, judged for these tests
JUDGMENTS=$TESTS/helper/judgments.tsv
export JUDGMENTS

SE=$TOP/scripts/series.sh

# git_tree DIR: ck_tree in a git work tree, one commit, an identity
git_tree()
{
	ck_tree "$1" &&
	git -C "$1" init -q && git -C "$1" add -A &&
	git -C "$1" config user.name "Ann Dev" &&
	git -C "$1" config user.email ann@example.org &&
	git -C "$1" commit -qm base
}

test_expect_success SPATCH "set up a git tree and a fresh copy of it" '
	make -s -C "$TOP" helper >/dev/null &&
	git_tree kt && git clone -q kt fresh
'

test_expect_success SPATCH "series: one commit for fs/xfs, a cover letter and one patch in OUT" '
	$SE "$TRASH"/kt fs "$TRASH"/out 2>err &&
	test "$(git -C kt rev-list --count HEAD)" = 2 &&
	git -C kt show --stat HEAD >stat &&
	grep -q "fs/xfs/xfs_super.c" stat && grep -q "fs/xfs/xfs_trans_ail.c" stat &&
	grep -q "fs/xfs/xfs_wq.c" stat &&
	test "$(ls out | wc -l)" = 2 &&
	ls out/0000-cover-letter.patch out/0001-xfs-replace-kthread-freezing-with-filesystem-freezin.patch &&
	grep -q "^series.sh: 1 patch and a cover letter in $TRASH/out" err &&
	git -C kt diff --quiet HEAD
'

test_expect_success SPATCH "the commit: subject, what was removed and why, how it was made, signed off" '
	git -C kt log -1 --format=%B >msg &&
	head -n 1 msg >subject &&
	grep -qx "xfs: replace kthread freezing with filesystem freezing on suspend" subject &&
	tr "\n" " " <msg | sed "s/  */ /g" >msg1 &&
	grep -q "Set FS_AUTOFREEZE on xfs_fs_type, and take the kernel threads and workqueues of fs/xfs off the kthread freezer" msg1 &&
	grep -q -- "- fs/xfs/xfs_trans_ail.c:27,31,33,93 (set_freezable, TASK_FREEZABLE, try_to_freeze), in kernel thread xfsaild(). Quiesced: fixture judgment: xfsaild() pushes the AIL (xfs_trans_ail.c:95)" msg1 &&
	grep -q -- "- fs/xfs/xfs_wq.c:14,20,26,32,38,44 (WQ_FREEZABLE), workqueue flag in xfs_init_mount_workqueues(). Quiesced: fixture judgment: the mount.s workqueues (xfs_wq.c:13)" msg1 &&
	grep -q "^  spatch --sp-file kthread_freezer.cocci -D patch --in-place" msg &&
	grep -qx "  kfns=xfsaild" msg &&
	grep -qx "      -D kthread_fns=\$kfns \\\\" msg &&
	grep -qx "      -D fs_types=xfs_fs_type \\\\" msg &&
	grep -qx "      -D flag=FS_AUTOFREEZE \\\\" msg &&
	grep -q "make check-tree finds no freezer use left" msg &&
	! grep -q "compiles" msg &&
	grep -qx "Signed-off-by: Ann Dev <ann@example.org>" msg &&
	test "$(awk "length > 75" msg | wc -l)" = 0
'

test_expect_success SPATCH "the cover letter accounts for every unit" '
	c=out/0000-cover-letter.patch &&
	grep -q "^Subject: \[PATCH 0/1\] fs: replace kthread freezing with filesystem freezing on suspend" $c &&
	grep -q "sets it on 1 filesystem and" $c &&
	grep -q "^  fs/xfs (xfs_fs_type)" $c &&
	sed -n "/^No kthread freezer use to convert:/,/^\$/p" $c | grep -q "fs/ramfs" &&
	! grep -q "\*\*\*" $c
'

test_expect_success SPATCH "git am takes the series on a fresh copy: the same tree" '
	git -C fresh config user.name t && git -C fresh config user.email t@t &&
	git -C fresh am -q "$TRASH"/out/0001-*.patch &&
	test "$(git -C fresh rev-parse HEAD^{tree})" = "$(git -C kt rev-parse HEAD^{tree})"
'

test_expect_success SPATCH "check-tree passes after the series; series again converts nothing" '
	$TOP/scripts/check-tree.sh "$TRASH"/kt fs 2>err &&
	grep -q "1 unit with FS_AUTOFREEZE checked: 0 errors" err &&
	$SE "$TRASH"/kt fs "$TRASH"/out2 2>err &&
	grep -q "nothing to convert, no series" err &&
	test "$(git -C kt rev-list --count HEAD)" = 2
'

test_expect_success SPATCH "bad input: one line, exit 2, nothing changed" '
	head=$(git -C kt rev-parse HEAD) &&
	test_exit_code 2 $SE "$TRASH"/kt fs out 2>err && test_line_count err 1 &&
	grep -q "OUT=out: exists and is not an empty directory" err &&
	test_exit_code 2 $SE "$TRASH"/kt fs "" 2>err && test_line_count err 1 &&
	echo "/* edit */" >>kt/fs/xfs/xfs_super.c &&
	test_exit_code 2 $SE "$TRASH"/kt fs out3 2>err && test_line_count err 1 &&
	grep -q "uncommitted changes" err && test ! -e out3 &&
	git -C kt checkout -q fs/xfs/xfs_super.c &&
	ck_tree plain &&
	test_exit_code 2 $SE "$TRASH"/plain fs out4 2>err && test_line_count err 1 &&
	grep -q "not a git work tree" err &&
	test "$(git -C kt rev-parse HEAD)" = "$head"
'

test_expect_success SPATCH "a step that fails after the files were replaced: exit 1, the unit put back" '
	git_tree hooked &&
	printf "#!/bin/sh\nexit 1\n" >hooked/.git/hooks/pre-commit &&
	chmod +x hooked/.git/hooks/pre-commit &&
	test_exit_code 1 $SE "$TRASH"/hooked fs "$TRASH"/out6 2>err &&
	grep -q "^series.sh: fs/xfs: git commit failed" err &&
	git -C hooked diff --quiet HEAD &&
	test "$(git -C hooked rev-list --count HEAD)" = 1
'

test_expect_success SPATCH "a git tree without an identity: exit 2 before any change" '
	ck_tree anon && git -C anon init -q && git -C anon add -A &&
	git -C anon -c user.name=t -c user.email=t@t commit -qm base &&
	test_exit_code 2 env HOME="$TRASH" GIT_CONFIG_NOSYSTEM=1 \
		GIT_AUTHOR_NAME= GIT_COMMITTER_NAME= EMAIL= \
		$SE "$TRASH"/anon fs out5 2>err &&
	test_line_count err 1 && grep -q "no identity" err &&
	test "$(git -C anon rev-list --count HEAD)" = 1
'

test_done
