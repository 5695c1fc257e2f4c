#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-edits.sh: every line a conversion diff removes or changes that
# names a freezer API must be one report mode lists as converted (a use
# in a kernel thread, or a freezable workqueue flag).  Comment lines
# removed with the statement they sit on are not uses.  Prints each
# offending line and exits 1 if there is one.
#
# usage: check-edits.sh DIFF REPORT     (paths as the diff names them)

set -eu
[ $# -eq 2 ] || { echo "usage: check-edits.sh DIFF REPORT" >&2; exit 2; }
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
# The API names, from the helper's one list.
names=$("$TOP/scripts/autofreeze" apis | paste -sd'|' -)
[ -n "$names" ] || { echo "check-edits.sh: autofreeze apis printed no names" >&2; exit 2; }

awk -v report="$2" -v names="$names" '
BEGIN {
	converted = ": (" names ") in kernel thread .*: convert"
	named = "(^|[^A-Za-z0-9_])(" names ")([^A-Za-z0-9_]|$)"
	while ((getline line < report) > 0) {
		if (line ~ converted ||
		    line ~ /: freezable workqueue or worker in .*: drop/) {
			split(line, f, ":")
			ok[f[1] ":" f[2]] = 1
		}
	}
}
/^--- / { file = $2; sub(/^a\//, "", file); next }
/^\+\+\+ / { next }
/^@@/ { split($2, r, ","); old = substr(r[1], 2) + 0; next }
/^-/ {
	if (($0 ~ named || $0 ~ /freezable|FREEZABLE/) &&
	    $0 !~ /#include/ && $0 !~ /^-[ \t]*(\/\*|\*|\/\/)/ &&
	    !((file ":" old) in ok)) {
		print file ":" old ": edit outside kthread context: " substr($0, 2)
		bad = 1
	}
	old++
	next
}
/^ / { old++ }
END { exit bad }
' "$1"
