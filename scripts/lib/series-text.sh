# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# series-text.sh: the words of make series' changelogs, sourced by
# series.sh, whose settings they read when called (KTREE, TOP, scratch,
# plan, flag, mechanism, compile, version, spver, e2e_dir, e2e_head).
# maint and prefix read the tree's MAINTAINERS and git log for a
# unit's subject prefix; plural, wrap and items lay text out; facts reads
# the report's facts ($scratch/facts); e2e_fs reads make e2e's record;
# message writes a unit's commit message; prereq_why reads
# policy/prerequisites.tsv and patches/.  They write only to stdout.

# maint UNIT: "PREFIX<TAB>STATUS" from the MAINTAINERS section whose F:
# directory holds UNIT most closely: the prefix its name gives ("XFS
# FILESYSTEM": "xfs:"), when its first word is a component of UNIT's
# path, else UNIT's path below its top directory ("fs/smb/client":
# "smb: client:"); the section's S: ("Obsolete").
maint()
{
	local path=${1#*/}
	awk -v u="$1/" -v comps="/$path/" -v path="$path" '
	BEGIN { fresh = 1 }
	function done_section() {
		if (title != "" && score > best) { best = score; bt = title; bs = st }
		title = ""; st = ""; score = 0
	}
	/^$/ { done_section(); fresh = 1; next }
	fresh && !/^[A-Z]:\t/ { title = $0; fresh = 0; next }
	{ fresh = 0 }
	title != "" && /^S:\t/ { st = substr($0, 4) }
	title != "" && /^F:\t/ {
		p = substr($0, 4)
		if (p !~ /\/$/) p = p "/"
		if (index(u, p) == 1 && length(p) > score) score = length(p)
	}
	END {
		done_section()
		w = tolower(bt); sub(/[^a-z0-9_-].*/, "", w)
		if (w != "" && index(tolower(comps), "/" w "/"))
			pre = w ":"
		else {
			pre = path; gsub(/\//, ": ", pre); pre = pre ":"
		}
		print pre "\t" bs
	}' "$KTREE/MAINTAINERS" 2>/dev/null || printf '%s:\t\n' "${1##*/}"
}

# prefix UNIT: the subject prefix the unit's own history uses most
# ("xfs:"), else the one MAINTAINERS gives.
prefix()
{
	local p
	p=$(git log -n 100 --format=%s -- "$1" 2>/dev/null |
		sed -n 's/^\([A-Za-z0-9_./-]*\(: [A-Za-z0-9_./-]*\)\{0,1\}\): .*/\1/p' | sort | uniq -c |
		sort -rn | awk 'NR == 1 && $1 >= 3 { $1 = ""; sub(/^ /, ""); print $0 ":" }')
	[ -n "$p" ] || p=$(maint "$1" | cut -f1)
	echo "$p"
}

# plural N WORD: "1 patch", "2 patches"
plural()
{
	case $2 in
	*ch) [ "$1" -eq 1 ] && echo "$1 $2" || echo "$1 $2es" ;;
	*) [ "$1" -eq 1 ] && echo "$1 $2" || echo "$1 $2s" ;;
	esac
}

# wrap [INDENT]: the text on stdin as paragraphs of lines of at most 72
# columns, words kept whole; the lines after a paragraph's first indented
# by INDENT spaces (a list item's).
wrap()
{
	awk -v ind="${1:-0}" '
	function flush() {
		if (line != "") print line
		line = ""; n = 0
	}
	/^$/ { flush(); print ""; next }
	{
		for (i = 1; i <= NF; i++) {
			pad = n ? sprintf("%" ind "s", "") : ""
			if (line == "") { line = (n ? pad : "") $i; continue }
			if (length(line) + 1 + length($i) > 72) {
				print line; n++
				line = sprintf("%" ind "s", "") $i
			} else
				line = line " " $i
		}
	}
	END { flush() }' | awk 'NR == 1 || !(prev == "" && $0 == "") { print } { prev = $0 }'
}

# items [INDENT]: each line on stdin a list item, wrapped, the items apart
items() { while IFS= read -r l; do printf '%s\n' "$l" | wrap "${1:-2}"; done; }

# facts UNIT KIND: the report's facts of KIND on UNIT, one a line
# (autofreeze report -f changelog): "converted" or "kept", its uses of
# that verdict, one line a group of uses with the same reason ("- FILE:
# LINE,... (API, ...), REASON. Quiesced: EVIDENCE."); "note", the
# reviewed notes on its conversion; "count", how many freezer uses it has
facts()
{
	awk -F'\t' -v u="$1" -v k="$2" '$1 == u && $2 == k {
		sub(/^[^\t]*\t[^\t]*\t/, ""); print }' "$scratch/facts"
}

# e2e_fs NAME: what make e2e saw of filesystem NAME in the converted
# kernel's runs, as a sentence; nothing where it did not run NAME
e2e_fs()
{
	[ -n "$e2e_head" ] || return 0
	cat "$e2e_dir"/patched/*.check.txt 2>/dev/null | awk -v fs="$1" '
	$1 == "ok" && index($0, ": " fs " (vd") && / 0 while frozen/ { n++ }
	$1 == "ok" && $0 ~ ("^ok verify " fs ": ") { v++ }
	END {
		if (n) printf "%d freeze/thaw cycles with writers running and no request to its disk while frozen", n
		if (n && v) printf ", its files read back intact after the runs"
	}'
}

# message UNIT TYPES FILES...: the commit message of UNIT's conversion
message()
{
	local u=$1 types=$2 fig risks
	shift 2
	if [ -z "$(facts "$u" converted)" ]; then
		# a flag alone: nothing of the unit's is on the kthread freezer
		echo "$(prefix "$u") freeze the filesystem on suspend with $flag"
		echo
		{ printf 'Filesystems whose file_system_type carries %s are %s. ' "$flag" "$mechanism"
		  printf '%s has no kernel thread or workqueue on the kthread freezer, and is freeze-capable (%s): ' \
			"$u" "$(plan_lines "$plan" unit 4 "$u" | sed 's/^eligible: //')"
		  printf 'set %s on %s, so that it is frozen on suspend as the other converted block filesystems are.\n' \
			"$flag" "${types//,/, }"; } | wrap
	else
		echo "$(prefix "$u") replace kthread freezing with filesystem freezing on suspend"
		echo
		{ printf 'Filesystems whose file_system_type carries %s are %s. ' "$flag" "$mechanism"
		  printf 'That freeze stops the filesystem at a defined point, where the kthread freezer stopped each thread wherever it called try_to_freeze(). '
		  printf 'Set %s on %s, and take the kernel threads and workqueues of %s off the kthread freezer: ' \
			"$flag" "${types//,/, }" "$u"
		  printf 'the filesystem is frozen before the tasks are, and its freeze quiesces their work.\n'; } | wrap
		echo
		echo "The freezer uses removed, and what the freeze does to their work:"
		echo
		facts "$u" converted | items 2
	fi
	if [ -n "$(facts "$u" kept)" ]; then
		echo
		echo "Kept, and why:"
		echo
		facts "$u" kept | items 2
	fi
	risks=$(facts "$u" note)
	if [ -n "$risks" ]; then
		echo
		echo "Risks:"
		echo
		sed 's/^/- /' <<<"$risks" | items 2
	fi
	echo
	{ printf 'Generated by autofreeze %s with Coccinelle %s: ' "$version" "${spver:-?}"
	  printf 'its SmPL rules kthread_freezer.cocci, wq_freezable.cocci and fs_autofreeze.cocci (see the cover letter) '
	  printf 'made the change on the files of %s ("make apply DIR=%s"), given the unit'"'"'s thread functions by its helper; ' "$u" "$u"
	  printf 'the text above is generated from its report, with the evidence of its reviewed judgments.\n'; } | wrap
	echo
	{ printf 'Tested: '
	  if [ "$compile" = 1 ]; then
		printf 'every object this patch touches compiles with allmodconfig (at the head of the series), without a new warning; '
	  fi
	  printf 'make check-tree finds no freezer use left in kernel-thread context of %s' "$u"
	  fig=$(e2e_fs "${u##*/}")
	  if [ -n "$fig" ]; then
		printf '; under qemu, with this series on %s (make e2e), %s went through %s.\n' "$e2e_head" "${u##*/}" "$fig"
	  else
		printf '.\n'
	  fi; } | wrap
}

# prereq_why SUBJECT: what the tree's freeze lacks without the
# prerequisite whose patch has SUBJECT (policy/prerequisites.tsv: its
# third column the patch, its fifth the reason); nothing for a patch of
# the series that no prerequisite names
prereq_why()
{
	local name patch why subj
	while IFS=$'\t' read -r _ name patch _ why; do
		case $name in '#'* | '') continue ;; esac
		subj=$(awk '/^Subject: / { s = $0; while ((getline l) > 0 && l ~ /^[ \t]/) s = s l; print s; exit }' \
			"$TOP/patches/$patch" 2>/dev/null | sed 's/^Subject: *\(\[[^]]*\] *\)\{0,1\}//; s/[ \t][ \t]*/ /g')
		[ "$subj" != "$1" ] || { printf '%s\n' "$why"; return; }
	done < <(grep -v '^#' "$TOP/policy/prerequisites.tsv")
}
