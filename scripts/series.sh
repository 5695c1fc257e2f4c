#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series.sh: the conversion of DIR as a patch series for the list.  In
# KTREE, the top of a git work tree with nothing uncommitted: our core
# series first where the tree needs it (make vfs, its own commits; on
# mainline, what its suspend freeze lacks, patches/linux-mainline/, which
# then opens the series, signed off as the conversions are), then
# one commit per converted unit, in unit order, each with its flag and
# its removals together (a filesystem is never left with neither
# freezing), and git format-patch of those commits into OUT with a cover
# letter that accounts for every unit of DIR: converted, held back (and
# why) or with nothing to convert.
#
# Each commit says what was removed and what the filesystem's freeze
# does to that work (report's evidence), how it was generated (the rule
# files and the spatch command lines, as Documentation/process/
# generated-content.rst asks) and how it was checked: make check-tree on
# the unit before the commit, and with COMPILE=1 build-check.sh of its
# files (allmodconfig, no new warning).  To: and Cc: come from the
# tree's scripts/get_maintainer.pl; scripts/checkpatch.pl --strict is run
# on every patch, and a patch it warns about fails the run.
#
# usage: series.sh KTREE DIR OUT   (environment: J=N, COMPILE=1)
#
# Exit status: 0 the series is in OUT, 1 a step failed (the commits made
# so far stay: git reset --hard to the commit the first line names
# undoes them; the unit under way is put back), 2 bad input (nothing
# changed).

set -eu
prog=series.sh
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$TOP/scripts/lib/ktree.sh"
. "$TOP/scripts/lib/plan.sh"

die() { echo "$prog: $*" >&2; exit 2; }
fail() { echo "$prog: $*" >&2; exit 1; }

[ $# -eq 3 ] || die "usage: $prog KTREE DIR OUT"
jobs_check
ktree_check "$1" "$2"
out=$3
[ -n "$out" ] || die "OUT=: no directory to write the series to (make series OUT=DIR)"
case ${COMPILE:-} in ''|1) ;; *) die "COMPILE=$COMPILE: 1 or nothing" ;; esac

top=$(git -C "$KTREE" rev-parse --show-toplevel 2>/dev/null) ||
	die "$KTREE: not a git work tree (make series commits)"
[ "$(cd "$top" && pwd -P)" = "$KTREE" ] ||
	die "$KTREE: not the top of its git work tree ($top)"
git -C "$KTREE" diff --quiet HEAD -- 2>/dev/null ||
	die "$KTREE: uncommitted changes; commit or stash them first (nothing changed)"
git -C "$KTREE" var GIT_COMMITTER_IDENT >/dev/null 2>&1 ||
	die "git has no identity to sign the commits off with (git config user.name, user.email)"
if [ -e "$out" ]; then
	[ -d "$out" ] && [ -z "$(ls -A "$out")" ] ||
		die "OUT=$out: exists and is not an empty directory"
fi
mkdir -p "$out" || die "OUT=$out: cannot make it"
out=$(cd "$out" && pwd)

scratch=$(mktemp -d "${TMPDIR:-/tmp}/autofreeze-series.XXXXXX")
# A unit's files replaced but not committed yet when a step fails or a
# signal comes: put them back as its last commit has them.
pending=()
trap 'rc=$?; [ ${#pending[@]} -eq 0 ] || command git -C "$KTREE" checkout -q HEAD -- "${pending[@]}" 2>/dev/null; rm -rf "$scratch"; exit $rc' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

git() { command git -C "$KTREE" "$@"; }
start=$(git rev-parse HEAD)
echo "$prog: series on top of $(git log -1 --format='%h ("%s")' "$start")" >&2

# The tree's suspend freeze first: our core series where it needs one,
# or what mainline's own lacks.  The latter opens the series: a
# reviewer reads why the freeze can be relied on before the patches that
# rely on it.  Its commits are signed off, and authored, by whoever
# sends the series, as the conversions are.
IFS=$'\t' read -r _ state flag _ where _ < <("$AF" optin "$KTREE")
core=
prereqs=
if [ "$state" = series ] || [ "$state" = partial ]; then
	"$TOP/scripts/vfs.sh" "$KTREE" >"$scratch/vfs.log" 2>&1 ||
		fail "make vfs failed: $(tail -n 1 "$scratch/vfs.log")"
	core=$where
	if [ "$flag" != FS_AUTOFREEZE ]; then
		prereqs=$(git rev-list --count "$start..HEAD")
		GIT_EDITOR=true git rebase -q --exec \
			'git commit -q --amend --no-edit --reset-author -s' "$start" \
			>"$scratch/rebase.log" 2>&1 ||
			fail "signing off the commits of $where failed: $(tail -n 1 "$scratch/rebase.log")"
	fi
fi
base=$(git rev-parse HEAD)

# The conversion, and the report for its evidence.
mkdir "$scratch/conv" "$scratch/rep"
prog=$prog "$TOP/scripts/lib/convert.sh" "$KTREE" "$DIR" "$scratch/conv"
REPORT=1 prog=$prog "$TOP/scripts/lib/convert.sh" "$KTREE" "$DIR" "$scratch/rep" 2>/dev/null
(cd "$KTREE" && "$AF" scan -j "$J" "$DIR") >"$scratch/rep/scan"
"$AF" report "$scratch/rep/plan" "$scratch/rep/flags" "$scratch/rep/unparsed" \
	"$scratch/rep/rules" "$scratch/rep/scan" >"$scratch/report"
plan=$scratch/conv/plan
mechanism=$(plan_optin "$plan" 6)
SPATCH=${SPATCH:-spatch}
version=$(command git -C "$TOP" describe --always --dirty 2>/dev/null || echo unknown)
spver=$("$SPATCH" --version 2>/dev/null | sed -n 's/^spatch version \([0-9.]*\).*/\1/p')

# prefix UNIT: the subject prefix the unit's own history uses most
# ("xfs:"), else the unit's last path component.
prefix()
{
	local p
	p=$(git log -n 100 --format=%s -- "$1" 2>/dev/null |
		sed -n 's/^\([A-Za-z0-9_./-]*\): .*/\1/p' | sort | uniq -c |
		sort -rn | awk 'NR == 1 && $1 >= 3 { print $2 }')
	echo "${p:-${1##*/}}"
}

# plural N WORD: "1 patch", "2 patches"
plural()
{
	case $2 in
	*ch) [ "$1" -eq 1 ] && echo "$1 $2" || echo "$1 $2es" ;;
	*) [ "$1" -eq 1 ] && echo "$1 $2" || echo "$1 $2s" ;;
	esac
}

# wrap: the text on stdin as paragraphs of at most 72 columns
wrap() { fmt -w 72; }

# add_headers PATCH TO CC: To: and Cc: lines after its Subject:
add_headers()
{
	awk -v to="$2" -v cc="$3" '!done && /^$/ {
		if (to != "") print "To: " to
		if (cc != "") print "Cc: " cc
		done = 1 }
		{ print }' "$1" >"$1.new" && mv "$1.new" "$1"
}

# uses UNIT [STATUS]: the report's converted (or STATUS: kept) uses of
# UNIT, one line a group of
# uses with the same reason: "- FILE:LINE,... (API, ...), in kernel
# thread F(). Quiesced: EVIDENCE" (the evidence a reviewed judgment
# gives, when there is one)
uses()
{
	awk -v u="$1" -v st="${2:-converted}" '
	/^[^\t]/ { inu = (index($0, u ": ") == 1); next }
	inu && index($0, ": " st ": ") {
		sub(/^\t/, "")
		split($0, a, ": " st ": ")
		sub(/ \(-D kthread_fns=.*\)$/, "", a[2])
		n = split(a[1], loc, ":")	# FILE:LINE:COL: API
		api = loc[n]; sub(/^ /, "", api)
		why = a[2]
		if (!(why in file)) { order[++k] = why; file[why] = loc[1]; lines[why] = loc[2] }
		else if (file[why] == loc[1]) lines[why] = lines[why] "," loc[2]
		else lines[why] = lines[why] ", " loc[1] ":" loc[2]
		if (index(", " apis[why] ", ", ", " api ", ") == 0)
			apis[why] = apis[why] (apis[why] == "" ? "" : ", ") api
	}
	END {
		for (i = 1; i <= k; i++) {
			w = order[i]; ev = ""
			if ((j = index(w, "; quiesced: ")) > 0) {
				ev = substr(w, j + 12); w = substr(w, 1, j - 1)
			}
			printf "- %s:%s (%s), %s.", file[order[i]], lines[order[i]], apis[order[i]], w
			if (ev != "")
				printf " Quiesced: %s.", ev
			printf "\n"
		}
	}' "$scratch/report"
}

# assign NAME LIST: "NAME=a,b" then "NAME=$NAME,c,d" lines, none wider
# than 72 columns (a name longer than that alone on its line), for a
# comma-separated -D value in a commit message; nothing for no LIST.
assign()
{
	[ -n "$2" ] || return 0
	tr ',' '\n' <<<"$2" | awk -v n="$1" '
	{ if (cur != "" && length(cur) + length($0) + 1 > 60) { out(); cur = "" }
	  cur = cur (cur == "" ? "" : ",") $0 }
	function out() { printf "  %s=%s%s\n", n, (first++ ? "$" n "," : ""), cur }
	END { if (cur != "") out() }'
}

# message UNIT TYPES FILES...: the commit message of UNIT's conversion
message()
{
	local u=$1 types=$2 line kfns twins keeps
	shift 2
	if [ -z "$(uses "$u")" ]; then
		# a flag alone: nothing of the unit's is on the kthread freezer
		echo "$(prefix "$u"): freeze the filesystem on suspend with $flag"
		echo
		{ printf 'Filesystems whose file_system_type carries %s are %s. ' "$flag" "$mechanism"
		  printf '%s has no kernel thread or workqueue on the kthread freezer, and is freeze-capable (%s): ' \
			"$u" "$(plan_lines "$plan" unit 4 "$u" | sed 's/^eligible: //')"
		  printf 'set %s on %s, so that it is frozen on suspend as the other converted block filesystems are.\n' \
			"$flag" "${types//,/, }"; } | wrap
	else
		echo "$(prefix "$u"): replace kthread freezing with filesystem freezing on suspend"
		echo
		{ printf 'Filesystems whose file_system_type carries %s are %s. ' "$flag" "$mechanism"
		  printf 'Set %s on %s, and take the kernel threads and workqueues of %s off the kthread freezer: ' \
			"$flag" "${types//,/, }" "$u"
		  printf 'the filesystem is frozen before the tasks are, and its freeze quiesces their work.\n'; } | wrap
		echo
		echo "The freezer uses removed, and what the freeze does to their work:"
		while IFS= read -r line; do
			echo
			printf '%s\n' "$line" | fmt -w 72 | sed '2,$s/^/  /'
		done < <(uses "$u")
	fi
	if [ -n "$(uses "$u" kept)" ]; then
		echo
		echo "Kept, and why:"
		while IFS= read -r line; do
			echo
			printf '%s\n' "$line" | fmt -w 72 | sed '2,$s/^/  /'
		done < <(uses "$u" kept)
	fi
	echo
	kfns=$(plan_lines "$plan" kthread 3 "$u" | LC_ALL=C sort -u | paste -sd, -)
	twins=$(plan_twins "$plan" "$u")
	keeps=$(plan_keep_at "$plan" "$u")
	{ printf 'Generated by autofreeze %s with Coccinelle %s: ' "$version" "${spver:-?}"
	  printf 'its SmPL rules kthread_freezer.cocci, wq_freezable.cocci and fs_autofreeze.cocci, run on the files of %s as below. ' "$u"
	  printf 'The thread functions, the freezable macros with a plain twin and the uses a reviewed judgment keeps are those the autofreeze helper finds in the unit.\n'; } | wrap
	echo
	assign kfns "$kfns"
	assign twins "$twins"
	assign keeps "$keeps"
	echo "  spatch --sp-file kthread_freezer.cocci -D patch --in-place \\"
	echo "      --no-includes --include-headers \\"
	[ -z "$kfns" ] || echo "      -D kthread_fns=\$kfns \\"
	[ -z "$twins" ] || echo "      -D twins=\$twins \\"
	echo "      FILES"
	echo "  spatch --sp-file wq_freezable.cocci -D patch --in-place \\"
	echo "      --no-includes --include-headers \\"
	[ -z "$keeps" ] || echo "      -D keep_at=\$keeps \\"
	echo "      FILES"
	echo "  spatch --sp-file fs_autofreeze.cocci -D patch --in-place \\"
	echo "      --no-includes --include-headers \\"
	echo "      -D fs_types=$types \\"
	echo "      -D flag=$flag \\"
	echo "      $(plan_lines "$plan" fstype 4 "$u" | sort -u | paste -sd' ' -)"
	echo
	echo "FILES: $*" | wrap
	echo
	{ printf 'Checked with autofreeze: make check-tree finds no freezer use left in kernel-thread context of %s' "$u"
	  if [ -n "${COMPILE:-}" ]; then
		printf ', and every object this patch touches compiles with allmodconfig, without a new warning.\n'
	  else
		printf '.\n'
	  fi; } | wrap
}

# The units, in plan order: converted (a flag verdict and a change),
# or why not.
converted=()
already=()
: >"$scratch/held"
while IFS=$'\t' read -r -u 3 kind u status reason; do
	[ "$kind" = unit ] || continue
	verdict=$(awk -F'\t' -v u="$u" '$2 == u { print $1 "\t" $3 }' "$scratch/conv/flags")
	case $verdict in
	flag*)	mapfile -t files < <(plan_lines "$plan" file 3 "$u" | while IFS= read -r f; do
			cmp -s "$scratch/conv/a/$f" "$scratch/conv/b/$f" || echo "$f"; done)
		if [ ${#files[@]} -eq 0 ]; then
			already+=("$u")
			continue
		fi
		printf '%s\n' "${files[@]}" >"$scratch/list"
		pending=("${files[@]}")
		journal_replace "$scratch/list" "$scratch/conv/b"
		types=${verdict#*$'\t'}
		AUTOFREEZE_CACHE=${AUTOFREEZE_CACHE:-} "$TOP/scripts/check-tree.sh" "$KTREE" "$u" \
			</dev/null >"$scratch/check.log" 2>&1 ||
			fail "$u: make check-tree fails after its conversion: $(head -n 1 "$scratch/check.log")"
		if [ -n "${COMPILE:-}" ]; then
			FILES="${files[*]}" KTREE=$KTREE "$TOP/scripts/build-check.sh" \
				</dev/null >"$scratch/build.log" 2>&1 ||
				fail "$u: build-check fails: $(tail -n 1 "$scratch/build.log")"
		fi
		message "$u" "$types" "${files[@]}" >"$scratch/msg"
		git add -f -- "${files[@]}"
		git commit -q -s -F "$scratch/msg" -- "${files[@]}" </dev/null ||
			fail "$u: git commit failed"
		pending=()
		converted+=("$u")
		echo "$prog: $u: committed" >&2 ;;
	noflag*) printf '%s\t%s\n' "$u" "left whole: ${verdict#*$'\t'}" >>"$scratch/held" ;;
	*)	if [ "$status" != eligible ]; then
			printf '%s\t%s\n' "$u" "$reason" >>"$scratch/held"
		else
			printf '%s\t%s\n' "$u" "nothing to convert" >>"$scratch/held"
		fi ;;
	esac
done 3<"$plan"

if [ ${#converted[@]} -eq 0 ]; then
	echo "$prog: $DIR: nothing to convert, no series (OUT=$out left empty)" >&2
	exit 0
fi
# The series: the conversions, after what mainline's freeze lacks.
first=$base
[ -z "$prereqs" ] || first=$start
git format-patch -q --cover-letter --base="$first" -o "$out" "$first..HEAD" >/dev/null ||
	fail "git format-patch failed"
cover=$(ls "$out"/0000-*.patch)

# usecount UNIT: how many freezer uses the report lists for UNIT
usecount()
{
	awk -v u="$1" '/^[^\t]/ { inu = (index($0, u ": ") == 1); next }
		inu && /: (converted|kept|manual): / { n++ } END { print n + 0 }' "$scratch/report"
}

# The cover letter: what the series does, every unit accounted for.
{
	{ printf 'Filesystems whose file_system_type carries %s are %s. ' "$flag" "$mechanism"
	  printf 'This series sets it on %s and, in the same patch each, takes their kernel threads and workqueues off the kthread freezer, which they no longer need: the filesystem is frozen before the tasks are, and its freeze quiesces their work. ' "$(plural ${#converted[@]} filesystem)"
	  printf 'Each patch lists the uses it removes with what the freeze does to their work, and the Coccinelle commands that made it.\n'; } | wrap
	if [ -n "$prereqs" ]; then
		echo
		printf 'Patches 1-%s come first: fixes to the freeze the conversions rely on (%s in autofreeze), each with its reason:\n' \
			"$prereqs" "$core" | wrap
		git log --reverse --format='  %s' "$start..$base"
	elif [ -n "$core" ]; then
		echo
		printf 'It applies on top of the core VFS series that adds %s and the suspend freeze (%s in autofreeze), the %s below its base.\n' \
			"$flag" "$core" "$(plural "$(git rev-list --count "$start..$base")" commit)" | wrap
	fi
	echo
	echo "Converted, one patch each:"
	for u in "${converted[@]}"; do
		printf '  %s (%s)\n' "$u" "$(awk -F'\t' -v u="$u" '$2 == u { print $3 }' "$scratch/conv/flags" | sed 's/,/, /g')"
	done
	held=0
	while IFS=$'\t' read -r u why; do
		[ "$(usecount "$u")" -gt 0 ] || continue
		[ $held -gt 0 ] || { echo; echo "Held back, with kthread freezer uses, and why:"; }
		held=$((held + 1))
		printf -- '- %s: %s\n' "$u" "$why" | fmt -w 72 -p '' | sed '2,$s/^/  /'
	done <"$scratch/held"
	if [ ${#already[@]} -gt 0 ]; then
		echo
		echo "Converted already (they carry $flag):"
		printf '%s\n' "${already[@]}" | paste -sd' ' - | sed 's/ /, /g' | wrap | sed 's/^/  /'
	fi
	echo
	echo "No kthread freezer use to convert:"
	while IFS=$'\t' read -r u why; do
		[ "$(usecount "$u")" -eq 0 ] && echo "$u"
	done <"$scratch/held" | paste -sd' ' - | sed 's/ /, /g' | wrap | sed 's/^/  /'
	echo
	printf 'Generated by autofreeze %s with Coccinelle %s.\n' "$version" "${spver:-?}"
} >"$scratch/blurb"
awk -v subj="fs: replace kthread freezing with filesystem freezing on suspend" \
	-v blurb="$scratch/blurb" '
	/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subj) }
	/^\*\*\* BLURB HERE \*\*\*$/ { while ((getline l < blurb) > 0) print l; next }
	{ print }' "$cover" >"$cover.new" && mv "$cover.new" "$cover"

# To: the maintainers and reviewers, Cc: the lists, from the tree's own
# get_maintainer.pl; the cover letter gets them all.
if [ -f "$KTREE/scripts/get_maintainer.pl" ] && [ -f "$KTREE/MAINTAINERS" ]; then
	: >"$scratch/all-to"
	: >"$scratch/all-cc"
	for p in "$out"/*.patch; do
		[ "$p" != "$cover" ] || continue
		(cd "$KTREE" && perl scripts/get_maintainer.pl --no-rolestats --no-git \
			--no-git-fallback --no-l --no-multiline --separator ', ' "$p") \
			>"$scratch/to" 2>/dev/null || true
		(cd "$KTREE" && perl scripts/get_maintainer.pl --no-rolestats --no-git \
			--no-git-fallback --no-m --no-r --l --no-multiline --separator ', ' "$p") \
			>"$scratch/cc" 2>/dev/null || true
		# a unit with no maintainer (6.1's reiserfs): its lists are To:
		if [ ! -s "$scratch/to" ]; then
			mv "$scratch/cc" "$scratch/to"
			: >"$scratch/cc"
		fi
		tr ',' '\n' <"$scratch/to" | sed 's/^ *//' | grep . >>"$scratch/all-to" || true
		tr ',' '\n' <"$scratch/cc" | sed 's/^ *//' | grep . >>"$scratch/all-cc" || true
		add_headers "$p" "$(cat "$scratch/to")" "$(cat "$scratch/cc")"
	done
	add_headers "$cover" "$(awk '!s[$0]++' "$scratch/all-to" | paste -sd, - | sed 's/,/, /g')" \
		"$(awk 'NR == FNR { t[$0]; next } !($0 in t) && !s[$0]++' "$scratch/all-to" "$scratch/all-cc" |
			paste -sd, - | sed 's/,/, /g')"
else
	echo "$prog: warning: no scripts/get_maintainer.pl and MAINTAINERS in $KTREE: no To: or Cc:" >&2
fi

# checkpatch --strict on every patch: a warning or an error fails.
if [ -f "$KTREE/scripts/checkpatch.pl" ]; then
	bad=0
	for p in "$out"/*.patch; do
		[ "$p" != "$cover" ] || continue
		(cd "$KTREE" && perl scripts/checkpatch.pl --strict --no-summary -q "$p") \
			>"$scratch/cp.log" 2>&1 || true
		if grep -qE '^(ERROR|WARNING):' "$scratch/cp.log"; then
			bad=$((bad + 1))
			echo "$prog: checkpatch: ${p##*/}:" >&2
			sed 's/^/  /' "$scratch/cp.log" >&2
		elif [ -s "$scratch/cp.log" ]; then
			# --strict's CHECKs: advice, shown, not a failure
			echo "$prog: checkpatch --strict checks, no warning: ${p##*/}:" >&2
			grep -A3 '^CHECK:' "$scratch/cp.log" | sed 's/^/  /' >&2
		fi
	done
	[ $bad -eq 0 ] || fail "checkpatch --strict warns about $bad patches (in $out)"
fi
echo "$prog: ${prereqs:+$(plural "$prereqs" patch) for the suspend freeze, }$(plural ${#converted[@]} patch) and a cover letter in $out (git send-email $out/*.patch)" >&2
