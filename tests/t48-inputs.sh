#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inputs are data.  Every make variable reaches its script as one
# argument or environment value, never as shell text: a quote, a
# backtick, a $(...), a space or a newline in KTREE, DIR, BASE, J, O,
# OUT, FILES, CHANGES, FORMAT and the others runs nothing; the value
# works (a path with a space or a quote) or is refused in one line.  And
# the helper reads only regular files inside the tree: a symbolic link
# out of it, a FIFO, are refused in one line, never followed or waited
# on.
# test-run: light

. "$(dirname "$0")/lib.sh"

JUDGMENTS=$TESTS/helper/judgments.tsv
export JUDGMENTS

S=$TOP/scripts

# What a hostile value would run: each creates $TRASH/PWNED.
pwn=$TRASH/PWNED
hostile=(
	"\`touch $pwn\`"
	"\$\$(touch $pwn)"
	"\"; touch $pwn; \""
	"'; touch $pwn; '"
	"x\$\$(touch $pwn)y \"q\" 'a'"
	$'line\none'
)

# no_pwn: nothing ran
no_pwn()
{
	if [ -e "$pwn" ]; then
		echo "a value ran as a command" && rm -f "$pwn" && return 1
	fi
}

# one_line_from PROG: stderr (err) is one line naming PROG, besides
# make's own "make: *** [...] Error 2" ("make[1]: ..." under make check)
one_line_from()
{
	grep -vE "^make(\[[0-9]+\])?: \*\*\* " err >err.script
	test_line_count err.script 1 && grep -q "^$1: " err.script
}

test_expect_success SPATCH "set up: a tree at a path with a space, quotes, a backtick and a dollar" '
	make -s -C "$TOP" helper >/dev/null &&
	ck_tree "odd \"dir\" '\''x'\'' \`y\`/ck" &&
	ck_tree "odd \$(touch $pwn)/ck" &&
	ck_tree ck
'

test_expect_success SPATCH "make check-tree, report, diff on a KTREE with a space and quotes: they work" '
	k="$TRASH/odd \"dir\" '\''x'\'' \`y\`/ck" &&
	make -s -C "$TOP" check-tree KTREE="$k" DIR=fs >out 2>err &&
	test_cmp /dev/null out &&
	grep -qx "check-tree.sh: fs: 0 units with FS_AUTOFREEZE checked: 0 errors" err &&
	make -s -C "$TOP" report KTREE="$k" DIR=fs/xfs >out 2>err &&
	grep -q "^fs/xfs" out &&
	make -s -C "$TOP" diff KTREE="$k" DIR=fs/xfs >out 2>err &&
	grep -q "^+++ b/fs/xfs/xfs_trans_ail.c" out &&
	no_pwn
'

# make expands a $ of its command line ($$ is one), not of the
# environment: a path with a $ goes there
test_expect_success SPATCH "make check-tree with KTREE=<a path with \$(...)> in the environment: it works, nothing runs" '
	KTREE="$TRASH/odd \$(touch $pwn)/ck" make -s -C "$TOP" check-tree DIR=fs >out 2>err &&
	grep -qx "check-tree.sh: fs: 0 units with FS_AUTOFREEZE checked: 0 errors" err &&
	no_pwn
'

# make_bad VAR TARGET PROG [VAR=VALUE...]: each hostile value of VAR to
# make TARGET (with the other assignments): nothing runs, exit 2, one
# line from PROG.
make_bad()
{
	local var=$1 target=$2 prog=$3 v rc
	shift 3
	for v in "${hostile[@]}"; do
		rc=0
		make -s -C "$TOP" "$target" "$@" "$var=$v" >out 2>err </dev/null || rc=$?
		no_pwn || { echo "$var=$v"; return 1; }
		if [ $rc -ne 2 ] || ! one_line_from "$prog"; then
			echo "$var=$v: exit $rc"; cat err; return 1
		fi
	done
}

for c in "KTREE check-tree check-tree.sh" "DIR check-tree check-tree.sh" \
	"BASE check-tree check-tree.sh" "FORMAT check-tree check-tree.sh" \
	"KTREE report report.sh" "DIR diff diff.sh" \
	"KTREE apply apply.sh" "KTREE vfs vfs.sh"; do
	set -- $c
	test_expect_success SPATCH "make $2 $1=<quote, backtick, \$(...), newline>: nothing runs, exit 2, one line" '
		set -- $c &&
		make_bad "$1" "$2" "$3" KTREE="$TRASH/ck" DIR=fs
	'
done

# J's refusal is jobs_check's (scripts/lib/ktree.sh), report.sh's of
# FORMAT its own: a newline in them is left out here, those lines quote
# the value as given.
test_expect_success SPATCH "make check-tree J=, make report FORMAT=<quote, backtick, \$(...)>: nothing runs, exit 2, one line" '
	unset "hostile[5]" &&
	make_bad J check-tree check-tree.sh KTREE="$TRASH/ck" DIR=fs &&
	make_bad FORMAT report report.sh KTREE="$TRASH/ck" DIR=fs
'

# The variables of make series, build-check, e2e, deps and bench: on a
# KTREE that is not there each script refuses before any work; the
# value must not have run on the way.
for c in "OUT series series.sh" "O series series.sh" "CHANGES series series.sh" \
	"BRANCH series series.sh" "SUBJECT_PREFIX series series.sh" \
	"REROLL series series.sh" "IN_REPLY_TO series series.sh" \
	"ADD_TO series series.sh" "ADD_CC series series.sh" \
	"SMPL_URL series series.sh" "COMPILE series series.sh" \
	"O build-check build-check.sh" "FILES build-check build-check.sh" \
	"KCONFIG build-check build-check.sh"; do
	set -- $c
	test_expect_success "make $2 $1=<hostile> on a missing KTREE: nothing runs" '
		set -- $c && v= && rc=0 &&
		for v in "${hostile[@]}"; do
			make -s -C "$TOP" "$2" KTREE="$TRASH/nope" DIR=fs "$1=$v" \
				>out 2>err </dev/null && return 1
			no_pwn || return 1
			grep -q "^$3: " err || { cat err; return 1; }
		done
	'
done

test_expect_success "make e2e KVER=<hostile>, make deps DEPS=<hostile>, make bench BENCH_TREES=<hostile>: nothing runs, one line" '
	v= &&
	for v in "${hostile[@]:0:4}"; do
		test_exit_code 2 make -s -C "$TOP" e2e "KVER=$v" >out 2>err </dev/null &&
		no_pwn && one_line_from e2e.sh &&
		test_exit_code 2 make -s -C "$TOP" deps "DEPS=$v" >out 2>err </dev/null &&
		no_pwn && one_line_from deps.sh &&
		test_must_fail make -s -C "$TOP" bench "BENCH_TREES=$v" >out 2>err </dev/null &&
		no_pwn && grep -q "^bench.sh: " err || return 1
	done
'

test_expect_success "make -n and make help with hostile values: they work, nothing runs" '
	v= &&
	for v in "${hostile[@]}"; do
		make -s -C "$TOP" -n check-tree series build-check "KTREE=$v" "BASE=$v" "OUT=$v" "O=$v" >out 2>err &&
		grep -q "check-tree.sh\" \"\$KTREE\" \"\$DIR\"" out &&
		make -s -C "$TOP" help "KTREE=$v" >out 2>err &&
		grep -q "^ *check-tree  *the CI gate" out && grep -q "(default KTREE: " out &&
		no_pwn || return 1
	done
'

# The helper reads only regular files inside the tree.
test_expect_success SPATCH "a unit's Makefile a symbolic link out of the tree: exit 2, one line naming it, not read" '
	rm -rf out-mk && ck_tree lnk && mkdir out-mk &&
	cp lnk/fs/xfs/Makefile out-mk/Makefile &&
	ln -sf "$TRASH"/out-mk/Makefile lnk/fs/xfs/Makefile &&
	cp -a lnk lnk.orig &&
	test_exit_code 2 $S/diff.sh "$TRASH"/lnk fs >out 2>err &&
	test_cmp /dev/null out && one_line_from diff.sh &&
	grep -q "lnk/fs/xfs/Makefile: leads outside the kernel tree .*(to $TRASH/out-mk/Makefile, through a symbolic link or ..): not read" err &&
	diff -r lnk.orig lnk
'

test_expect_success SPATCH "fs/super.c, include/linux/fs.h a symbolic link out of the tree: exit 2, one line" '
	ck_tree lnk2 && mv lnk2/fs/super.c super.c &&
	ln -s "$TRASH"/super.c lnk2/fs/super.c &&
	test_exit_code 2 $S/report.sh "$TRASH"/lnk2 fs/xfs >out 2>err &&
	one_line_from report.sh && grep -q "fs/super.c: leads outside the kernel tree" err &&
	ck_tree lnk3 && mv lnk3/include/linux/fs.h fs.h &&
	ln -s "$TRASH"/fs.h lnk3/include/linux/fs.h &&
	test_exit_code 2 $S/check-tree.sh "$TRASH"/lnk3 fs >out 2>err &&
	one_line_from check-tree.sh && grep -q "include/linux/fs.h: leads outside the kernel tree" err
'

test_expect_success SPATCH "the tree through a symbolic link inside it that stays inside: read" '
	ck_tree inl && mkdir inl/mk && mv inl/fs/xfs/Makefile inl/mk/xfs.mk &&
	ln -s ../../mk/xfs.mk inl/fs/xfs/Makefile &&
	$S/diff.sh "$TRASH"/inl fs/xfs >out 2>err &&
	grep -q "^+++ b/fs/xfs/xfs_trans_ail.c" out
'

test_expect_success SPATCH "a unit's Makefile a FIFO: exit 2, one line, no hang" '
	ck_tree fifo && rm fifo/fs/xfs/Makefile && mkfifo fifo/fs/xfs/Makefile &&
	test_exit_code 2 timeout 60 $S/diff.sh "$TRASH"/fifo fs >out 2>err &&
	one_line_from diff.sh && grep -q "fs/xfs/Makefile: not a regular file (a FIFO): not read" err
'

test_expect_success SPATCH "a unit's Kconfig a FIFO, a Kconfig a symbolic link out of the tree: exit 2, one line, no hang" '
	ck_tree kfifo && mkfifo kfifo/fs/xfs/Kconfig &&
	test_exit_code 2 timeout 60 $S/report.sh "$TRASH"/kfifo fs >out 2>err &&
	one_line_from report.sh && grep -q "fs/xfs/Kconfig: not a regular file (a FIFO): not read" err &&
	ck_tree klnk && echo "config XFS_FS" >Kconfig.away &&
	ln -s "$TRASH"/Kconfig.away klnk/fs/xfs/Kconfig &&
	test_exit_code 2 $S/report.sh "$TRASH"/klnk fs >out 2>err &&
	one_line_from report.sh && grep -q "fs/xfs/Kconfig: leads outside the kernel tree" err
'

test_expect_success SPATCH "the top Makefile a FIFO: not a kernel tree, exit 2, one line, no hang" '
	ck_tree fifo2 && rm fifo2/Makefile && mkfifo fifo2/Makefile &&
	test_exit_code 2 timeout 60 $S/check-tree.sh "$TRASH"/fifo2 fs >out 2>err &&
	one_line_from check-tree.sh && grep -q "not a kernel tree" err
'

test_expect_success SPATCH "a directory of a unit that is a symbolic link out of the tree: not entered" '
	ck_tree sub && mkdir -p away && cp sub/fs/xfs/xfs_trans_ail.c away/ &&
	ln -s "$TRASH"/away sub/fs/xfs/libxfs &&
	$S/diff.sh "$TRASH"/sub fs/xfs >out 2>err &&
	! grep -q libxfs out
'

test_expect_success SPATCH "DIR with .. out of the tree: exit 2, one line" '
	test_exit_code 2 $S/check-tree.sh "$TRASH"/ck fs/../.. 2>err &&
	one_line_from check-tree.sh && grep -q "DIR=fs/../..: outside KTREE" err
'

test_expect_success "KTREE, DIR, BASE, FORMAT, J with a newline: the message stays one line" '
	test_exit_code 2 $S/check-tree.sh "$(printf "no\nsuch")" fs 2>err &&
	one_line_from check-tree.sh && grep -q "KTREE=no.nsuch: no such directory" err &&
	test_exit_code 2 $S/check-tree.sh "$TRASH"/ck "$(printf "f\ns")" 2>err &&
	one_line_from check-tree.sh &&
	test_exit_code 2 env FORMAT="$(printf "te\nxt")" $S/check-tree.sh "$TRASH"/ck fs 2>err &&
	one_line_from check-tree.sh &&
	test_exit_code 2 env FORMAT="$(printf "te\nxt")" $S/report.sh "$TRASH"/ck fs 2>err &&
	one_line_from report.sh &&
	test_exit_code 2 env J="$(printf "1\n2")" $S/diff.sh "$TRASH"/ck fs 2>err &&
	one_line_from diff.sh
'

test_expect_success SPATCH "BASE with a newline or a leading dash: exit 2, one line, git given no option" '
	rm -rf g && cp -a ck g && git -C g init -q && git -C g add -A &&
	git -C g -c user.name=t -c user.email=t@t commit -qm base &&
	test_exit_code 2 env BASE="$(printf "HEAD\nx")" $S/check-tree.sh "$TRASH"/g fs 2>err &&
	one_line_from check-tree.sh &&
	test_exit_code 2 env BASE="--output=$TRASH/written" $S/check-tree.sh "$TRASH"/g fs 2>err &&
	one_line_from check-tree.sh && test ! -e written
'

test_done
