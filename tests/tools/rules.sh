#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rules.sh: apply the autofreeze rule set, in order, to a directory in
# place, the way a user would run each rule by hand:
#	spatch --sp-file cocci/<rule>.cocci --dir DIR --in-place -D patch
# The flag rule runs only when fs_types is defined.  The removal rules
# edit only in the units -D units= names (the helper names those its
# plan converts); without it, every directory at DIR's top is one.
# $SPATCH_PYTHON, when set, is handed to spatch as --python (the test
# suite resolves it once with "autofreeze python").  -j N runs spatch
# with --jobs N: the same result, faster on a whole fs/, slower on a
# fixture (spatch's workers cost more than one small file).
#
# In report mode the file:line: messages come sorted, paths relative
# to DIR.
#
# usage: rules.sh [-D name=value]... [-j N] [-m patch|report] DIR

set -eu
prog=rules.sh
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
SPATCH=${SPATCH:-spatch}

# The removal rules, in the order they must run.
RULES="kthread_freezer wq_freezable"

usage()
{
	echo "usage: $prog [-D name=value]... [-j N] [-m patch|report] DIR" >&2
	exit 2
}

defs=()
mode=patch
jobs=1
have_fs_types=
have_units=
while getopts D:j:m: opt; do
	case $opt in
	D)	defs+=(-D "$OPTARG")
		case $OPTARG in
		fs_types=*) have_fs_types=1 ;;
		units=*) have_units=1 ;;
		esac ;;
	j)	jobs=$OPTARG
		case $jobs in
		'' | *[!0-9]* | 0) echo "$prog: -j $jobs: not a number of jobs" >&2; exit 2 ;;
		esac ;;
	m)	mode=$OPTARG ;;
	*)	usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
dir=$1
[ -d "$dir" ] || { echo "$prog: $dir: no such directory" >&2; exit 2; }
command -v "$SPATCH" >/dev/null || { echo "$prog: $SPATCH not found (make deps)" >&2; exit 2; }

py=()
[ "$jobs" -eq 1 ] || py=(--jobs "$jobs")
[ -z "${SPATCH_PYTHON:-}" ] || py+=(--python "$SPATCH_PYTHON")
rules=$RULES
[ -z "$have_fs_types" ] || rules="$rules fs_autofreeze"

cd "$dir"
[ -n "$have_units" ] ||
	defs+=(-D "units=$(find . -mindepth 1 -maxdepth 1 -type d -printf '%P\n' | LC_ALL=C sort | paste -sd, -)")
for r in $rules; do
	case $mode in
	patch)
		"$SPATCH" "${py[@]}" --very-quiet --no-includes --include-headers \
			--sp-file "$TOP/cocci/$r.cocci" -D patch "${defs[@]}" \
			--dir . --in-place >/dev/null ;;
	report)
		"$SPATCH" "${py[@]}" --very-quiet --no-includes --include-headers \
			--no-show-diff --sp-file "$TOP/cocci/$r.cocci" \
			-D report "${defs[@]}" --dir . ;;
	*)	usage ;;
	esac
done | if [ "$mode" = report ]; then
	# file:line: message, in file and line order
	sed 's|^\./||' | LC_ALL=C sort -t: -k1,1 -k2,2n -k3
else
	cat
fi
