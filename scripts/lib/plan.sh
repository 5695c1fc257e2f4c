# SPDX-License-Identifier: GPL-2.0
#
# plan.sh: reading "autofreeze plan" output, sourced by by-hand.sh,
# bench.sh, check-tree.sh and series.sh.  The one reader of the plan's
# columns.

# plan_lines PLAN KIND COL [UNIT]: column COL of PLAN's KIND lines (of
# UNIT's only, when given), one per line.
plan_lines()
{
	awk -F'\t' -v k="$2" -v c="$3" -v u="${4-}" \
		'$1 == k && (u == "" || $2 == u) { print $c }' "$1"
}

# plan_rule_defs PLAN RULE [UNIT]: the -D options the plan gives RULE
# (kthread_freezer or wq_freezable) for UNIT (every unit), one word a
# line ("-D", then "name=value"): the units it may edit, and the
# kthread rule's thread functions and twins, the wq rule's kept uses.
# The helper's, as "autofreeze convert" gives them (convplan.c).
plan_rule_defs()
{
	"${AF:-$TOP/scripts/autofreeze}" convert --defs "$2" "$1" ${3:+"$3"}
}

# plan_optin PLAN COL: column COL of PLAN's optin line: 2 the state
# (tree, series or none), 3 the flag the conversion adds, 4 the function
# that freezes a flagged type, 5 the file or series it is in ("-" for
# none), 6 all that as a sentence (or, for none, why nothing freezes).
plan_optin()
{
	plan_lines "$1" optin "$2" | head -n 1
}

# plan_flag_set PLAN UNIT: whether the types of UNIT that get the flag
# carry it already (its flagstate lines, flagstate.c:unit_flag_state(): one
# at least, none "missing").
plan_flag_set()
{
	awk -F'\t' -v u="$2" '$1 == "flagstate" && $2 == u { n++; if ($6 == "missing") m++ }
		END { exit !(n && !m) }' "$1"
}
