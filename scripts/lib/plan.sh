# SPDX-License-Identifier: GPL-2.0
#
# plan.sh: reading "autofreeze plan" output, sourced by convert.sh and
# bench.sh.  The one reader of the plan's columns.

# plan_lines PLAN KIND COL [UNIT]: column COL of PLAN's KIND lines (of
# UNIT's only, when given), one per line.
plan_lines()
{
	awk -F'\t' -v k="$2" -v c="$3" -v u="${4-}" \
		'$1 == k && (u == "" || $2 == u) { print $c }' "$1"
}

# plan_keep_at PLAN [UNIT]: the uses the plan's judgments keep, as
# FILE:LINE,... (wq_freezable.cocci's -D keep_at), or nothing.
plan_keep_at()
{
	paste -d: <(plan_lines "$1" keep 3 "${2-}") \
		<(plan_lines "$1" keep 4 "${2-}" | sed 's/:.*//') |
		paste -sd, -
}

# plan_twins PLAN [UNIT]: the freezable macros the plan renames to their
# plain twins, as FROM:TO,... (kthread_freezer.cocci's -D twins), or
# nothing.
plan_twins()
{
	paste -d: <(plan_lines "$1" twin 3 "${2-}") \
		<(plan_lines "$1" twin 4 "${2-}") |
		LC_ALL=C sort -u | paste -sd, -
}

# plan_optin PLAN COL: column COL of PLAN's optin line: 2 the state
# (tree, series or none), 3 the flag the conversion adds, 4 the function
# that freezes a flagged type, 5 the file or series it is in ("-" for
# none), 6 all that as a sentence (or, for none, why nothing freezes).
plan_optin()
{
	plan_lines "$1" optin "$2" | head -n 1
}
