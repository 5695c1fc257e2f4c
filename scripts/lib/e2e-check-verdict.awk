# SPDX-License-Identifier: GPL-2.0
#
# e2e-check-verdict.awk: the checks of e2e-check.sh's awk program (see
# e2e-check-report.awk), its END: it reads the console (CONSOLE, the
# awk variable console) for splats and the I/O after a hibernation
# snapshot, judges what the report's rules gathered, and prints a line
# per check and the summary line; its exit status is e2e-check.sh's.

function fail(class, what) {
	printf "FAIL [%s] %s\n", class, what
	nfail++
}
function ok(what) {
	printf "ok %s\n", what
	nok++
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
		for (i = 1; i <= io_nfs["snapshot"]; i++) {
			fs = io_fs["snapshot", i]
			fail("snapshot-io", "from SNAPSHOT_CREATE_IMAGE to SNAPSHOT_UNFREEZE: " fs " (" dev_of[fs] "): " io_n["snapshot", fs] " request(s) to its disk, from " io_who["snapshot", fs] " (first: " io_first["snapshot", fs] ")")
		}
		if (snap_marks ~ / created/ && snap_marks ~ / unfreeze/ && !io_nfs["snapshot"])
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
		for (i = 1; i <= io_nfs["hibernate"]; i++) {
			fs = io_fs["hibernate", i]
			fail("io-frozen", "after the hibernation snapshot: " fs " (" dev_of[fs] "): " io_n["hibernate", fs] " request(s) to its disk while the image was written, from " io_who["hibernate", fs] " (first: " io_first["hibernate", fs] ")")
		}
		if (snapped && !io_nfs["hibernate"])
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
