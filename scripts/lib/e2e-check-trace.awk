# SPDX-License-Identifier: GPL-2.0
#
# e2e-check-trace.awk: the trace of a guest's suspend cycles and the
# console's trace after a hibernation snapshot, for e2e-check.sh's awk
# program (see e2e-check-report.awk): trace_line reads a line of the
# report's trace, after_snapshot one of the console after the snapshot,
# into the arrays e2e-check-verdict.awk judges: the frozen window of each
# filesystem and cycle, the requests in it and who sent them.

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
	io_seen("hibernate", fs, who, line)
}
# io_seen(kind, fs, who, line): a request to the disk of fs in a window
# of kind ("hibernate": after the hibernation snapshot; "snapshot": from
# the image of a hibernation through /dev/snapshot to its
# SNAPSHOT_UNFREEZE), sent by who: counted in io_n[kind, fs], fs listed
# in io_fs[kind, 1..io_nfs[kind]] with its first request, line, in
# io_first[kind, fs], and who in io_who[kind, fs], each once.
function io_seen(kind, fs, who, line) {
	if (!io_n[kind, fs]++) {
		io_fs[kind, ++io_nfs[kind]] = fs
		io_first[kind, fs] = line
	}
	if (!((kind, fs, who) in io_by)) {
		io_by[kind, fs, who] = 1
		io_who[kind, fs] = append(io_who[kind, fs], who)
	}
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
# sender(task): who sent a request, task (issuer's) in the context of
# which it was: the work function its kworker ran, else the task.
function sender(task) {
	if (pid in wfn)
		return wfn[pid]
	sub(/-[0-9]+$/, "", task)
	return task
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
	who = sender(task)
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
	who = sender(task)
	io_seen("snapshot", fs, who, line)
}

# trace_line: a line of the report's trace (e2e-check-report.awk's
# in_trace rule), in $0:
# "<task>-<pid> [cpu] flags time: tracing_mark_write: e2e-mark: ..." and
# "... time: freeze_xfs: (freeze_super+0x../0x.. <- xfs_fs_freeze) ret=0"
function trace_line() {
	# A hibernation through /dev/snapshot: the window from the image
	# (SNAPSHOT_CREATE_IMAGE returned) to SNAPSHOT_UNFREEZE.
	if (match($0, /: tracing_mark_write: e2e-mark: snapshot [a-z]+$/)) {
		n = split($0, w, " ")
		snap_marks = snap_marks " " w[n]
		if (w[n] == "created")
			in_snap = 1
		else if (w[n] == "unfreeze")
			in_snap = 0
		return
	}
	if (in_snap && match($0, /: block_(bio_queue|rq_issue): [0-9]+,[0-9]+ [A-Z]* /))
		snapshot_io($0)
	if (match($0, /: tracing_mark_write: e2e-mark: cycle [0-9]+ [a-z]+ (begin|end)$/)) {
		n = split(substr($0, RSTART), w, " ")
		cur = (w[n] == "begin") ? w[5] : ""
		if (cur != "")
			window_begin(cur)
		return
	}
	if (match($0, /: workqueue_execute_start: .* function [^ ]+$/)) {
		issuer($0)
		n = split($0, w, " ")
		wfn[pid] = w[n]
		return
	}
	if (match($0, /: workqueue_execute_end: /)) {
		issuer($0)
		delete wfn[pid]
		return
	}
	# "... block_bio_queue: 254,16 WS 2048 + 8 [kworker/u4:1]": I/O
	# submitted, in the context of whoever submitted it.  Submitted to
	# a frozen filesystem disk, it fails, but for a bare cache flush.
	if (match($0, /: block_bio_queue: [0-9]+,[0-9]+ [A-Z]* /)) {
		if ((fs = traced_disk(RSTART + 18)) == "")
			return
		queued[w[1], w[3]] = phase[fs]
		if (phase[fs] != "during")
			return
		# A cache flush, no block written: an fsync on the frozen
		# filesystem before its task froze.  Counted, not failed.
		if (w[3] w[5] == "00" && w[2] ~ /F/)
			nflush[wk, fs]++
		else
			frozen_io(fs, $0, w[2] " " w[3] "+" w[5])
		return
	}
	# "... block_rq_issue: 254,16 WS 4096 () 2048 + 8 be,0,4 [kworker/u4:1]":
	# a request sent to the disk, counted in its window.  One sent
	# while frozen was submitted while frozen, and failed above, or
	# before the freeze returned and was still in flight (or is the
	# flush of the block layer, sector 0 + 0), or its submission was not
	# traced: that one fails here, on whoever sent it.
	if (match($0, /: block_rq_issue: [0-9]+,[0-9]+ [A-Z]* /)) {
		if ((fs = traced_disk(RSTART + 17)) == "")
			return
		ph = phase[fs]
		nreq[wk, fs, ph]++
		if (ph != "during")
			return
		if ((w[1], w[5]) in queued) {
			if (queued[w[1], w[5]] != "during")
				ninflight[wk, fs]++
		} else if (w[5] w[7] == "00") {
			ninflight[wk, fs]++
		} else {
			frozen_io(fs, $0, w[2] " " w[5] "+" w[7])
		}
		return
	}
	if (match($0, /: freezer_on: \(.* ret=0$/)) {
		held = 1
		return
	}
	if (match($0, /: freezer_off: \(/)) {
		held = 0
		return
	}
	if (match($0, /: unfreeze_[a-z0-9]+: \(/)) {
		fs = substr($0, RSTART + 11, RLENGTH - 14)
		if (phase[fs] == "during" && !(user[wk] && fs == user_frozen))
			phase[fs] = "after"
		return
	}
	if (!match($0, /: (freeze|thaw)_[a-z0-9]+: \(/))
		return
	ev = substr($0, RSTART + 2, RLENGTH - 5)
	op = substr(ev, 1, index(ev, "_") - 1)
	fs = substr(ev, index(ev, "_") + 1)
	fs = fs " (" (fs in dev_of ? dev_of[fs] : "?") ")"
	ret = $0
	sub(/.* ret=/, "", ret)
	if (ret != "0") {
		add_splat(fs ": ->" (op == "freeze" ? "freeze_fs" : "unfreeze_fs") " returned " ret, "trace")
		return
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
	return
}
