#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series.sh: the conversion of DIR as a patch series for the list.  In
# KTREE, the top of a git work tree with nothing uncommitted, on a topic
# branch of its own (BRANCH), the checked-out branch left as it was:
# our core series first where the tree needs it (make vfs, its own
# commits; on mainline, what its suspend freeze lacks, patches/
# linux-mainline/, which then opens the series, authored and signed off
# by the sender as the conversions are), then one commit per converted
# unit, in unit order, each with its flag and its removals together (a
# filesystem is never left with neither freezing), and git format-patch
# of those commits into OUT with a cover letter.  The cover letter is
# also the topic branch's description, so that git format-patch
# --cover-from-description and b4 prep --enroll take it as it is.
#
# Each changelog says why the unit's threads may stop freezing (what its
# filesystem's freeze does to their work, with the reviewed evidence),
# the risks a reviewed note names, how it was made (the rules, which the
# cover letter carries) and how it was tested: compiled (allmodconfig,
# every object the series touches, at its head, no new warning against
# the files where it started; COMPILE=0 skips it),
# make check-tree, and make e2e's figures for the filesystem where a run
# of this autofreeze version on this kernel version recorded them.  The
# lines the rules changed are laid out as checkpatch.pl --strict wants
# (autofreeze layout); a patch it reports anything about, CHECK
# included, fails the run.  To: and Cc: come from the tree's
# get_maintainer.pl, and the cover letter and the patches that change
# the suspend freeze itself also go to the VFS and PM maintainers and
# lists (get_maintainer.pl of fs/super.c and kernel/power/suspend.c).
#
# usage: series.sh KTREE DIR OUT
#
# Environment: J=N; COMPILE=0 (do not compile); O=DIR (build directory
# for the compile, default build/series-obj/, per tree); BRANCH=NAME
# (the topic branch, default autofreeze/<DIR> with -vN for REROLL=N);
# SUBJECT_PREFIX=RFC ("[RFC PATCH ...]"); REROLL=N ("v N"; N>1 needs
# the branch of version N-1, whose range-diff goes below the cover
# letter and each patch's ---, or CHANGES); CHANGES=FILE (what changed
# since the last version, in the cover letter); IN_REPLY_TO=MESSAGE-ID;
# ADD_TO=, ADD_CC= (comma-separated addresses for every patch);
# SMPL_URL=URL (a stable link to the rules instead of the SmPL inline).
#
# It commits only what git tracks: a file the conversion would change
# that git does not track is refused, named.  Before its first commit
# it checks that it can finish: OUT writable, perl, the tree's
# scripts/checkpatch.pl and get_maintainer.pl (and MAINTAINERS) there
# and running, git format-patch with the options it needs; a check that
# cannot run, then or later, fails the run: none is skipped.
#
# Exit status: 0 the series is in OUT, on BRANCH, its base BRANCH-base
# (which b4 prep --enroll takes), 1 a step failed,
# 2 bad input, or a tool it needs could not run.  Either way but 0, the
# tree and its branches are as they were.
#
# The jobs are a page each: scripts/lib/series-text.sh writes the words
# of a changelog, scripts/lib/series-tools.sh asks the tree's tools
# (get_maintainer.pl, checkpatch.pl, autofreeze layout), and
# scripts/lib/series-cover.sh's write_out(), called once the series is
# committed and checked, writes it out: cover letter, git format-patch,
# per-patch notes, To: and Cc:; all three sourced here.  This driver reads the arguments and
# the environment, checks them and the tools, makes the branch and its
# commits, compiles and checks them, and says where the series is.

set -eu
prog=series.sh
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
BUILD=${BUILD:-$TOP/build}
. "$TOP/scripts/lib/ktree.sh"
. "$TOP/scripts/lib/plan.sh"
. "$TOP/scripts/lib/series-text.sh"	# maint, prefix, plural, wrap, message, ...
. "$TOP/scripts/lib/series-tools.sh"	# addresses, gm, layout, checkpatch_findings, ...
. "$TOP/scripts/lib/series-cover.sh"	# write_out

die() { echo "$prog: $*" >&2; exit 2; }
fail() { echo "$prog: $*" >&2; exit 1; }

[ $# -eq 3 ] || die "usage: $prog KTREE DIR OUT"
jobs_check
# series writes the tree (journal_replace, on its branch): like apply
# and vfs, it finishes or undoes a change a killed run left.
recovers=1
ktree_check "$1" "$2"
# A recovery took the tree's lock; vfs.sh, run below, takes its own.
# From the first replacement on (journal_replace) series holds it.
if [ -n "${tree_locked:-}" ]; then
	exec {tree_lock_fd}<&-
	tree_locked=
fi
out=$3
[ -n "$out" ] || die "OUT=: no directory to write the series to (make series OUT=DIR)"
if [ -e "$out" ]; then
	[ -d "$out" ] && [ -z "$(ls -A "$out")" ] ||
		die "OUT=$out: exists and is not an empty directory"
fi

# --- the options, all checked before anything changes -----------------
case ${COMPILE:-1} in 0|1) compile=${COMPILE:-1} ;; *) die "COMPILE=$COMPILE: 0 or 1" ;; esac
reroll=${REROLL:-1}
case $reroll in
''|*[!0-9]*|0*) die "REROLL=$reroll: a version number, 1 or more" ;;
esac
sprefix=${SUBJECT_PREFIX:-PATCH}
case $sprefix in
*PATCH*) ;;
*) sprefix="$sprefix PATCH" ;;
esac
case $sprefix in
*[![:print:]]* | *'['* | *']'*) die "SUBJECT_PREFIX=$SUBJECT_PREFIX: one line of text without brackets (RFC)" ;;
esac
in_reply_to=${IN_REPLY_TO:-}
if [ -n "$in_reply_to" ]; then
	in_reply_to=${in_reply_to#<}
	in_reply_to=${in_reply_to%>}
	case $in_reply_to in
	*@*) ;;
	*) die "IN_REPLY_TO=$IN_REPLY_TO: not a Message-ID (<id@host>)" ;;
	esac
	case $in_reply_to in
	*[[:space:]\<\>]*) die "IN_REPLY_TO=$IN_REPLY_TO: not a Message-ID (<id@host>)" ;;
	esac
fi
add_to=$(addresses ADD_TO "${ADD_TO:-}") || exit 2
add_cc=$(addresses ADD_CC "${ADD_CC:-}") || exit 2
changes=${CHANGES:-}
if [ -n "$changes" ]; then
	[ -f "$changes" ] && [ -r "$changes" ] || die "CHANGES=$changes: no such readable file"
	[ -s "$changes" ] || die "CHANGES=$changes: empty"
fi
case ${SMPL_URL:-} in
''|http://*|https://*) ;;
*) die "SMPL_URL=$SMPL_URL: not an http(s) URL" ;;
esac

top=$(git -C "$KTREE" rev-parse --show-toplevel 2>/dev/null) ||
	die "$KTREE: not a git work tree (make series commits)"
[ "$(cd "$top" && pwd -P)" = "$KTREE" ] ||
	die "$KTREE: not the top of its git work tree ($top)"
git -C "$KTREE" diff --quiet HEAD -- 2>/dev/null ||
	die "$KTREE: uncommitted changes; commit or stash them first (nothing changed)"
git -C "$KTREE" var GIT_COMMITTER_IDENT >/dev/null 2>&1 ||
	die "git has no identity to sign the commits off with (git config user.name, user.email)"

git() { command git -C "$KTREE" "$@"; }

slug=$(printf '%s' "$DIR" | tr -c 'A-Za-z0-9._\n-' '-')
branch_for() { [ "$1" -le 1 ] && echo "autofreeze/$slug" || echo "autofreeze/$slug-v$1"; }
branch=${BRANCH:-$(branch_for "$reroll")}
git check-ref-format --branch "$branch" >/dev/null 2>&1 ||
	die "BRANCH=$branch: not a valid branch name"
for b in "$branch" "$branch-base"; do
	! git show-ref --verify -q "refs/heads/$b" ||
		die "BRANCH=$branch: $b exists; delete it (git branch -D $b) or name another"
done
# The last version, for REROLL=N: its branch, as make series named it.
prev=
if [ "$reroll" -gt 1 ]; then
	p=$(branch_for $((reroll - 1)))
	if git show-ref --verify -q "refs/heads/$p"; then
		prev=$p
	elif [ -z "$changes" ]; then
		die "REROLL=$reroll: no branch $p of v$((reroll - 1)) to compare with, and no CHANGES=FILE to say what changed"
	fi
fi

if [ "$compile" = 1 ]; then
	# The compile is allmodconfig, out of tree: a tree configured in
	# place cannot be built with O=, and its .config is the user's.
	[ ! -e "$KTREE/.config" ] && [ ! -e "$KTREE/include/config/auto.conf" ] ||
		die "$KTREE is configured in place (.config): COMPILE=0 skips the compile, or make mrproper"
	[ -d "$KTREE/scripts/kconfig" ] ||
		die "$KTREE: no scripts/kconfig, cannot compile the series (COMPILE=0 skips it)"
	obj=${O:-$BUILD/series-obj/$(basename "$KTREE")-$(printf '%s' "$KTREE" | sha256sum | cut -c1-12)}
fi

# --- what the run needs to finish, checked before anything changes -----
scratch=$(mktemp -d "${TMPDIR:-/tmp}/autofreeze-series.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
# OUT: a directory with no write bit at all was made read-only on
# purpose, which root's [ -w ] does not see (journal.sh: writable).
d=$out
while [ ! -e "$d" ]; do d=$(dirname "$d"); done
[ -d "$d" ] || die "OUT=$out: $d is not a directory"
if [ ! -w "$d" ] || [ -z "$(find "$d" -maxdepth 0 -perm /222)" ]; then
	die "OUT=$out: $d is not writable (mode $(stat -c %a "$d")); nothing changed"
fi
command -v perl >/dev/null 2>&1 ||
	die "perl not found: the tree's checkpatch.pl and get_maintainer.pl need it"
for t in scripts/checkpatch.pl scripts/get_maintainer.pl MAINTAINERS; do
	[ -f "$KTREE/$t" ] ||
		die "$KTREE: no $t; a series is checked with the tree's checkpatch.pl and addressed with its get_maintainer.pl"
done
# checkpatch.pl on an empty patch: perl loads it and it runs
(cd "$KTREE" && perl scripts/checkpatch.pl --strict --show-types --no-summary -q - </dev/null) \
	>/dev/null 2>"$scratch/err" ||
	die "$KTREE/scripts/checkpatch.pl does not run: $(grep . "$scratch/err" | head -n 1)"
# format-patch with every option the series takes, on nothing
git -C "$KTREE" format-patch --stdout -q --cover-letter --cover-from-description=subject \
	--base=HEAD --subject-prefix=PATCH -v 2 --in-reply-to=x@y HEAD..HEAD >/dev/null 2>"$scratch/err" ||
	die "git format-patch cannot write the series: $(grep . "$scratch/err" | head -n 1)"

# The VFS and PM maintainers and lists, for what changes the suspend
# freeze itself; and get_maintainer.pl's check that it runs.
gm TO -f fs/super.c -f kernel/power/suspend.c >"$scratch/pm-to"
gm CC -f fs/super.c -f kernel/power/suspend.c >"$scratch/pm-cc"

made_out=
[ -d "$out" ] || made_out=1
mkdir -p "$out" || die "OUT=$out: cannot make it"
out=$(cd "$out" && pwd)
if ! probe=$(mktemp "$out/.autofreeze-probe.XXXXXX" 2>/dev/null) || ! rm -f "$probe"; then
	[ -z "$made_out" ] || rmdir "$out" 2>/dev/null || true
	die "OUT=$out: cannot write there; nothing changed"
fi

# --- on the topic branch; everything but success puts the tree back -----
start=$(git rev-parse HEAD)
orig=$(git symbolic-ref -q --short HEAD) || orig=
# The tree's bookkeeping (make vfs and apply's record of what they
# changed) is the checked-out branch's: kept aside and put back with it.
had_state=
if [ -d "$KSTATE" ]; then
	cp -a "$KSTATE" "$scratch/state"
	had_state=1
fi
pending=()
done_ok=
back()
{
	# the checked-out branch (or commit) again, and its bookkeeping
	[ ${#pending[@]} -eq 0 ] || command git -C "$KTREE" checkout -q HEAD -- "${pending[@]}" 2>/dev/null || true
	if [ -n "$orig" ]; then
		command git -C "$KTREE" checkout -q -f "$orig" 2>/dev/null || true
	else
		command git -C "$KTREE" checkout -q -f --detach "$start" 2>/dev/null || true
	fi
	# a journal a failed undo left is the next writer's to put back
	[ ! -d "$KSTATE/journal" ] || return 0
	rm -rf "$KSTATE"
	[ -z "$had_state" ] || cp -a "$scratch/state" "$KSTATE"
}
cleanup()
{
	back
	if [ -z "$done_ok" ]; then
		command git -C "$KTREE" branch -q -D "$branch" 2>/dev/null || true
		command git -C "$KTREE" branch -q -D "$branch-base" 2>/dev/null || true
		rm -f "$out"/*.patch
		[ -z "$made_out" ] || rmdir "$out" 2>/dev/null || true
	fi
	rm -rf "$scratch"
}
trap 'rc=$?; set +e; cleanup; exit $rc' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

git checkout -q -b "$branch" || fail "cannot make branch $branch"

# --- the tree's suspend freeze first ------------------------------------
# Our core series where it needs one, or what mainline's own lacks.  The
# latter opens the series: a reviewer reads why the freeze can be relied
# on before the patches that rely on it.
IFS=$'\t' read -r _ state flag _ where _ < <("$AF" optin "$KTREE")
lacks=$("$AF" prereqs "$KTREE" 2>/dev/null | awk -F'\t' '$1 == "lacks" { print $2 }')
core=
prereqs=0
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

# --- the conversion, and the report's facts for its changelogs ----------
# One run gives both: REPORT=full converts b/ in full and keeps the
# rules' report-mode messages, which the report's verdicts read.
mkdir "$scratch/conv"
REPORT=full prog=$prog "$TOP/scripts/lib/convert.sh" "$KTREE" "$DIR" "$scratch/conv"
(cd "$KTREE" && "$AF" scan -j "$J" "$DIR") >"$scratch/scan"
"$AF" report -f changelog "$scratch/conv/plan" "$scratch/conv/flags" \
	"$scratch/conv/unparsed" "$scratch/conv/rules" "$scratch/scan" >"$scratch/facts"
plan=$scratch/conv/plan
mechanism=$(plan_optin "$plan" 6)
SPATCH=${SPATCH:-spatch}
version=$(af_version)
spver=$("$SPATCH" --version 2>/dev/null | sed -n 's/^spatch version \([0-9.]*\).*/\1/p')
kver=$(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p' "$KTREE/Makefile" | paste -sd. -)

# e2e: make e2e's record for this kernel version, when a run of this
# autofreeze version wrote it (build/e2e/linux-KVER/verdicts: a first
# line "autofreeze VERSION linux-source-KVER RELEASE", then one verdict
# a line); else nothing
e2e_dir=$BUILD/e2e/linux-$kver
e2e_head=
if [ -f "$e2e_dir/verdicts" ] && [ "${version%-dirty}" = "$version" ]; then
	read -r e2e_tool e2e_version e2e_src e2e_release <"$e2e_dir/verdicts" || true
	[ "${e2e_tool:-}" != autofreeze ] || [ "${e2e_version:-}" != "$version" ] ||
		e2e_head="$e2e_src ($e2e_release)"
fi

# The series commits what the user has: a file the conversion would
# change that git does not track (new, or ignored) is refused, before
# the first file is replaced.
while IFS=$'\t' read -r -u 3 kind u _; do
	[ "$kind" = unit ] && [ "$(awk -F'\t' -v u="$u" '$2 == u { print $1 }' "$scratch/conv/flags")" = flag ] ||
		continue
	while IFS= read -r f; do
		[ -n "$(git ls-files -- ":(literal)$f")" ] ||
			die "$f: not tracked by git, and the conversion of $u would change it: the series commits only what git tracks (commit it first, or move it away); nothing changed"
	done < <(changed "$u")
done 3<"$plan"
echo "$prog: series on branch $branch, on top of $(git log -1 --format='%h ("%s")' "$start")" >&2

# --- one commit per converted unit, in plan order -----------------------
converted=()
already=()
: >"$scratch/held"
while IFS=$'\t' read -r -u 3 kind u status reason; do
	[ "$kind" = unit ] || continue
	verdict=$(awk -F'\t' -v u="$u" '$2 == u { print $1 "\t" $3 }' "$scratch/conv/flags")
	case $verdict in
	flag*)	mapfile -t files < <(changed "$u")
		if [ ${#files[@]} -eq 0 ]; then
			already+=("$u")
			continue
		fi
		if [ "$(maint "$u" | cut -f2)" = Obsolete ]; then
			printf '%s\t%s\n' "$u" "MAINTAINERS marks it obsolete: no unnecessary changes" >>"$scratch/held"
			continue
		fi
		layout "${files[@]}"
		printf '%s\n' "${files[@]}" >"$scratch/list"
		pending=("${files[@]}")
		journal_replace "$scratch/list" "$scratch/conv/b"
		types=${verdict#*$'\t'}
		BASE= AUTOFREEZE_CACHE=${AUTOFREEZE_CACHE:-} "$TOP/scripts/check-tree.sh" "$KTREE" "$u" \
			</dev/null >"$scratch/check.log" 2>&1 ||
			fail "$u: make check-tree fails after its conversion: $(head -n 1 "$scratch/check.log")"
		message "$u" "$types" "${files[@]}" >"$scratch/msg"
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
	echo "$prog: $DIR: nothing to convert, no series (no branch made, nothing in OUT=$out)" >&2
	exit 0
fi
first=$base
[ "$prereqs" -eq 0 ] || first=$start
npatches=$(git rev-list --count "$first..HEAD")

# The compile: every C file and header the branch changes, at its head,
# against the same files as they were where it started (the baseline
# for "no new warning").  One allmodconfig build, out of tree.
if [ "$compile" = 1 ]; then
	mapfile -t built < <(git diff --name-only "$start" HEAD -- '*.c' '*.h')
	echo "$prog: compiling what the series touches, ${#built[@]} files (allmodconfig, in $obj)" >&2
	# the tree's lock, held since the first replacement, goes with it
	AUTOFREEZE_LOCK_FD=${tree_lock_fd:-} \
	O=$obj FILES="${built[*]}" BASE_REV=$start KTREE=$KTREE "$TOP/scripts/build-check.sh" \
		</dev/null >"$scratch/build.log" 2>&1 || {
		sed -n '/FAIL\|NEW WARNING\|warning:\|error:/p' "$scratch/build.log" | head -n 20 >&2
		fail "build-check fails: $(tail -n 1 "$scratch/build.log")"
	}
fi

# The range-diff against the last version: a per-patch status for the
# notes below each ---, and a one-line summary for the cover letter.
if [ -n "$prev" ]; then
	pbase=$(git config "branch.$prev.autofreeze-base" 2>/dev/null || git merge-base "$prev" HEAD)
	git range-diff --no-color "$pbase..$prev" "$first..HEAD" >"$scratch/rd" 2>/dev/null ||
		fail "git range-diff against $prev failed"
	awk '{
		for (i = 1; i <= NF; i++) if ($i ~ /^[=!<>]$/) { op = $i; break }
		if (op == "=") s = "unchanged"
		else if (op == "!") s = "changed"
		else if (op == ">") s = "new"
		else next
		split($(i + 1), n, ":")
		print n[1] "\t" s
	}' "$scratch/rd" | grep -v '^-' >"$scratch/rd-status" || true
	{ c=$(grep -c $'\tchanged$' "$scratch/rd-status" || true)
	  nw=$(grep -c $'\tnew$' "$scratch/rd-status" || true)
	  dr=$(grep -c ' < ' "$scratch/rd" || true)
	  printf '%s changed, %s new, %s dropped' "$c" "$nw" "$dr"; } >"$scratch/rd-summary"
fi
# --- checkpatch --strict, before the cover letter, which says so -------------
mkdir "$scratch/cp"
: >"$scratch/cp-moved"
git format-patch -q -o "$scratch/cp" "$first..HEAD" >/dev/null || fail "git format-patch failed"
bad=0
for p in "$scratch"/cp/*.patch; do
	checkpatch_findings "$p" >"$scratch/cp.log"
	if [ -s "$scratch/cp.log" ]; then
		bad=$((bad + 1))
		echo "$prog: checkpatch --strict: ${p##*/}:" >&2
		sed 's/^/  /' "$scratch/cp.log" >&2
	fi
done
[ $bad -eq 0 ] || fail "checkpatch --strict reports on $(plural $bad patch)"
while read -r w t; do
	echo "$prog: checkpatch --strict: $w: $t, on a line the patch only re-indents: not counted" >&2
done <"$scratch/cp-moved"

# --- the cover letter, git format-patch, To: and Cc: ----------------------
write_out

# BRANCH-base: the series' base, as a branch, which b4 prep --enroll
# takes (our core series below it is on no other branch).
git branch -q "$branch-base" "$first" || fail "cannot make branch $branch-base"
done_ok=1
echo "$prog: $([ "$prereqs" -eq 0 ] || echo "$(plural "$prereqs" patch) for the suspend freeze, ")$(plural ${#converted[@]} patch) and a cover letter in $out, on branch $branch (git send-email $out/*.patch; b4: git checkout $branch && b4 prep --enroll $branch-base)" >&2
