#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tree-diff.sh: the -p1 unified diff from tree OLD to tree NEW, one file
# after the other in path order (or in the order of the FILEs given),
# with a/ and b/ labels and no time stamps, so the output is the same
# from run to run.  The one tree diff: make diff, the tests and make
# bench all print theirs with it.
#
# usage: tree-diff.sh OLD NEW [FILE...]

set -eu
[ $# -ge 2 ] || { echo "usage: tree-diff.sh OLD NEW [FILE...]" >&2; exit 2; }
old=$1
new=$2
shift 2

# quote NAME: NAME as a diff header gives it.  A name with a blank, a
# quote, a backslash or a control character goes in double quotes with
# C escapes, as git writes it, which GNU patch and git apply both read
# (GNU patch stops an unquoted name at its first blank).
quote()
{
	case $1 in
	*[[:space:]\\\"]* | *[[:cntrl:]]*)
		printf '"%s"' "$(printf '%s' "$1" | sed -e 's/[\\"]/\\&/g' \
			-e 's/\t/\\t/g' -e 's/\r/\\r/g')" ;;
	*)	printf '%s' "$1" ;;
	esac
}

if [ $# -eq 0 ]; then
	{ (cd "$old" && find . -type f); (cd "$new" && find . -type f); } |
		sed 's|^\./||' | LC_ALL=C sort -u
else
	printf '%s\n' "$@"
fi |
while IFS= read -r f; do
	a=$old/$f
	b=$new/$f
	[ -e "$a" ] || a=/dev/null
	[ -e "$b" ] || b=/dev/null
	cmp -s "$a" "$b" && continue
	qa=$(quote "a/$f")
	qb=$(quote "b/$f")
	echo "diff -u -p $qa $qb"
	diff -u -p --label "$qa" --label "$qb" "$a" "$b" || [ $? -eq 1 ]
done
