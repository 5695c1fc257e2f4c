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

set -eu
prog=series.sh
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
BUILD=${BUILD:-$TOP/build}
. "$TOP/scripts/lib/ktree.sh"
. "$TOP/scripts/lib/plan.sh"

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
# addresses NAME VALUE: VALUE, comma-separated mail addresses, one per
# line; a word without an @ is refused
addresses()
{
	local a
	tr ',' '\n' <<<"$2" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//' | grep . |
	while IFS= read -r a; do
		case $a in
		*@*) printf '%s\n' "$a" ;;
		*) echo "$prog: $1=$2: \"$a\" is not a mail address" >&2; return 1 ;;
		esac
	done
}
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

# gm TO|CC FILE...: get_maintainer.pl's maintainers and reviewers (TO)
# or lists (CC) for the patches, or with -f the files, given, one a line;
# one that cannot run fails the run (exit 2), as a check not made
gm()
{
	local which=$1 opts
	shift
	if [ "$which" = TO ]; then
		opts=(--no-l)
	else
		opts=(--no-m --no-r --l)
	fi
	# perl orders a hash's keys anew each run, and get_maintainer.pl
	# prints some names in that order: a fixed seed, the same To: twice
	(cd "$KTREE" && PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 \
		perl scripts/get_maintainer.pl --no-rolestats --no-git \
		--no-git-fallback "${opts[@]}" --no-multiline --separator ', ' "$@") \
		>"$scratch/gm.out" 2>"$scratch/err" ||
		die "$KTREE/scripts/get_maintainer.pl could not run ($*): $(grep . "$scratch/err" | tail -n 1)"
	tr ',' '\n' <"$scratch/gm.out" | sed 's/^ *//' | grep . || true
}
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

# maint UNIT: "PREFIX<TAB>STATUS" from the MAINTAINERS section whose F:
# directory holds UNIT most closely: the prefix its name gives ("XFS
# FILESYSTEM": "xfs:"), when its first word is a component of UNIT's
# path, else UNIT's path below its top directory ("fs/smb/client":
# "smb: client:"); the section's S: ("Obsolete").
maint()
{
	local path=${1#*/}
	awk -v u="$1/" -v comps="/$path/" -v path="$path" '
	BEGIN { fresh = 1 }
	function done_section() {
		if (title != "" && score > best) { best = score; bt = title; bs = st }
		title = ""; st = ""; score = 0
	}
	/^$/ { done_section(); fresh = 1; next }
	fresh && !/^[A-Z]:\t/ { title = $0; fresh = 0; next }
	{ fresh = 0 }
	title != "" && /^S:\t/ { st = substr($0, 4) }
	title != "" && /^F:\t/ {
		p = substr($0, 4)
		if (p !~ /\/$/) p = p "/"
		if (index(u, p) == 1 && length(p) > score) score = length(p)
	}
	END {
		done_section()
		w = tolower(bt); sub(/[^a-z0-9_-].*/, "", w)
		if (w != "" && index(tolower(comps), "/" w "/"))
			pre = w ":"
		else {
			pre = path; gsub(/\//, ": ", pre); pre = pre ":"
		}
		print pre "\t" bs
	}' "$KTREE/MAINTAINERS" 2>/dev/null || printf '%s:\t\n' "${1##*/}"
}

# prefix UNIT: the subject prefix the unit's own history uses most
# ("xfs:"), else the one MAINTAINERS gives.
prefix()
{
	local p
	p=$(git log -n 100 --format=%s -- "$1" 2>/dev/null |
		sed -n 's/^\([A-Za-z0-9_./-]*\(: [A-Za-z0-9_./-]*\)\{0,1\}\): .*/\1/p' | sort | uniq -c |
		sort -rn | awk 'NR == 1 && $1 >= 3 { $1 = ""; sub(/^ /, ""); print $0 ":" }')
	[ -n "$p" ] || p=$(maint "$1" | cut -f1)
	echo "$p"
}

# plural N WORD: "1 patch", "2 patches"
plural()
{
	case $2 in
	*ch) [ "$1" -eq 1 ] && echo "$1 $2" || echo "$1 $2es" ;;
	*) [ "$1" -eq 1 ] && echo "$1 $2" || echo "$1 $2s" ;;
	esac
}

# wrap [INDENT]: the text on stdin as paragraphs of lines of at most 72
# columns, words kept whole; the lines after a paragraph's first indented
# by INDENT spaces (a list item's).
wrap()
{
	awk -v ind="${1:-0}" '
	function flush() {
		if (line != "") print line
		line = ""; n = 0
	}
	/^$/ { flush(); print ""; next }
	{
		for (i = 1; i <= NF; i++) {
			pad = n ? sprintf("%" ind "s", "") : ""
			if (line == "") { line = (n ? pad : "") $i; continue }
			if (length(line) + 1 + length($i) > 72) {
				print line; n++
				line = sprintf("%" ind "s", "") $i
			} else
				line = line " " $i
		}
	}
	END { flush() }' | awk 'NR == 1 || !(prev == "" && $0 == "") { print } { prev = $0 }'
}

# items [INDENT]: each line on stdin a list item, wrapped, the items apart
items() { while IFS= read -r l; do printf '%s\n' "$l" | wrap "${1:-2}"; done; }

# facts UNIT KIND: the report's facts of KIND on UNIT, one a line
# (autofreeze report -f changelog): "converted" or "kept", its uses of
# that verdict, one line a group of uses with the same reason ("- FILE:
# LINE,... (API, ...), REASON. Quiesced: EVIDENCE."); "note", the
# reviewed notes on its conversion; "count", how many freezer uses it has
facts()
{
	awk -F'\t' -v u="$1" -v k="$2" '$1 == u && $2 == k {
		sub(/^[^\t]*\t[^\t]*\t/, ""); print }' "$scratch/facts"
}

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

# e2e_fs NAME: what make e2e saw of filesystem NAME in the converted
# kernel's runs, as a sentence; nothing where it did not run NAME
e2e_fs()
{
	[ -n "$e2e_head" ] || return 0
	cat "$e2e_dir"/patched/*.check.txt 2>/dev/null | awk -v fs="$1" '
	$1 == "ok" && index($0, ": " fs " (vd") && / 0 while frozen/ { n++ }
	$1 == "ok" && $0 ~ ("^ok verify " fs ": ") { v++ }
	END {
		if (n) printf "%d freeze/thaw cycles with writers running and no request to its disk while frozen", n
		if (n && v) printf ", its files read back intact after the runs"
	}'
}

# message UNIT TYPES FILES...: the commit message of UNIT's conversion
message()
{
	local u=$1 types=$2 fig risks
	shift 2
	if [ -z "$(facts "$u" converted)" ]; then
		# a flag alone: nothing of the unit's is on the kthread freezer
		echo "$(prefix "$u") freeze the filesystem on suspend with $flag"
		echo
		{ printf 'Filesystems whose file_system_type carries %s are %s. ' "$flag" "$mechanism"
		  printf '%s has no kernel thread or workqueue on the kthread freezer, and is freeze-capable (%s): ' \
			"$u" "$(plan_lines "$plan" unit 4 "$u" | sed 's/^eligible: //')"
		  printf 'set %s on %s, so that it is frozen on suspend as the other converted block filesystems are.\n' \
			"$flag" "${types//,/, }"; } | wrap
	else
		echo "$(prefix "$u") replace kthread freezing with filesystem freezing on suspend"
		echo
		{ printf 'Filesystems whose file_system_type carries %s are %s. ' "$flag" "$mechanism"
		  printf 'That freeze stops the filesystem at a defined point, where the kthread freezer stopped each thread wherever it called try_to_freeze(). '
		  printf 'Set %s on %s, and take the kernel threads and workqueues of %s off the kthread freezer: ' \
			"$flag" "${types//,/, }" "$u"
		  printf 'the filesystem is frozen before the tasks are, and its freeze quiesces their work.\n'; } | wrap
		echo
		echo "The freezer uses removed, and what the freeze does to their work:"
		echo
		facts "$u" converted | items 2
	fi
	if [ -n "$(facts "$u" kept)" ]; then
		echo
		echo "Kept, and why:"
		echo
		facts "$u" kept | items 2
	fi
	risks=$(facts "$u" note)
	if [ -n "$risks" ]; then
		echo
		echo "Risks:"
		echo
		sed 's/^/- /' <<<"$risks" | items 2
	fi
	echo
	{ printf 'Generated by autofreeze %s with Coccinelle %s: ' "$version" "${spver:-?}"
	  printf 'its SmPL rules kthread_freezer.cocci, wq_freezable.cocci and fs_autofreeze.cocci (see the cover letter) '
	  printf 'made the change on the files of %s ("make apply DIR=%s"), given the unit'"'"'s thread functions by its helper; ' "$u" "$u"
	  printf 'the text above is generated from its report, with the evidence of its reviewed judgments.\n'; } | wrap
	echo
	{ printf 'Tested: '
	  if [ "$compile" = 1 ]; then
		printf 'every object this patch touches compiles with allmodconfig (at the head of the series), without a new warning; '
	  fi
	  printf 'make check-tree finds no freezer use left in kernel-thread context of %s' "$u"
	  fig=$(e2e_fs "${u##*/}")
	  if [ -n "$fig" ]; then
		printf '; under qemu, with this series on %s (make e2e), %s went through %s.\n' "$e2e_head" "${u##*/}" "$fig"
	  else
		printf '.\n'
	  fi; } | wrap
}

# layout FILE...: the lines the rules changed in the converted copies
# (conv/b) laid out as checkpatch.pl --strict wants (autofreeze layout)
layout()
{
	local f lines
	for f in "$@"; do
		lines=$(diff --unchanged-line-format= --old-line-format= \
			--new-line-format='%dn
' "$scratch/conv/a/$f" "$scratch/conv/b/$f" || true)
		[ -n "$lines" ] || continue
		# shellcheck disable=SC2086 # one line number per word
		"$AF" layout "$scratch/conv/b/$f" $lines >"$scratch/layout.tmp" ||
			fail "$f: autofreeze layout failed"
		mv "$scratch/layout.tmp" "$scratch/conv/b/$f"
	done
}

# changed UNIT: the files of UNIT the conversion changed, one a line
changed()
{
	plan_lines "$plan" file 3 "$1" | while IFS= read -r f; do
		cmp -s "$scratch/conv/a/$f" "$scratch/conv/b/$f" || printf '%s\n' "$f"
	done
}

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

# prereq_why SUBJECT: what the tree's freeze lacks without the
# prerequisite whose patch has SUBJECT (policy/prerequisites.tsv: its
# third column the patch, its fifth the reason); nothing for a patch of
# the series that no prerequisite names
prereq_why()
{
	local name patch why subj
	while IFS=$'\t' read -r _ name patch _ why; do
		case $name in '#'* | '') continue ;; esac
		subj=$(awk '/^Subject: / { s = $0; while ((getline l) > 0 && l ~ /^[ \t]/) s = s l; print s; exit }' \
			"$TOP/patches/$patch" 2>/dev/null | sed 's/^Subject: *\(\[[^]]*\] *\)\{0,1\}//; s/[ \t][ \t]*/ /g')
		[ "$subj" != "$1" ] || { printf '%s\n' "$why"; return; }
	done < <(grep -v '^#' "$TOP/policy/prerequisites.tsv")
}

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
# checkpatch_findings PATCH: what the tree's checkpatch.pl --strict
# reports on PATCH, one finding a paragraph, except those that ask for a
# comment on existing code (WAITQUEUE_ACTIVE, DATA_RACE) on a line the
# patch only re-indents: those go to $scratch/cp-moved, as
# "FILE:LINE TYPE", and do not fail the run.  A checkpatch.pl that did
# not run (exit status 2 or more, or 1 and no finding) fails the run,
# exit 2: no finding from a check not made is no "reports nothing".
checkpatch_findings()
{
	local rc=0
	(cd "$KTREE" && perl scripts/checkpatch.pl --strict --show-types --no-summary -q "$1") \
		>"$scratch/cp.raw" 2>"$scratch/err" || rc=$?
	if [ $rc -gt 1 ] || { [ $rc -eq 1 ] && ! grep -qE '^(ERROR|WARNING|CHECK):' "$scratch/cp.raw"; }; then
		die "$KTREE/scripts/checkpatch.pl could not run on ${1##*/} (exit $rc): $(cat "$scratch/err" "$scratch/cp.raw" | grep . | tail -n 1)"
	fi
	awk -v patch="$1" -v moved="$scratch/cp-moved" '
	BEGIN {
		# the removed lines, without blanks: a "+" line equal to one
		# of them without blanks is only re-indented
		while ((getline l < patch) > 0)
			if (l ~ /^-/ && l !~ /^---/) { l = substr(l, 2); gsub(/[ \t]/, "", l); gone[l] = 1 }
	}
	/^(ERROR|WARNING|CHECK):/ { flush(); head = $0; body = ""; next }
	head != "" { body = body $0 "\n"
		if ($0 ~ /^#[0-9]*: FILE: /) { where = $0; sub(/^#[0-9]*: FILE: /, "", where); sub(/:$/, "", where) }
		if ($0 ~ /^\+/) { code = substr($0, 2); gsub(/[ \t]/, "", code) } }
	function flush() {
		if (head == "") return
		split(head, t, ":")
		if ((t[2] == "WAITQUEUE_ACTIVE" || t[2] == "DATA_RACE") && (code in gone))
			print where " " t[2] >> moved
		else
			printf "%s\n%s", head, body
		head = ""; code = ""; where = ""
	}
	END { flush() }' "$scratch/cp.raw"
}

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

# --- the cover letter: the topic branch's description --------------------
{
	echo "fs: freeze filesystems, not their kernel threads, for suspend and hibernation"
	echo
	{ printf 'The kthread freezer stops kernel threads and freezable workqueues wherever they happen to call try_to_freeze(). '
	  printf 'What a frozen thread may hold, and which of its I/O must still pass, was never defined; its uses spread by copy and paste, and its removal has been discussed since 2015 [1][2][3]. '
	  printf 'What a filesystem needs from it, no writes to its disk while the system sleeps or its image is taken, the filesystem'"'"'s own freeze gives, at a defined point and for all its writers, as the 2023 series [4] proposed. '
	  printf 'Filesystems whose file_system_type carries %s are now %s.\n' "$flag" "$mechanism"; } | wrap
	echo
	{ printf 'This series sets %s on %s and, in the same patch each, takes their kernel threads and workqueues off the kthread freezer: ' \
		"$flag" "$(plural ${#converted[@]} filesystem)"
	  printf 'the filesystem is frozen before the tasks are, and its freeze quiesces their work. '
	  printf 'Each patch lists the uses it removes, what the freeze does to their work and the code that shows it.\n'; } | wrap
	echo
	echo "Safety"
	echo
	if [ "$prereqs" -gt 0 ]; then
		{ printf 'A conversion is only as safe as the freeze that replaces the kthread freezer. '
		  printf 'Patches 1-%s close what this tree'"'"'s freeze still lacks (%s in autofreeze), and come first:\n' "$prereqs" "$core"; } | wrap
		echo
		i=0
		while IFS= read -r s; do
			i=$((i + 1))
			why=$(prereq_why "$s")
			if [ -n "$why" ]; then
				printf -- '- %s/%s %s: without it, %s.\n' "$i" "$npatches" "$s" "$why"
			else
				printf -- '- %s/%s %s: a fix of the filesystem'"'"'s own freeze, needed before its conversion (its changelog says why).\n' "$i" "$npatches" "$s"
			fi
		done < <(git log --reverse --format='%s' "$start..$base") | items 2
	elif [ -n "$core" ]; then
		{ printf 'It applies on top of the core VFS series that adds %s and the suspend freeze (%s in autofreeze), ' "$flag" "$core"
		  printf 'the %s below its base.\n' "$(plural "$(git rev-list --count "$start..$base")" commit)"; } | wrap
	else
		printf 'The freeze the conversions rely on is in the tree as it is.\n' | wrap
	fi
	echo
	{ printf 'A unit is converted only where a reviewed judgment shows its freeze quiescing each thread and workqueue taken off the freezer; '
	  printf 'what cannot be shown quiesced keeps freezing, and is listed below with the reason.\n'; } | wrap
	echo
	echo "Merge order"
	echo
	if [ "$prereqs" -gt 0 ]; then
		{ printf 'Patches 1-%s first (VFS and PM; a filesystem fix among them goes with its filesystem). ' "$prereqs"
		  printf 'The conversions depend on them and not on each other: once they are in, each can go through its filesystem'"'"'s tree.\n'; } | wrap
	elif [ -n "$core" ]; then
		printf 'The conversions need the core series below the base, and not each other: with it in, each can go through its filesystem'"'"'s tree.\n' | wrap
	else
		printf 'The conversions do not depend on each other: each can go through its filesystem'"'"'s tree.\n' | wrap
	fi
	echo
	echo "Testing"
	echo
	{
		if [ "$compile" = 1 ]; then
			echo "- Every object the series touches compiles with allmodconfig at its head, without a new warning against the same files before it (autofreeze build-check)."
		else
			echo "- Not compiled by autofreeze (COMPILE=0)."
		fi
		if [ -s "$scratch/cp-moved" ]; then
			echo "- checkpatch.pl --strict reports nothing on any patch but $(awk '{ printf "%s%s (%s)", (NR > 1 ? ", " : ""), $1, $2 }' "$scratch/cp-moved"): on a line the patch only re-indents, to align it with the renamed call, it asks for a comment on existing code."
		else
			echo "- checkpatch.pl --strict reports nothing on any patch."
		fi
		echo "- make check-tree finds no freezer use left in kernel-thread context of a converted filesystem."
		if [ -n "$e2e_head" ]; then
			echo "- At runtime, under qemu, on $e2e_head (make e2e: suspend cycles at pm_test freezer and devices with writers on every converted filesystem, a hibernation, a hibernation through /dev/snapshot, and a suspend in which a flagged filesystem fails to freeze; an unconverted control kernel and kernels with one fix taken out must fail):"
		else
			echo "- Not run at runtime with this autofreeze version on $kver: make e2e KVER=$kver boots it under qemu through suspend and hibernation."
		fi
	} | items 2
	[ -z "$e2e_head" ] || sed '1d; s/^/    /' "$e2e_dir/verdicts"
	echo
	echo "Converted, one patch each:"
	for u in "${converted[@]}"; do
		printf '  %s (%s)\n' "$u" "$(awk -F'\t' -v u="$u" '$2 == u { print $3 }' "$scratch/conv/flags" | sed 's/,/, /g')"
	done
	held=0
	while IFS=$'\t' read -r u why; do
		[ "$(facts "$u" count)" -gt 0 ] || [ "${why#MAINTAINERS}" != "$why" ] || continue
		[ $held -gt 0 ] || { echo; echo "Held back, and why:"; echo; }
		held=$((held + 1))
		printf -- '- %s: %s\n' "$u" "$why" | items 2
	done <"$scratch/held"
	if [ ${#already[@]} -gt 0 ]; then
		echo
		echo "Converted already (they carry $flag):"
		printf '%s\n' "${already[@]}" | paste -sd' ' - | sed 's/ /, /g' | wrap 2 | sed '1s/^/  /'
	fi
	echo
	echo "No kthread freezer use to convert:"
	while IFS=$'\t' read -r u why; do
		[ "$(facts "$u" count)" -eq 0 ] && [ "${why#MAINTAINERS}" = "$why" ] && echo "$u"
	done <"$scratch/held" | paste -sd' ' - | sed 's/ /, /g' | wrap 2 | sed '1s/^/  /'
	for u in "${converted[@]}"; do
		facts "$u" note | sed "s|^|- $u: |" >>"$scratch/risks"
	done
	[ "$prereqs" -eq 0 ] || case " $lacks " in
	*" failed-freeze-fails "*)
		echo "- A flagged filesystem that fails to freeze now fails the suspend (patch 2), where it was only logged; so a filesystem whose freeze can fail for a reason of its own turns that into a failed suspend." >>"$scratch/risks" ;;
	esac
	if [ -s "$scratch/risks" ]; then
		echo
		echo "Risks"
		echo
		items 2 <"$scratch/risks"
	fi
	echo
	echo "How this was made"
	echo
	{ printf 'The conversions are generated by autofreeze %s with Coccinelle %s: ' "$version" "${spver:-?}"
	  printf 'its SmPL rules, below, take the freezer out of kernel-thread context only, and its helper gives them the thread functions, and the uses a reviewed judgment keeps, of each unit. '
	  printf 'The changelogs are generated from its report. '
	  printf 'Per unit: make apply KTREE=<tree> DIR=<unit>; or by hand, spatch --sp-file <rule> -D patch --in-place --no-includes --include-headers with the -D values the helper'"'"'s plan gives for the unit (kthread_fns, twins, unused_twins, keep_at, fs_types, flag: scripts/lib/convert.sh).\n'; } | wrap
	if [ "$prereqs" -gt 0 ]; then
		echo
		{ printf 'Patches 1-%s come from autofreeze (%s), written with the help of a coding assistant; ' "$prereqs" "$core"
		  printf 'their changelogs say what each was seen to do under qemu.\n'; } | wrap
	fi
	echo
	echo "[1] https://lwn.net/Articles/662703/"
	echo "[2] https://lwn.net/Articles/705269/"
	echo "[3] https://lwn.net/Articles/935602/"
	echo "[4] https://lkml.kernel.org/r/20230114003409.1168311-1-mcgrof@kernel.org"
	if [ "$reroll" -gt 1 ]; then
		echo
		echo "Changes in v$reroll:"
		[ -z "$changes" ] || { echo; cat "$changes"; }
		if [ -n "$prev" ]; then
			echo
			printf -- '- Compared with %s (the range-diff is below): %s.\n' "$prev" \
				"$(cat "$scratch/rd-summary")" | items 2
		fi
	fi
	echo
	echo "The SmPL rules:"
	echo
	if [ -n "${SMPL_URL:-}" ]; then
		echo "  $SMPL_URL"
	else
		for r in kthread_freezer wq_freezable fs_autofreeze; do
			echo "==> cocci/$r.cocci <=="
			cat "$TOP/cocci/$r.cocci"
			echo
		done
	fi
} >"$scratch/cover.raw" 2>/dev/null

git config "branch.$branch.description" "$(cat "$scratch/cover.raw")"
git config "branch.$branch.autofreeze-base" "$first"
git config "branch.$branch.b4-prep-cover-strategy" branch-description

# --- git format-patch ----------------------------------------------------
fp=(format-patch -q --cover-letter --cover-from-description=subject --base="$first"
	--subject-prefix="$sprefix" -o "$out")
[ "$reroll" -le 1 ] || fp+=(-v "$reroll")
[ -z "$in_reply_to" ] || fp+=(--in-reply-to="$in_reply_to")
[ -z "$prev" ] || fp+=(--range-diff="$pbase..$prev" --creation-factor=60)
git "${fp[@]}" "$first..HEAD" >/dev/null || fail "git format-patch failed"
cover=$(ls "$out"/*0000-cover-letter.patch)

# The per-patch notes below ---, for a new version
if [ -n "$prev" ]; then
	for p in "$out"/*.patch; do
		[ "$p" != "$cover" ] || continue
		n=$(basename "$p" | sed 's/^v[0-9]*-//; s/^0*\([0-9][0-9]*\)-.*/\1/')
		s=$(awk -F'\t' -v n="$n" '$1 == n { print $2 }' "$scratch/rd-status")
		awk -v v="$reroll" -v s="${s:-new}" -v pv="$prev" '
			!done && $0 == "---" { print; print "Changes in v" v ": " s " since " pv "."; print ""; done = 1; next }
			{ print }' "$p" >"$p.new" && mv "$p.new" "$p"
	done
fi

# --- To: and Cc: -----------------------------------------------------------
# add_headers PATCH TO CC: To: and Cc: lines after its headers' Subject:
add_headers()
{
	awk -v to="$2" -v cc="$3" '!done && /^$/ {
		if (to != "") print "To: " to
		if (cc != "") print "Cc: " cc
		done = 1 }
		{ print }' "$1" >"$1.new" && mv "$1.new" "$1"
}
# join: the lines on stdin, first occurrence each, as "a, b, c"
join() { awk '!s[$0]++' | paste -sd, - | sed 's/,/, /g'; }

# the VFS and PM maintainers and lists ($scratch/pm-to, pm-cc) are
# known since the run began
: >"$scratch/all-to"
: >"$scratch/all-cc"
i=0
for p in "$out"/*.patch; do
	[ "$p" != "$cover" ] || continue
	i=$((i + 1))
	gm TO "$p" >"$scratch/to"
	gm CC "$p" >"$scratch/cc"
	# a unit with no maintainer (6.1's reiserfs): its lists are To:
	if [ ! -s "$scratch/to" ]; then
		mv "$scratch/cc" "$scratch/to"
		: >"$scratch/cc"
	fi
	# a patch of the freeze itself (a prerequisite), not a
	# filesystem's own fix
	if [ "$i" -le "$prereqs" ] &&
	   [ -n "$(prereq_why "$(git log -1 --format=%s "$(git rev-list --reverse "$first..HEAD" | sed -n "${i}p")")")" ]; then
		cat "$scratch/pm-to" >>"$scratch/to"
		cat "$scratch/pm-cc" >>"$scratch/cc"
	fi
	printf '%s\n' "$add_to" | grep . >>"$scratch/to" || true
	printf '%s\n' "$add_cc" | grep . >>"$scratch/cc" || true
	cat "$scratch/to" >>"$scratch/all-to"
	cat "$scratch/cc" >>"$scratch/all-cc"
	add_headers "$p" "$(join <"$scratch/to")" \
		"$(awk 'NR == FNR { t[$0]; next } !($0 in t)' "$scratch/to" "$scratch/cc" | join)"
done
cat "$scratch/pm-to" "$scratch/all-to" >"$scratch/c-to"
cat "$scratch/pm-cc" "$scratch/all-cc" >"$scratch/c-cc"
add_headers "$cover" "$(join <"$scratch/c-to")" \
	"$(awk 'NR == FNR { t[$0]; next } !($0 in t)' "$scratch/c-to" "$scratch/c-cc" | join)"

# BRANCH-base: the series' base, as a branch, which b4 prep --enroll
# takes (our core series below it is on no other branch).
git branch -q "$branch-base" "$first" || fail "cannot make branch $branch-base"
done_ok=1
echo "$prog: $([ "$prereqs" -eq 0 ] || echo "$(plural "$prereqs" patch) for the suspend freeze, ")$(plural ${#converted[@]} patch) and a cover letter in $out, on branch $branch (git send-email $out/*.patch; b4: git checkout $branch && b4 prep --enroll $branch-base)" >&2
