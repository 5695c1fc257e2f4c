#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The rules on their own, as a kernel developer runs them without our
# Makefile: spatch by hand over the whole fs/ (and the drivers and mm
# files the freezer is used in), and make coccicheck with the rules
# copied into the tree's scripts/coccinelle/, in every mode.  A rule
# cannot see the whole unit, so with neither the helper's -D values nor
# the autofreeze command to ask for them it edits nothing.  With the
# command (AUTOFREEZE=, else on PATH) patch mode asks it for make diff's
# plan: fs_autofreeze.cocci flags, the removal rules convert only units
# that carry their flag, so that any rule alone, in any order, never
# writes a hunk make diff would not write nor a unit without its flag,
# and the three in that order give make diff's edits (coccicheck: in
# two passes).  Report mode names only the uses in kernel threads and
# functions of fs/, as WARNING lines, and says where the full answer is.
# On 7.3 (make M=dir runs in dir since 6.13) with an absolute COCCI=,
# as the README has it; T21_VERSIONS="6.1 6.12 7.3" runs all three.

. "$(dirname "$0")/lib.sh"

RULES="kthread_freezer wq_freezable fs_autofreeze"
# the order that gives make diff's edits by hand: the flag first; with
# the options the rules' headers name (a twin's definition may be in a
# header)
ORDER="fs_autofreeze kthread_freezer wq_freezable"
OPTIONS="--no-includes --include-headers"
# kthread-context uses outside fs/ that a tree-wide run must leave alone
OUTSIDE="drivers/block/loop.c drivers/block/xen-blkback/blkback.c mm/khugepaged.c"

# by_hand TREE MODE RULE ARGS...: spatch as a user runs it from the
# tree's top, with $tool the autofreeze command it may ask (none: no
# command).  The tree is no git work tree of its own (the kernel's
# .cocciconfig asks for git grep): spatch then picks the files itself.
tool=none
by_hand()
{
	local tree=$1 mode=$2 rule=$3
	shift 3
	(cd "$tree" && GIT_CEILING_DIRECTORIES="${tree%/*}" AUTOFREEZE=$tool \
		$SPATCH --sp-file "$COCCI/$rule.cocci" -D "$mode" --very-quiet \
		${SPATCH_PYTHON:+--python "$SPATCH_PYTHON"} "$@")
}

# real_copy TREE COPY: a copy of TREE whose fs/ spatch --in-place and
# patch may write (the rest hard links)
real_copy()
{
	rm -rf "$2" && ktree_link_copy "$1" "$2" &&
	rm -rf "$2/fs" && cp -a "$1/fs" "$2/fs"
}

# edits_of ORIG COPY STAMP MAKEDIFF: COPY's changes to ORIG as make diff
# prints them, in the files changed since STAMP or in MAKEDIFF
edits_of()
{
	"$TOP"/scripts/lib/tree-diff.sh "$1" "$2" $( { (cd "$2" && find fs -type f -newer "$TRASH/$3");
		sed -n "s|^+++ b/||p" "$4"; } | LC_ALL=C sort -u)
}

test_expect_success "make by-hand: a missing tree or DIR is one line, exit 2" '
	test_exit_code 2 "$TOP"/scripts/by-hand.sh "$TRASH"/nope fs >out 2>err &&
	test_line_count err 1 && grep -q "^by-hand.sh: " err && test_cmp /dev/null out &&
	mkdir -p tiny/fs && printf "VERSION = 7\nPATCHLEVEL = 3\n" >tiny/Makefile &&
	test_exit_code 2 "$TOP"/scripts/by-hand.sh "$TRASH"/tiny fs/nope >out 2>err &&
	test_line_count err 1 && grep -q "^by-hand.sh: " err && test_cmp /dev/null out
'

test_expect_success "make by-hand RULE=: a rule it does not know, a --dir in no kernel tree: one line, exit 2" '
	test_exit_code 2 env RULE=frob "$TOP"/scripts/by-hand.sh "$TRASH"/tiny fs >out 2>err &&
	test_line_count err 1 && grep -q "^by-hand.sh: RULE=frob: not " err && test_cmp /dev/null out &&
	test_exit_code 2 env RULE=wq_freezable SPATCH_DIR="$TRASH" "$TOP"/scripts/by-hand.sh x y >out 2>err &&
	test_line_count err 1 && grep -q "^by-hand.sh: SPATCH_DIR=.*: in no kernel tree" err && test_cmp /dev/null out
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
		test_expect_success $prereq "$v: $r.cocci by hand with no autofreeze command over fs/ and kthread-context files outside it edits nothing" '
			by_hand "$TRASH"/t$v patch $r --dir fs >hand$v-$r.diff 2>hand$v-$r.err &&
			by_hand "$TRASH"/t$v patch $r $OUTSIDE >>hand$v-$r.diff &&
			test_cmp /dev/null hand$v-$r.diff &&
			tool= by_hand "$TRASH"/t$v patch $r --dir fs/xfs >hand$v-$r.diff 2>hand$v-$r.err &&
			test_cmp /dev/null hand$v-$r.diff &&
			if command -v autofreeze >/dev/null; then :; else
				grep -q "^$r.cocci: no edits: they need autofreeze.s plan: install autofreeze" hand$v-$r.err
			fi
		'
	done

	for r in kthread_freezer wq_freezable; do
		test_expect_success $prereq "$v: $r.cocci alone by hand, asking autofreeze, edits no unit without its flag: nothing here" '
			tool="$TOP"/bin/autofreeze by_hand "$TRASH"/t$v patch $r --dir fs >ask$v-$r.diff 2>ask$v-$r.err &&
			for d in drivers/block drivers/block/xen-blkback mm; do
				tool="$TOP"/bin/autofreeze by_hand "$TRASH"/t$v patch $r --dir $d || return 1
			done >>ask$v-$r.diff 2>>ask$v-$r.err &&
			test_cmp /dev/null ask$v-$r.diff && ! grep "no edits" ask$v-$r.err
		'
	done

	test_expect_success $prereq "$v: make by-hand RULE= for a --dir outside fs/: no unit, no type" '
		for r in $RULES; do
			RULE=$r SPATCH_DIR="$TRASH"/t$v/mm "$TOP"/scripts/by-hand.sh x y || return 1
		done >outside$v &&
		printf "units=\nunits=\nfs_types=\n" >want$v &&
		test_cmp want$v outside$v
	'

	test_expect_success $prereq "$v: fs_autofreeze.cocci alone by hand, asking autofreeze: the flags of make diff DIR=fs, nothing else" '
		flag=$("$TOP"/scripts/autofreeze optin t$v | cut -f3) &&
		tool="$TOP"/bin/autofreeze by_hand "$TRASH"/t$v patch fs_autofreeze --dir fs >askflag$v.diff &&
		grep "^+[^+]" askflag$v.diff >added$v && grep -q "$flag" added$v &&
		! grep -v "$flag" added$v &&
		grep "^[-+][^-+]" askflag$v.diff | while IFS= read -r l; do
			grep -qxF -- "$l" make$v.diff || { echo "not in make diff: $l"; return 1; }
		done
	'

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
		real_copy "$TRASH"/t$v h$v && touch before$v &&
		(cd h$v && GIT_CEILING_DIRECTORIES="$TRASH" bash -e "$TRASH"/byhand$v.sh) &&
		edits_of t$v h$v before$v make$v.diff >hand$v.diff &&
		test_cmp make$v.diff hand$v.diff
	'

	test_expect_success $prereq "$v: by hand, asking autofreeze, the rules in order on fs/xfs give make diff DIR=fs/xfs" '
		make -s -C "$TOP" diff KTREE="$TRASH"/t$v DIR=fs/xfs >makexfs$v.diff &&
		grep -q "^+.*FS_.*FREEZE" makexfs$v.diff &&
		real_copy "$TRASH"/t$v x$v && touch stampx$v &&
		for r in $ORDER; do
			tool="$TOP"/bin/autofreeze by_hand "$TRASH"/x$v patch $r $OPTIONS --in-place --dir fs/xfs >/dev/null || return 1
		done &&
		edits_of t$v x$v stampx$v makexfs$v.diff >handxfs$v.diff &&
		test_cmp makexfs$v.diff handxfs$v.diff
	'

	test_expect_success $prereq "$v: by hand, asking autofreeze, the rules in order over the whole tree give make diff DIR=fs" '
		real_copy "$TRASH"/t$v w$v && touch stampw$v &&
		for r in $ORDER; do
			tool="$TOP"/bin/autofreeze by_hand "$TRASH"/w$v patch $r $OPTIONS --in-place --dir . --jobs 2 --chunksize 1 >/dev/null || return 1
		done &&
		edits_of t$v w$v stampw$v make$v.diff >handw$v.diff &&
		test_cmp make$v.diff handw$v.diff
	'

	test_expect_success $prereq "$v: by hand, asking autofreeze, on the tree make diff refuses (before make vfs): no edit, the refusal said" '
		src="$TOP"/build/linux-source-$v &&
		test_exit_code 2 make -s -C "$TOP" diff KTREE="$src" DIR=fs/xfs >/dev/null 2>&1 &&
		for r in $RULES; do
			tool="$TOP"/bin/autofreeze by_hand "$src" patch $r --dir fs/xfs >raw$v-$r.diff 2>raw$v-$r.err &&
			test_cmp /dev/null raw$v-$r.diff &&
			grep -q "^$r.cocci: no edits: by-hand.sh: .*make vfs" raw$v-$r.err || { cat raw$v-$r.err; return 1; }
		done
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

	# coccicheck runs each rule on the tree as it is: the first pass
	# flags, the second, on the flagged tree, converts
	test_expect_success $prereq "$v: make coccicheck MODE=patch with autofreeze on PATH: the flags, then make diff DIR=fs" '
		flag=$("$TOP"/scripts/autofreeze optin t$v | cut -f3) &&
		real_copy "$TRASH"/t$v c$v && touch stampc$v &&
		mkdir -p c$v/scripts/coccinelle/autofreeze &&
		cp "$COCCI"/*.cocci c$v/scripts/coccinelle/autofreeze/ &&
		for pass in 1 2; do
			for r in $RULES; do
				env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u AUTOFREEZE \
					PATH="$TOP/bin:$PATH" GIT_CEILING_DIRECTORIES="$TRASH" \
				make -s -C c$v coccicheck MODE=patch M=fs \
					COCCI="$TRASH"/c$v/scripts/coccinelle/autofreeze/$r.cocci >ccp$v-$pass-$r 2>&1 ||
					{ cat ccp$v-$pass-$r; return 1; }
			done &&
			for r in $RULES; do
				sed -n "/^diff -u -p /,\$p" ccp$v-$pass-$r
			done >ccp$v-$pass.patch &&
			if [ $pass = 1 ]; then
				grep "^+[^+]" ccp$v-1.patch >added$v && grep -q "$flag" added$v &&
				! grep -v "$flag" added$v || return 1
			fi &&
			(cd c$v && patch -p1 -s <../ccp$v-$pass.patch) || return 1
		done &&
		edits_of t$v c$v stampc$v make$v.diff >ccp$v.diff &&
		test_cmp make$v.diff ccp$v.diff
	'
done

test_done
