# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# series-tools.sh: what make series asks of its tools, sourced by
# series.sh, whose settings they read when called (prog, KTREE, AF,
# scratch, plan).  addresses checks ADD_TO= and ADD_CC=; gm runs the
# tree's get_maintainer.pl; layout runs autofreeze layout on the
# converted copies ($scratch/conv/b, which it rewrites); changed lists a
# unit's changed files; checkpatch_findings runs the tree's
# checkpatch.pl --strict ($scratch/cp.raw, cp-moved); add_headers
# writes To: and Cc: into a patch; join joins addresses.

# addresses NAME VALUE: VALUE, comma-separated mail addresses, one per
# line; a word without an @ is refused
addresses()
{
	local a
	tr ',' '\n' <<<"$2" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//' | grep . |
	while IFS= read -r a; do
		case $a in
		*@*) printf '%s\n' "$a" ;;
		*) echo "$prog: $1=$2: \"$a\" is not a mail address" >&2; return 1 ;;
		esac
	done
}

# gm TO|CC FILE...: get_maintainer.pl's maintainers and reviewers (TO)
# or lists (CC) for the patches, or with -f the files, given, one a line;
# one that cannot run fails the run (exit 2), as a check not made
gm()
{
	local which=$1 opts
	shift
	if [ "$which" = TO ]; then
		opts=(--no-l)
	else
		opts=(--no-m --no-r --l)
	fi
	# perl orders a hash's keys anew each run, and get_maintainer.pl
	# prints some names in that order: a fixed seed, the same To: twice
	(cd "$KTREE" && PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 \
		perl scripts/get_maintainer.pl --no-rolestats --no-git \
		--no-git-fallback "${opts[@]}" --no-multiline --separator ', ' "$@") \
		>"$scratch/gm.out" 2>"$scratch/err" ||
		die "$KTREE/scripts/get_maintainer.pl could not run ($*): $(grep . "$scratch/err" | tail -n 1)"
	tr ',' '\n' <"$scratch/gm.out" | sed 's/^ *//' | grep . || true
}

# layout FILE...: the lines the rules changed in the converted copies
# (conv/b) laid out as checkpatch.pl --strict wants (autofreeze layout)
layout()
{
	local f lines
	for f in "$@"; do
		lines=$(diff --unchanged-line-format= --old-line-format= \
			--new-line-format='%dn
' "$scratch/conv/a/$f" "$scratch/conv/b/$f" || true)
		[ -n "$lines" ] || continue
		# shellcheck disable=SC2086 # one line number per word
		"$AF" layout "$scratch/conv/b/$f" $lines >"$scratch/layout.tmp" ||
			fail "$f: autofreeze layout failed"
		mv "$scratch/layout.tmp" "$scratch/conv/b/$f"
	done
}

# changed UNIT: the files of UNIT the conversion changed, one a line
changed()
{
	plan_lines "$plan" file 3 "$1" | while IFS= read -r f; do
		cmp -s "$scratch/conv/a/$f" "$scratch/conv/b/$f" || printf '%s\n' "$f"
	done
}

# checkpatch_findings PATCH: what the tree's checkpatch.pl --strict
# reports on PATCH, one finding a paragraph, except those that ask for a
# comment on existing code (WAITQUEUE_ACTIVE, DATA_RACE) on a line the
# patch only re-indents: those go to $scratch/cp-moved, as
# "FILE:LINE TYPE", and do not fail the run.  A checkpatch.pl that did
# not run (exit status 2 or more, or 1 and no finding) fails the run,
# exit 2: no finding from a check not made is no "reports nothing".
checkpatch_findings()
{
	local rc=0
	(cd "$KTREE" && perl scripts/checkpatch.pl --strict --show-types --no-summary -q "$1") \
		>"$scratch/cp.raw" 2>"$scratch/err" || rc=$?
	if [ $rc -gt 1 ] || { [ $rc -eq 1 ] && ! grep -qE '^(ERROR|WARNING|CHECK):' "$scratch/cp.raw"; }; then
		die "$KTREE/scripts/checkpatch.pl could not run on ${1##*/} (exit $rc): $(cat "$scratch/err" "$scratch/cp.raw" | grep . | tail -n 1)"
	fi
	awk -v patch="$1" -v moved="$scratch/cp-moved" '
	BEGIN {
		# the removed lines, without blanks: a "+" line equal to one
		# of them without blanks is only re-indented
		while ((getline l < patch) > 0)
			if (l ~ /^-/ && l !~ /^---/) { l = substr(l, 2); gsub(/[ \t]/, "", l); gone[l] = 1 }
	}
	/^(ERROR|WARNING|CHECK):/ { flush(); head = $0; body = ""; next }
	head != "" { body = body $0 "\n"
		if ($0 ~ /^#[0-9]*: FILE: /) { where = $0; sub(/^#[0-9]*: FILE: /, "", where); sub(/:$/, "", where) }
		if ($0 ~ /^\+/) { code = substr($0, 2); gsub(/[ \t]/, "", code) } }
	function flush() {
		if (head == "") return
		split(head, t, ":")
		if ((t[2] == "WAITQUEUE_ACTIVE" || t[2] == "DATA_RACE") && (code in gone))
			print where " " t[2] >> moved
		else
			printf "%s\n%s", head, body
		head = ""; code = ""; where = ""
	}
	END { flush() }' "$scratch/cp.raw"
}

# add_headers PATCH TO CC: To: and Cc: lines after its headers' Subject:
add_headers()
{
	awk -v to="$2" -v cc="$3" '!done && /^$/ {
		if (to != "") print "To: " to
		if (cc != "") print "Cc: " cc
		done = 1 }
		{ print }' "$1" >"$1.new" && mv "$1.new" "$1"
}
# join: the lines on stdin, first occurrence each, as "a, b, c"
join() { awk '!s[$0]++' | paste -sd, - | sed 's/,/, /g'; }
