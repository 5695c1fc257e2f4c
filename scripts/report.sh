#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# report.sh: account for every freezer use in DIR of KTREE, unit by
# unit: the unit's eligibility and FS_AUTOFREEZE decision, then each use
# the helper's scan finds, marked converted, kept (with the reason) or
# manual.  The statuses come from the rules' own report mode, run by
# convert.sh (REPORT=1) with the thread functions the helper found; the
# tree is only read.
#
# usage: report.sh KTREE DIR      (environment: FORCE=1, J=N, FORMAT=json)

set -eu
prog=report.sh
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$TOP/scripts/ktree.sh"
[ $# -eq 2 ] || { echo "usage: $prog KTREE DIR" >&2; exit 2; }
ktree_check "$1" "$2"
J=${J:-$(nproc)}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/autofreeze.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

REPORT=1 prog=$prog "$TOP/scripts/convert.sh" "$KTREE" "$DIR" "$scratch"

(cd "$KTREE" && "$AF" scan -j "$J" "$DIR") >"$scratch/scan"

awk -F'\t' -v format="${FORMAT:-text}" -v rules="$scratch/rules" \
    -v unparsed="$scratch/unparsed" \
    -v scan="$scratch/scan" -v flags="$scratch/flags" '
function jstr(s) {
	gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, "\\t", s)
	return "\"" s "\""
}
# the unit of a path: the longest unit that prefixes it
function unit_of(path,   u, best) {
	best = ""
	for (u in status)
		if (index(path, u "/") == 1 && length(u) > length(best))
			best = u
	return best == "" ? "fs" : best
}
BEGIN {
	# plan: unit lines
	while ((getline line < ARGV[1]) > 0) {
		split(line, f, "\t")
		if (f[1] == "unit") {
			order[++nunits] = f[2]; status[f[2]] = f[3]; reason[f[2]] = f[4]
		} else if (f[1] == "file") {
			converted[f[2]] = 1
		}
	}
	ARGV[1] = ""
	while ((getline line < flags) > 0) {
		split(line, f, "\t")
		flag[f[2]] = (f[1] == "flag" ? "FS_AUTOFREEZE: " f[3] : "no FS_AUTOFREEZE: " f[3])
	}
	while ((getline line < unparsed) > 0) {
		split(line, f, ":"); bad[f[1] ":" f[2]] = 1
	}
	# rules: "FILE:LINE:COLS: message"
	while ((getline line < rules) > 0) {
		n = split(line, f, ":")
		if (n < 4) continue
		key = f[1] ":" f[2]
		msg = line; sub(/^[^:]*:[^:]*:[^:]*: /, "", msg)
		rmsg[key] = (key in rmsg) ? rmsg[key] "\n" msg : msg
	}
	# scan: "FILE:LINE:COL: API CONTEXT FUNCTION"
	while ((getline line < scan) > 0) {
		split(line, w, " ")
		split(w[1], p, ":")
		file = p[1]; lno = p[2]; col = p[3]
		api = w[2]; ctx = w[3]; fn = w[4]
		u = unit_of(file)
		st = ""; why = ""
		if (!(u in converted)) {
			st = "kept"
			why = (u in reason) ? "unit not converted: " reason[u] : "outside the units converted"
		} else if ((file ":" lno) in bad) {
			st = "manual"
			why = "spatch cannot parse the code around it; the rules never saw it"
		} else {
			m = rmsg[file ":" lno]
			nm = split(m, ms, "\n")
			for (i = 1; i <= nm; i++)
				if (index(ms[i], api) || ms[i] ~ /^freezable workqueue/) { m = ms[i]; break }
			if (nm == 0 || i > nm) m = (nm ? ms[1] : "")
			if (m ~ /: convert, / || m ~ /: drop the freezable flag/) {
				st = "converted"; why = m
				sub(/^[A-Za-z_]+ in /, "in ", why)
				sub(/^freezable workqueue or worker in /, "workqueue flag in ", why)
				sub(/: (convert, the VFS freezes the filesystem|drop the freezable flag)$/, "", why)
			} else if (m ~ /^manual: /) {
				st = "manual"; why = substr(m, 9)
			} else if (m ~ /^kept: /) {
				st = "kept"; why = substr(m, 7)
			} else if (ctx == "macro") {
				st = "kept"; why = api " in a macro definition"
			} else if (ctx == "unknown") {
				st = "kept"; why = api " outside a function"
			} else if (ctx == "kthread") {
				st = "manual"; why = api " in kernel thread " fn "(): no rule converts this form"
			} else {
				st = "kept"; why = api " in " fn "(): not a kernel thread"
			}
		}
		nuse[u]++
		use[u, nuse[u]] = file ":" lno ":" col ": " api ": " st ": " why
		juse[u, nuse[u]] = "{\"file\":" jstr(file) ",\"line\":" lno ",\"col\":" col \
			",\"api\":" jstr(api) ",\"context\":" jstr(ctx) ",\"function\":" \
			(fn == "-" ? "null" : jstr(fn)) ",\"status\":" jstr(st) ",\"reason\":" jstr(why) "}"
		count[st]++
	}
	if (format == "json") {
		printf "{\"units\":["
		for (k = 1; k <= nunits; k++) {
			u = order[k]
			printf "%s{\"unit\":%s,\"status\":%s,\"reason\":%s,\"converted\":%s,\"fs_autofreeze\":%s,\"uses\":[", \
				(k > 1 ? "," : ""), jstr(u), jstr(status[u]), jstr(reason[u]), \
				((u in converted) ? "true" : "false"), ((u in flag) ? jstr(flag[u]) : "null")
			for (i = 1; i <= nuse[u]; i++)
				printf "%s%s", (i > 1 ? "," : ""), juse[u, i]
			printf "]}"
		}
		printf "],\"totals\":{\"converted\":%d,\"kept\":%d,\"manual\":%d}}\n", \
			count["converted"], count["kept"], count["manual"]
		exit
	}
	for (k = 1; k <= nunits; k++) {
		u = order[k]
		if (!nuse[u] && !(u in flag) && status[u] != "eligible")
			continue
		print u ": " reason[u]
		if (u in flag) print "\t" flag[u]
		for (i = 1; i <= nuse[u]; i++)
			print "\t" use[u, i]
	}
	printf "%d converted, %d kept, %d manual\n", count["converted"], count["kept"], count["manual"]
}' "$scratch/plan"
