#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# convert.sh: convert the units of DIR in KTREE into a scratch directory,
# the way make diff and make apply need it: the arguments, J and spatch
# checked here, the environment made options of "autofreeze convert"
# (scripts/helper/convert.c), which does the rest.  The helper's plan
# says which units to convert, their candidate files, thread functions
# and freeze-capable file_system_types; spatch runs in parallel through
# the helper; KTREE is only read.
#
# usage: convert.sh KTREE DIR OUT    (environment: FORCE=1, J=N,
#                                    REPORT=1|full, CHECK=1 [TOUCHED=FILE],
#                                    JUDGMENTS=FILE)
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
#   rules     with REPORT=1: the rules' report-mode messages on a/ (b/
#             is then left without the flag, and no warnings are
#             written: the report reads the verdicts alone); with
#             REPORT=full the same messages, and b/ converted in full
#             (series: the patches and their evidence from one run)

set -eu
prog=${prog:-convert.sh}
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$TOP/scripts/lib/ktree.sh"

[ $# -eq 3 ] || { echo "usage: $prog KTREE DIR OUT" >&2; exit 2; }
jobs_check
ktree_check "$1" "$2"
SPATCH=${SPATCH:-spatch}
export SPATCH
spatch_check

# The result cache: $AUTOFREEZE_CACHE (default ~/.cache/autofreeze),
# "none" for no cache (cache.c).
cache=${AUTOFREEZE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/autofreeze}
opts=(--prog "$prog" -j "$J" --cache "$cache" --spatch-id "$SPATCH_ID"
	--rules "$TOP/cocci")
[ "${FORCE:-}" != 1 ] || opts+=(--force)
[ -z "${JUDGMENTS:-}" ] || opts+=(--judgments "$JUDGMENTS")
case ${REPORT:-} in
'') ;;
full) opts+=(--report=full) ;;
*) opts+=(--report=1) ;;
esac
if [ -n "${CHECK:-}" ]; then
	opts+=(--check)
	[ -z "${TOUCHED:-}" ] || opts+=(--touched "$TOUCHED")
fi
exec "$AF" convert "${opts[@]}" "$KTREE" "$DIR" "$3"
