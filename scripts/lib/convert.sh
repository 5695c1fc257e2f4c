#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# convert.sh: convert the units of DIR in KTREE into a scratch directory,
# the way make diff and make apply need it.  The helper's plan says
# which units to convert, their candidate files, thread functions and
# freeze-capable file_system_types; spatch runs in parallel through the
# helper; KTREE is only read.
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
. "$TOP/scripts/lib/plan.sh"

[ $# -eq 3 ] || { echo "usage: $prog KTREE DIR OUT" >&2; exit 2; }
# A step that breaks (a full disk in TMPDIR, say) ends the run in one
# line of ours, exit 2: the drivers' exit 1 means findings or a refusal.
# The conversion is made in OUT alone: the tree was only read.
trap 'echo "$prog: ${DIR:-$2}: a step of the conversion failed (above); the tree was only read" >&2; exit 2' ERR
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
"$AF" plan $force ${JUDGMENTS:+--judgments "$JUDGMENTS"} "$KTREE" "$DIR" \
	>"$out/plan" 2>"$out/plan.err" || rc=$?
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
if [ "${REPORT:-full}${CHECK:-}" = full ]; then
	case $optin in
	tree) ;;
	series)
		if [ "$flag" = FS_AUTOFREEZE ]; then
			echo "$prog: $KTREE does not define $flag yet: run make vfs KTREE=$KTREE first, which applies $(plan_optin "$out/plan" 5) (nothing changed)" >&2
		else
			echo "$prog: $KTREE: its suspend freeze lacks what a conversion needs: run make vfs KTREE=$KTREE first, which applies $(plan_optin "$out/plan" 5) (nothing changed; autofreeze prereqs KTREE says what is missing)" >&2
		fi
		exit 2 ;;
	partial)
		# make vfs adds the rest: the missing patches, no others.
		echo "$prog: $KTREE has only part of what a conversion needs from its suspend freeze: $(plan_optin "$out/plan" 6 | sed 's/.*from it: //') (nothing changed; make vfs KTREE=$KTREE applies the missing patches, from $(plan_optin "$out/plan" 5))" >&2
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

# The result cache: a rule run's logs, and in patch modes the files it
# wrote, under a key made of everything the run reads: which spatch,
# the rule's text, the options, the arguments and the content of every
# file.  A second run on an unchanged tree starts no spatch.
# $AUTOFREEZE_CACHE (default ~/.cache/autofreeze), "none" for no cache.
# The cache is an optimisation: one that cannot be written (read-only,
# full) is no cache, and an entry that is not whole and as it was
# written (its sums, each member the runner's index names) is dropped,
# with a line on stderr, and the run goes on uncached.
cache=${AUTOFREEZE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/autofreeze}
[ "$cache" = none ] || cache=$cache/spatch
cache_key=
cache_damaged=

# cache_get LOG IN MODE RULE OPTS... -- ARGS... ::: FILES...: fill LOG
# (and in patch modes the files in IN) from the cache, or return 1 with
# the key in $cache_key for cache_put.
cache_get()
{
	local log=$1 in=$2 mode=$3 rule=$4 a files=() seen= e
	shift 4
	cache_key=
	[ "$cache" != none ] || return 1
	for a; do
		[ -z "$seen" ] || files+=("$a")
		[ "$a" != ::: ] || seen=1
	done
	# "sums": entries of this layout only
	cache_key=$({ printf '%s\0' sums "$SPATCH_ID" "$mode" "$rule" "$@"
		sha256sum <"$TOP/cocci/$rule.cocci"
		(cd "$in" && sha256sum -- "${files[@]}"); } | sha256sum)
	cache_key=${cache_key%% *}
	e=$cache/$cache_key
	[ -e "$e" ] || [ -L "$e" ] || return 1
	cache_damaged=
	if ! cache_unpack "$e" "$log" "$in" "$mode"; then
		[ -n "$cache_damaged" ] || return 1
		rm -rf "$e" 2>/dev/null
		if [ -e "$e" ] || [ -L "$e" ]; then
			echo "$prog: warning: $e: a damaged entry of the spatch cache, which cannot be removed: running spatch" >&2
		else
			echo "$prog: warning: $e: a damaged entry of the spatch cache ($cache_damaged): dropped it, running spatch" >&2
		fi
		return 1
	fi
	touch "$e" 2>/dev/null || true
}

# cache_sums ENTRY MODE: the sums an entry of MODE carries, of its
# archives.
cache_sums()
{
	case $2 in
	patch | both) (cd "$1" && sha256sum -- log.tar files.tar) ;;
	*) (cd "$1" && sha256sum -- log.tar) ;;
	esac
}

# cache_unpack ENTRY LOG IN MODE: ENTRY's log into LOG and its files
# over IN's, only when it is whole: unpacked aside in OUT, checked, then
# renamed into place.  A damaged entry sets cache_damaged (why).
cache_unpack()
{
	local e=$1 log=$2 in=$3 mode=$4 tmp n f rest ok=1
	local names=() run=()
	# another user's entry (mktemp -d made it 0700) is no entry here
	if [ -d "$e" ] && [ ! -L "$e" ] &&
	   { [ ! -r "$e" ] || [ ! -x "$e" ] || { [ -e "$e/sums" ] && [ ! -r "$e/sums" ]; }; }; then
		return 1
	fi
	if [ -L "$e" ] || [ ! -d "$e" ] || [ ! -f "$e/sums" ] ||
	   ! cache_sums "$e" "$mode" 2>/dev/null | cmp -s - "$e/sums"; then
		cache_damaged="its sums do not match"
		return 1
	fi
	tmp=$(mktemp -d "$out/cache.XXXXXX") || return 1
	mkdir "$tmp/log" "$tmp/files" &&
	tar -C "$tmp/log" -xf "$e/log.tar" 2>/dev/null &&
	case $mode in
	patch | both) tar -C "$tmp/files" -xf "$e/files.tar" 2>/dev/null ;;
	esac || { rm -rf "$tmp"; return 1; }	# the sums hold: TMPDIR
	if [ -f "$tmp/log/index" ]; then
		while IFS=$'\t' read -r n _ rest; do
			[ -f "$tmp/log/$n.out" ] && [ -f "$tmp/log/$n.err" ] || ok=
			case $mode in
			patch | both) IFS=$'\t' read -r -a run <<<"$rest"
				names+=("${run[@]}") ;;
			esac
		done <"$tmp/log/index"
	else
		ok=
	fi
	for f in "${names[@]}"; do
		[ -f "$tmp/files/$f" ] || ok=
	done
	if [ -z "$ok" ]; then
		rm -rf "$tmp"
		cache_damaged="a member is missing"
		return 1
	fi
	rm -rf "$log" && mv -T "$tmp/log" "$log" || { rm -rf "$tmp"; return 1; }
	for f in "${names[@]}"; do
		mv -f "$tmp/files/$f" "$in/$f"
	done
	rm -rf "$tmp"
}

# cache_put LOG IN MODE: keep a successful run under $cache_key; a
# cache that cannot be written is no cache, not an error.  Entries not
# used for 30 days go.
cache_put()
{
	local log=$1 in=$2 mode=$3 tmp files=()
	[ -n "$cache_key" ] && [ ! -d "$cache/$cache_key" ] || return 0
	mkdir -p "$cache" 2>/dev/null || return 0
	tmp=$(mktemp -d "$cache/.new.XXXXXX" 2>/dev/null) || return 0
	if tar -C "$log" -cf "$tmp/log.tar" . 2>/dev/null &&
		if [ "$mode" = patch ] || [ "$mode" = both ]; then
			# the files of the run, from the runner's index
			mapfile -t files < <(cut -f3- "$log/index" | tr '\t' '\n')
			tar -C "$in" -cf "$tmp/files.tar" -- "${files[@]}" 2>/dev/null
		fi &&
		cache_sums "$tmp" "$mode" >"$tmp/sums" 2>/dev/null &&
		mv -T "$tmp" "$cache/$cache_key" 2>/dev/null; then
		find "$cache" -mindepth 1 -maxdepth 1 -mtime +30 -exec rm -rf {} + 2>/dev/null || true
	else
		rm -rf "$tmp"
	fi
	return 0
}

# run_rule MODE RULE LOG [-D name=value]... ::: FILE...: spatch in J
# processes through the helper's runner, each process's messages, parse
# errors among them (--verbose-parsing), in LOG/*.err.  MODE
#   patch   converts b/ in place (paths relative to b/);
#   both    converts b/ and appends the rule's report-mode messages to
#           OUT/rules: for the first rule, while b/ is still a/;
#   report  appends the report-mode messages on the untouched a/;
#   check   likewise, with the parse errors, for "unparsed".
# --no-show-diff: spatch does not print, and so does not parse again,
# the file it wrote.
run_rule()
{
	local mode=$1 rule=$2 log=$3 why in=$out/b
	local opts=(--no-includes --include-headers --no-show-diff)
	shift 3
	case $mode in
	patch)	opts+=(--quiet --verbose-parsing -D patch --in-place) ;;
	both)	opts+=(--quiet --verbose-parsing -D patch -D report --in-place) ;;
	report)	opts+=(--very-quiet -D report); in=$out/a ;;
	check)	opts+=(--quiet --verbose-parsing -D report); in=$out/a ;;
	esac
	if cache_get "$log" "$in" "$mode" "$rule" "${opts[@]}" -- "$@"; then
		:
	elif ! (cd "$in" && "$AF" spatch -G -j "$J" -o "$log" -- "${opts[@]}" \
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
	cache_put "$log" "$in" "$mode"
	[ "$mode" = patch ] || cat "$log"/*.out >>"$out/rules"
}

wqnames=$("$AF" apis --wq | paste -sd'|' -)

# The thread functions of all units go to one spatch run, unless a name
# that is a thread in one unit is an ordinary function with freezer uses
# in another: then each unit runs with its own.
mapfile -t allfiles < <(plan_lines "$out/plan.spatch" file 3)
(cd "$out/b" && "$AF" scan "${allfiles[@]}") >"$out/scan-before"
collide=$("$AF" runs "$out/plan.spatch" "$out/scan-before")

# rule_units MODE [UNIT]: the removal rules over the files of UNIT, or
# of every unit in one run.  MODE patch converts b/, and with REPORT=1
# gives the rules' messages on the original code too: kthread_freezer's
# from its patch run (it runs first, on b/ as a/ is), wq_freezable's
# from a report run on a/.  MODE check: the messages on a/ alone.
rule_units()
{
	local mode=$1 u=${2-} plan=$out/plan.spatch defs files keeps renamed
	local kmode=$mode tag=${2:+-${2//\//-}} wqfiles
	mapfile -t files < <(rule_files task "$u")
	mapfile -t wqfiles < <(rule_files wq "$u")
	# the files renamed out of their units while spatch runs are the
	# rules' to edit too (-D units=)
	renamed=$(cut -f2 "$out/renames" | paste -sd, -)
	mapfile -t defs < <(plan_rule_defs "$plan" kthread_freezer "$u" |
		sed "1,2s/^units=.*/&${renamed:+,$renamed}/")
	mapfile -t keeps < <(plan_rule_defs "$plan" wq_freezable "$u" |
		sed "1,2s/^units=.*/&${renamed:+,$renamed}/")
	[ "$mode" != patch ] || [ -z "${REPORT:-}" ] || kmode=both
	[ ${#files[@]} -eq 0 ] ||
		run_rule "$kmode" kthread_freezer "$out/log-kthread$tag" "${defs[@]}" ::: "${files[@]}"
	[ ${#wqfiles[@]} -gt 0 ] || return 0
	run_rule "$mode" wq_freezable "$out/log-wq$tag" "${keeps[@]}" ::: "${wqfiles[@]}"
	[ "$kmode" != both ] ||
		run_rule report wq_freezable "$out/log-wq-report$tag" "${keeps[@]}" ::: "${wqfiles[@]}"
}

# rule_files task|wq [UNIT]: the files of UNIT (of every unit) that the
# removal rule of that class has something to look at in: a use of a
# workqueue name (wq_freezable) or of any other freezer name
# (kthread_freezer), as scan-before has them.  spatch parses a file
# whatever its tokens, and a big one takes it most of a second.  The
# freezable macros a unit renames to their twins are not API names:
# kthread_freezer sees every file of a unit that has twins.
rule_files()
{
	plan_lines "$out/plan.spatch" file 3 "${2-}" |
	awk -v class="$1" -v wq="^($wqnames)\$" -v twins="$(plan_lines "$out/plan.spatch" twin 2 | sort -u | paste -sd' ' -)" '
	FILENAME == ARGV[1] {
		f = $1; sub(/:[0-9]+:[0-9]+:$/, "", f)
		if (($2 ~ wq) == (class == "wq"))
			has[f] = 1
		next
	}
	BEGIN { n = split(twins, t, " "); for (i = 1; i <= n; i++) tw[t[i]] = 1 }
	{
		u = ""
		for (k in tw)
			if (index($0, k "/") == 1)
				u = k
		if ($0 in has || (class == "task" && u != ""))
			print
	}' "$out/scan-before" -
}

# parse_logs: the logs of the removal rules' runs that have the parse
# errors (--verbose-parsing: not the report runs of wq_freezable), one
# a line.  Each rule sees only the files with a use of its kind, so the
# two together have been told of every file.  Names made by OUT alone.
parse_logs()
{
	local f
	for f in "$out"/log-kthread*/*.err "$out"/log-wq*/*.err; do
		case $f in
		"$out"/log-wq-report*) ;;
		*) [ ! -e "$f" ] || printf '%s\n' "$f" ;;
		esac
	done
}

# rule_pass MODE: all units in one run, or one run per unit when a
# thread name collides.
rule_pass()
{
	local u
	if [ -z "$collide" ]; then
		rule_units "$1"
		return
	fi
	for u in "${units[@]}"; do
		[ "$1" != patch ] || progress "$u: $(plan_lines "$out/plan.spatch" file 3 "$u" | wc -l) files"
		rule_units "$1" "$u"
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
		mapfile -t plogs < <(parse_logs)
		"$AF" unparsed "$out/plan.spatch" "$out/scan-before" \
			"${plogs[@]}" >"$out/unparsed"
	fi
	unrename
	exit 0
fi
rule_pass patch
# Freezer uses inside code spatch could not parse: the rules never saw
# them.  Listed in "unparsed" as FILE:LINE: API; apply refuses.
mapfile -t plogs < <(parse_logs)
"$AF" unparsed "$out/plan.spatch" "$out/scan-before" \
	"${plogs[@]}" >"$out/unparsed"

# The opt-in flag: on an eligible unit's freeze-capable types, once
# nothing is left in kthread context: the helper decides ("flags"), the
# fs_autofreeze rule writes.  All or nothing: a unit that gets no flag
# is put back as it was ("noflag"), unless FORCE=1 ("forced").
(cd "$out/b" && "$AF" scan "${allfiles[@]}") >"$out/scan-after"
"$AF" flags "$out/plan.spatch" "$out/scan-after" >"$out/flags"
# The report reads the verdicts, not b/: it needs no flag written.
if [ -n "${REPORT:-}" ] && [ "$REPORT" != full ]; then
	unrename
	exit 0
fi

# One run a unit, since a type's name says nothing of its unit (ext4
# has an ext2_fs_type too); J of them at a time.
pids=()
# flag_wait PID: a failed run stops the others, and so does this one
flag_wait()
{
	local rc=0
	wait "$1" || rc=$?
	[ $rc -ne 0 ] || return 0
	kill "${pids[@]}" 2>/dev/null || true
	wait
	exit $rc
}
while IFS=$'\t' read -r verdict u types; do
	[ "$verdict" = flag ] || continue
	mapfile -t tfiles < <(plan_lines "$out/plan.spatch" fstype 4 "$u" | sort -u)
	run_rule patch fs_autofreeze "$out/log-flag-${u//\//-}" -D "fs_types=$types" -D "flag=$flag" ::: "${tfiles[@]}" &
	pids+=($!)
	[ ${#pids[@]} -ge "$J" ] || continue
	flag_wait "${pids[0]}"
	pids=("${pids[@]:1}")
done <"$out/flags"
for pid in "${pids[@]}"; do
	flag_wait "$pid"
done

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
