#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# apply.sh: convert DIR in KTREE in place, all or nothing.  The
# conversion is made in a scratch directory first; then every file it
# changes is checked writable and replaced through the journal
# (lib/journal.sh): on any failure or interruption (a full disk among
# them) the tree is put back, by this run or, after a SIGKILL or a power
# cut, by the next apply or vfs on the tree, each file only while it is
# byte for byte what the killed run wrote.  A tree
# already converted is left alone (exit 0).  The changed files are
# added to the tree's bookkeeping (outside the tree, lib/journal.sh),
# with their old content, for make build-check.  A second apply or vfs
# on the same tree refuses while one runs.
#
# usage: apply.sh KTREE DIR      (environment: FORCE=1, J=N)

set -eu
prog=apply.sh
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$TOP/scripts/lib/ktree.sh"
. "$TOP/scripts/lib/scratch.sh"
# apply writes the tree: it puts back a change a killed run left.
recovers=1
driver_args "$@"

tree_lock
scratch_open
trap 'exit 129' HUP

prog=$prog "$TOP/scripts/lib/convert.sh" "$KTREE" "$DIR" "$scratch"
if [ -s "$scratch/unparsed" ]; then
	read -r first <"$scratch/unparsed"
	echo "$prog: spatch cannot parse the code around ${first%%: *} (and $(($(wc -l <"$scratch/unparsed") - 1)) more freezer uses; make report lists them); nothing changed" >&2
	exit 2
fi

(cd "$scratch/b" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) |
while IFS= read -r f; do
	cmp -s "$scratch/a/$f" "$scratch/b/$f" || printf '%s\n' "$f"
done >"$scratch/changed"

if [ ! -s "$scratch/changed" ]; then
	sed "s/^/$prog: warning: /" "$scratch/warnings" >&2
	echo "$prog: $DIR: nothing to convert (already converted?)" >&2
	exit 0
fi

while IFS= read -r f; do
	# The tree moved under us since the conversion read it.
	cmp -s "$KTREE/$f" "$scratch/a/$f" ||
		{ echo "$prog: $KTREE/$f changed while converting; nothing changed" >&2; exit 1; }
done <"$scratch/changed"

journal_replace "$scratch/changed" "$scratch/b"

n=$(wc -l <"$scratch/changed")
flags=$(awk -F'\t' '$1 == "flag" { print $3 }' "$scratch/flags" | paste -sd, -)
flag=$(awk -F'\t' '$1 == "optin" { print $3; exit }' "$scratch/plan")
echo "$prog: $DIR: converted $n files${flags:+; $flag on $flags}" >&2
sed "s/^/$prog: warning: /" "$scratch/warnings" >&2
