#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make series on git copies of the Debian trees: 7.3 as it is (the
# series opens with what its suspend freeze lacks, patches/
# linux-mainline/, and converts btrfs whole), 6.12 and 6.1 on top of our
# core series (its commits made by make vfs).  Each series passes the
# tree's checkpatch.pl --strict with nothing reported, CHECK included
# (series.sh fails otherwise), has To: and Cc: from its get_maintainer.pl
# (the cover letter and the freeze's own patches also to the VFS and PM
# lists), its cover letter names every unit under fs/, git am takes it
# on a fresh copy, the checked-out branch has not moved, and check-tree
# passes on the series' branch.  7.3's commits are compiled
# (allmodconfig, the default); the others' where KTREE_COMPILE names
# their version ("1": all).

. "$(dirname "$0")/lib.sh"

# git_copy V DIR: a hard-linked copy of the Debian V tree, a git work
# tree whose first commit holds what the series, checkpatch,
# get_maintainer and the core series read; an identity
git_copy()
{
	local src=$TOP/build/linux-source-$1 core
	ktree_link_copy "$src" "$2" &&
	core=$(grep -h "^diff --git a/" "$TOP"/patches/linux-*/*.patch |
		awk '{ print substr($3, 3) }' | sort -u) &&
	(cd "$2" && git init -q &&
		git add -f fs include scripts MAINTAINERS Makefile Kconfig \
			Documentation/process $core &&
		git -c user.name=base -c user.email=base@localhost commit -qm base &&
		git config user.name "Ann Dev" && git config user.email ann@example.org)
}

# subject PATCH: its subject, unfolded, without "[PATCH n/m] "
subject()
{
	awk '/^Subject: / { s = $0; while ((getline l) > 0 && l ~ /^ /) s = s l; print s; exit }' "$1" |
		sed 's/^Subject: \[PATCH [0-9]*\/[0-9]*\] //'
}

# compiled V: V is compiled: 7.3, or KTREE_COMPILE asks for it
compiled()
{
	case " ${KTREE_COMPILE:-} " in
	" 1 "|*" $1 "*) return 0 ;;
	esac
	[ "$1" = 7.3 ]
}

for v in 7.3 6.12 6.1; do
	prereq=SPATCH,KTREE_${v//./_}
	test_expect_success $prereq "linux-source-$v: make series DIR=fs: checkpatch --strict reports nothing, To: and Cc:, the branch did not move" '
		git_copy $v s$v &&
		base=$(git -C s$v rev-parse HEAD) && echo $base >base$v &&
		build=0 && if compiled $v; then build=1; fi &&
		COMPILE=$build O="$TRASH"/obj$v make -s -C "$TOP" series KTREE="$TRASH"/s$v DIR=fs OUT="$TRASH"/out$v 2>err$v &&
		grep -q "^series.sh: \([0-9]* patches for the suspend freeze, \)\?[0-9]* patches and a cover letter in $TRASH/out$v, on branch autofreeze/fs " err$v &&
		! grep "^series.sh: checkpatch" err$v | grep -v ": not counted\$" &&
		test "$(git -C s$v rev-parse HEAD)" = "$base" &&
		test -z "$(git -C s$v status --porcelain -uno)" &&
		n=$(ls out$v | grep -vc "^0000-") &&
		test "$n" -ge 7 &&
		for p in out$v/00*.patch; do
			grep -q "^To: .*@" $p &&
			grep -q "^\(To\|Cc\): .*@vger.kernel.org" $p || return 1
		done &&
		grep -q "^Cc: .*linux-fsdevel@vger.kernel.org" out$v/0000-cover-letter.patch &&
		grep -q "^Cc: .*linux-pm@vger.kernel.org" out$v/0000-cover-letter.patch &&
		tr "\n" " " <out$v/0000-cover-letter.patch | tr -s " " >cover$v &&
		if [ $build = 1 ]; then
			grep -q "Every object the series touches compiles with allmodconfig at its head" cover$v
		else
			grep -q "Not compiled by autofreeze (COMPILE=0)" cover$v
		fi
	'

	# checkpatch asks for a comment beside any waitqueue_active() a patch
	# touches; f2fs gc.c has one on a line the series only re-indents
	# (the renamed wait's arguments aligned): series.sh names it, and it
	# is the only finding allowed
	test_expect_success $prereq "linux-source-$v: checkpatch --strict reports nothing on any patch, but a comment asked of code only re-indented" '
		for p in out$v/00*.patch; do
			case $p in */0000-*) continue ;; esac
			(cd s$v && perl scripts/checkpatch.pl --strict --show-types --no-summary -q "$TRASH/$p") >cp.log 2>&1 || true
			grep -v "^WARNING:WAITQUEUE_ACTIVE:" cp.log | grep "^\(ERROR\|WARNING\|CHECK\)" && { cat cp.log; return 1; }
			sed -n "s/^#[0-9]*: FILE: \(.*\):\$/\1/p" cp.log >moved.where
			while read -r w; do
				grep -q "^series.sh: checkpatch --strict: $w: WAITQUEUE_ACTIVE, on a line the patch only re-indents: not counted" err$v || return 1
				f=${w%:*} l=${w##*:}
				line=$(git -C s$v show autofreeze/fs:$f | sed -n "${l}p" | tr -d " \t") &&
				! git -C s$v diff -w "$(cat base$v)" autofreeze/fs -- $f | grep "^+" | tr -d " \t" | grep -qxF "+$line" || return 1
			done <moved.where
		done &&
		sed -n "s/^series.sh: checkpatch --strict: \(.*\): \([A-Z_]*\), on a line the patch only re-indents: not counted\$/\1 (\2)/p" err$v >reindented$v &&
		while read -r n; do
			grep -qF "$n" cover$v || { echo "cover letter does not name $n"; return 1; }
		done <reindented$v &&
		if [ -s reindented$v ]; then
			grep -q "checkpatch.pl --strict reports nothing on any patch but fs/" cover$v
		else
			grep -q "checkpatch.pl --strict reports nothing on any patch\." cover$v
		fi &&
		for p in out$v/00*-*-replace-*.patch out$v/00*-*-freeze-the-*.patch; do
			[ -e "$p" ] || continue
			subject $p | grep -q "^[a-z0-9]*: " || { subject $p; return 1; }
		done
	'

	if [ $v = 7.3 ]; then
		test_expect_success $prereq "linux-source-$v: the series opens with patches/linux-mainline/, then converts btrfs whole" '
			grep -q "^series.sh: 4 patches for the suspend freeze, " err$v &&
			for p in "$TOP"/patches/linux-mainline/000[1-9]-*.patch; do
				subject $p
			done >want$v &&
			for p in out$v/000[1-4]-*.patch; do
				subject $p
			done >got$v &&
			test_cmp want$v got$v &&
			grep -q "^Signed-off-by: Ann Dev <ann@example.org>" out$v/0001-*.patch &&
			btrfs=$(grep -l "^+.*alloc_ordered_workqueue(\"btrfs-discard\", 0);" out$v/*.patch) &&
			grep -q "FS_POWER_FREEZE" $btrfs &&
			sed -n "/^Kept, and why:/,/^Generated by/p" $btrfs | grep "^- " >kept$v &&
			! grep -v "(freezing\|TASK_FREEZABLE)" kept$v &&
			! grep "WQ_FREEZABLE" kept$v
		'
	fi

	test_expect_success $prereq "linux-source-$v: the cover letter names every unit under fs/" '
		"$TOP"/scripts/autofreeze plan "$TRASH"/s$v fs | awk -F"\t" "\$1 == \"unit\" { print \$2 }" >units$v &&
		tr ",\n" "  " <out$v/0000-cover-letter.patch | tr -s " " "\n" |
			sed "s/[:(]\$//" | sort -u >named$v &&
		comm -23 <(sort units$v) named$v >missing$v &&
		test_cmp /dev/null missing$v
	'

	test_expect_success $prereq "linux-source-$v: git am takes the series on a fresh copy: the same tree" '
		git clone -q s$v fresh$v &&
		git -C fresh$v reset -q --hard "$(sed -n "s/^base-commit: //p" out$v/0000-cover-letter.patch)" &&
		mapfile -t patches < <(ls "$TRASH"/out$v/*.patch | grep -v /0000-) &&
		git -C fresh$v -c user.name=t -c user.email=t@t am -q "${patches[@]}" &&
		test "$(git -C fresh$v rev-parse HEAD^{tree})" = "$(git -C s$v rev-parse autofreeze/fs^{tree})"
	'

	test_expect_success $prereq "linux-source-$v: check-tree passes on the series' branch" '
		git -C s$v checkout -q autofreeze/fs &&
		$TOP/scripts/check-tree.sh "$TRASH"/s$v fs 2>err &&
		grep -q ": 0 errors$" err
	'

	# xfsaild() called try_to_freeze() just before
	# "tout = xfsaild_push(ailp);" in 6.1, 6.12 and 7.3 (sed -i writes a new
	# file: the hard-linked source tree is not touched)
	test_expect_success $prereq "linux-source-$v: a try_to_freeze() put back into xfsaild(): check-tree names it, file:line:col; BASE= sees it" '
		f=fs/xfs/xfs_trans_ail.c &&
		sed -i "s/^\(\t*\)tout = xfsaild_push(ailp);/\1try_to_freeze();\n&/" s$v/$f &&
		line=$(grep -n "^	*try_to_freeze();\$" s$v/$f | cut -d: -f1) &&
		test -n "$line" &&
		test_exit_code 1 $TOP/scripts/check-tree.sh "$TRASH"/s$v fs >out 2>err &&
		grep -qx "$f:$line:3: error: try_to_freeze in kernel thread xfsaild(): fs/xfs carries FS_[A-Z_]*, yet this is still here: cocci/kthread_freezer.cocci would remove it (make apply DIR=fs/xfs)" out &&
		test_exit_code 1 env BASE=HEAD $TOP/scripts/check-tree.sh "$TRASH"/s$v fs >out 2>err &&
		grep -q "1 unit with FS_[A-Z_]* checked (of those BASE=HEAD touches): 1 error" err &&
		git -C s$v checkout -q $f
	'
done

test_done
