# SPDX-License-Identifier: GPL-2.0
#
# Shared helpers for the autofreeze test scripts, in the manner of git's
# t/test-lib.sh: each t*.sh sources this file, runs test_expect_success
# blocks and ends with test_done.  A block is a description and a shell
# snippet; the snippet passes when it exits 0.
#
# Every test script runs with its own scratch directory, $TRASH, which
# is removed at the end unless AF_KEEP_TRASH is set.

set -u

TOP=$(cd "$(dirname "$0")/.." && pwd)
TESTS=$TOP/tests
FIXTURES=$TOP/kernel-tree-fixtures
GOLDEN=$TOP/expected-diffs	# the real-kernel goldens: linux-<v>/
COCCI=$TOP/cocci
SPATCH=${SPATCH:-spatch}
export TOP TESTS FIXTURES GOLDEN COCCI SPATCH

test_name=$(basename "$0" .sh)
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/af-$test_name.XXXXXX")
export TRASH
# the trees' bookkeeping (make vfs, make apply) goes with the scratch
AUTOFREEZE_STATE=$TRASH/.state
export AUTOFREEZE_STATE
# and so does the spatch result cache: each script starts cold
AUTOFREEZE_CACHE=$TRASH/.cache
export AUTOFREEZE_CACHE
# A rule run by hand asks the autofreeze command on PATH for its plan
# (ask_autofreeze() in cocci/*.cocci): never an installed one here; a
# test that wants the asking names this checkout's bin/autofreeze.
AUTOFREEZE=none
export AUTOFREEZE

test_count=0
test_fail=0
test_skip=0

say()
{
	printf '%s\n' "$*"
}

# test_expect_success [PREREQ[,PREREQ]] DESCRIPTION BODY
# BODY is single-quoted in the caller and evaluated in a subshell of the
# script, in $TRASH: it sees the script's variables (a loop's $c), but
# not the positional parameters of the caller.  With a prerequisite that
# is not met, the test is skipped.
test_expect_success()
{
	test_count=$((test_count + 1))
	local test_prereq=
	if [ $# -eq 3 ]; then
		test_prereq=$1
		shift
	fi
	if [ $# -ne 2 ]; then
		echo "bug in the test script: not 2 or 3 parameters to test_expect_success" >&2
		exit 1
	fi
	if [ -n "$test_prereq" ] && ! test_have_prereq "$test_prereq"; then
		test_skip=$((test_skip + 1))
		say "ok $test_count # skip $1 (missing $test_missing_prereq)"
		return 0
	fi
	local test_out=$TRASH/.out.$test_count test_start=$SECONDS
	if (cd "$TRASH" && eval "$2") >"$test_out" 2>&1; then
		say "ok $test_count - $1"
	else
		test_fail=$((test_fail + 1))
		say "not ok $test_count - $1"
		sed -e 's/^/#	/' "$test_out" | head -n 60
	fi
	# What CI time goes to: the slow tests name their cost.
	[ $((SECONDS - test_start)) -lt 10 ] ||
		say "#	($((SECONDS - test_start)) s)"
}

# test_expect_failure is not offered: a known breakage is a failure.

# Prerequisites, as in git: test_set_prereq NAME says NAME is met;
# test_lazy_prereq NAME SCRIPT says NAME is met when SCRIPT exits 0 (run
# once, on first use, in a subshell in a scratch directory of its own).
# test_have_prereq takes a comma-separated list, each maybe negated with
# "!", and sets $test_missing_prereq to those not met.
test_prereqs_met=,
test_prereqs_unmet=,
test_prereqs_lazy=,

test_set_prereq()
{
	test_prereqs_met=$test_prereqs_met$1,
}

# test_lazy_prereq NAME SCRIPT
test_lazy_prereq()
{
	test_prereqs_lazy=$test_prereqs_lazy$1,
	eval "test_prereq_script_$1=\$2"
}

# test_have_prereq PREREQ[,PREREQ]: true when every one is met.
test_have_prereq()
{
	local p name ok script list
	IFS=, read -r -a list <<<"$1"
	test_missing_prereq=
	for p in "${list[@]}"; do
		name=${p#!}
		case $test_prereqs_met$test_prereqs_unmet in
		*,"$name",*) ;;
		*)
			case $test_prereqs_lazy in
			*,"$name",*)
				eval "script=\$test_prereq_script_$name"
				mkdir -p "$TRASH/.prereq-$name"
				if (cd "$TRASH/.prereq-$name" && eval "$script") >/dev/null 2>&1; then
					test_prereqs_met=$test_prereqs_met$name,
				else
					test_prereqs_unmet=$test_prereqs_unmet$name,
				fi ;;
			*)
				test_prereqs_unmet=$test_prereqs_unmet$name, ;;
			esac ;;
		esac
		case $test_prereqs_met in
		*,"$name",*) ok=yes ;;
		*) ok=no ;;
		esac
		if [ "$p" != "$name" ]; then	# !NAME: met when NAME is not
			case $ok in yes) ok=no ;; *) ok=yes ;; esac
		fi
		[ $ok = yes ] ||
			test_missing_prereq=${test_missing_prereq:+$test_missing_prereq,}$p
	done
	[ -z "$test_missing_prereq" ]
}

test_lazy_prereq SPATCH 'command -v "$SPATCH"'
test_lazy_prereq KTREE_6_1 'test -f "$TOP/build/linux-source-6.1/Makefile"'
test_lazy_prereq KTREE_6_12 'test -f "$TOP/build/linux-source-6.12/Makefile"'
test_lazy_prereq KTREE_7_3 'test -f "$TOP/build/linux-source-7.3/Makefile"'

. "$TOP/scripts/lib/ktree.sh"	# ktree_link_copy

# target_tree V: the Debian linux-source-V tree as make diff and apply
# take it: with our core series applied where the tree needs it (a
# hard-linked copy in $TRASH, made once per script; vfs.sh and apply
# replace files, never write into them), else the tree itself.
target_tree()
{
	local src=$TOP/build/linux-source-$1 dest=$TRASH/vfs-$1
	if [ "$("$TOP"/scripts/autofreeze optin "$src" | cut -f2)" != series ]; then
		echo "$src"
		return
	fi
	if [ ! -f "$dest/.vfs-done" ]; then
		ktree_link_copy "$src" "$dest" &&
		"$TOP"/scripts/vfs.sh "$dest" >/dev/null && : >"$dest/.vfs-done" || return 1
	fi
	echo "$dest"
}
# Debian's source tarballs (make deps), which e2e.sh builds from
test_lazy_prereq DEBIAN_SRC_6_1 'test -f /usr/src/linux-source-6.1.tar.xz'
test_lazy_prereq DEBIAN_SRC_6_12 'test -f /usr/src/linux-source-6.12.tar.xz'
# the long runs, on when the environment asks (CI sets both)
test_lazy_prereq KTREE_COMPILE 'test -n "${KTREE_COMPILE:-}"'
test_lazy_prereq E2E 'test -n "${E2E:-}"'

# test_line_count FILE N: FILE holds exactly N lines (an error is one line).
test_line_count()
{
	test "$(wc -l <"$1")" -eq "$2" || { cat "$1"; return 1; }
}

# test_cmp EXPECTED ACTUAL: like cmp, but shows the difference.
test_cmp()
{
	diff -u "$1" "$2"
}

# test_must_fail CMD...: CMD exits non-zero, but was found (not 127),
# could run (not 126) and did not die of a signal, as in git.
test_must_fail()
{
	"$@"
	local rc=$? why=
	case $rc in
	0)	why="succeeded" ;;
	126)	why="could not run" ;;
	127)	why="was not found" ;;
	*)	[ $rc -le 128 ] || why="died of signal $((rc - 128))" ;;
	esac
	[ -z "$why" ] && return 0
	echo "test_must_fail: '$*' $why" >&2
	return 1
}

# test_exit_code CODE CMD...: CMD exits with exactly CODE.
test_exit_code()
{
	local want=$1
	shift
	"$@"
	local rc=$?
	if [ $rc -ne "$want" ]; then
		echo "test_exit_code: '$*' exited $rc, want $want" >&2
		return 1
	fi
	return 0
}

test_done()
{
	local pass=$((test_count - test_fail - test_skip))
	say "# $test_name: $pass passed, $test_fail failed, $test_skip skipped"
	if [ -n "${AF_RESULTS:-}" ]; then
		echo "$pass $test_fail $test_skip $test_name" >>"$AF_RESULTS"
	fi
	[ -n "${AF_KEEP_TRASH:-}" ] || rm -rf "$TRASH"
	[ $test_fail -eq 0 ]
}

# Fixture cases: kernel-tree-fixtures/<case>/ is a small kernel-like tree
# (the trimmed source at its kernel path) with, beside it, its reviewed
# goldens expected.diff (the rule set's output) and expected.report
# (report mode's), and a CASE file of `key: value` lines:
#   desc:    what the case holds
#   source:  where each file was trimmed from (one line a file)
#   expect:  change or unchanged (t10 checks it against expected.diff)
#   why:     what must change and what must stay, and why
#   define:  a spatch -D value for the rule set (any number of lines)
#   derive:  plan: the kthread_fns= and twins= defines are exactly what
#            "autofreeze plan --force" finds in the case's tree (t30)
#   tree:    OTHER-CASE: take OTHER-CASE's tree, and add own files over it
#   rule:    the one rule (cocci/<rule>.cocci) whose output alone is the
#            golden: t20 runs such a case three ways
#   unit:    with rule:, the unit (fs/xfs) that t20 hands to spatch --dir
#            and make DIR= / coccicheck M=
#   kernel:  the suspend freeze fake_ktree gives the tree: our series for
#            that version (default 6.1), or upstream's (7.3)

# case_list: every case name, sorted; AF_CASES="a b" picks some.
case_list()
{
	local c
	for c in "$FIXTURES"/*/CASE; do
		[ -f "$c" ] || continue
		c=${c%/CASE}
		c=${c##*/}
		case " ${AF_CASES:-$c} " in
		*" $c "*) echo "$c" ;;
		esac
	done | LC_ALL=C sort
}

# case_field CASE KEY: the values of KEY, one a line.
case_field()
{
	sed -n "s/^$2:[[:space:]]*//p" "$FIXTURES/$1/CASE"
}

# case_defines CASE: the case's spatch -D options, as rules.sh takes them,
# with -D units=UNIT for a case run on one unit (the helper names the
# units its plan converts: without them the rules edit nothing).
case_defines()
{
	local d u
	case_field "$1" define | while IFS= read -r d; do
		printf -- '-D\n%s\n' "$d"
	done
	u=$(case_field "$1" unit)
	[ -z "$u" ] || case_field "$1" define | grep -q '^units=' ||
		printf -- '-D\nunits=%s\n' "$u"
}

# case_tree CASE DEST: copy the case's tree (without CASE and its
# goldens) to DEST.
# A case may take its tree from another ("tree: OTHER-CASE") and add its
# own files over it: twins differ in their CASE, not in their sources.
case_tree()
{
	local base
	base=$(case_field "$1" tree)
	mkdir -p "$2" &&
	if [ -n "$base" ]; then
		case_tree "$base" "$2" || return 1
	fi &&
	(cd "$FIXTURES/$1" && tar --exclude=./CASE --exclude='./expected.*' -cf - .) | tar -C "$2" -xf -
}

# case_convert CASE DIR: run the rule set on DIR with the case's defines.
case_convert()
{
	local defs
	mapfile -t defs < <(case_defines "$1")
	"$TOP/tests/tools/rules.sh" "${defs[@]}" "$2"
}

# series_super_c V: what patches/linux-V adds to fs/super.c, the suspend
# freeze of a tree that carries our core series.
series_super_c()
{
	awk '/^\+\+\+ / { f = ($2 == "b/fs/super.c"); next }
	/^diff --git / { f = 0 }
	f && /^\+/ { print substr($0, 2) }' "$TOP"/patches/linux-"$1"/[0-9][0-9][0-9][0-9]-*.patch
}

# fake_ktree CASE DEST: the case's tree made to look like a kernel tree
# (a top Makefile with VERSION, Kconfig, include/linux/fs.h, a Makefile
# in each directory of C files), for the drivers.  The case's "kernel:"
# (default 6.1) says which suspend freeze its tree has, as the helper
# reads it from fs/super.c: our core series for that version applied
# (fs.h defines FS_AUTOFREEZE, fs/super.c has what the series adds to
# it), or for a version we ship no series for (7.3), upstream's with what
# patches/linux-mainline/ adds to it (tests/helper/upstream/ready/:
# fs/super.c, FS_POWER_FREEZE, and the kernel/power/ code of its
# prerequisites), a tree ready for a conversion.  The judgments do
# not look at the version: one applies where its anchors are in the
# case's code.
fake_ktree()
{
	local kv
	kv=$(case_field "$1" kernel)
	kv=${kv:-6.1}
	case_tree "$1" "$2" &&
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = 0\n' "${kv%%.*}" "${kv#*.}" >"$2/Makefile" &&
	echo "source \"fs/Kconfig\"" >"$2/Kconfig" &&
	mkdir -p "$2/include/linux" &&
	{ [ -f "$2/include/linux/fs.h" ] || echo '/* fs.h */' >"$2/include/linux/fs.h"; } &&
	if [ -d "$TOP/patches/linux-$kv" ]; then
		echo '#define FS_AUTOFREEZE 0x10000000' >>"$2/include/linux/fs.h" &&
		series_super_c "$kv" >"$2/fs/super.c"
	else
		echo '#define FS_POWER_FREEZE 256' >>"$2/include/linux/fs.h" &&
		cp -r "$TESTS/helper/upstream/ready/." "$2/"
	fi &&
	# every directory with C files is a unit: it has a Makefile
	find "$2/fs" -name '*.c' -exec dirname {} \; | sort -u |
	while IFS= read -r d; do
		[ -f "$d/Makefile" ] || echo "obj-y += $(cd "$d" && ls *.c | sed 's/\.c$/.o/' | paste -sd' ' -)" >"$d/Makefile"
	done
}

# ck_tree DIR: the tree check-tree is tried on (t42, t43): 6.1-like
# (FS_AUTOFREEZE defined), with xfs: xfs_fs_type (xfs_super.c),
# xfsaild() (xfs_trans_ail.c), its mount workqueues (xfs_wq.c, from the
# xfs-wqflags case); and ramfs (ramfs_fs_type, trimmed from linux-6.1
# fs/ramfs/inode.c), which is not block-backed
ck_tree()
{
	fake_ktree xfs-fs-type "$1" &&
	case_tree xfs-xfsaild-6.1 "$1" &&
	cp "$FIXTURES"/xfs-wqflags/fs/xfs/xfs_super.c "$1"/fs/xfs/xfs_wq.c &&
	cp "$FIXTURES"/xfs-wqflags/fs/xfs/xfs_super.h "$1"/fs/xfs/ &&
	echo "obj-y += xfs_super.o xfs_trans_ail.o xfs_wq.o" >"$1"/fs/xfs/Makefile &&
	mkdir -p "$1"/fs/ramfs &&
	cat >"$1"/fs/ramfs/inode.c <<-\EOF &&
	// SPDX-License-Identifier: GPL-2.0
	/* Trimmed from linux-6.1 fs/ramfs/inode.c: ramfs_fs_type. */
	static struct file_system_type ramfs_fs_type = {
		.name		= "ramfs",
		.init_fs_context = ramfs_init_fs_context,
		.parameters	= ramfs_fs_parameters,
		.kill_sb	= ramfs_kill_sb,
		.fs_flags	= FS_USERNS_MOUNT,
	};
	EOF
	echo "obj-y += inode.o" >"$1"/fs/ramfs/Makefile
}

# diff_hunks: a unified diff on stdin, reduced to "file PATH" lines and
# their hunks (without the function names diff -p and git add to @@
# lines, which they cut differently), files in path order, so that diffs
# from spatch, coccicheck (which runs jobs in parallel), git and our
# drivers compare.
diff_hunks()
{
	awk '
	/^diff / || /^\+\+\+ / { next }
	/^--- / { f = $2; sub(/^a\//, "", f); printf "%s\t%08d\tfile %s\n", f, NR, f; next }
	/^@@/ && f != "" { sub(/ @@.*/, " @@"); printf "%s\t%08d\t%s\n", f, NR, $0; next }
	/^[-+ ]/ && f != "" { printf "%s\t%08d\t%s\n", f, NR, $0 }
	' | LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2 | cut -f3-
}

# split_by_unit PLAN DEST: split a -p1 diff on stdin into DEST/<unit>.diff
# (fs/smb/client -> fs-smb-client.diff), each file to the unit whose
# "file" line names it in the helper's plan (the only files converted).
split_by_unit()
{
	mkdir -p "$2" &&
	awk -F'\t' -v dest="$2" '
	FILENAME == ARGV[1] { if ($1 == "file") unit[$3] = $2; next }
	/^diff -u -p a\// {
		split($0, w, " "); path = w[4]; sub(/^a\//, "", path)
		if (!(path in unit)) {
			print "split_by_unit: " path ": in no unit of the plan" > "/dev/stderr"
			exit 1
		}
		name = unit[path]; gsub(/\//, "-", name)
		if (out != "") close(out)
		out = dest "/" name ".diff"
	}
	{ print >> out }
	' "$1" -
}

# the CI files read as their CI systems read them: a YAML parser, and
# the linter a kernel project would run on them (Debian's python3-yaml
# and yamllint, from make deps)
test_lazy_prereq YAML 'python3 -c "import yaml" && command -v yamllint'
