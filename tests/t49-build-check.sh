#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make build-check on a small tree, with a stand-in for the kernel's
# make early in PATH (a fixture tree does not compile): the baseline is
# compiled in a copy of the tree, never in it, under the tree's lock.  A
# SIGKILL during the baseline compile leaves the tree as it was, an
# apply meanwhile refuses, the build is out of tree (a tree configured
# in place is refused), and the verdicts: a new warning, one the
# untouched source gives too, a failed compile.  (t50 runs build-check
# on real trees.)
# test-run: light

. "$(dirname "$0")/lib.sh"

JUDGMENTS=$TESTS/helper/judgments.tsv
export JUDGMENTS

BC=$TOP/scripts/build-check.sh
# the stand-in's log, and where it would put a default O
FAKE_LOG=$TRASH/make.log
BUILD=$TRASH/build
export FAKE_LOG BUILD

# The stand-in for make: "make -C SRC [O=OBJ] TARGET...".  *config
# writes OBJ/.config; prepare (and any object, as kbuild's single
# targets do) writes OBJ/scripts/.fixdep.cmd naming SRC and OBJ, and
# logs "prepare SRC" when the one there named others (kbuild would redo
# it); an object SRC/X.c is OBJ/X.o, after "  CC      X.o" and, for
# each FAKE_WARN(name) in the source, "SRC/X.c:LINE:5: warning: name";
# FAKE_ERROR in the source fails it.  With FAKE_WAIT=F, the first
# compile of objects writes F.started (its SRC) and waits for F.go.
mkdir -p "$TRASH/bin"
cat >"$TRASH/bin/make" <<\EOF
#!/bin/bash
src=. obj= targets=()
while [ $# -gt 0 ]; do
	case $1 in
	-C) src=$2; shift ;;
	O=*) obj=${1#O=} ;;
	-j* | -k | -s | V=* | --output-sync=*) ;;
	*) targets+=("$1") ;;
	esac
	shift
done
obj=${obj:-$src}
echo "make $src $obj ${targets[*]}" >>"$FAKE_LOG"
prepare()
{
	local want="savedcmd_scripts/fixdep := cc -I$src/include -o $obj/scripts/fixdep"
	[ "$(cat "$obj/scripts/.fixdep.cmd" 2>/dev/null)" = "$want" ] && return
	echo "prepare $src" >>"$FAKE_LOG"
	mkdir -p "$obj/scripts" && echo "$want" >"$obj/scripts/.fixdep.cmd"
}
rc=0 waited=
for t in "${targets[@]}"; do
	case $t in
	*config) touch "$obj/.config" ;;
	prepare) prepare ;;
	*.o)
		prepare
		if [ -n "${FAKE_WAIT:-}" ] && [ -z "$waited" ] && [ ! -e "$FAKE_WAIT.started" ]; then
			waited=1
			echo "$src" >"$FAKE_WAIT.started"
			for _ in $(seq 600); do
				[ -e "$FAKE_WAIT.go" ] && break
				sleep 0.1
			done
		fi
		c=${t%.o}.c
		echo "  CC      $t"
		grep -n 'FAKE_WARN(' "$src/$c" | sed "s|^\([0-9]*\):.*FAKE_WARN(\([a-z_]*\)).*|$src/$c:\1:5: warning: \2|"
		if grep -q FAKE_ERROR "$src/$c"; then
			echo "$src/$c:1:1: error: FAKE_ERROR"
			rc=2
		else
			mkdir -p "$(dirname "$obj/$t")" && echo "object of $src/$c" >"$obj/$t"
		fi ;;
	esac
done
exit $rc
EOF
chmod +x "$TRASH/bin/make"
PATH=$TRASH/bin:$PATH

# state TREE: every file of TREE with its inode, mode, size, time and
# content; and its bookkeeping's
state()
{
	(cd "$1" && find . -printf '%i %m %s %T@ %p\n' | sort -k5 &&
		find . -type f -exec md5sum {} + | sort -k2)
	(cd "$(ktree_state "$1")" && find . -type f -exec md5sum {} + | sort -k2)
}

# edit TREE FILE SED: FILE of TREE edited into a new inode
edit()
{
	sed "$3" "$1/$2" >"$1/$2.t49" && mv -f "$1/$2.t49" "$1/$2"
}

test_expect_success SPATCH "set up: a tree with a warning of its own in xfs_super.c, fs/xfs applied" '
	make -s -C "$TOP" helper >/dev/null &&
	ck_tree kt &&
	mkdir -p kt/scripts/kconfig &&
	printf "#!/bin/sh\nexit 0\n" >kt/scripts/config && chmod +x kt/scripts/config &&
	edit kt fs/xfs/xfs_super.c "1a\\
/* FAKE_WARN(old_warning) */" &&
	"$TOP"/scripts/apply.sh "$TRASH"/kt fs/xfs 2>err &&
	grep -q "converted" err &&
	grep -qx fs/xfs/xfs_super.c "$(ktree_state kt)/touched"
'

test_expect_success SPATCH "a warning the untouched source gives too is not new; the tree is not written" '
	state kt >before &&
	O="$TRASH"/o KTREE="$TRASH"/kt FILES=fs/xfs/xfs_super.c $BC >out 2>err &&
	cat out err &&
	grep -qx "OK            fs/xfs/xfs_super.o (1 warnings, none new)" out &&
	grep -qx "build-check.sh: 1 objects, 0 new warnings, passed" out &&
	state kt >after && test_cmp before after
'

test_expect_success SPATCH "the baseline is compiled in a copy, its prepare reused: no prepare again" '
	: >"$FAKE_LOG" &&
	O="$TRASH"/o KTREE="$TRASH"/kt FILES=fs/xfs/xfs_super.c $BC >out 2>err &&
	cat "$FAKE_LOG" &&
	grep "^make .* fs/xfs/xfs_super.o\$" "$FAKE_LOG" >compiles &&
	test_line_count compiles 2 &&
	head -n 1 compiles | grep -v "^make $TRASH/kt " &&
	tail -n 1 compiles | grep -q "^make $TRASH/kt $TRASH/o " &&
	! grep -q "^prepare" "$FAKE_LOG" &&
	test -z "$(ls "$TRASH" | grep build-check-base)"
'

test_expect_success SPATCH "a new warning: NEW WARNINGS, exit 1; a failed compile: FAIL" '
	cp -p kt/fs/xfs/xfs_super.c super.conv &&
	edit kt fs/xfs/xfs_super.c "2a\\
/* FAKE_WARN(new_warning) */" &&
	state kt >before &&
	test_exit_code 1 env O="$TRASH"/o KTREE="$TRASH"/kt FILES=fs/xfs/xfs_super.c $BC >out 2>err &&
	cat out &&
	grep -qx "NEW WARNINGS  fs/xfs/xfs_super.o" out &&
	grep -qx "    fs/xfs/xfs_super.c: warning: new_warning" out &&
	! grep -q old_warning out &&
	grep -qx "build-check.sh: 1 objects, 1 new warnings, FAILED" out &&
	state kt >after && test_cmp before after &&
	edit kt fs/xfs/xfs_super.c "2a\\
FAKE_ERROR" &&
	test_exit_code 1 env O="$TRASH"/o KTREE="$TRASH"/kt FILES=fs/xfs/xfs_super.c $BC >out 2>err &&
	grep -qx "FAIL          fs/xfs/xfs_super.o" out &&
	cp -p super.conv kt/fs/xfs/xfs_super.c.t49 && mv -f kt/fs/xfs/xfs_super.c.t49 kt/fs/xfs/xfs_super.c
'

test_expect_success SPATCH "during the baseline compile the tree is as it was and an apply refuses; SIGKILL then leaves it so" '
	state kt >before &&
	rm -f wait.started wait.go &&
	{ FAKE_WAIT="$TRASH"/wait O="$TRASH"/o KTREE="$TRASH"/kt $BC >out 2>err & } &&
	pid=$! &&
	for _ in $(seq 300); do [ -e wait.started ] && break; sleep 0.1; done &&
	test -e wait.started &&
	state kt >during &&
	"$TOP"/scripts/apply.sh "$TRASH"/kt fs/xfs >apply.out 2>apply.err; rc=$? &&
	kill -9 $pid && touch wait.go && wait $pid;
	# the stand-in, orphaned, holds the lock until it ends
	flock -w 30 "$TRASH"/kt true &&
	cat apply.err &&
	test_cmp before during &&
	test $rc = 2 && test_line_count apply.err 1 &&
	grep -q "^apply.sh: $TRASH/kt: another autofreeze run is changing this tree" apply.err &&
	test "$(cat wait.started)" != "$TRASH/kt" &&
	state kt >after && test_cmp before after &&
	! find kt -name "*.autofreeze-*" | grep .
'

test_expect_success SPATCH "a run that holds the lock: build-check refuses (one line, exit 2); given the lock (series.sh), it runs, and removes what the killed run left" '
	state kt >before &&
	exec 8<"$TRASH"/kt && flock -n 8 &&
	test_exit_code 2 env O="$TRASH"/o KTREE="$TRASH"/kt $BC >out 2>err &&
	test_line_count err 1 &&
	grep -q "^build-check.sh: $TRASH/kt: another autofreeze run is changing this tree" err &&
	ls -d build-check-base.* &&
	AUTOFREEZE_LOCK_FD=8 O="$TRASH"/o KTREE="$TRASH"/kt $BC >out 2>err &&
	grep -q "passed\$" out &&
	exec 8<&- &&
	! ls -d build-check-base.* 2>/dev/null &&
	state kt >after && test_cmp before after
'

test_expect_success SPATCH "no O=: built out of tree (BUILD/build-check-obj/), nothing written in it" '
	state kt >before &&
	KTREE="$TRASH"/kt $BC >out 2>err &&
	grep -q "passed\$" out &&
	ls "$BUILD"/build-check-obj/kt-*/fs/xfs/xfs_super.o &&
	test ! -e kt/.config && test ! -e kt/fs/xfs/xfs_super.o &&
	state kt >after && test_cmp before after
'

test_expect_success SPATCH "a tree configured in place (its own .config): exit 2, one line, nothing written" '
	echo "CONFIG_MINE=y" >kt/.config &&
	state kt >before &&
	test_exit_code 2 env O="$TRASH"/o2 KTREE="$TRASH"/kt $BC >out 2>err &&
	test_line_count err 1 &&
	grep -q "^build-check.sh: $TRASH/kt is configured in place (.config)" err &&
	test ! -e o2 &&
	state kt >after && test_cmp before after &&
	test "$(cat kt/.config)" = CONFIG_MINE=y &&
	rm kt/.config
'

# build-check only reads the tree: it does not set recovers, and a
# killed apply's journal is refused, not undone.
test_expect_success SPATCH "a change a killed apply left half done: one line naming make apply, exit 2, nothing undone" '
	ck_tree kk && mkdir -p kk/scripts/kconfig && cp -p kt/scripts/config kk/scripts/ &&
	AUTOFREEZE_FAIL_AFTER=1 AUTOFREEZE_FAIL_SIGNAL=KILL \
		test_exit_code 137 "$TOP"/scripts/apply.sh "$TRASH"/kk fs/xfs 2>/dev/null &&
	test -d "$(ktree_state kk)/journal" &&
	state kk >before &&
	test_exit_code 2 env O="$TRASH"/o4 KTREE="$TRASH"/kk $BC >out 2>err &&
	test_line_count err 1 &&
	grep -q "^build-check.sh: $TRASH/kk: a killed autofreeze run (apply.sh) left a change half done, .*make apply KTREE=.* DIR=fs/xfs does that first" err &&
	state kk >after && test_cmp before after && test ! -e o4
'

test_expect_success SPATCH "bad input: one line, exit 2, nothing made" '
	test_exit_code 2 env KTREE="$TRASH"/kt KCONFIG=no-such-thing O="$TRASH"/o3 $BC 2>err &&
	test_line_count err 1 && grep -q "^build-check.sh: KCONFIG=no-such-thing" err &&
	test_exit_code 2 env KTREE="$TRASH"/kt FILES=fs/none.c O="$TRASH"/o3 $BC 2>err &&
	test_line_count err 1 && grep -q "^build-check.sh: fs/none.c: no such file" err &&
	test_exit_code 2 env KTREE="$TRASH"/kt O="$TRASH"/kt/obj $BC 2>err &&
	test_line_count err 1 && grep -q "inside $TRASH/kt" err &&
	test ! -e o3 && test ! -e kt/obj
'

test_done
