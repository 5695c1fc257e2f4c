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

awk -v report="$2" '
BEGIN {
	while ((getline line < report) > 0) {
		if (line ~ /: (set_freezable|try_to_freeze|freezing|TASK_FREEZABLE|kthread_freezable_should_stop|wait_event_freezable[a-z_]*|freezable_schedule[a-z_]*|__refrigerator) in kernel thread .*: convert/ ||
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
	if ($0 ~ /(set_freezable|try_to_freeze|freezing|FREEZABLE|freezable|__refrigerator)/ &&
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
