#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh: on whole kernel trees, time our tool against what a user
# would do without it, and check that both give the same conversion:
#
#   make diff DIR=fs FORCE=1 KTREE=TREE     against, from TREE's top,
#   spatch --sp-file cocci/RULE.cocci -D patch --dir fs --jobs J --very-quiet
#                                           for RULE in kthread_freezer
#                                           and wq_freezable;
#   autofreeze scan .                       against grep -rnwE 'NAMES' .
#   make report DIR=fs, cold and warm,      against make coccicheck
#   make check-tree on the converted tree,  MODE=report M=fs of
#   cold, warm and BASE= on a one-file edit the three rules
#
# For each tree it prints the wall time and peak memory of every
# command, the ratios, and whether the freezer-removal hunks of both
# sides are the same; then one summary line per tree.  Exit status: 0
# when the hunks are the same on every tree, 1 when they differ (the
# difference is printed) or a command failed, 2 for bad input.
#
# usage: bench.sh [TREE...]
#	(default: $BENCH_TREES, else build/linux-source-6.1, 6.12 and 7.3;
#	a tree that needs our core series is benched on a copy with it;
#	environment: J=N jobs, default the number
#	of CPUs, for both sides)

set -eu
prog=bench.sh
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$TOP/scripts/lib/ktree.sh"
. "$TOP/scripts/lib/plan.sh"

SPATCH=${SPATCH:-spatch}
export SPATCH
jobs_check
# The freezer-removal rules, in the order our tool chains them.
RULES="kthread_freezer wq_freezable"

if [ $# -gt 0 ]; then
	trees=("$@")
else
	read -r -a trees <<<"${BENCH_TREES:-$TOP/build/linux-source-6.1 $TOP/build/linux-source-6.12 $TOP/build/linux-source-7.3}"
fi
[ ${#trees[@]} -gt 0 ] || { echo "$prog: no tree to bench (BENCH_TREES=...)" >&2; exit 2; }
for t in "${trees[@]}"; do
	ktree_check "$t" fs
done
spatch_check
command -v patch >/dev/null || { echo "$prog: patch not found (apt-get install patch)" >&2; exit 2; }
[ -x "$AF" ] || make -s -C "$TOP" helper >&2

# GNU time reports the wall time and the peak RSS.  Without it, a
# python3 wrapper measures the same: RUSAGE_CHILDREN's ru_maxrss, like
# GNU time's, is the largest single process among the command and the
# descendants it waited for (not the sum of parallel jobs).
TIME=
if [ -x /usr/bin/time ]; then
	TIME=/usr/bin/time
elif ! command -v python3 >/dev/null; then
	echo "$prog: neither /usr/bin/time nor python3 found (apt-get install time)" >&2
	exit 2
fi
PYTIME='import resource, subprocess, sys, time
t = time.monotonic()
rc = subprocess.call(sys.argv[2:])
wall = time.monotonic() - t
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
with open(sys.argv[1], "w") as f:
	f.write("%.2f %d\n" % (wall, rss))
sys.exit(rc if rc >= 0 else 128 - rc)'

scratch=$(mktemp -d "${TMPDIR:-/tmp}/autofreeze-bench.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# measure NAME OK CMD...: run CMD once, in the current directory, with
# stdout to $s/NAME.out and stderr to $s/NAME.err; "SECONDS KB" to
# $s/NAME.t.  OK lists the exit statuses that mean success.
measure()
{
	local name=$1 ok=$2 rc=0
	shift 2
	if [ -n "$TIME" ]; then
		"$TIME" -f '%e %M' -o "$s/$name.time" "$@" >"$s/$name.out" 2>"$s/$name.err" || rc=$?
	else
		python3 -c "$PYTIME" "$s/$name.time" "$@" >"$s/$name.out" 2>"$s/$name.err" || rc=$?
	fi
	case " $ok " in
	*" $rc "*) ;;
	*)	echo "$prog: $tname: $name exited with status $rc: $(grep -v '^Command exited' "$s/$name.err" | tail -n 1)" >&2
		exit 1 ;;
	esac
	# GNU time puts "Command exited with non-zero status N" first.
	tail -n 1 "$s/$name.time" >"$s/$name.t"
}

secs() { cut -d' ' -f1 "$s/$1.t"; }
kb() { cut -d' ' -f2 "$s/$1.t"; }
# ratio A B: A/B to one decimal
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) b = 0.01; printf "%.1f", a / b }'; }
# faster A B NAME: "R.Rx faster than NAME" when B took less than A, else "slower"
faster()
{
	awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN {
		if (a <= 0) a = 0.01; if (b <= 0) b = 0.01
		if (a >= b) printf "%.1fx faster than %s", a / b, n
		else printf "%.1fx slower than %s", b / a, n }'
}
row() { printf '  %-52s %8s %11s\n' "$@"; }
mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
load() { [ -r /proc/loadavg ] && cut -d' ' -f1-3 /proc/loadavg || echo '?'; }

# files_of DIFF PREFIX: the files a -p1 diff changes, PREFIX put before
# each path.
files_of() { sed -n "s|^+++ b/|$2|p" "$1" | sed 's/[[:space:]].*//'; }

# The opt-in flag (FS_AUTOFREEZE, FS_POWER_FREEZE: the tree's) is added
# by fs_autofreeze.cocci, which our make diff runs and the by-hand side
# leaves out (it needs -D fs_types, which only the helper's eligibility
# analysis gives).  The content check drops every FLAG from the files
# of both sides and from the original alike, in the only forms that
# rule writes: "| FLAG" appended to .fs_flags, or a whole
# ".fs_flags = FLAG," line.  A hunk that only added the flag then
# disappears; a hunk that mixed it with a freezer removal keeps just the
# removal.  Anything the rule wrote in another form stays and shows up
# as a difference.  strip_sed FLAG: that sed script.
strip_sed()
{
	printf '%s\n' "/^[[:space:]]*\\.fs_flags[[:space:]]*=[[:space:]]*$1,?[[:space:]]*\$/d" \
		"s/[[:space:]]*\\|[[:space:]]*$1\\>//g" \
		"s/\\<$1[[:space:]]*\\|[[:space:]]*//g"
}

# bench_gate: make report and make check-tree, each cold (an empty
# result cache) and warm, and check-tree with BASE= on a one-file change,
# against make coccicheck MODE=report of the same three rules over the
# same fs/.  check-tree runs on a git copy of the tree that make apply
# converted (it checks the units that carry the flag).  Sets cc_s.
bench_gate()
{
	local conv=$s/conv one r cc_kb=0
	ktree_link_copy "$tree" "$conv"
	AUTOFREEZE_CACHE=none AUTOFREEZE_STATE="$s/state" "$TOP/scripts/apply.sh" "$conv" fs >"$s/apply.log" 2>&1 ||
		{ echo "$prog: $tname: make apply failed: $(tail -n 1 "$s/apply.log")" >&2; exit 1; }
	(cd "$conv" && git init -q && git add -f fs &&
		git -c user.name=bench -c user.email=bench@localhost commit -qm base) ||
		{ echo "$prog: $tname: cannot make a git copy of the converted tree" >&2; exit 1; }
	# the one file: the first that check-tree has a use to look at
	mkdir -p "$s/gate-plan"
	one=$(CHECK=1 AUTOFREEZE_CACHE=none prog=$prog "$TOP/scripts/lib/convert.sh" "$conv" fs "$s/gate-plan" >/dev/null 2>&1;
		plan_lines "$s/gate-plan/plan" file 3 | head -n 1)

	measure report-cold 0 env AUTOFREEZE_CACHE="$s/cache-report" "$TOP/scripts/report.sh" "$tree" fs
	measure report-warm 0 env AUTOFREEZE_CACHE="$s/cache-report" "$TOP/scripts/report.sh" "$tree" fs
	measure check-cold 0 env AUTOFREEZE_CACHE="$s/cache-check" "$TOP/scripts/check-tree.sh" "$conv" fs
	measure check-warm 0 env AUTOFREEZE_CACHE="$s/cache-check" "$TOP/scripts/check-tree.sh" "$conv" fs
	if [ -n "$one" ]; then
		# a real edit: the file a line longer, every line after it moved
		cp "$conv/$one" "$s/one" && sed -i '1i /* bench: one line more */' "$s/one" &&
			rm "$conv/$one" && cp "$s/one" "$conv/$one"
		measure check-base 0 env AUTOFREEZE_CACHE="$s/cache-check" BASE=HEAD "$TOP/scripts/check-tree.sh" "$conv" fs
	fi
	cc_s=0
	for r in $RULES fs_autofreeze; do
		measure "cc-$r" 0 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
			GIT_CEILING_DIRECTORIES="${tree%/*}" \
			make -C "$tree" coccicheck MODE=report M=fs J="$J" COCCI="$TOP/cocci/$r.cocci"
		cc_s=$(awk -v a="$cc_s" -v b="$(secs "cc-$r")" 'BEGIN { printf "%.2f", a + b }')
		cc_kb=$(( $(kb "cc-$r") > cc_kb ? $(kb "cc-$r") : cc_kb ))
	done
	row "make report DIR=fs, cold ($(grep -c . "$s/report-cold.out") lines)" "$(secs report-cold)" "$(mb "$(kb report-cold)")"
	row "make report DIR=fs, warm" "$(secs report-warm)" "$(mb "$(kb report-warm)")"
	row "make coccicheck MODE=report M=fs, 3 rules" "$cc_s" "$(mb "$cc_kb")"
	row "make check-tree DIR=fs (converted), cold" "$(secs check-cold)" "$(mb "$(kb check-cold)")"
	row "make check-tree DIR=fs (converted), warm" "$(secs check-warm)" "$(mb "$(kb check-warm)")"
	[ -z "$one" ] ||
		row "make check-tree BASE=HEAD, $one edited" "$(secs check-base)" "$(mb "$(kb check-base)")"
	echo "  ratio coccicheck / make report: $(ratio "$cc_s" "$(secs report-cold)")x cold, $(ratio "$cc_s" "$(secs report-warm)")x warm"
}

status=0
summary=()
for t in "${trees[@]}"; do
	ktree_check "$t" fs
	tree=$KTREE
	tname=${tree##*/}
	s=$scratch/$tname
	mkdir -p "$s"
	# A tree that needs our core series first is benched on a
	# hard-linked copy with it applied (vfs.sh replaces files, never
	# writes into them), as a user would run make vfs first.
	IFS=$'\t' read -r _ state flag _ < <("$AF" optin "$tree")
	if [ "$state" = series ]; then
		ktree_link_copy "$tree" "$s/tree"
		"$TOP/scripts/vfs.sh" "$s/tree" >"$s/vfs.log" 2>&1 ||
			{ echo "$prog: $tname: make vfs failed: $(tail -n 1 "$s/vfs.log")" >&2; exit 1; }
		tree=$s/tree
	fi
	STRIP=$(strip_sed "$flag")

	# The thread functions the helper's plan finds, some of them
	# started from another file (6.1's gfs2_logd, jfs_lazycommit):
	# spatch by hand sees one file at a time and would leave those
	# alone.  The by-hand side is given them all with -D kthread_fns,
	# so both sides work from the same information and their hunks can
	# be compared.  The plan gives them per unit, spatch --dir fs takes
	# one list: a name in one unit is a thread in every unit by hand.
	# Likewise the uses the judgments keep (-D keep_at for wq_freezable),
	# the freezable macros with a plain twin (-D twins), and the units
	# the rules may edit at all (-D units: without it they edit nothing):
	# plan_rule_defs, as convert.sh gives them.
	"$AF" plan --force "$tree" fs >"$s/plan"
	kfns=$(plan_lines "$s/plan" kthread 3 | LC_ALL=C sort -u | paste -sd, -)
	nkfns=$(tr ',' '\n' <<<"$kfns" | grep -c . || true)
	names=$("$AF" apis | paste -sd'|' -)
	nnames=$("$AF" apis | wc -l)
	[ -n "$names" ] || { echo "$prog: autofreeze apis printed no names" >&2; exit 1; }

	load_before=$(load)
	# One untimed read of the whole tree, so that every timed command
	# finds it in the page cache and none pays for the disk.
	(cd "$tree" && { grep -rq zzz_nothing_matches_this . || true; })

	# Ours, as a user runs it; make's flags from a parent make (make
	# bench) are not passed on, so it runs as if typed.
	# Cold: a result cache of its own, empty (a user's would hold the
	# results of earlier runs on the same files).
	measure make-diff 0 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		AUTOFREEZE_CACHE="$s/cache-diff" \
		make -s -C "$TOP" diff DIR=fs FORCE=1 KTREE="$tree" J="$J"

	# By hand, from the tree's top, each rule on the original tree.
	# spatch --dir picks its files with "git grep" when it thinks it
	# is in a git work tree; a tree unpacked inside another checkout
	# (ours, under build/) is in one but untracked there, so git grep
	# finds nothing and spatch silently does nothing ("0 files
	# match").  GIT_CEILING_DIRECTORIES stops git at the tree's
	# parent: spatch then scans the files itself, as on any tree
	# unpacked from a tarball.
	for r in $RULES; do
		mapfile -t defs < <(plan_rule_defs "$s/plan" "$r")
		(cd "$tree" && measure "hand-$r" 0 \
			env GIT_CEILING_DIRECTORIES="${tree%/*}" \
			"$SPATCH" --sp-file "$TOP/cocci/$r.cocci" -D patch "${defs[@]}" \
			--dir fs --jobs "$J" --very-quiet)
	done

	# scan against grep, both over the whole tree from its top (grep
	# reads every file, scan only *.c and *.h: what each would be used
	# for).  grep exits 1 when nothing matches.
	(cd "$tree" && measure scan 0 "$AF" scan -j "$J" .)
	(cd "$tree" && measure grep "0 1" grep -rnwE "$names" .)
	load_after=$(load)

	# The content check.  By hand the two rules each give a diff of the
	# original tree; our tool runs the second on the first's output.
	# So the by-hand diffs are applied one after the other (patch -p1,
	# with its usual fuzz) to a copy of the files, ours to another, and
	# each result is diffed against the original with the same diff:
	# the two diffs compare as they are, hunk for hunk.  spatch --dir fs
	# names files relative to fs/.
	mapfile -t files < <({ files_of "$s/make-diff.out" ''
		for r in $RULES; do files_of "$s/hand-$r.out" fs/; done; } | LC_ALL=C sort -u)
	mkdir -p "$s/orig" "$s/ours" "$s/hand"
	if [ ${#files[@]} -gt 0 ]; then
		(cd "$tree" && tar -cf - -- "${files[@]}") | tar -C "$s/orig" -xf -
		cp -a "$s/orig/." "$s/ours/"
		cp -a "$s/orig/." "$s/hand/"
	fi
	if ! patch -p1 -s -N -r - --no-backup-if-mismatch -d "$s/ours" \
		<"$s/make-diff.out" >"$s/patch-ours.log" 2>&1; then
		echo "$prog: $tname: make diff's output does not apply to the tree: $(tail -n 1 "$s/patch-ours.log")" >&2
		exit 1
	fi
	applied=1
	: >"$s/patch-hand.log"
	for r in $RULES; do
		[ -s "$s/hand-$r.out" ] || continue
		patch -p1 -N -r - --no-backup-if-mismatch -d "$s/hand/fs" \
			<"$s/hand-$r.out" >>"$s/patch-hand.log" 2>&1 || applied=
	done
	[ ${#files[@]} -eq 0 ] ||
		(cd "$s" && find orig ours hand -type f -exec sed -i -E "$STRIP" {} +)
	(cd "$s" && "$TOP/scripts/lib/tree-diff.sh" orig ours "${files[@]}") >"$s/ours.cmp"
	(cd "$s" && "$TOP/scripts/lib/tree-diff.sh" orig hand "${files[@]}") >"$s/hand.cmp"

	hunks=$(grep -c '^@@' "$s/ours.cmp" || true)
	nfiles=$(grep -c '^diff ' "$s/ours.cmp" || true)
	rawhunks=$(grep -c '^@@' "$s/make-diff.out" || true)
	if [ -n "$applied" ] && cmp -s "$s/ours.cmp" "$s/hand.cmp"; then
		verdict="hunks identical"
	else
		verdict="hunks DIFFER"
		status=1
	fi

	hand_s=0
	hand_kb=0
	for r in $RULES; do
		hand_s=$(awk -v a="$hand_s" -v b="$(secs "hand-$r")" 'BEGIN { printf "%.2f", a + b }')
		hand_kb=$(( $(kb "hand-$r") > hand_kb ? $(kb "hand-$r") : hand_kb ))
	done

	echo "$tname: whole fs/, $J jobs each side, $nkfns thread functions from the plan (-D kthread_fns by hand); load $load_before before, $load_after after"
	row "command" "wall s" "max RSS MB"
	row "make diff DIR=fs FORCE=1" "$(secs make-diff)" "$(mb "$(kb make-diff)")"
	for r in $RULES; do
		row "spatch --sp-file cocci/$r.cocci --dir fs" "$(secs "hand-$r")" "$(mb "$(kb "hand-$r")")"
	done
	row "spatch by hand, both rules" "$hand_s" "$(mb "$hand_kb")"
	row "autofreeze scan . ($(wc -l <"$s/scan.out") uses)" "$(secs scan)" "$(mb "$(kb scan)")"
	row "grep -rnwE <$nnames names> . ($(wc -l <"$s/grep.out") lines)" "$(secs grep)" "$(mb "$(kb grep)")"
	echo "  ratio by hand / make diff: $(ratio "$hand_s" "$(secs make-diff)")x; grep / scan: $(ratio "$(secs grep)" "$(secs scan)")x"
	echo "  freezer-removal hunks: $verdict ($hunks hunks in $nfiles files; make diff printed $rawhunks hunks with $flag)"
	if [ -z "$applied" ]; then
		echo "  the by-hand diffs do not apply one after the other:"
		sed 's/^/    /' "$s/patch-hand.log"
	fi
	if [ "$verdict" != "hunks identical" ]; then
		echo "  difference (- spatch by hand, + make diff):"
		diff -u --label "spatch by hand" --label "make diff" "$s/hand.cmp" "$s/ours.cmp" |
			sed 's/^/    /' || true
	fi

	bench_gate
	echo
	summary+=("bench $tname: make diff $(faster "$hand_s" "$(secs make-diff)" "spatch by hand") ($verdict); scan $(faster "$(secs grep)" "$(secs scan)" grep); report $(faster "$cc_s" "$(secs report-cold)" "coccicheck")")
done

printf '%s\n' "${summary[@]}"
exit $status
