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
[ $# -eq 2 ] || { echo "usage: $prog KTREE DIR" >&2; exit 2; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/autofreeze.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

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
