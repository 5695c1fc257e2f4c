#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# report.sh: account for every freezer use in DIR of KTREE, unit by
# unit: the unit's eligibility and opt-in flag decision, then each use
# the helper's scan finds, marked converted, kept (with the reason) or
# manual.  convert.sh runs the rules in report mode too (REPORT=1); the
# helper's "report" gives each use its verdict from what they said.  The
# tree is only read: one a killed apply or vfs left half changed is
# refused, exit 2, one line naming the command that puts it back.
#
# The text report is for people: a table of the units first, lines of
# at most 100 columns; -v (V=1 through make) gives every line whole,
# FORMAT=json everything, for programs.  A run that takes longer than
# AUTOFREEZE_PROGRESS seconds (default 2) says on stderr, tty or not,
# what it is doing: a line as each step starts, one at the end.
#
# usage: report.sh [-v] KTREE DIR  (environment: FORCE=1, J=N, FORMAT=json,
#                                   V=1, AUTOFREEZE_PROGRESS=SECONDS)

set -eu
prog=report.sh
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$TOP/scripts/lib/ktree.sh"
. "$TOP/scripts/lib/scratch.sh"
jobs_check
verbose=
case ${V:-} in
'' | 0) ;;
1) verbose=-v ;;
*) echo "$prog: V=$(shown "$V"): 0 or 1" >&2; exit 2 ;;
esac
if [ "${1:-}" = -v ]; then
	verbose=-v
	shift
fi
after=${AUTOFREEZE_PROGRESS:-2}
case $after in
'' | *[!0-9]*)
	echo "$prog: AUTOFREEZE_PROGRESS=$(shown "$after"): not a number of seconds" >&2
	exit 2 ;;
esac
driver_args "$@"
# FORMAT is the helper's to know: ask it now, before any work.
if ! err=$("$AF" report -f "${FORMAT:-text}" -h 2>&1 >/dev/null); then
	echo "$prog: FORMAT=$(shown "${FORMAT:-}"): ${err#autofreeze: report: }" >&2
	exit 2
fi

ticker=
scratch_open stop_ticker

# usec: the time, in microseconds
usec() { echo "${EPOCHREALTIME/./}"; }
start=$(usec)

# step TEXT: what the run does now, for the ticker
step() { printf '%s\n' "$*" >"$scratch/step"; }

# ticker: past $after seconds, each step as it starts, on stderr.  Only
# once convert.sh has made its copies (a/): the plan was accepted, so a
# refusal stays one line.  It sleeps in read -t on a FIFO no one writes,
# which starts no process that could hold the caller's stderr open.
ticker()
{
	local said='' now
	trap 'exit 0' TERM
	exec 9<>"$scratch/tick"
	while :; do
		read -r -t 0.5 -u 9 _ || true
		if [ $(($(usec) - start)) -lt $((after * 1000000)) ] || [ ! -d "$scratch/a" ]; then
			continue
		fi
		read -r now <"$scratch/step" || continue
		[ "$now" != "$said" ] || continue
		said=$now
		case $now in
		rules) now=$(awk -F'\t' '$1 == "file" { f++; if (!($2 in u)) { u[$2]; n++ } }
			END { printf "%d unit%s to convert, %d file%s: the rules, in report mode",
				n, n == 1 ? "" : "s", f, f == 1 ? "" : "s" }' \
			"$scratch/plan") ;;
		esac
		printf '%s: %s: %s\n' "$prog" "$DIR" "$now" >&2
		: >"$scratch/said"
	done
}

stop_ticker()
{
	[ -n "$ticker" ] || return 0
	kill "$ticker" 2>/dev/null || true
	wait "$ticker" 2>/dev/null || true
	ticker=
}

mkfifo "$scratch/tick"
step rules
ticker >/dev/null &
ticker=$!

REPORT=1 prog=$prog "$TOP/scripts/lib/convert.sh" "$KTREE" "$DIR" "$scratch"

step "every freezer use, the scan"
(cd "$KTREE" && "$AF" scan -j "$J" "$DIR") >"$scratch/scan"
step "the verdict on each use"
"$AF" report -f "${FORMAT:-text}" $verbose "$scratch/plan" "$scratch/flags" \
	"$scratch/unparsed" "$scratch/rules" "$scratch/scan"
stop_ticker
if [ -e "$scratch/said" ]; then
	now=$(($(usec) - start))
	printf '%s: %s: done in %d.%d s\n' "$prog" "$DIR" $((now / 1000000)) $((now / 100000 % 10)) >&2
fi
