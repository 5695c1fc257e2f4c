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
