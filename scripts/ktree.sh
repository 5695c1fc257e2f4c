# SPDX-License-Identifier: GPL-2.0
#
# ktree.sh: sourced by the drivers.  ktree_check KTREE DIR validates a
# kernel tree and a directory inside it and sets KTREE (absolute) and DIR
# (relative, normalised); on bad input it prints one line naming $prog
# and exits 2.

# The freezer API names, for a cheap first look with grep.
FREEZER_API_RE='freez|FREEZ|refrigerator'

ktree_check()
{
	local ktree=$1 dir=$2 real rel

	if [ ! -d "$ktree" ]; then
		echo "$prog: KTREE=$ktree: no such directory (make deps, or KTREE=<kernel tree>)" >&2
		exit 2
	fi
	if [ ! -f "$ktree/Makefile" ] || ! grep -q '^VERSION *=' "$ktree/Makefile" ||
	   [ ! -f "$ktree/Kconfig" ] || [ ! -d "$ktree/fs" ] || [ ! -f "$ktree/include/linux/fs.h" ]; then
		echo "$prog: KTREE=$ktree: not a kernel tree (no top Makefile with VERSION, Kconfig, fs/, include/linux/fs.h)" >&2
		exit 2
	fi
	KTREE=$(cd "$ktree" && pwd -P)
	case $dir in
	/*)	echo "$prog: DIR=$dir: must be relative to KTREE" >&2; exit 2 ;;
	esac
	if [ ! -d "$KTREE/$dir" ]; then
		echo "$prog: DIR=$dir: no such directory in $KTREE" >&2
		exit 2
	fi
	real=$(cd "$KTREE/$dir" && pwd -P)
	case $real/ in
	"$KTREE"/*)	rel=${real#"$KTREE"} ; rel=${rel#/} ;;
	*)	echo "$prog: DIR=$dir: outside KTREE ($real)" >&2; exit 2 ;;
	esac
	DIR=${rel:-.}
}

# spatch_check: spatch is there and new enough for the rules (script
# constraints on positions, fresh identifiers from python: 1.1).
spatch_check()
{
	local v
	if ! command -v "${SPATCH:-spatch}" >/dev/null 2>&1; then
		echo "$prog: ${SPATCH:-spatch} not found (install coccinelle: make deps)" >&2
		exit 2
	fi
	v=$("${SPATCH:-spatch}" --version 2>/dev/null | sed -n 's/^spatch version \([0-9][0-9.]*\).*/\1/p')
	case $v in
	1.1.* | 1.[2-9]* | [2-9].*) ;;
	*)	echo "$prog: ${SPATCH:-spatch} ${v:-of unknown version} is too old: the rules need coccinelle 1.1 or later" >&2
		exit 2 ;;
	esac
}

# spatch_groups LOG J SPATCH-ARGS... ::: FILE...: run spatch on the
# files, each file its own group (--file-groups), in J processes that
# each parse the rule once (spatch's start-up is most of its time on a
# file).  Process k writes its stdout to LOG.k.out and its stderr to
# LOG.k.  Files are dealt out largest first, for balance.
spatch_groups()
{
	local log=$1 j=$2 k rc=0 saved
	shift 2
	local args=()
	while [ $# -gt 0 ] && [ "$1" != ":::" ]; do
		args+=("$1")
		shift
	done
	shift
	[ $# -gt 0 ] || return 0
	for ((k = 0; k < j; k++)); do
		: >"$log.groups.$k"
	done
	local f
	for f in "$@"; do
		printf '%s\t%s\n' "$(wc -c <"$f")" "$f"
	done | sort -t "$(printf '\t')" -k1,1rn | cut -f2- |
	{ k=0; while IFS= read -r f; do
		printf '%s\n\n' "$f" >>"$log.groups.$((k % j))"
		k=$((k + 1))
	done; }
	local pids=()
	for ((k = 0; k < j; k++)); do
		[ -s "$log.groups.$k" ] || continue
		"${SPATCH:-spatch}" "${args[@]}" --file-groups "$log.groups.$k" \
			>"$log.$k.out" 2>"$log.$k" &
		pids+=($!)
	done
	saved=$(trap -p INT TERM)
	trap 'kill "${pids[@]}" 2>/dev/null; exit 130' INT
	trap 'kill "${pids[@]}" 2>/dev/null; exit 143' TERM
	for k in "${pids[@]}"; do
		wait "$k" || rc=$?
	done
	trap - INT TERM
	eval "$saved"
	if [ $rc -ne 0 ]; then
		echo "$prog: spatch failed (exit $rc); its messages are in ${log##*/}.*" >&2
		return 1
	fi
}
