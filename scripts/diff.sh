#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# diff.sh: print the conversion of DIR in KTREE as a -p1 unified diff;
# the tree is not touched.  FORCE=1 converts units that are not
# freeze-capable too, and units that keep a kthread freezer use, never
# adding the opt-in flag, with a warning for each; J=N jobs.  A tree
# whose suspend freeze does not define its flag is refused (make vfs),
# and so is one a killed apply or vfs left half changed: exit 2, one
# line naming the command that puts it back (lib/journal.sh).
#
# usage: diff.sh KTREE DIR

set -eu
prog=diff.sh
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$TOP/scripts/lib/scratch.sh"
[ $# -eq 2 ] || { echo "usage: $prog KTREE DIR" >&2; exit 2; }

scratch_open

prog=$prog "$TOP/scripts/lib/convert.sh" "$1" "$2" "$scratch"
if [ -s "$scratch/unparsed" ]; then
	echo "$prog: spatch cannot parse the code around $(wc -l <"$scratch/unparsed") freezer uses, left unconverted: $(cut -d: -f1,2 "$scratch/unparsed" | paste -sd' ' -)" >&2
fi
"$TOP/scripts/lib/tree-diff.sh" "$scratch/a" "$scratch/b"
sed "s/^/$prog: warning: /" "$scratch/warnings" >&2
