#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# diff.sh: print the conversion of DIR in KTREE as a -p1 unified diff;
# the tree is not touched.  The files that mention a freezer API are
# copied to a scratch tree, converted there with the rule set, and
# compared.
#
# usage: diff.sh KTREE DIR [name=value...]   (values for spatch -D)

set -eu
prog=diff.sh
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$TOP/scripts/ktree.sh"

[ $# -ge 2 ] || { echo "usage: $prog KTREE DIR [name=value...]" >&2; exit 2; }
ktree_check "$1" "$2"
shift 2
defs=()
for d in "$@"; do
	defs+=(-D "$d")
done

scratch=$(mktemp -d "${TMPDIR:-/tmp}/autofreeze.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM

# Candidate files: every .c/.h under DIR that names a freezer API.
(cd "$KTREE" && grep -rlZE --include='*.[ch]' "$FREEZER_API_RE" -- "$DIR" || true) >"$scratch/files"
mkdir -p "$scratch/a" "$scratch/b"
(cd "$KTREE" && tar --null -T "$scratch/files" -cf -) | tar -C "$scratch/a" -xf -
cp -a "$scratch/a/." "$scratch/b/"
"$TOP/scripts/rules.sh" "${defs[@]}" "$scratch/b"
"$TOP/scripts/tree-diff.sh" "$scratch/a" "$scratch/b"
