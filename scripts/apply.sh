#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# apply.sh: convert DIR in KTREE in place, all or nothing.  The
# conversion is made in a scratch directory first; then every file it
# changes is checked writable, saved, and replaced.  On any failure or
# interruption the saved files are put back.  A tree already converted
# is left alone (exit 0).  The changed files are appended to
# KTREE/.autofreeze-touched, and their old content kept in
# KTREE/.autofreeze-orig/, for make build-check.
#
# usage: apply.sh KTREE DIR      (environment: FORCE=1, J=N)

set -eu
prog=apply.sh
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$TOP/scripts/lib/ktree.sh"
driver_args "$@"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/autofreeze.XXXXXX")
restore=
cleanup()
{
	local rc=$?
	# A second Ctrl-C must not stop the restore halfway.
	trap '' INT TERM HUP
	if [ -n "$restore" ]; then
		# Replace, never write into: a tree may be hard-linked.
		while IFS= read -r f; do
			# AUTOFREEZE_FAIL_SIGNAL: the signal comes again here
			[ -z "${AUTOFREEZE_FAIL_SIGNAL:-}" ] ||
				kill -s "$AUTOFREEZE_FAIL_SIGNAL" $$
			rm -f "$KTREE/$f.autofreeze-new"
			cmp -s "$scratch/save/$f" "$KTREE/$f" && continue
			cp -p "$scratch/save/$f" "$KTREE/$f.autofreeze-old" &&
				mv -f "$KTREE/$f.autofreeze-old" "$KTREE/$f" || true
		done <"$scratch/changed"
		echo "$prog: failed; every file put back as it was" >&2
	fi
	rm -rf "$scratch"
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

prog=$prog "$TOP/scripts/lib/convert.sh" "$KTREE" "$DIR" "$scratch"
if [ -s "$scratch/unparsed" ]; then
	read -r first <"$scratch/unparsed"
	echo "$prog: spatch cannot parse the code around ${first%%: *} (and $(($(wc -l <"$scratch/unparsed") - 1)) more freezer uses; make report lists them); nothing changed" >&2
	exit 1
fi

(cd "$scratch/b" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) |
while IFS= read -r f; do
	cmp -s "$scratch/a/$f" "$scratch/b/$f" || printf '%s\n' "$f"
done >"$scratch/changed"

if [ ! -s "$scratch/changed" ]; then
	sed "s/^/$prog: warning: /" "$scratch/warnings" >&2
	echo "$prog: $DIR: nothing to convert (already converted?)" >&2
	exit 0
fi

while IFS= read -r f; do
	if [ ! -w "$KTREE/$f" ] || [ ! -w "$(dirname "$KTREE/$f")" ]; then
		echo "$prog: $KTREE/$f: not writable; nothing changed" >&2
		exit 2
	fi
	# No write bit at all: someone made it read-only (chmod a-w), which
	# root's [ -w ] does not see.
	if [ -z "$(find "$KTREE/$f" -maxdepth 0 -perm /222)" ]; then
		echo "$prog: $KTREE/$f: read-only (mode $(stat -c %a "$KTREE/$f")); nothing changed" >&2
		exit 2
	fi
	# The tree moved under us since the conversion read it.
	cmp -s "$KTREE/$f" "$scratch/a/$f" ||
		{ echo "$prog: $KTREE/$f changed while converting; nothing changed" >&2; exit 1; }
done <"$scratch/changed"

mkdir -p "$scratch/save"
(cd "$KTREE" && tr '\n' '\0' <"$scratch/changed" | tar --null -T - -cf -) |
	tar -C "$scratch/save" -xpf -
restore=1
# AUTOFREEZE_FAIL_AFTER=N makes the N+1th replacement fail, or with
# AUTOFREEZE_FAIL_SIGNAL=INT, get that signal (and again during the
# restore): the test suite's way to see a failed or interrupted apply
# put everything back.
n=0
while IFS= read -r f; do
	if [ -n "${AUTOFREEZE_FAIL_AFTER:-}" ] && [ "$n" -ge "$AUTOFREEZE_FAIL_AFTER" ]; then
		if [ -n "${AUTOFREEZE_FAIL_SIGNAL:-}" ]; then
			kill -s "$AUTOFREEZE_FAIL_SIGNAL" $$
		else
			echo "$prog: $f: failing as AUTOFREEZE_FAIL_AFTER asks" >&2
			exit 1
		fi
	fi
	# The new file takes the old one's mode and owner (cp -p), then the
	# converted text, which also makes it newer for make.
	cp -p "$KTREE/$f" "$KTREE/$f.autofreeze-new"
	cat "$scratch/b/$f" >"$KTREE/$f.autofreeze-new"
	mv -f "$KTREE/$f.autofreeze-new" "$KTREE/$f"
	n=$((n + 1))
done <"$scratch/changed"
cat "$scratch/changed" >>"$KTREE/.autofreeze-touched"
# build-check compiles the untouched files from here for its baseline
# (vfs.sh saves there too; the first save of a file wins).
while IFS= read -r f; do
	[ -e "$KTREE/.autofreeze-orig/$f" ] && continue
	mkdir -p "$(dirname "$KTREE/.autofreeze-orig/$f")"
	cp -p "$scratch/save/$f" "$KTREE/.autofreeze-orig/$f"
done <"$scratch/changed"
restore=

n=$(wc -l <"$scratch/changed")
flags=$(awk -F'\t' '$1 == "flag" { print $3 }' "$scratch/flags" | paste -sd, -)
flag=$(awk -F'\t' '$1 == "optin" { print $3; exit }' "$scratch/plan")
echo "$prog: $DIR: converted $n files${flags:+; $flag on $flags}" >&2
sed "s/^/$prog: warning: /" "$scratch/warnings" >&2
