#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-tree.sh: the gate for kernel trees.  In each unit of DIR with a
# file_system_type that carries the opt-in flag (FS_POWER_FREEZE or
# FS_AUTOFREEZE, the tree's), fail on a freezer use a rule would still
# convert or that no rule converts, on a type of the unit that lacks the
# flag, and on a type that carries the flag although the helper judges
# it should not.  One "FILE:LINE:COL: error: MESSAGE" line a finding on
# stdout (FORMAT=json: a JSON array), a summary on stderr.  The tree is
# only read.
#
# usage: check-tree.sh KTREE DIR
#	(environment: BASE=REV checks only the units holding a file that
#	"git diff REV" in KTREE touches; FORMAT=text|json; J=N jobs)
#
# Exit status: 0 clean, 1 findings, 2 bad input.

set -eu
prog=check-tree.sh
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$TOP/scripts/lib/ktree.sh"
. "$TOP/scripts/lib/plan.sh"
jobs_check
driver_args "$@"
case ${FORMAT:-text} in
text|json) ;;
*)	echo "$prog: FORMAT=$FORMAT: unknown format (text or json)" >&2; exit 2 ;;
esac

scratch=$(mktemp -d "${TMPDIR:-/tmp}/autofreeze.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# BASE: the units a patch touches, from git, relative to KTREE.
touched=
if [ -n "${BASE:-}" ]; then
	if ! git -C "$KTREE" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		echo "$prog: BASE=$BASE: $KTREE is not a git work tree" >&2
		exit 2
	fi
	if ! git -C "$KTREE" rev-parse -q --verify "$BASE^{commit}" >/dev/null; then
		echo "$prog: BASE=$BASE: not a commit of $KTREE" >&2
		exit 2
	fi
	touched=$scratch/touched
	git -C "$KTREE" diff --relative --name-only --no-renames "$BASE" -- "$DIR" >"$touched"
fi

CHECK=1 TOUCHED=$touched prog=$prog "$TOP/scripts/lib/convert.sh" "$KTREE" "$DIR" "$scratch"

# The uses of the units checked, read in the tree as report reads them.
mapfile -t files < <(plan_lines "$scratch/plan" file 3)
: >"$scratch/scan"
[ ${#files[@]} -eq 0 ] ||
	(cd "$KTREE" && "$AF" scan -j "$J" -- "${files[@]}") >"$scratch/scan"

rc=0
"$AF" check -f "${FORMAT:-text}" "$scratch/plan" "$scratch/unparsed" \
	"$scratch/rules" "$scratch/scan" >"$scratch/findings" || rc=$?
[ $rc -le 1 ] || exit "$rc"
cat "$scratch/findings"

nunits=$(plan_lines "$scratch/plan" unit 2 | wc -l)
units=units
[ "$nunits" -ne 1 ] || units=unit
what="$nunits $units with $(plan_optin "$scratch/plan" 3) checked"
[ -z "$touched" ] || what="$what (of those BASE=$BASE touches)"
if [ "${FORMAT:-text}" = json ]; then
	nerr=$(grep -c '"severity":"error"' "$scratch/findings" || true)
else
	nerr=$(grep -c ': error: ' "$scratch/findings" || true)
fi
errors=errors
[ "$nerr" -ne 1 ] || errors=error
echo "$prog: $DIR: $what: $nerr $errors" >&2
exit "$rc"
