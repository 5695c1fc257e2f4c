#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# by-hand.sh: the spatch command lines that make the edits make diff
# makes on DIR in KTREE, unit by unit, to run by hand from KTREE's top:
# each removal rule with the -D values the helper's plan gives it (the
# units it may edit, thread functions started from another file, twins,
# the uses the judgments keep), then the flag rule with the types that
# get the flag.  Without those values the rules edit nothing (README,
# "The rules by hand").  Only the units make diff converts with their
# flag are printed; the tree is only read.
#
# usage: by-hand.sh KTREE DIR

set -eu
prog=by-hand.sh
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$TOP/scripts/lib/plan.sh"
. "$TOP/scripts/lib/scratch.sh"
[ $# -eq 2 ] || { echo "usage: $prog KTREE DIR" >&2; exit 2; }
rule=${RULE:-}
case $rule in
'' | kthread_freezer | wq_freezable | fs_autofreeze) ;;
*) echo "$prog: RULE=$rule: not kthread_freezer, wq_freezable or fs_autofreeze" >&2; exit 2 ;;
esac
if [ -n "${SPATCH_DIR:-}" ]; then
	[ -d "$SPATCH_DIR" ] || SPATCH_DIR=$(dirname "$SPATCH_DIR")
	# in a subshell: ktree.sh unsets what convert.sh reads of the caller
	top=$(. "$TOP/scripts/lib/ktree.sh" && ktree_here "$SPATCH_DIR") ||
		{ echo "$prog: SPATCH_DIR=$SPATCH_DIR: in no kernel tree" >&2; exit 2; }
	d=$(realpath -m --relative-to="$top" "$SPATCH_DIR")
	case $d in
	.) d=fs ;;
	fs | fs/*) ;;
	*)	# nothing make diff converts
		[ -z "$rule" ] || printf '%s=\n' "$([ "$rule" = fs_autofreeze ] && echo fs_types || echo units)"
		exit 0 ;;
	esac
	set -- "$top" "$d"
fi

scratch_open

prog=$prog "$TOP/scripts/lib/convert.sh" "$1" "$2" "$scratch"
plan=$scratch/plan
flag=$(plan_optin "$plan" 3)

# cmd WORD...: one command line, a word with a character the shell
# would read in single quotes
cmd()
{
	local w line=
	for w; do
		case $w in
		'' | *[!A-Za-z0-9_./=,:+-]*) w="'${w//\'/\'\\\'\'}'" ;;
		esac
		line+="${line:+ }$w"
	done
	printf '%s\n' "$line"
}

# merged NAME=VALUE...: one line a name, its comma-separated values
# joined over the units, each once
merged()
{
	awk '{ n = index($0, "="); k = substr($0, 1, n - 1)
		if (!(k in seen)) { seen[k] = 1; keys[++nk] = k; v[k] = "" }
		m = split(substr($0, n + 1), vs, ",")
		for (i = 1; i <= m; i++)
			if (vs[i] != "" && !((k, vs[i]) in had)) {
				had[k, vs[i]] = 1
				v[k] = v[k] (v[k] == "" ? "" : ",") vs[i]
			}
	}
	END { for (i = 1; i <= nk; i++) print keys[i] "=" v[keys[i]] }'
}

if [ -n "$rule" ]; then
	while IFS=$'\t' read -r verdict u types; do
		[ "$verdict" = flag ] || continue
		if [ "$rule" = fs_autofreeze ]; then
			printf 'fs_types=%s\n' "$(printf '%s\n' "${types//,/$'\n'}" | sed "s|^|$u:|" | paste -sd, -)"
			printf 'flag=%s\n' "$flag"
		elif plan_flag_set "$plan" "$u"; then
			plan_rule_defs "$plan" "$rule" "$u" | grep -vx -- -D
		fi
	done <"$scratch/flags" | { [ "$rule" = fs_autofreeze ] && echo fs_types= || echo units=; cat; } | merged
	exit 0
fi

opts=(--no-includes --include-headers --in-place --very-quiet)
n=0
while IFS=$'\t' read -r verdict u types; do
	[ "$verdict" = flag ] || continue
	n=$((n + 1))
	echo "# $u"
	for r in kthread_freezer wq_freezable; do
		mapfile -t defs < <(plan_rule_defs "$plan" "$r" "$u")
		cmd spatch --sp-file "$TOP/cocci/$r.cocci" -D patch "${defs[@]}" "${opts[@]}" --dir "$u"
	done
	cmd spatch --sp-file "$TOP/cocci/fs_autofreeze.cocci" -D patch \
		-D "fs_types=$types" -D "flag=$flag" "${opts[@]}" --dir "$u"
done <"$scratch/flags"
[ "$n" -gt 0 ] || echo "$prog: no unit of $2 is converted with its flag: nothing to run" >&2
