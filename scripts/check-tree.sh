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
#	"git diff REV" in KTREE touches, or a file not yet added, and all
#	of them when it touches the suspend freeze (fs/super.c,
#	include/linux/fs.h, kernel/power/); exit 2 when git cannot tell:
#	KTREE not the top of its own work tree, no file of DIR tracked.
#	FORMAT=text|json; J=N jobs)
#
# Exit status: 0 clean, 1 findings, 2 bad input.

set -eu
prog=check-tree.sh
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$TOP/scripts/lib/ktree.sh"
. "$TOP/scripts/lib/plan.sh"
. "$TOP/scripts/lib/scratch.sh"
jobs_check
driver_args "$@"
case ${FORMAT:-text} in
text|json) ;;
*)	echo "$prog: FORMAT=$(shown "$FORMAT"): unknown format (text or json)" >&2; exit 2 ;;
esac
base_shown=$(shown "${BASE:-}")

scratch_open
# Exit 1 means findings: a step that breaks (a full disk, say) must not
# read as one.
trap 'echo "$prog: $DIR: a step failed (above), nothing checked for certain" >&2; exit 2' ERR

# BASE: the units a change touches, from git.  The gate must never pass
# for want of knowing what changed: a tree git does not hold (untracked
# inside another repository's work tree, as build/ trees are), a BASE
# that is no commit, a diff that fails, is exit 2, never "0 units".
touched=
all_why=
# What the suspend freeze of a tree is made of (freezepath.c reads fs/super.c
# and include/linux/fs.h, the prerequisites of policy/prerequisites.tsv
# lie in fs/super.c and kernel/power/).
freeze_paths=(fs/super.c include/linux/fs.h kernel/power/)
base_fail()
{
	echo "$prog: BASE=$base_shown: $*: cannot tell what changed (nothing checked)" >&2
	exit 2
}
if [ -n "${BASE:-}" ]; then
	if [ "$(git -C "$KTREE" rev-parse --is-inside-work-tree 2>"$scratch/git.err")" != true ]; then
		# git's reason, unless it is only that: "dubious ownership"
		why=$(grep -v "not a git repository" "$scratch/git.err" | grep -m 1 '^fatal: ' || true)
		echo "$prog: BASE=$base_shown: $KTREE is not a git work tree${why:+ (git: ${why#fatal: })}" >&2
		exit 2
	fi
	# The paths git reports are the top's: a KTREE below the top is a
	# tree its repository may not even track.
	cdup=$(git -C "$KTREE" rev-parse --show-cdup 2>/dev/null) ||
		base_fail "git rev-parse --show-cdup failed in $KTREE"
	if [ -n "$cdup" ]; then
		top=$(git -C "$KTREE" rev-parse --show-toplevel 2>/dev/null) ||
			top="another repository"
		base_fail "$KTREE is not the top of its own git work tree (it lies inside $top's)"
	fi
	# by its hash from here on: BASE is never an option to git diff
	base=$(git -C "$KTREE" rev-parse -q --verify --end-of-options "$BASE^{commit}" 2>/dev/null) || {
		echo "$prog: BASE=$base_shown: not a commit of $KTREE" >&2
		exit 2
	}
	[ -n "$(git -C "$KTREE" ls-files -- ":(literal)$DIR" 2>/dev/null | head -n 1)" ] ||
		base_fail "git tracks no file of $DIR in $KTREE"
	touched=$scratch/touched
	paths=(":(literal)$DIR" "${freeze_paths[@]}")
	# -z: a name git would quote ("fs/xfs/caf\303\251.c") is still
	# inside its unit; a newline in one cannot reach the one-a-line list
	# whole, but its directory does.  --no-renames: both names of a
	# rename.  Files not yet added (not ignored) are part of the change.
	if ! git -C "$KTREE" diff -z --name-only --no-renames --no-ext-diff \
			"$base" -- "${paths[@]}" >"$scratch/touched0" 2>"$scratch/git.err" ||
		! git -C "$KTREE" ls-files -z --others --exclude-standard \
			-- "${paths[@]}" >>"$scratch/touched0" 2>>"$scratch/git.err"; then
		base_fail "git diff failed: $(grep -v '^[[:space:]]*$' "$scratch/git.err" | tail -n 1)"
	fi
	tr '\n\0' '?\n' <"$scratch/touched0" >"$touched"
	# A change to the suspend freeze itself (what the flag relies on)
	# is a change to every flagged unit: all of them are checked.
	all_why=$(awk -v list="${freeze_paths[*]}" 'BEGIN { n = split(list, p, " ") }
		{ for (i = 1; i <= n; i++)
			if ($0 == p[i] || (p[i] ~ /\/$/ && index($0, p[i]) == 1)) {
				print; exit
			} }' "$touched")
	[ -z "$all_why" ] || touched=
fi

rc=0
CHECK=1 TOUCHED=$touched prog=$prog "$TOP/scripts/lib/convert.sh" "$KTREE" "$DIR" "$scratch" || rc=$?
if [ $rc -eq 1 ]; then
	echo "$prog: $DIR: the conversion failed (above), nothing checked for certain" >&2
	exit 2
fi
[ $rc -eq 0 ] || exit "$rc"

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
if [ -n "$all_why" ]; then
	what="$what (BASE=$base_shown touches the suspend freeze: $all_why)"
elif [ -n "$touched" ]; then
	what="$what (of those BASE=$base_shown touches)"
fi
if [ "${FORMAT:-text}" = json ]; then
	nerr=$(grep -c '"severity":"error"' "$scratch/findings" || true)
else
	nerr=$(grep -c ': error: ' "$scratch/findings" || true)
fi
errors=errors
[ "$nerr" -ne 1 ] || errors=error
echo "$prog: $DIR: $what: $nerr $errors" >&2
exit "$rc"
