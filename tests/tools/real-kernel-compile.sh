#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# real-kernel-compile.sh: run every rule by hand over the whole fs/ of a
# kernel tree, in place (every unit, as FORCE=1 would, and FS_AUTOFREEZE
# on every FS_REQUIRES_DEV type), then compile every object touched so
# far under allmodconfig, before and after, and compare the warnings:
# the compile is build-check.sh's, as `make build-check` runs it.
#
# usage: [O=BUILD-DIR] [J=N] real-kernel-compile.sh TREE
#
# TREE is a scratch copy: t50 hands it the tree it gave the core series
# and `make apply DIR=fs`, configured and prepared in O already.  The
# touched files are recorded as the other tools record theirs (the
# tree's touched and orig/, keeping the first content seen), so the
# baseline is the untouched tree.  Where the core series
# is missing, FS_AUTOFREEZE is a one-line define in include/linux/fs.h.
# Prints build-check.sh's line per object and summary, and exits as it
# does.

set -eu
prog=real-kernel-compile.sh
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$TOP/scripts/lib/ktree.sh"
J=${J:-$(nproc)}

[ $# -eq 1 ] || { echo "usage: $prog TREE" >&2; exit 2; }
ktree_check "$1" fs
tree=$KTREE
work=$(mktemp -d "${TMPDIR:-/tmp}/real-kernel-compile.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Convert a copy of fs/ to learn which files the rules touch.
cp -a "$tree/fs" "$work/fs.before"
cp -a "$tree/fs" "$work/fs.after"
# the FS_REQUIRES_DEV types: each "struct file_system_type NAME = {"
# whose initializer names FS_REQUIRES_DEV
types=$(cd "$work/fs.after" && grep -rl --include='*.c' 'FS_REQUIRES_DEV' . |
	xargs awk '/^(static )?struct file_system_type [a-z0-9_]+ = \{/ { t = $0; sub(/.*file_system_type /, "", t); sub(/ .*/, "", t); next }
		t != "" && /FS_REQUIRES_DEV/ { print t }
		/^\};/ { t = "" }' | sort -u | paste -sd, -)
"$TOP/tests/tools/rules.sh" -j "$J" -D "fs_types=$types" -D flag=FS_AUTOFREEZE "$work/fs.after"
"$TOP/scripts/lib/tree-diff.sh" "$work/fs.before" "$work/fs.after" >"$work/fs.diff"
touched=$(sed -n 's|^diff -u -p a/\([^ ]*\) .*|fs/\1|p' "$work/fs.diff")
[ -n "$touched" ] || { echo "$prog: the rules touched nothing" >&2; exit 1; }

# Apply: the converted files, and the flag where the core series is
# missing, recorded so that build-check.sh compiles them against their
# first content.
fsh=include/linux/fs.h
state_init
orig=$(state_path orig)
for f in $touched $fsh; do
	[ -e "$orig/$f" ] && continue
	mkdir -p "$(dirname "$orig/$f")"
	cp -p "$tree/$f" "$orig/$f"
	echo "$f" >>"$(state_path touched)"
done
while read -r f; do
	cp -p "$work/fs.after/${f#fs/}" "$tree/$f.autofreeze-tmp" &&
		mv -f "$tree/$f.autofreeze-tmp" "$tree/$f"
done <<<"$touched"
grep -q 'define FS_AUTOFREEZE' "$tree/$fsh" ||
	sed -i '/^#define FS_RENAME_DOES_D_MOVE/a #define FS_AUTOFREEZE		(1<<16)	/* autofreeze: until the core series */' \
		"$tree/$fsh"

files=$(echo $touched | wc -w)
hunks=$(grep -c '^@@' "$work/fs.diff" || true)
echo "$prog: $(basename "$tree"): $files files, $hunks hunks by hand, fs_types=$types"
KTREE=$tree J=$J "$TOP/scripts/build-check.sh"
