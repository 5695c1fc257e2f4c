#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# e2e-check.sh: decide whether an e2e guest run passed, from what the
# guest reported (tests/e2e/guest-init.sh) and the serial console.
#
#   e2e-check.sh REPORT [CONSOLE]
#
# REPORT is the guest's "e2e:" lines with its kernel log between
# "e2e: dmesg begin" and "e2e: dmesg end", and the trace of its suspend
# cycles between "e2e: trace begin" and "e2e: trace end": kprobe events
# on each type's ->freeze_fs and ->unfreeze_fs, and, in reports of this
# guest since it traces them, kprobe events on the freezer taking and
# letting go of the kernel threads, block_bio_queue, block_rq_issue and
# workqueue_execute_start and _end events.  CONSOLE, when given, is also
# searched for splats (it has what a guest that never finished printed).
#
# Every mounted filesystem must freeze and thaw in each cycle, but those
# the report names "unflagged" (the types the conversion does not flag
# on this version), which must not.  The order of freezes and thaws comes
# from the series' kernel log lines where the kernel prints them, else
# from the traced returns of ->freeze_fs and ->unfreeze_fs.  A
# filesystem's frozen window runs from its ->freeze_fs's return to its
# ->unfreeze_fs's entry (for one the user froze, the whole cycle).  A bio
# submitted to its disk in the window while the freezer holds the kernel
# threads (from freeze_kernel_threads() to thaw_workqueues(): the
# suspend proper, device suspend, the hibernation snapshot) is a
# failure, named by the work function the kworker that submitted it ran,
# else by the task; so is a request sent to the disk then whose
# submission the trace does not have.  One submitted while frozen but
# outside the freezer gets a "note" line: the freeze of the filesystem
# lets it run, as under fsfreeze(8).  A bare cache flush is counted, not
# failed.
#
# After a hibernation snapshot the kernel threads stay frozen and the
# filesystems frozen while the image is written and the machine powers
# off, and the trace the guest reads back is the image's: it ends at the
# snapshot.  So the guest has the kernel print its trace events to the
# console as well (tracepoint_printk), and in the console of the boot
# that wrote the image, any block I/O to a filesystem's disk after the
# e2e/snapshot_save event (swsusp_save(), the copy into the image) is a
# failure too, named by the task that submitted it.
#
# With e2e.mode=failfreeze the cycle is a suspend in which one flagged
# filesystem (the "victim", an ext4 whose disk fails every bio) fails to
# freeze: the suspend must be refused, the kernel log must name the
# victim, and every filesystem frozen in the attempt must be thawed in
# it; the order checks of the other cycles do not apply.
#
# With e2e.mode=snapshot the cycle is a hibernation through /dev/snapshot
# (tests/e2e/snapshot-client.c: freeze, create the image, read it out,
# unfreeze), and any block I/O to a flagged filesystem's disk from the
# image (the "e2e-mark: snapshot created" mark) to SNAPSHOT_UNFREEZE
# ("snapshot unfreeze") fails, named by its submitter.
#
# Prints one line per check, "ok <check>" or "FAIL [<class>] <check>:
# <what was seen>", "note <what was seen>" lines, then a summary line.
# The classes:
#   io-frozen  block I/O reached a frozen filesystem's disk while the
#              freezer held the kernel threads, or after the hibernation
#              snapshot
#   snapshot-io  block I/O reached a flagged filesystem's disk between
#              the image of a hibernation through /dev/snapshot and its
#              SNAPSHOT_UNFREEZE
#   freeze-fail  a suspend in which a flagged filesystem failed to freeze
#              went on, or left a filesystem frozen, or the kernel did
#              not name the filesystem
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
#              or another one was left frozen; after a resume from
#              hibernation, a filesystem took no write
#   guest      the guest did not run the scenario to its end, or ran it
#              with /sys/power/freeze_filesystems set (which freezes every
#              filesystem, flagged or not), or the console of a
#              hibernation lacks the snapshot the guest had it print
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
# A line of the console after the hibernation snapshot, in the boot that
# wrote the image: trace events printed by tracepoint_printk,
# "block_bio_queue: 254,48 WS 2048 + 8 [kworker/u4:1]" and
# "block_rq_issue: 254,48 DS 4096 () 2048 + 8 be,0,4 [kworker/u4:1]".
# Block I/O to the disk of a filesystem is remembered per filesystem, but for
# a bare cache flush.
function after_snapshot(line,    n, a, fs, who) {
	if (line ~ /^workqueue_execute_start: /)
		nsnap_events++
	if (line !~ /^block_(bio_queue|rq_issue): [0-9]+,[0-9]+ /)
		return
	nsnap_events++
	n = split(line, a, " ")
	if (!(a[2] in devfs))
		return
	fs = devfs[a[2]]
	if (a[1] == "block_bio_queue:" && a[4] a[6] == "00" && a[3] ~ /F/)
		return
	if (a[1] == "block_rq_issue:" && a[6] a[8] == "00")
		return
	who = a[n]
	gsub(/^\[|\]$/, "", who)
	if (!snap_n[fs]++) {
		snap_fs[++nsnap_fs] = fs
		snap_first[fs] = line
	}
	if (!((fs, who) in snap_by)) {
		snap_by[fs, who] = 1
		snap_who[fs] = append(snap_who[fs], who)
	}
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
# "  kworker/u4:2-57   [001] ..... 12.5: ..." -> pid 57, who "kworker/u4:2-57"
function issuer(line) {
	if (!match(line, /-[0-9]+ +\[[0-9]+\]/))
		return ""
	pid = substr(line, RSTART + 1)
	sub(/ .*/, "", pid)
	who = substr(line, 1, RSTART - 1)
	sub(/^ +/, "", who)
	return who "-" pid
}
# A block event: its fields from column at of the line on, in w (w[1]
# the disk, "254,16"); the filesystem on that disk, or "" for another
# disk or an event outside the cycles.
function traced_disk(at) {
	split(substr($0, at), w, " ")
	if (!(w[1] in devfs) || wk == "")
		return ""
	return devfs[w[1]]
}
# I/O to the disk of fs, frozen, in line: remember who did it (the work
# function a kworker ran, else the task), and the first request of each.
function frozen_io(fs, line, req,    task, who, t, k) {
	task = issuer(line)
	if (pid in wfn) {
		who = wfn[pid]
	} else {
		who = task
		sub(/-[0-9]+$/, "", who)
	}
	t = line
	sub(/: block_(bio_queue|rq_issue): .*/, "", t)
	sub(/.* /, "", t)
	# Where the freezer holds the kernel threads, or outside it
	k = (held ? "held" : "gap") SUBSEP wk
	nfrozen_io[k, fs]++
	if (!((k, fs, who) in bad)) {
		bad[k, fs, who] = "event " t " by " task ": " req
		nbad[k, fs]++
		badwho[k, fs, nbad[k, fs]] = who
	}
	nbadreq[k, fs, who]++
}
# A new cycle k: the window of every disk is before its freeze, but for the
# one the user froze before the cycle, frozen all through it.
function window_begin(k,    t) {
	wk = k
	for (t in devfs)
		phase[devfs[t]] = (user[k] && devfs[t] == user_frozen) ? "during" : "before"
}
# Block I/O to the disk of a flagged filesystem in line, between the image of
# a hibernation through /dev/snapshot and its SNAPSHOT_UNFREEZE: who sent
# it (the work function a kworker ran, else the task), per filesystem.
function snapshot_io(line,    a, n, fs, who, task) {
	sub(/.*: block_(bio_queue|rq_issue): /, "", line)
	n = split(line, a, " ")
	if (!(a[1] in devfs) || (devfs[a[1]] in unflagged))
		return
	fs = devfs[a[1]]
	task = issuer($0)
	if (pid in wfn) {
		who = wfn[pid]
	} else {
		who = task
		sub(/-[0-9]+$/, "", who)
	}
	if (!snapio_n[fs]++) {
		snapio_fs[++nsnapio_fs] = fs
		snapio_first[fs] = line
	}
	if (!((fs, who) in snapio_by)) {
		snapio_by[fs, who] = 1
		snapio_who[fs] = append(snapio_who[fs], who)
	}
}
# The suspend of cycle k, in which victim failed to freeze: refused,
# named in the kernel log, and every filesystem it froze thawed again.
function failfreeze_check(k, name,    n, a, i, thawed) {
	if (victim == "") {
		fail("guest", name ": no victim reported")
		return
	}
	if (rc[k] == "rc=0")
		fail("freeze-fail", name ": the suspend went on though " victim " failed to freeze")
	else
		ok(name ": the suspend was refused, " victim " having failed to freeze")
	if (sleep_fail != "" && index(sleep_fail, victim))
		ok(name ": the kernel names it: " sleep_fail)
	else
		fail("freeze-fail", name ": no kernel log line names the failed freeze of " victim (sleep_fail == "" ? "" : " (" sleep_fail ")"))
	n = split(frz["trace", k], a, ", ")
	thawed = ", " thw["trace", k] ", "
	for (i = 1; i <= n; i++)
		if (!index(thawed, ", " a[i] ", ")) {
			fail("freeze-fail", name ": " a[i] " froze and was not thawed")
			left++
		}
	if (!left)
		ok(name ": each filesystem frozen in the attempt was thawed: " (n ? thw["trace", k] : "none froze"))
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

# "<task>-<pid> [cpu] flags time: tracing_mark_write: e2e-mark: ..." and
# "... time: freeze_xfs: (freeze_super+0x../0x.. <- xfs_fs_freeze) ret=0"
in_trace {
	# A hibernation through /dev/snapshot: the window from the image
	# (SNAPSHOT_CREATE_IMAGE returned) to SNAPSHOT_UNFREEZE.
	if (match($0, /: tracing_mark_write: e2e-mark: snapshot [a-z]+$/)) {
		n = split($0, w, " ")
		snap_marks = snap_marks " " w[n]
		if (w[n] == "created")
			in_snap = 1
		else if (w[n] == "unfreeze")
			in_snap = 0
		next
	}
	if (in_snap && match($0, /: block_(bio_queue|rq_issue): [0-9]+,[0-9]+ [A-Z]* /))
		snapshot_io($0)
	if (match($0, /: tracing_mark_write: e2e-mark: cycle [0-9]+ [a-z]+ (begin|end)$/)) {
		n = split(substr($0, RSTART), w, " ")
		cur = (w[n] == "begin") ? w[5] : ""
		if (cur != "")
			window_begin(cur)
		next
	}
	if (match($0, /: workqueue_execute_start: .* function [^ ]+$/)) {
		issuer($0)
		n = split($0, w, " ")
		wfn[pid] = w[n]
		next
	}
	if (match($0, /: workqueue_execute_end: /)) {
		issuer($0)
		delete wfn[pid]
		next
	}
	# "... block_bio_queue: 254,16 WS 2048 + 8 [kworker/u4:1]": I/O
	# submitted, in the context of whoever submitted it.  Submitted to
	# a frozen filesystem disk, it fails, but for a bare cache flush.
	if (match($0, /: block_bio_queue: [0-9]+,[0-9]+ [A-Z]* /)) {
		if ((fs = traced_disk(RSTART + 18)) == "")
			next
		queued[w[1], w[3]] = phase[fs]
		if (phase[fs] != "during")
			next
		# A cache flush, no block written: an fsync on the frozen
		# filesystem before its task froze.  Counted, not failed.
		if (w[3] w[5] == "00" && w[2] ~ /F/)
			nflush[wk, fs]++
		else
			frozen_io(fs, $0, w[2] " " w[3] "+" w[5])
		next
	}
	# "... block_rq_issue: 254,16 WS 4096 () 2048 + 8 be,0,4 [kworker/u4:1]":
	# a request sent to the disk, counted in its window.  One sent
	# while frozen was submitted while frozen, and failed above, or
	# before the freeze returned and was still in flight (or is the
	# flush of the block layer, sector 0 + 0), or its submission was not
	# traced: that one fails here, on whoever sent it.
	if (match($0, /: block_rq_issue: [0-9]+,[0-9]+ [A-Z]* /)) {
		if ((fs = traced_disk(RSTART + 17)) == "")
			next
		ph = phase[fs]
		nreq[wk, fs, ph]++
		if (ph != "during")
			next
		if ((w[1], w[5]) in queued) {
			if (queued[w[1], w[5]] != "during")
				ninflight[wk, fs]++
		} else if (w[5] w[7] == "00") {
			ninflight[wk, fs]++
		} else {
			frozen_io(fs, $0, w[2] " " w[5] "+" w[7])
		}
		next
	}
	if (match($0, /: freezer_on: \(.* ret=0$/)) {
		held = 1
		next
	}
	if (match($0, /: freezer_off: \(/)) {
		held = 0
		next
	}
	if (match($0, /: unfreeze_[a-z0-9]+: \(/)) {
		fs = substr($0, RSTART + 11, RLENGTH - 14)
		if (phase[fs] == "during" && !(user[wk] && fs == user_frozen))
			phase[fs] = "after"
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
	saw(fs, op == "freeze" ? "freezing" : "thawing", "trace")
	if (op == "freeze" && cur != "") {
		t = substr(ev, index(ev, "_") + 1)
		if (!((cur, t) in windowed)) {
			windowed[cur, t] = 1
			win[++nwin] = cur SUBSEP t
		}
		phase[t] = "during"
	}
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

END {
	if (console != "") {
		boot = 0
		while ((getline cl < console) > 0) {
			gsub(/\r/, "", cl)
			cl = strip_time(cl)
			if (splat(cl))
				add_splat(cl, "console")
			# Each boot of a hibernation, console after console
			# (the first line may follow what the firmware printed).
			if (cl ~ /(^|\] )Linux version /)
				boot++
			else if (boot == 1 && cl ~ /^snapshot_save: \(swsusp_save\+/)
				snapped = 1
			else if (boot == 1 && snapped)
				after_snapshot(cl)
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
	if (mode == "snapshot") {
		if (snap_marks !~ / created/ || snap_marks !~ / unfreeze/)
			fail("guest", "hibernation through /dev/snapshot: marks" (snap_marks == "" ? " none" : snap_marks) ", not an image and its SNAPSHOT_UNFREEZE")
		for (i = 1; i <= nsnapio_fs; i++) {
			fs = snapio_fs[i]
			fail("snapshot-io", "from SNAPSHOT_CREATE_IMAGE to SNAPSHOT_UNFREEZE: " fs " (" dev_of[fs] "): " snapio_n[fs] " request(s) to its disk, from " snapio_who[fs] " (first: " snapio_first[fs] ")")
		}
		if (snap_marks ~ / created/ && snap_marks ~ / unfreeze/ && !nsnapio_fs)
			ok("from SNAPSHOT_CREATE_IMAGE to SNAPSHOT_UNFREEZE: no request to the disk of a flagged filesystem")
	}

	# Every filesystem freezes on suspend, but one the conversion does
	# not flag: that one must not.
	nflagged = 0
	unfl = ""
	for (m = 1; m <= nmount; m++)
		if (mtype[m] in unflagged)
			unfl = append(unfl, mounted[m])
		else
			flagged[++nflagged] = mounted[m]
	want_frz = join(flagged, nflagged, 1)
	want_thw = join(flagged, nflagged, 0)
	for (c = 1; c <= ncycle; c++) {
		k = cycles[c]
		name = "cycle " k " (" level[k] (user[k] ? ", " user_frozen " user-frozen" : "") ")"
		if (level[k] == "failfreeze") {
			failfreeze_check(k, name)
			continue
		}
		if (rc[k] != "rc=0")
			fail("suspend", name ": " (level[k] == "snapshot" ? "the hibernation through /dev/snapshot" : "echo " (level[k] == "hibernate" ? "disk" : "mem") " > /sys/power/state") " failed")
		src = logged ? "log" : "trace"
		wf = want_frz; wt = want_thw; gf = frz[src, k]; gt = thw[src, k]
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
			ok(name ": froze " gf (unfl == "" ? "" : "; not " unfl ", not flagged"))
		else
			fail("fs-freeze", name ": froze \"" gf "\", want \"" wf "\"")
		if (gt == wt)
			ok(name ": thawed " gt)
		else
			fail("fs-freeze", name ": thawed \"" gt "\", want \"" wt "\"")
	}

	# The window of the user-frozen filesystem in its cycle.
	for (c = 1; c <= ncycle; c++) {
		k = cycles[c]
		if (user[k] && !((k, user_frozen) in windowed)) {
			windowed[k, user_frozen] = 1
			win[++nwin] = k SUBSEP user_frozen
		}
	}
	for (i = 1; i <= nwin; i++) {
		split(win[i], kf, SUBSEP)
		k = kf[1]; fs = kf[2]
		name = "cycle " k " (" level[k] "): " fs " (" dev_of[fs] ")"
		counts = (nreq[k, fs, "before"] + 0) " requests before its freeze, " \
			(nreq[k, fs, "during"] + 0) " while frozen" \
			(nfrozen_io["gap" SUBSEP k, fs] ? " (" nfrozen_io["gap" SUBSEP k, fs] " submitted outside the freezer)" : "") \
			(ninflight[k, fs] ? " (" ninflight[k, fs] " submitted before its freeze returned)" : "") \
			(nflush[k, fs] ? " (" nflush[k, fs] " bare cache flushes submitted while frozen)" : "") ", " \
			(nreq[k, fs, "after"] + 0) " after its thaw"
		if (user[k] && fs == user_frozen)
			counts = (nreq[k, fs, "during"] + 0) " requests while user-frozen"
		# Submitted while the freezer held the kernel threads: during
		# the suspend proper, with devices suspending, or around the
		# hibernation snapshot.  A failure.
		hk = "held" SUBSEP k
		for (j = 1; j <= nbad[hk, fs] && j <= 5; j++) {
			who = badwho[hk, fs, j]
			fail("io-frozen", name ": " nbadreq[hk, fs, who] " request(s) to its disk while frozen and the freezer held the kernel threads, from " who " (first " bad[hk, fs, who] "); " counts)
		}
		# Submitted while frozen, before the freezer took the kernel
		# threads or after it let them go (mainline thaws them before
		# the filesystems): what the freeze of the filesystem lets run,
		# under fsfreeze(8) just the same.  Named, not failed.
		gk = "gap" SUBSEP k
		for (j = 1; j <= nbad[gk, fs] && j <= 5; j++) {
			who = badwho[gk, fs, j]
			printf "note %s: %d request(s) to its disk while frozen, outside the freezer, from %s (first %s)\n", name, nbadreq[gk, fs, who], who, bad[gk, fs, who]
		}
		if (!nbad[hk, fs])
			ok(name ": " counts)
	}

	if (mode == "hibernate" && printed && console != "") {
		if (!snapped)
			fail("guest", "after the hibernation snapshot: no snapshot_save event on the console of the boot that wrote the image, so its I/O was not seen")
		for (i = 1; i <= nsnap_fs; i++) {
			fs = snap_fs[i]
			fail("io-frozen", "after the hibernation snapshot: " fs " (" dev_of[fs] "): " snap_n[fs] " request(s) to its disk while the image was written, from " snap_who[fs] " (first: " snap_first[fs] ")")
		}
		if (snapped && !nsnap_fs)
			ok("after the hibernation snapshot, until the power-off: no request to the disk of a filesystem (" nsnap_events + 0 " block and work events printed)")
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

	if (mode == "hibernate" || mode == "snapshot" || mode == "failfreeze") {
		# No user freeze: after the resume, every filesystem takes a
		# write.
		after = mode == "hibernate" ? "after resume from hibernation" : \
			mode == "snapshot" ? "after SNAPSHOT_UNFREEZE" : "after the refused suspend"
		for (m = 1; m <= nmount; m++) {
			fs = mtype[m]
			if (probe[fs] == "written")
				ok(after ", a write to " fs " completes")
			else
				fail("user", after ", a write to " fs ": " (probe[fs] == "" ? "not probed" : probe[fs]) ", want written")
		}
	} else if (user_frozen == "") {
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
