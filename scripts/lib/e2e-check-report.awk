# SPDX-License-Identifier: GPL-2.0
#
# e2e-check-report.awk: the reading of a guest's report, the first part
# of e2e-check.sh's awk program (with e2e-check-trace.awk and
# e2e-check-verdict.awk, in that order: this part has every rule but
# END, and their order matters).  It reads the report on standard input
# (its carriage returns taken out) into arrays: the guest's "e2e:"
# lines, its kernel log (freezes and thaws the series logs, splats), and
# the trace, which trace_line reads.  It writes nothing.

# "[    1.234] xfs (vdb): freezing" -> "xfs (vdb): freezing"
function strip_time(s) {
	sub(/^\[[ 0-9.]*\] /, "", s)
	return s
}
# Lists of filesystems are strings, "btrfs (vdc), xfs (vdb)".
function append(list, item) {
	return list (list == "" ? "" : ", ") item
}
function join(a, n, reverse,    s, i) {
	s = ""
	for (i = 1; i <= n; i++)
		s = append(s, a[reverse ? n + 1 - i : i])
	return s
}
# list without the entries that start with prefix
function drop(list, prefix,    n, a, i, s) {
	n = split(list, a, ", ")
	s = ""
	for (i = 1; i <= n; i++)
		if (index(a[i], prefix) != 1)
			s = append(s, a[i])
	return s
}
# Splats, hung tasks and failed freezes, wherever they show.
function splat(line) {
	return line ~ /[Uu]nable to freeze/ ||
	       line ~ /Freezing of tasks failed/ ||
	       line ~ /Freezing filesystems failed/ ||
	       line ~ /blocked for more than [0-9]+ seconds/ ||
	       line ~ /WARNING: / || line ~ /BUG: / || line ~ /Oops/ ||
	       line ~ /Call Trace:/ || line ~ /Kernel panic/ ||
	       line ~ /general protection fault/ ||
	       line ~ /possible circular locking/ ||
	       line ~ /suspend debug: .* failed/
}

# A freeze or thaw seen in cycle cur: what is "freezing" or "thawing",
# src "log" (the kernel log lines of the series) or "trace" (->freeze_fs, ->unfreeze_fs).
function saw(fs, what, src) {
	if (cur == "")
		return
	if (what == "freezing")
		frz[src, cur] = append(frz[src, cur], fs)
	else if (what == "thawing")
		thw[src, cur] = append(thw[src, cur], fs)
	if (src == "log")
		logged = 1
}
# The first "Call Trace:" after a warning that is not a splat of its own
# belongs to that warning.
function add_splat(line, where) {
	if (line in dsplat)
		return
	dsplat[line] = 1
	if (line ~ /^WARNING: .* at thaw_super_locked\+/) {
		thaw_warn = line
		own_trace = 1
		return
	}
	if (own_trace && line ~ /Call Trace:/) {
		own_trace = 0
		return
	}
	nsplat++
	if (nsplat <= 5)
		splats[nsplat] = where ": " line
}

BEGIN { in_dmesg = 0; in_trace = 0; nmount = 0; ncycle = 0; nwin = 0 }

/^e2e: dmesg begin$/ { in_dmesg = 1; have_dmesg = 1; next }
/^e2e: dmesg end$/ { in_dmesg = 0; cur = ""; next }
/^e2e: trace begin$/ { in_trace = 1; have_trace = 1; next }
/^e2e: trace end$/ { in_trace = 0; cur = ""; next }

# A line of the trace: e2e-check-trace.awk.
in_trace {
	trace_line()
	next
}

in_dmesg {
	line = strip_time($0)
	if (splat(line))
		add_splat(line, "kernel log")
	if (line ~ /^e2e-mark: cycle [0-9]+ [a-z]+ begin$/) {
		split(line, w, " ")
		cur = w[3]
		next
	}
	if (line ~ /^e2e-mark: cycle [0-9]+ [a-z]+ end$/) {
		cur = ""
		next
	}
	if (line ~ /: freeze for system sleep failed: -?[0-9]+$/) {
		sleep_fail = line
		next
	}
	if (match(line, /^[a-z0-9_]+ \([^)]*\): /))
		saw(substr(line, 1, RLENGTH - 2), substr(line, RLENGTH + 1), "log")
	next
}

!/^e2e: / { next }
{ sub(/^e2e: /, "") }

/^begin / { begun = 1; kernel = $2 }
/^mode / { mode = $2 }
/^end$/ { ended = 1 }
/^error / { errors[++nerror] = $0 }
/^mount / { mounted[++nmount] = $3 " (" $4 ")"; mtype[nmount] = $3; dev_of[$3] = $4 }
# unflagged TYPE: mounted, but not flagged on this version: not frozen
/^unflagged / { unflagged[$2] = 1 }
# victim TYPE DEV MAJ:MIN: the filesystem whose freeze is made to fail
/^victim / { victim = $2 " (" $3 ")" }
# disk TYPE DEV MAJ:MIN, as block_rq_issue names it: MAJ,MIN
/^disk / { d = $4; sub(/:/, ",", d); devfs[d] = $2 }
/^kprobes / { kprobes = 1 }
/^freeze_filesystems / { knob[++nknob] = $2 }
/^tracepoint_printk 1$/ { printed = 1 }
/^cycle / {
	k = $2
	cycles[++ncycle] = k
	level[k] = $3
	rc[k] = $4
	user[k] = (user_frozen != "")
}
/^progress / {
	# progress K before fs=N ... after fs=N ...
	k = $2
	for (i = 3; i <= NF; i++) {
		if ($i == "before" || $i == "after") {
			side = $i
			continue
		}
		split($i, kv, "=")
		prog_seen[k] = 1
		if (side == "before")
			pb[k, kv[1]] = kv[2]
		else
			pa[k, kv[1]] = kv[2]
	}
}
/^writer / {
	split($3, a, "="); split($4, b, "=")
	wfiles[$2] = a[2]; werr[$2] = b[2]
}
/^verify / {
	split($3, a, "="); split($4, b, "=")
	vfiles[$2] = a[2]; vbad[$2] = b[2]
}
/^user-frozen / { user_frozen = $2 }
/^user-thawed / { user_thawed = $2 }
/^probe / { probe[$2] = $3 }
/^probe-after-thaw / { after_thaw[$2] = $3 }
