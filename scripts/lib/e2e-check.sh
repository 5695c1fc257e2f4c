#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# e2e-check.sh: decide whether an e2e guest run passed, from what the
# guest reported (tests/e2e/guest-init.sh) and the serial console.
#
#   e2e-check.sh REPORT [CONSOLE]
#
# REPORT is the guest's "e2e:" lines with its kernel log between
# "e2e: dmesg begin" and "e2e: dmesg end", and, where the guest watched
# ->freeze_fs and ->unfreeze_fs with kprobe events (a kernel whose suspend
# freeze prints nothing, as mainline's), the trace between "e2e: trace
# begin" and "e2e: trace end"; CONSOLE, when given, is also searched for
# splats (it has what a guest that never finished printed).
#
# Prints one line per check, "ok <check>" or "FAIL [<class>] <check>:
# <what was seen>", then a summary line.  The classes:
#   fs-freeze  the kernel's "<type> (<id>): freezing"/"thawing" lines, or
#              the traced returns of each type's ->freeze_fs and
#              ->unfreeze_fs, are missing or in the wrong order (all an
#              unpatched kernel gets wrong, which is what the control run
#              relies on), or suspend's thaw met a filesystem its
#              freeze had passed over (mainline's filesystems_thaw() warns
#              in thaw_super_locked() for a user-frozen filesystem that
#              does not carry the flag)
#   suspend    a suspend cycle failed, a ->freeze_fs or ->unfreeze_fs
#              returned an error, or the kernel logged a splat
#   data       writers stopped, or data read back wrong
#   user       a filesystem frozen by the user was thawed by suspend,
#              or another one was left frozen
#   guest      the guest did not run the scenario to its end, or ran it
#              with /sys/power/freeze_filesystems set (which freezes every
#              filesystem, flagged or not)
#
# Exit status: 0 every check passed, 1 some check failed, 2 bad input.

set -eu
prog=e2e-check.sh

usage()
{
	echo "usage: $prog REPORT [CONSOLE]" >&2
	exit 2
}

[ $# -ge 1 ] && [ $# -le 2 ] || usage
report=$1
console=${2:-}
[ -f "$report" ] || { echo "$prog: $report: no such file" >&2; exit 2; }
[ -z "$console" ] || [ -f "$console" ] ||
	{ echo "$prog: $console: no such file" >&2; exit 2; }

# Serial output may carry carriage returns.
tr -d '\r' < "$report" | awk -v console="$console" '
function fail(class, what) {
	printf "FAIL [%s] %s\n", class, what
	nfail++
}
function ok(what) {
	printf "ok %s\n", what
	nok++
}
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

# A freeze or thaw seen in cycle cur: what is "freezing" or "thawing".
function saw(fs, what) {
	if (cur == "")
		return
	if (what == "freezing")
		frz[cur] = append(frz[cur], fs)
	else if (what == "thawing")
		thw[cur] = append(thw[cur], fs)
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

BEGIN { in_dmesg = 0; in_trace = 0; nmount = 0; ncycle = 0 }

/^e2e: dmesg begin$/ { in_dmesg = 1; have_dmesg = 1; next }
/^e2e: dmesg end$/ { in_dmesg = 0; cur = ""; next }
/^e2e: trace begin$/ { in_trace = 1; have_trace = 1; next }
/^e2e: trace end$/ { in_trace = 0; cur = ""; next }

# "<task>-<pid> [cpu] flags time: tracing_mark_write: e2e-mark: ..." and
# "... time: freeze_xfs: (freeze_super+0x../0x.. <- xfs_fs_freeze) ret=0"
in_trace {
	if (match($0, /: tracing_mark_write: e2e-mark: cycle [0-9]+ [a-z]+ (begin|end)$/)) {
		n = split(substr($0, RSTART), w, " ")
		cur = (w[n] == "begin") ? w[5] : ""
		next
	}
	if (!match($0, /: (freeze|thaw)_[a-z0-9]+: \(/))
		next
	ev = substr($0, RSTART + 2, RLENGTH - 5)
	op = substr(ev, 1, index(ev, "_") - 1)
	fs = substr(ev, index(ev, "_") + 1)
	fs = fs " (" (fs in dev_of ? dev_of[fs] : "?") ")"
	ret = $0
	sub(/.* ret=/, "", ret)
	if (ret != "0") {
		add_splat(fs ": ->" (op == "freeze" ? "freeze_fs" : "unfreeze_fs") " returned " ret, "trace")
		next
	}
	saw(fs, op == "freeze" ? "freezing" : "thawing")
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
	if (match(line, /^[a-z0-9_]+ \([^)]*\): /))
		saw(substr(line, 1, RLENGTH - 2), substr(line, RLENGTH + 1))
	next
}

!/^e2e: / { next }
{ sub(/^e2e: /, "") }

/^begin / { begun = 1; kernel = $2 }
/^end$/ { ended = 1 }
/^error / { errors[++nerror] = $0 }
/^mount / { mounted[++nmount] = $3 " (" $4 ")"; mtype[nmount] = $3; dev_of[$3] = $4 }
/^kprobes / { kprobes = 1 }
/^freeze_filesystems / { knob[++nknob] = $2 }
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

END {
	if (console != "") {
		while ((getline cl < console) > 0) {
			gsub(/\r/, "", cl)
			cl = strip_time(cl)
			if (splat(cl))
				add_splat(cl, "console")
		}
	}

	if (!begun)
		fail("guest", "guest ran: no \"e2e: begin\" line")
	else
		ok("guest ran: " kernel)
	if (!ended || !have_dmesg)
		fail("guest", "guest finished: no \"e2e: end\" or no kernel log")
	for (i = 1; i <= nerror; i++)
		fail("guest", "guest: " errors[i])
	if (kprobes && !have_trace)
		fail("guest", "kprobe events set, but no trace reported")
	for (i = 1; i <= nknob; i++)
		if (knob[i] != "0") {
			fail("guest", "/sys/power/freeze_filesystems was " knob[i] ", which freezes every filesystem, flagged or not")
			break
		}
	if (nmount == 0)
		fail("guest", "filesystems mounted: none")
	if (ncycle == 0)
		fail("guest", "suspend cycles: none ran")

	want_frz = join(mounted, nmount, 1)
	want_thw = join(mounted, nmount, 0)
	for (c = 1; c <= ncycle; c++) {
		k = cycles[c]
		name = "cycle " k " (" level[k] (user[k] ? ", " user_frozen " user-frozen" : "") ")"
		if (rc[k] != "rc=0")
			fail("suspend", name ": echo mem > /sys/power/state failed")
		wf = want_frz; wt = want_thw; gf = frz[k]; gt = thw[k]
		if (user[k]) {
			# The user-frozen filesystem may be passed over ("already
			# frozen") or get a nested kernel freeze; either way only
			# the order of the others is checked here, and the probe
			# below checks that it stayed frozen.
			uf = user_frozen " ("
			wf = drop(wf, uf); wt = drop(wt, uf)
			gf = drop(gf, uf); gt = drop(gt, uf)
		}
		if (gf == wf)
			ok(name ": froze " gf)
		else
			fail("fs-freeze", name ": froze \"" gf "\", want \"" wf "\"")
		if (gt == wt)
			ok(name ": thawed " gt)
		else
			fail("fs-freeze", name ": thawed \"" gt "\", want \"" wt "\"")
	}

	if (thaw_warn != "")
		fail("fs-freeze", "suspend thawed a filesystem it had not frozen: " thaw_warn)
	if (nsplat == 0)
		ok("no splat, hung task or failed freeze in the kernel log")
	for (i = 1; i <= nsplat && i <= 5; i++)
		fail("suspend", splats[i])
	if (nsplat > 5)
		fail("suspend", "kernel log: " nsplat - 5 " more such lines")

	nprog = 0
	for (c = 1; c <= ncycle; c++) {
		k = cycles[c]
		if (!prog_seen[k])
			continue
		nprog++
		for (m = 1; m <= nmount; m++) {
			fs = mtype[m]
			if (pa[k, fs] + 0 > pb[k, fs] + 0)
				continue
			fail("data", "writer " fs " after cycle " k ": " pb[k, fs] " files before, " pa[k, fs] " after")
			stuck++
		}
	}
	if (nprog == 0)
		fail("data", "writer progress: not reported")
	else if (!stuck)
		ok("writers went on after each of " nprog " cycles")
	for (m = 1; m <= nmount; m++) {
		fs = mtype[m]
		if (!(fs in wfiles))
			fail("data", "writer " fs ": no final count")
		else if (werr[fs] != "none" || wfiles[fs] + 0 == 0)
			fail("data", "writer " fs ": " wfiles[fs] " files, error at file " werr[fs])
		else if (!(fs in vfiles))
			fail("data", "verify " fs ": not reported")
		else if (vbad[fs] != 0 || vfiles[fs] != wfiles[fs])
			fail("data", "verify " fs ": " vbad[fs] " of " vfiles[fs] " sums bad, " wfiles[fs] " written")
		else
			ok("verify " fs ": " vfiles[fs] " files read back intact after remount")
	}

	if (user_frozen == "") {
		fail("guest", "user freeze: not reached")
	} else {
		for (m = 1; m <= nmount; m++) {
			fs = mtype[m]
			want = (fs == user_frozen) ? "blocked" : "written"
			if (probe[fs] == want)
				ok("after resume, a write to " fs " " (want == "blocked" ? "blocks (user-frozen)" : "completes"))
			else
				fail("user", "after resume, a write to " fs ": " (probe[fs] == "" ? "not probed" : probe[fs]) ", want " want)
		}
		if (user_thawed != user_frozen)
			fail("user", "fsfreeze --unfreeze " user_frozen ": not reported")
		else if (after_thaw[user_frozen] != "written")
			fail("user", "after fsfreeze --unfreeze, the blocked write to " user_frozen ": " (after_thaw[user_frozen] == "" ? "not reported" : after_thaw[user_frozen]))
		else
			ok("after fsfreeze --unfreeze, the blocked write to " user_frozen " completes")
	}

	printf "%s: %d passed, %d failed\n", "e2e-check", nok, nfail
	exit nfail ? 1 : 0
}
'
