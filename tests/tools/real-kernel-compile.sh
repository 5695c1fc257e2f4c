#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# real-kernel-compile.sh: run every rule over the whole fs/ of a real
# kernel tree (every unit converted, as FORCE=1 does, and FS_AUTOFREEZE
# on every FS_REQUIRES_DEV type), then compile every touched object
# under allmodconfig, before and after, and compare the warnings.
#
# usage: real-kernel-compile.sh SOURCE-TREE WORK-DIR
#
# SOURCE-TREE is left alone; WORK-DIR receives a copy to build in.  Until
# the core VFS series is applied, FS_AUTOFREEZE is a one-line define in
# include/linux/fs.h.  Prints one line per object and a summary; exits
# non-zero on a failed object, a new warning, or an edit outside fs/.

set -eu
prog=real-kernel-compile.sh
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
J=${J:-$(nproc)}

[ $# -eq 2 ] || { echo "usage: $prog SOURCE-TREE WORK-DIR" >&2; exit 2; }
src=$1
work=$2
[ -f "$src/Makefile" ] && [ -d "$src/fs" ] ||
	{ echo "$prog: $src: not a kernel tree" >&2; exit 2; }

tree=$work/tree
rm -rf "$work"
mkdir -p "$work"
cp -a "$src" "$tree"

echo "$prog: configuring (allmodconfig, prepare)" >&2
make -s -C "$tree" allmodconfig >/dev/null
make -s -C "$tree" -j"$J" prepare >/dev/null 2>&1

# Convert a copy of fs/ to learn which files the rules touch.
cp -a "$tree/fs" "$work/fs.before"
cp -a "$tree/fs" "$work/fs.after"
types=$(cd "$work/fs.after" && "${SPATCH:-spatch}" --very-quiet \
	--no-show-diff -D report --sp-file "$TOP/cocci/fs_autofreeze.cocci" \
	--dir . | sed -n 's/.*: \([a-z0-9_]*\): FS_AUTOFREEZE candidate.*/\1/p' |
	sort -u | paste -sd, -)
"$TOP/tests/tools/rules.sh" -D "fs_types=$types" "$work/fs.after"
"$TOP/scripts/lib/tree-diff.sh" "$work/fs.before" "$work/fs.after" >"$work/fs.diff"
touched=$(sed -n 's|^diff -u -p a/\([^ ]*\) .*|\1|p' "$work/fs.diff")
objs=
for f in $touched; do
	case $f in
	*.c)	objs="$objs fs/${f%.c}.o" ;;
	*)	echo "HEADER fs/$f (not compiled alone)" ;;
	esac
done
[ -n "$objs" ] || { echo "$prog: the rules touched nothing" >&2; exit 1; }

# warnings LOG: the warning lines of LOG, without line and column.
warnings()
{
	grep -E 'warning:' "$1" |
		sed -E 's/:[0-9]+:[0-9]+:/:/; s/:[0-9]+:/:/' | sort -u || true
}

# One make for all objects (separate makes race on generated files);
# gcc names the file of each warning, so the logs compare as sets.
build()
{
	# shellcheck disable=SC2086
	(cd "$tree" && rm -f $objs)
	# shellcheck disable=SC2086
	make -k -s -C "$tree" -j"$J" $objs >"$1" 2>&1 || true
}

echo "$prog: compiling $(echo $objs | wc -w) objects before conversion" >&2
build "$work/before.log"

# Apply: the converted files, and the flag until the core series lands.
cp -a "$work/fs.after/." "$tree/fs/"
grep -q 'define FS_AUTOFREEZE' "$tree/include/linux/fs.h" ||
	sed -i '/^#define FS_RENAME_DOES_D_MOVE/a #define FS_AUTOFREEZE		(1<<16)	/* autofreeze: until the core series */' \
		"$tree/include/linux/fs.h"

echo "$prog: compiling them after conversion" >&2
build "$work/after.log"

comm -13 <(warnings "$work/before.log") <(warnings "$work/after.log") >"$work/new-warnings"
ok=0
bad=0
for o in $objs; do
	csrc=${o%.o}.c
	if [ ! -f "$tree/$o" ]; then
		echo "FAIL $o"
		grep -F "$csrc" "$work/after.log" | sed 's/^/	/' | head -10
		bad=$((bad + 1))
	elif grep -qF "$csrc:" "$work/new-warnings"; then
		echo "NEW WARNINGS $o"
		grep -F "$csrc:" "$work/new-warnings" | sed 's/^/	/'
		bad=$((bad + 1))
	else
		echo "OK $o"
		ok=$((ok + 1))
	fi
done
if [ -s "$work/new-warnings" ]; then
	echo "new warnings in all:"
	sed 's/^/	/' "$work/new-warnings"
	[ "$bad" -gt 0 ] || bad=1
fi

files=$(echo $touched | wc -w)
hunks=$(grep -c '^@@' "$work/fs.diff" || true)
echo "$prog: $(basename "$src"): $files files, $hunks hunks, fs_types=$types"
echo "$prog: $(basename "$src"): $ok objects OK, $bad failed or warned"
[ "$bad" -eq 0 ]
