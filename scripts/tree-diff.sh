#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tree-diff.sh: the -p1 unified diff from tree OLD to tree NEW, one file
# after the other in path order, with a/ and b/ labels and no time
# stamps, so the output is the same from run to run.
#
# usage: tree-diff.sh OLD NEW

set -eu
[ $# -eq 2 ] || { echo "usage: tree-diff.sh OLD NEW" >&2; exit 2; }
old=$1
new=$2

{ (cd "$old" && find . -type f); (cd "$new" && find . -type f); } |
	sed 's|^\./||' | LC_ALL=C sort -u |
while IFS= read -r f; do
	a=$old/$f
	b=$new/$f
	[ -e "$a" ] || a=/dev/null
	[ -e "$b" ] || b=/dev/null
	cmp -s "$a" "$b" && continue
	echo "diff -u -p a/$f b/$f"
	diff -u -p --label "a/$f" --label "b/$f" "$a" "$b" || [ $? -eq 1 ]
done
