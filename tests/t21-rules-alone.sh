#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The rules on their own, as a kernel developer runs them without our
# Makefile: spatch by hand over the whole fs/ (and the drivers and mm
# files the freezer is used in), and make coccicheck with the rules
# copied into the tree's scripts/coccinelle/, in every mode.  Without
# the helper's -D units= a rule cannot see the whole unit, so it edits
# nothing: never a hunk make diff would not write, never a unit without
# its flag.  Report mode names only the uses in kernel threads and
# functions of fs/, as WARNING lines, and says where the full answer is.
# On 7.3 (make M=dir runs in dir since 6.13) with an absolute COCCI=,
# as the README has it; T21_VERSIONS="6.1 6.12 7.3" runs all three.

. "$(dirname "$0")/lib.sh"

RULES="kthread_freezer wq_freezable fs_autofreeze"
# kthread-context uses outside fs/ that a tree-wide run must leave alone
OUTSIDE="drivers/block/loop.c drivers/block/xen-blkback/blkback.c mm/khugepaged.c"

# by_hand TREE MODE RULE ARGS...: spatch as a user runs it from the
# tree's top.  The tree is no git work tree of its own (the kernel's
# .cocciconfig asks for git grep): spatch then picks the files itself.
by_hand()
{
	local tree=$1 mode=$2 rule=$3
	shift 3
	(cd "$tree" && GIT_CEILING_DIRECTORIES="${tree%/*}" \
		$SPATCH --sp-file "$COCCI/$rule.cocci" -D "$mode" --very-quiet \
		${SPATCH_PYTHON:+--python "$SPATCH_PYTHON"} "$@")
}

test_expect_success "make by-hand: a missing tree or DIR is one line, exit 2" '
	test_exit_code 2 "$TOP"/scripts/by-hand.sh "$TRASH"/nope fs >out 2>err &&
	test_line_count err 1 && grep -q "^by-hand.sh: " err && test_cmp /dev/null out &&
	mkdir -p tiny/fs && printf "VERSION = 7\nPATCHLEVEL = 3\n" >tiny/Makefile &&
	test_exit_code 2 "$TOP"/scripts/by-hand.sh "$TRASH"/tiny fs/nope >out 2>err &&
	test_line_count err 1 && grep -q "^by-hand.sh: " err && test_cmp /dev/null out
'

for v in ${T21_VERSIONS:-7.3}; do
	prereq=KTREE_${v/./_},SPATCH

	test_expect_success $prereq "$v: the tree after make vfs, and make diff DIR=fs" '
		tgt=$(target_tree $v) &&
		rm -rf t$v && ktree_link_copy "$tgt" t$v &&
		make -s -C "$TOP" diff KTREE="$TRASH"/t$v DIR=fs >make$v.diff &&
		grep -q "^+++ b/fs/xfs/" make$v.diff
	'

	for r in $RULES; do
		test_expect_success $prereq "$v: $r.cocci by hand over fs/ and kthread-context files outside it edits nothing" '
			by_hand "$TRASH"/t$v patch $r --dir fs >hand$v-$r.diff &&
			by_hand "$TRASH"/t$v patch $r $OUTSIDE >>hand$v-$r.diff &&
			test_cmp /dev/null hand$v-$r.diff
		'
	done

	test_expect_success $prereq "$v: report by hand: WARNING lines for threads and workqueues of fs/ only, each pointing to make report" '
		for r in $RULES; do
			by_hand "$TRASH"/t$v report $r --no-show-diff --dir fs &&
			by_hand "$TRASH"/t$v report $r --no-show-diff $OUTSIDE
		done >report$v &&
		grep -q "^fs/xfs/xfs_trans_ail.c:[0-9]*:[0-9]*-[0-9]*: WARNING: set_freezable in kernel thread xfsaild(): " report$v &&
		grep -q "^fs/xfs/xfs_super.c:[0-9]*:[0-9]*-[0-9]*: WARNING: freezable workqueue or worker in xfs_init_mount_workqueues(): " report$v &&
		! grep -v "^fs/[^:]*:[0-9]*:[0-9]*-[0-9]*: WARNING: .*, autofreeze.s make report tells$" report$v
	'

	test_expect_success $prereq "$v: each rule by hand on fs/xfs lets spatch pick its files by keyword" '
		for r in $RULES; do
			(cd "$TRASH"/t$v && GIT_CEILING_DIRECTORIES="${TRASH%/*}" \
				$SPATCH --sp-file "$COCCI/$r.cocci" -D report --no-show-diff \
				--use-coccigrep --dir fs/xfs 2>&1 >/dev/null) >kw$v-$r &&
			! grep "no inferred keywords" kw$v-$r &&
			grep -q "^[0-9]* files match" kw$v-$r || return 1
		done
	'

	# make by-hand: with the plan's -D values, spatch by hand makes
	# make diff's edits, hunk for hunk, flag included, unit by unit
	test_expect_success $prereq "$v: the command lines make by-hand prints, run by hand over fs/, give make diff DIR=fs" '
		make -s -C "$TOP" by-hand KTREE="$TRASH"/t$v DIR=fs >byhand$v.sh &&
		grep -q "^# fs/xfs\$" byhand$v.sh &&
		grep -q "fs_autofreeze.cocci .* -D fs_types=xfs_fs_type " byhand$v.sh &&
		# spatch --in-place writes into the file: fs/ a real copy
		rm -rf h$v && ktree_link_copy "$TRASH"/t$v h$v &&
		rm -rf h$v/fs && cp -a t$v/fs h$v/fs && touch before$v &&
		(cd h$v && GIT_CEILING_DIRECTORIES="$TRASH" bash -e "$TRASH"/byhand$v.sh) &&
		{ sed -n "s|^+++ b/||p" make$v.diff; (cd h$v && find fs -type f -newer ../before$v); } |
			LC_ALL=C sort -u >files$v &&
		"$TOP"/scripts/lib/tree-diff.sh t$v h$v $(cat files$v) >hand$v.diff &&
		test_cmp make$v.diff hand$v.diff
	'

	test_expect_success $prereq "$v: make coccicheck with the rules in scripts/coccinelle/, absolute COCCI=, M=fs" '
		mkdir -p t$v/scripts/coccinelle/autofreeze &&
		cp "$COCCI"/*.cocci t$v/scripts/coccinelle/autofreeze/ &&
		for r in $RULES; do
			for m in patch report context org; do
				env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL GIT_CEILING_DIRECTORIES="$TRASH" \
				make -s -C t$v coccicheck MODE=$m M=fs \
					COCCI="$TRASH"/t$v/scripts/coccinelle/autofreeze/$r.cocci >cc$v-$r.$m 2>cc$v-$r.$m.err ||
					{ cat cc$v-$r.$m.err; return 1; }
			done
		done &&
		{ cat cc$v-*.patch | grep "^[-+]" | grep -v "^\(---\|+++\) " >cc$v.edits || true; } &&
		test_cmp /dev/null cc$v.edits &&
		cat cc$v-*.report | grep -q "WARNING: set_freezable in kernel thread xfsaild()" &&
		! cat cc$v-*.report | grep ":[0-9]*:[0-9]*-[0-9]*: " | grep -v ": WARNING: "
	'
done

test_done
