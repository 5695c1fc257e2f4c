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
# usage: report.sh KTREE DIR      (environment: FORCE=1, J=N, FORMAT=json)

set -eu
prog=report.sh
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$TOP/scripts/lib/ktree.sh"
jobs_check
driver_args "$@"
# FORMAT is the helper's to know: ask it now, before any work.
if ! err=$("$AF" report -f "${FORMAT:-text}" -h 2>&1 >/dev/null); then
	echo "$prog: FORMAT=$(shown "${FORMAT:-}"): ${err#autofreeze: report: }" >&2
	exit 2
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/autofreeze.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

REPORT=1 prog=$prog "$TOP/scripts/lib/convert.sh" "$KTREE" "$DIR" "$scratch"

(cd "$KTREE" && "$AF" scan -j "$J" "$DIR") >"$scratch/scan"
"$AF" report -f "${FORMAT:-text}" "$scratch/plan" "$scratch/flags" \
	"$scratch/unparsed" "$scratch/rules" "$scratch/scan"
