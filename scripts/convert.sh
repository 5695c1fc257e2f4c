#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# convert.sh: convert the units of DIR in KTREE into a scratch directory,
# the way make diff and make apply need it.  The helper's plan says
# which units to convert, their candidate files, thread functions and
# freeze-capable file_system_types; spatch runs in parallel through the
# helper; KTREE is only read.
#
# usage: convert.sh KTREE DIR OUT      (environment: FORCE=1, J=N)
#
# OUT receives:
#   plan      the helper's plan
#   a/, b/    the candidate files, as they are and converted
#   flags     per unit: "flag UNIT TYPE..." or "noflag UNIT REASON"

set -eu
prog=${prog:-convert.sh}
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$TOP/scripts/ktree.sh"

[ $# -eq 3 ] || { echo "usage: $prog KTREE DIR OUT" >&2; exit 2; }
ktree_check "$1" "$2"
out=$3
J=${J:-$(nproc)}
AF=$TOP/scripts/autofreeze
SPATCH=${SPATCH:-spatch}
export SPATCH

spatch_check
[ -x "$AF" ] || make -s -C "$TOP" helper >&2

progress()
{
	[ -t 2 ] && printf '%s: %s\n' "$prog" "$*" >&2
	return 0
}

force=
[ "${FORCE:-}" = 1 ] && force=--force
"$AF" plan $force "$KTREE" "$DIR" >"$out/plan"

# The units to convert are those with file lines in the plan.
units=$(awk -F'\t' '$1 == "file" { print $2 }' "$out/plan" | uniq)
mkdir -p "$out/a" "$out/b"
: >"$out/flags"
[ -n "$units" ] || exit 0

awk -F'\t' '$1 == "file" { printf "%s%c", $3, 0 }' "$out/plan" >"$out/files0"
(cd "$KTREE" && tar --null -T "$out/files0" -cf -) | tar -C "$out/a" -xf -
cp -a "$out/a/." "$out/b/"

# plan_field KIND UNIT: column 3 of the plan's KIND lines for UNIT.
plan_field()
{
	awk -F'\t' -v k="$1" -v u="$2" '$1 == k && $2 == u { print $3 }' "$out/plan"
}

SPOPTS=(--very-quiet --no-includes --include-headers -D patch --in-place)

# run_rule RULE [-D name=value]... ::: FILE...  (paths relative to b/)
run_rule()
{
	local rule=$1
	shift
	(cd "$out/b" && "$AF" spatch -j "$J" -- "${SPOPTS[@]}" \
		--sp-file "$TOP/cocci/$rule.cocci" "$@") >/dev/null
}

for u in $units; do
	mapfile -t files < <(plan_field file "$u")
	kfns=$(plan_field kthread "$u" | paste -sd, -)
	progress "$u: ${#files[@]} files"
	defs=()
	[ -z "$kfns" ] || defs=(-D "kthread_fns=$kfns")
	run_rule kthread_freezer "${defs[@]}" ::: "${files[@]}"
	run_rule wq_freezable ::: "${files[@]}"
done

# FS_AUTOFREEZE: on an eligible unit's freeze-capable types, once
# nothing is left in kthread context.  Left means: a use scan still sees
# in kthread context, or in one of the unit's thread functions.
for u in $units; do
	types=$(plan_field fstype "$u" | paste -sd, -)
	[ -n "$types" ] || continue
	mapfile -t files < <(plan_field file "$u")
	kfns=$(plan_field kthread "$u" | paste -sd' ' -)
	left=$(cd "$out/b" && "$AF" scan "${files[@]}" |
		awk -v k=" $kfns " '$3 == "kthread" || index(k, " " $4 " ") {
			sub(/:$/, "", $1); print $1 " " $2 }' | head -n 3 | paste -sd';' -)
	if [ -n "$left" ]; then
		printf 'noflag\t%s\tkthread freezer uses left: %s\n' "$u" "$left" >>"$out/flags"
		continue
	fi
	mapfile -t tfiles < <(awk -F'\t' -v u="$u" '$1 == "fstype" && $2 == u { print $4 }' "$out/plan" | sort -u)
	run_rule fs_autofreeze -D "fs_types=$types" ::: "${tfiles[@]}"
	printf 'flag\t%s\t%s\n' "$u" "$types" >>"$out/flags"
done
