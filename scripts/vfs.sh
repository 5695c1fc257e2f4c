#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vfs.sh: apply the series of patches/ that the kernel tree's suspend
# freeze needs before a conversion: on a stable tree the core VFS series
# (FS_AUTOFREEZE, kernel freeze/thaw of filesystems on suspend); on a
# tree with upstream's own freeze (filesystems_freeze(), FS_POWER_FREEZE)
# what that freeze lacks (patches/linux-mainline/: the prerequisites of
# policy/prerequisites.tsv, and btrfs's freeze).
#
#   vfs.sh [KTREE]            (default: $KTREE)
#
# The series is the one of patches/linux-*/ that applies to the tree, as
# the helper finds it ("autofreeze optin": each is applied in memory), so
# a tree is known by its code, not by its version number.  A tree with
# only some of the prerequisites gets the patches of those it lacks
# ("autofreeze prereqs").  In the top
# of a git work tree it is applied with `git am` (one commit per patch),
# elsewhere with `patch -p1`.  All or nothing: when a patch fails the tree
# is left as it was.  A tree that already has the series is left alone.
#
# After a successful run the tree's bookkeeping (lib/journal.sh, outside
# the tree) holds:
#   touched  every file changed, one per line, each once (apply adds
#            its own)
#   orig/    the content of each such file before its first change,
#            the baseline build-check.sh compares to
#
# Exit status: 0 applied or nothing to do, 1 the series does not apply,
# 2 bad input (no kernel tree, a tree no series fits).

set -eu
prog=vfs.sh
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$TOP/scripts/lib/ktree.sh"

die()
{
	echo "$prog: $*" >&2
	exit 2
}

fail()
{
	echo "$prog: $*" >&2
	exit 1
}

ktree=${1:-${KTREE:-}}
[ -n "$ktree" ] || die "no kernel tree given (set KTREE)"
# vfs writes the tree: it finishes or undoes a change a killed run left.
recovers=1
ktree_check "$ktree" .
ktree=$KTREE

# The tree's suspend freeze: its own (mainline's filesystems_freeze() and
# FS_POWER_FREEZE: no series needed; or ours, applied already), or the
# series of patches/ whose code fits it ("autofreeze series": each is
# applied in memory, or taken out to see whether it is in).
IFS=$'\t' read -r _ state flag func where why < <("$AF" optin "$ktree") || true
if [ "${state:-}" = tree ] && [ "$flag" != FS_AUTOFREEZE ]; then
	echo "$prog: $ktree needs no VFS series: its own suspend freeze, $func() ($where), freezes the types that carry $flag, which make apply adds, and has what a conversion needs from it (autofreeze prereqs)"
	exit 0
fi
if [ "${state:-}" = partial ]; then
	# Only the prerequisites the tree lacks, each its own patch.
	fit=applies
	name="${where%/} (only what the tree lacked)"
	mapfile -t patches < <("$AF" prereqs "$ktree" |
		awk -F'\t' -v top="$TOP/patches/" '$1 == "lacks" { print top $3 }')
else
	{ IFS=$'\t' read -r fit name; mapfile -t patches; } < <("$AF" series "$ktree") || true
fi
if [ "${fit:-}" = applied ]; then
	echo "$prog: $ktree already has the VFS series $name, nothing to do"
	exit 0
fi
[ "${state:-}" != tree ] ||
	fail "$ktree has a suspend freeze of FS_AUTOFREEZE types already, but not as a series of autofreeze's does; not applying"
[ "${state:-}" != none ] || die "$ktree: no VFS series for this tree: $why"
[ "${fit:-}" = applies ] && [ ${#patches[@]} -gt 0 ] ||
	die "$ktree: no VFS series for this tree: ${name:-autofreeze series failed}"
[ -f "$ktree/kernel/power/process.c" ] ||
	die "KTREE=$ktree: no kernel/power/process.c for the series to hook"

# The files the series touches, in the order they first appear.
touched=$(sed -n 's|^+++ b/||p' "${patches[@]}" | awk '!seen[$0]++')

tree_lock
state_init
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vfs.XXXXXX")
am_running=
cleanup()
{
	# Interrupted in the middle of git am: undo what it did so far.
	[ -z "$am_running" ] || git -C "$ktree" am --abort >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Save the baseline before git am changes anything (patch -p1 goes through
# the journal, which saves its own): the first saved copy wins,
# so a file touched by several tools keeps its untouched content.
save_originals()
{
	local f
	while read -r f; do
		[ -n "$f" ] && [ -f "$ktree/$f" ] || continue
		mkdir -p "$tmp/orig/$(dirname "$f")"
		cp -p "$ktree/$f" "$tmp/orig/$f"
	done <<<"$touched"
}

# Make the record in the bookkeeping once git am put the series in (patch -p1
# makes it through the journal).
record()
{
	local f orig list
	orig=$(state_path orig)
	list=$(state_path touched)
	mkdir -p "$orig"
	if [ -d "$tmp/orig" ]; then
		(cd "$tmp/orig" && find . -type f | sed 's|^\./||') |
		while read -r f; do
			[ -e "$orig/$f" ] && continue
			mkdir -p "$(dirname "$orig/$f")"
			cp -p "$tmp/orig/$f" "$orig/$f"
		done
	fi
	touch "$list"
	while read -r f; do
		[ -n "$f" ] || continue
		grep -qxF "$f" "$list" || echo "$f" >>"$list"
	done <<<"$touched"
}

top=$(git -C "$ktree" rev-parse --show-toplevel 2>/dev/null || true)
if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$ktree" ]; then
	save_originals
	# git am needs an identity; lend it one only when there is none.
	ident=()
	git -C "$ktree" var GIT_COMMITTER_IDENT >/dev/null 2>&1 ||
		ident=(-c user.name=autofreeze -c user.email=autofreeze@localhost)
	head=$(git -C "$ktree" rev-parse -q --verify HEAD) ||
		fail "$ktree: git tree without a commit; commit the tree first"
	if [ -d "$(git -C "$ktree" rev-parse --git-path rebase-apply)" ]; then
		fail "$ktree: a git am or rebase is in progress; finish it first"
	fi
	am_running=1
	if ! git -C "$ktree" "${ident[@]}" am -q --no-3way "${patches[@]}" \
			>"$tmp/am.log" 2>&1; then
		git -C "$ktree" am --abort >/dev/null 2>&1 || true
		am_running=
		at=$(sed -n 's/^Patch failed at \([0-9]*\).*/\1/p' "$tmp/am.log" | head -n 1)
		why=$(grep -m 1 -E '^error:' "$tmp/am.log" || true)
		now=$(git -C "$ktree" rev-parse -q --verify HEAD || true)
		[ "$now" = "$head" ] ||
			fail "git am of the VFS series $name failed and HEAD moved from $head to $now; check $ktree"
		fail "patch ${at:-?} of the VFS series $name does not apply to $ktree (git am: ${why:-see git am}); tree left as it was"
	fi
	am_running=
	record
	method="git am, ${#patches[@]} commits"
else
	# Apply the whole series to copies first; touch the tree only when
	# every patch went in.
	mkdir -p "$tmp/stage"
	while read -r f; do
		[ -n "$f" ] && [ -f "$ktree/$f" ] || continue
		mkdir -p "$tmp/stage/$(dirname "$f")"
		cp -p "$ktree/$f" "$tmp/stage/$f"
	done <<<"$touched"
	for p in "${patches[@]}"; do
		if ! patch -d "$tmp/stage" -p1 -s -f -N -F 0 --no-backup-if-mismatch \
				-r - <"$p" >"$tmp/patch.log" 2>&1; then
			why=$(grep -m 1 -iE 'failed|can.t find|no file' "$tmp/patch.log" || head -n 1 "$tmp/patch.log")
			fail "${p##*/} does not apply to $ktree (patch: $why); tree left as it was"
		fi
	done
	# In through the journal, bookkeeping and all: every file or none,
	# whatever stops the run.
	printf '%s\n' "$touched" | sed '/^$/d' >"$tmp/list"
	journal_replace "$tmp/list" "$tmp/stage"
	method="patch -p1, ${#patches[@]} patches"
fi

echo "$prog: applied the VFS series $name to $ktree ($method)"
