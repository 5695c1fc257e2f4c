#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# real-kernel-compile.sh: run every rule over the whole fs/ of a real
# kernel tree (every unit converted, as FORCE=1 does, and FS_AUTOFREEZE
# on every FS_REQUIRES_DEV type), then compile every touched object
# under allmodconfig, before and after, and compare the warnings: the
# compile is build-check.sh's, as `make build-check` runs it.
#
# usage: real-kernel-compile.sh SOURCE-TREE WORK-DIR
#
# SOURCE-TREE is left alone; WORK-DIR receives a copy to build in.  Until
# the core VFS series is applied, FS_AUTOFREEZE is a one-line define in
# include/linux/fs.h.  Prints build-check.sh's line per object and
# summary, and exits as it does.

set -eu
prog=real-kernel-compile.sh
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$TOP/scripts/lib/ktree.sh"
J=${J:-$(nproc)}

[ $# -eq 2 ] || { echo "usage: $prog SOURCE-TREE WORK-DIR" >&2; exit 2; }
ktree_check "$1" fs
src=$KTREE
work=$2

tree=$work/tree
rm -rf "$work"
mkdir -p "$work"
cp -a "$src" "$tree"

# Convert a copy of fs/ to learn which files the rules touch.
cp -a "$tree/fs" "$work/fs.before"
cp -a "$tree/fs" "$work/fs.after"
types=$(cd "$work/fs.after" && "${SPATCH:-spatch}" --jobs "$J" \
	${SPATCH_PYTHON:+--python "$SPATCH_PYTHON"} --very-quiet \
	--no-show-diff -D report --sp-file "$TOP/cocci/fs_autofreeze.cocci" \
	--dir . | sed -n 's/.*: \([a-z0-9_]*\): FS_AUTOFREEZE candidate.*/\1/p' |
	sort -u | paste -sd, -)
"$TOP/tests/tools/rules.sh" -j "$J" -D "fs_types=$types" "$work/fs.after"
"$TOP/scripts/lib/tree-diff.sh" "$work/fs.before" "$work/fs.after" >"$work/fs.diff"
touched=$(sed -n 's|^diff -u -p a/\([^ ]*\) .*|fs/\1|p' "$work/fs.diff")
[ -n "$touched" ] || { echo "$prog: the rules touched nothing" >&2; exit 1; }

# Apply: the converted files, and the flag until the core series lands,
# recorded as the other tools record theirs, so that build-check.sh
# compiles them against the untouched copies.
fsh=include/linux/fs.h
for f in $touched $fsh; do
	mkdir -p "$tree/.autofreeze-orig/$(dirname "$f")"
	cp -p "$tree/$f" "$tree/.autofreeze-orig/$f"
	echo "$f"
done >"$tree/.autofreeze-touched"
cp -a "$work/fs.after/." "$tree/fs/"
grep -q 'define FS_AUTOFREEZE' "$tree/$fsh" ||
	sed -i '/^#define FS_RENAME_DOES_D_MOVE/a #define FS_AUTOFREEZE		(1<<16)	/* autofreeze: until the core series */' \
		"$tree/$fsh"

files=$(echo $touched | wc -w)
hunks=$(grep -c '^@@' "$work/fs.diff" || true)
echo "$prog: $(basename "$src"): $files files, $hunks hunks, fs_types=$types"
KTREE=$tree J=$J "$TOP/scripts/build-check.sh"
