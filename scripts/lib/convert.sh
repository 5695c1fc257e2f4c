#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# convert.sh: convert the units of DIR in KTREE into a scratch directory,
# the way make diff and make apply need it.  The helper's plan says
# which units to convert, their candidate files, thread functions and
# freeze-capable file_system_types; spatch runs in parallel through the
# helper; KTREE is only read.
#
# usage: convert.sh KTREE DIR OUT    (environment: FORCE=1, J=N, REPORT=1,
#                                    CHECK=1 [TOUCHED=FILE])
#
# CHECK=1 is check-tree's analysis: only the units "autofreeze check
# --select" picks (those with a type that carries the opt-in flag; with
# TOUCHED, a list of paths, only those holding one), and only the rules'
# report mode, on the files with a freezer use: OUT gets plan (of those
# units), scan-before, rules and unparsed.
#
# OUT receives:
#   plan      the helper's plan
#   a/, b/    the candidate files, as they are and converted
#   flags     per unit: "flag UNIT TYPE...", "noflag UNIT REASON" (put
#             back as it was) or "forced UNIT REASON" (FORCE=1)
#   unparsed  "FILE:LINE: API" for each freezer use in code spatch could
#             not parse (the rules never saw it)
#   warnings  what diff and apply warn of once they are done: a unit
#             left as it is, a unit FORCE=1 converts without a flag
#   rules     with REPORT=1: the rules' report-mode messages on a/

set -eu
prog=${prog:-convert.sh}
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$TOP/scripts/lib/ktree.sh"
. "$TOP/scripts/lib/plan.sh"

[ $# -eq 3 ] || { echo "usage: $prog KTREE DIR OUT" >&2; exit 2; }
jobs_check
ktree_check "$1" "$2"
out=$3
SPATCH=${SPATCH:-spatch}
export SPATCH

spatch_check

progress()
{
	[ -t 2 ] && printf '%s: %s\n' "$prog" "$*" >&2
	return 0
}

force=
[ "${FORCE:-}" = 1 ] && force=--force
# The helper's refusals are the driver's: one line, its exit status.
rc=0
"$AF" plan $force "$KTREE" "$DIR" >"$out/plan" 2>"$out/plan.err" || rc=$?
sed "s/^autofreeze: /$prog: /" "$out/plan.err" >&2
[ $rc -eq 0 ] || exit $rc

# check-tree: the units the gate looks at, and nothing else.
if [ -n "${CHECK:-}" ]; then
	"$AF" check --select ${TOUCHED:+--touched "$TOUCHED"} "$out/plan" >"$out/selected"
	awk -F'\t' 'FILENAME == ARGV[1] { sel[$0] = 1; next }
		$1 == "option" || $1 == "optin" || ($2 in sel)' \
		"$out/selected" "$out/plan" >"$out/plan.sel"
	mv "$out/plan.sel" "$out/plan"
fi

# The opt-in flag is the tree's: never write one it does not define.
# make diff refuses too, since its diff could not apply and compile.
optin=$(plan_optin "$out/plan" 2)
flag=$(plan_optin "$out/plan" 3)
if [ -z "${REPORT:-}${CHECK:-}" ]; then
	case $optin in
	tree) ;;
	series)
		echo "$prog: $KTREE does not define $flag yet: run make vfs KTREE=$KTREE first, which applies $(plan_optin "$out/plan" 5) (nothing changed)" >&2
		exit 2 ;;
	*)
		if [ -z "$force" ]; then
			echo "$prog: $KTREE: nothing would freeze a converted filesystem on suspend: $(plan_optin "$out/plan" 6) (FORCE=1 converts without a flag; nothing changed)" >&2
			exit 2
		fi ;;
	esac
fi

# The units to convert are those with file lines in the plan.
mapfile -t units < <(plan_lines "$out/plan" file 2 | uniq)
mkdir -p "$out/a" "$out/b"
: >"$out/flags"
: >"$out/unparsed"
: >"$out/warnings"
: >"$out/rules"
[ ${#units[@]} -gt 0 ] || exit 0

plan_lines "$out/plan" file 3 | tr '\n' '\0' >"$out/files0"
(cd "$KTREE" && tar --null -T "$out/files0" -cf -) | tar -C "$out/a" -xf -
cp -a "$out/a/." "$out/b/"
# spatch --in-place cannot write a read-only copy, and says so only in
# its log, exit 0: the copies the rules write are the user's to write.
chmod -R u+w "$out/b"

# spatch hands file names to diff and cp through a shell unquoted, and
# reads positions as FILE:LINE: a path with a space, a colon or another
# special character, in its name or its directory's, gets a plain name
# at the top of a/ and b/ while the rules run, and its own back at the
# end.  plan.spatch is the plan with those names.
awk -F'\t' '$1 == "file" && $3 !~ /^[A-Za-z0-9._\/+-]+$/ {
	x = $3; sub(/.*\./, "", x)
	printf "%s\tautofreeze-safe-%d.%s\n", $3, ++n, x }' "$out/plan" >"$out/renames"
while IFS=$'\t' read -r from to; do
	mv "$out/a/$from" "$out/a/$to"
	mv "$out/b/$from" "$out/b/$to"
done <"$out/renames"
awk -F'\t' -v OFS='\t' 'FILENAME == ARGV[1] { to[$1] = $2; next }
	$1 == "file" && ($3 in to) { $3 = to[$3] }
	$1 == "fstype" && ($4 in to) { $4 = to[$4] }
	$1 == "keep" && ($3 in to) { $3 = to[$3] }
	{ print }' "$out/renames" "$out/plan" >"$out/plan.spatch"

# unrename: the files their own names again, in a/, b/ and the lists.
unrename()
{
	local from to f
	while IFS=$'\t' read -r from to; do
		mv "$out/a/$to" "$out/a/$from"
		mv "$out/b/$to" "$out/b/$from"
		for f in flags unparsed rules; do
			awk -v a="$to" -v b="$from" '{ while ((i = index($0, a)) > 0)
				$0 = substr($0, 1, i - 1) b substr($0, i + length(a)); print }' \
				"$out/$f" >"$out/$f.tmp" && mv "$out/$f.tmp" "$out/$f"
		done
	done <"$out/renames"
}

SPOPTS=(--no-includes --include-headers -D patch --in-place)

# run_rule MODE RULE LOG [-D name=value]... ::: FILE...: spatch in J
# processes through the helper's runner.  MODE patch converts b/ in
# place (paths relative to b/), each process's messages, parse errors
# among them (--verbose-parsing), in LOG/*.err; MODE report runs the rule
# in report mode on the untouched a/ and appends its messages to
# OUT/rules.
run_rule()
{
	local mode=$1 rule=$2 log=$3 why
	local opts=(--quiet --verbose-parsing "${SPOPTS[@]}") in=$out/b
	shift 3
	if [ "$mode" != patch ]; then
		opts=(--very-quiet --no-includes --include-headers --no-show-diff -D report)
		in=$out/a
	fi
	# check-tree's only pass: the parse errors too, for "unparsed"
	[ "$mode" != check ] || { opts[0]=--quiet; opts=(--verbose-parsing "${opts[@]}"); }
	if ! (cd "$in" && "$AF" spatch -G -j "$J" -o "$log" -- "${opts[@]}" \
		--sp-file "$TOP/cocci/$rule.cocci" "$@") 2>"$log.runner"; then
		why=$(grep -h -v '^[[:space:]]*$' "$log"/*.err 2>/dev/null | tail -n 1)
		[ -n "$why" ] || why=$(tail -n 1 "$log.runner")
		echo "$prog: spatch failed on cocci/$rule.cocci: ${why:-it said nothing (is TMPDIR=${TMPDIR:-/tmp} full?)}" >&2
		exit 1
	fi
	# --in-place writes the result with cp, and a cp that fails does
	# not change spatch's exit status: a file left unconverted.
	why=$(grep -h -m 1 '^cp: ' "$log"/*.err 2>/dev/null | head -n 1)
	if [ -n "$why" ]; then
		echo "$prog: spatch could not write its result on cocci/$rule.cocci: $why" >&2
		exit 2
	fi
	[ "$mode" = patch ] || cat "$log"/*.out >>"$out/rules"
}

# The thread functions of all units go to one spatch run, unless a name
# that is a thread in one unit is an ordinary function with freezer uses
# in another: then each unit runs with its own.
mapfile -t allfiles < <(plan_lines "$out/plan.spatch" file 3)
kall=$(plan_lines "$out/plan" kthread 3 | sort -u | paste -sd, -)
twall=$(plan_twins "$out/plan")
(cd "$out/b" && "$AF" scan "${allfiles[@]}") >"$out/scan-before"
collide=$("$AF" runs "$out/plan.spatch" "$out/scan-before")

# keep_defs PLAN [UNIT]: -D keep_at=... for the uses the plan's
# judgments keep, when there are any.
keep_defs()
{
	local at
	at=$(plan_keep_at "$@")
	[ -z "$at" ] || printf '%s\n' -D "keep_at=$at"
}

# rule_pass MODE: the removal rules over every unit's files, all units
# in one run, or one run per unit when a thread name collides.
rule_pass()
{
	local mode=$1 plan=$out/plan.spatch u kfns twins defs files keeps
	if [ -z "$collide" ]; then
		mapfile -t files < <(plan_lines "$plan" file 3)
		defs=()
		[ -z "$kall" ] || defs=(-D "kthread_fns=$kall")
		[ -z "$twall" ] || defs+=(-D "twins=$twall")
		run_rule "$mode" kthread_freezer "$out/log-$mode-kthread" "${defs[@]}" ::: "${files[@]}"
		mapfile -t keeps < <(keep_defs "$plan")
		run_rule "$mode" wq_freezable "$out/log-$mode-wq" "${keeps[@]}" ::: "${files[@]}"
		return
	fi
	for u in "${units[@]}"; do
		mapfile -t files < <(plan_lines "$plan" file 3 "$u")
		kfns=$(plan_lines "$plan" kthread 3 "$u" | paste -sd, -)
		[ "$mode" != patch ] || progress "$u: ${#files[@]} files"
		twins=$(plan_twins "$plan" "$u")
		defs=()
		[ -z "$kfns" ] || defs=(-D "kthread_fns=$kfns")
		[ -z "$twins" ] || defs+=(-D "twins=$twins")
		run_rule "$mode" kthread_freezer "$out/log-$mode-kthread-${u//\//-}" "${defs[@]}" ::: "${files[@]}"
		mapfile -t keeps < <(keep_defs "$plan" "$u")
		run_rule "$mode" wq_freezable "$out/log-$mode-wq-${u//\//-}" "${keeps[@]}" ::: "${files[@]}"
	done
}

progress "${#units[@]} units, ${#allfiles[@]} files"
[ -z "$collide" ] || progress "$collide is a thread in one unit only: one run per unit"
if [ -n "${CHECK:-}" ]; then
	# the gate reads the rules' verdicts on the uses there are: a file
	# without one has nothing for spatch to look at
	cut -d: -f1 "$out/scan-before" | uniq >"$out/with-uses"
	awk -F'\t' -v OFS='\t' 'FILENAME == ARGV[1] { has[$0] = 1; next }
		$1 != "file" || ($3 in has)' "$out/with-uses" "$out/plan.spatch" >"$out/plan.check"
	mv "$out/plan.check" "$out/plan.spatch"
	mapfile -t units < <(plan_lines "$out/plan.spatch" file 2 | uniq)
	if [ ${#units[@]} -gt 0 ]; then
		rule_pass check
		"$AF" unparsed "$out/plan.spatch" "$out/scan-before" \
			"$out"/log-check-kthread*/*.err >"$out/unparsed"
	fi
	unrename
	exit 0
fi
rule_pass patch
[ -z "${REPORT:-}" ] || rule_pass report
# Freezer uses inside code spatch could not parse: the rules never saw
# them.  Listed in "unparsed" as FILE:LINE: API; apply refuses.
"$AF" unparsed "$out/plan.spatch" "$out/scan-before" \
	"$out"/log-patch-kthread*/*.err >"$out/unparsed"

# The opt-in flag: on an eligible unit's freeze-capable types, once
# nothing is left in kthread context: the helper decides ("flags"), the
# fs_autofreeze rule writes.  All or nothing: a unit that gets no flag
# is put back as it was ("noflag"), unless FORCE=1 ("forced").
(cd "$out/b" && "$AF" scan "${allfiles[@]}") >"$out/scan-after"
"$AF" flags "$out/plan.spatch" "$out/scan-after" >"$out/flags"
while IFS=$'\t' read -r verdict u types; do
	[ "$verdict" = flag ] || continue
	mapfile -t tfiles < <(plan_lines "$out/plan.spatch" fstype 4 "$u" | sort -u)
	run_rule patch fs_autofreeze "$out/log-flag-${u//\//-}" -D "fs_types=$types" -D "flag=$flag" ::: "${tfiles[@]}"
done <"$out/flags"

unrename

while IFS=$'\t' read -r verdict u why; do
	case $verdict in
	noflag)
		while IFS= read -r f; do
			cp -p "$out/a/$f" "$out/b/$f"
		done < <(plan_lines "$out/plan" file 3 "$u")
		echo "$u: left as it is, it gets no $flag: $why" ;;
	forced)
		diff -rq "$out/a/$u" "$out/b/$u" >/dev/null 2>&1 ||
			echo "$u: FORCE=1 converts it without $flag:" \
				"its threads no longer freeze and nothing" \
				"freezes the filesystem ($why)" ;;
	esac
done <"$out/flags" >"$out/warnings"
