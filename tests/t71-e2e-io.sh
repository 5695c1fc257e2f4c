#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The e2e verdict on block I/O to frozen filesystems, without qemu:
# scripts/lib/e2e-check.sh on guest reports recorded from real runs of
# the guest that traces block_bio_queue, block_rq_issue and the work a
# kworker runs (tests/e2e/samples/linux-V-io-ROLE.report.xz: the
# control, the converted kernel, its hibernation, and the mutant with
# btrfs's discard workqueue made not freezable; with the consoles of
# the hibernations, linux-V-io-ROLE.console.xz, where they print their
# trace after the snapshot), and on copies of the 7.3 converted kernel's
# report with one request put into a frozen window, and of its
# hibernation's console with one after the snapshot.
# test-run: light

. "$(dirname "$0")/lib.sh"

CHECK=$TOP/scripts/lib/e2e-check.sh
SAMPLES=$TESTS/e2e/samples

# sample V ROLE: the recorded report, uncompressed and without the
# serial line's carriage returns, as a file here
sample()
{
	xz -dc "$SAMPLES/linux-$1-io-$2.report.xz" | tr -d '\r' >"$1-$2.report"
	echo "$1-$2.report"
}

# console V ROLE: the same for the recorded serial console
console()
{
	xz -dc "$SAMPLES/linux-$1-io-$2.console.xz" | tr -d '\r' >"$1-$2.console"
	echo "$1-$2.console"
}

# check_exits RC ARGS...: e2e-check.sh on ARGS exits RC; its output in
# out, and shown.
check_exits()
{
	local want=$1 rc=0
	shift
	$CHECK "$@" >out || rc=$?
	cat out
	test $rc -eq "$want"
}

test_lazy_prereq XZ 'command -v xz'

for v in $(ls "$SAMPLES" | sed -n 's/^linux-\(.*\)-io-patched\.report\.xz$/\1/p'); do
	test_expect_success XZ "linux $v: the converted kernel passes, with a counted window per filesystem and cycle" '
		r=$(sample $v patched) && check_exits 0 $r &&
		mounts=$(grep -c "^e2e: mount " $r) && cycles=$(grep -c "^e2e: cycle " $r) &&
		test $(grep -c "^ok cycle [0-9]* ([a-z]*): [a-z0-9]* (vd[a-z]): [0-9]* requests" out) -eq $((mounts * cycles)) &&
		grep -q "^ok cycle 1 (freezer): btrfs (vd[a-z]): [0-9]* requests before its freeze, [0-9]* while frozen.*, [0-9]* after its thaw\$" out
	'

	test_expect_success XZ "linux $v: the control fails on the VFS freeze only, and sees no window" '
		r=$(sample $v control) && check_exits 1 $r &&
		! grep "^FAIL" out | grep -v "^FAIL \[fs-freeze\]" &&
		! grep -q "requests before its freeze" out
	'

	test_lazy_prereq MUTANT_${v/./_} "test -f $SAMPLES/linux-$v-io-mutant.report.xz"
	test_expect_success XZ,MUTANT_${v/./_} "linux $v: the mutant fails on I/O to frozen btrfs from btrfs_discard_workfn" '
		r=$(sample $v mutant) && check_exits 1 $r &&
		grep -q "^FAIL \[io-frozen\] cycle [0-9]* ([a-z]*): btrfs (vd[a-z]): [0-9]* request(s) to its disk while frozen and the freezer held the kernel threads, from btrfs_discard_workfn (first event [0-9]* by kworker/" out &&
		! grep "^FAIL" out | grep -v "^FAIL \[io-frozen\] .*: btrfs (vd[a-z]): .* from btrfs_discard_workfn "
	'

	test_lazy_prereq HIBERNATE_${v/./_} "test -f $SAMPLES/linux-$v-io-hibernate.report.xz"
	test_expect_success XZ,HIBERNATE_${v/./_} "linux $v: the converted kernel hibernates, resumes, and every filesystem takes a write" '
		r=$(sample $v hibernate) && check_exits 0 $r &&
		grep -q "^e2e: mode hibernate\$" $r && grep -q "^ok cycle 1 (hibernate): froze " out &&
		test $(grep -c "^ok after resume from hibernation, a write to [a-z0-9]* completes\$" out) -eq $(grep -c "^e2e: mount " $r)
	'

	test_lazy_prereq MUTANT_SNAPSHOT_${v/./_} "test -f $SAMPLES/linux-$v-io-mutant-hibernate.console.xz"
	test_expect_success XZ,MUTANT_SNAPSHOT_${v/./_} "linux $v: the mutant fails on I/O to btrfs after the hibernation snapshot" '
		r=$(sample $v mutant-hibernate) && c=$(console $v mutant-hibernate) &&
		check_exits 1 $r $c &&
		grep -q "^FAIL \[io-frozen\] after the hibernation snapshot: btrfs (vd[a-z]): [0-9]* request(s) to its disk while the image was written, from kworker/" out &&
		! grep "^FAIL" out | grep -v "^FAIL \[io-frozen\] .*btrfs (vd[a-z])"
	'

	test_lazy_prereq SNAPSHOT_${v/./_} "test -f $SAMPLES/linux-$v-io-hibernate.console.xz"
	test_expect_success XZ,SNAPSHOT_${v/./_} "linux $v: after the hibernation snapshot, no request reaches a filesystem's disk" '
		r=$(sample $v hibernate) && c=$(console $v hibernate) &&
		check_exits 0 $r $c &&
		grep -q "^ok after the hibernation snapshot, until the power-off: no request to the disk of a filesystem ([1-9][0-9]* block and work events printed)\$" out
	'
done

# in_window CASE WHERE LINES...: the 7.3 converted kernel's report with
# LINES put into the trace of cycle 1, WHERE: "held" after the freezer
# took the kernel threads, "gap" after btrfs froze but before that.
in_window()
{
	local r where=$2
	r=$(sample 7.3 patched) || return 1
	shift 2
	awk -v where="$where" -v lines="$(printf "%s\n" "$@")" '
		{ print }
		!done && ((where == "held" && /: freezer_on: .* ret=0$/) ||
			  (where == "gap" && /: freeze_btrfs: .* ret=0$/)) {
			printf "%s\n", lines
			done = 1
		}
	' "$r" >report && ! cmp -s "$r" report
}

# btrfs_dev [REPORT]: the disk of btrfs in REPORT (default the 7.3
# converted kernel's), as block events name it.
btrfs_dev()
{
	sed -n 's/^e2e: disk btrfs vd[a-z] \([0-9]*\):\([0-9]*\)$/\1,\2/p' "${1:-7.3-patched.report}"
}

test_expect_success XZ "a bio to a frozen disk while the freezer holds the kernel threads fails, named by its work function" '
	sample 7.3 patched >/dev/null && d=$(btrfs_dev) && test -n "$d" &&
	in_window 1 held \
		"    kworker/u4:9-999     [001] .....        1: workqueue_execute_start: work struct 00000000deadbeef: function e2e_unquiesced_workfn" \
		"    kworker/u4:9-999     [001] .....        2: block_bio_queue: $d WS 4096 + 8 [kworker/u4:9]" &&
	check_exits 1 report &&
	grep -q "^FAIL \[io-frozen\] cycle 1 (freezer): btrfs (vd[a-z]): 1 request(s) to its disk while frozen and the freezer held the kernel threads, from e2e_unquiesced_workfn (first event 2 by kworker/u4:9-999: WS 4096+8)" out
'

test_expect_success XZ "a bio from a task, not a kworker, is named by the task" '
	sample 7.3 patched >/dev/null && d=$(btrfs_dev) &&
	in_window 1 held "        e2e-task-77      [000] .....        2: block_bio_queue: $d W 4096 + 8 [e2e-task]" &&
	check_exits 1 report &&
	grep -q "^FAIL \[io-frozen\] cycle 1 (freezer): btrfs (vd[a-z]): 1 request(s) .* from e2e-task (first event 2 by e2e-task-77: W 4096+8)" out
'

test_expect_success XZ "a request sent to a frozen disk with no traced submission fails" '
	sample 7.3 patched >/dev/null && d=$(btrfs_dev) &&
	in_window 1 held "    kworker/0:1H-80      [000] ...1.        2: block_rq_issue: $d W 4096 () 999999 + 8 be,0,4 [kworker/0:1H]" &&
	check_exits 1 report &&
	grep -q "^FAIL \[io-frozen\] cycle 1 (freezer): btrfs .* from kworker/0:1H (first event 2 by kworker/0:1H-80: W 999999+8)" out
'

test_expect_success XZ "a bio to a frozen disk outside the freezer is named in a note, not failed" '
	sample 7.3 patched >/dev/null && d=$(btrfs_dev) &&
	in_window 1 gap \
		"    kworker/u4:9-999     [001] .....        1: workqueue_execute_start: work struct 00000000deadbeef: function e2e_gap_workfn" \
		"    kworker/u4:9-999     [001] .....        2: block_bio_queue: $d DS 4096 + 8 [kworker/u4:9]" &&
	check_exits 0 report &&
	grep -q "^note cycle 1 (freezer): btrfs (vd[a-z]): 1 request(s) to its disk while frozen, outside the freezer, from e2e_gap_workfn " out
'

test_expect_success XZ "a bare cache flush to a frozen disk is counted, not failed" '
	sample 7.3 patched >/dev/null && d=$(btrfs_dev) &&
	in_window 1 held "              dd-4063    [000] .....        2: block_bio_queue: $d FWS 0 + 0 [dd]" &&
	check_exits 0 report &&
	grep -q "^ok cycle 1 (freezer): btrfs (vd[a-z]): .* (1 bare cache flushes submitted while frozen)" out
'

# after_snapshot WHERE LINES...: the 7.3 hibernation's console with LINES
# put in after the first line that has WHERE in it.
after_snapshot()
{
	local c where=$1
	c=$(console 7.3 hibernate) || return 1
	shift
	awk -v where="$where" -v lines="$(printf "%s\n" "$@")" '
		{ print }
		!done && index($0, where) { printf "%s\n", lines; done = 1 }
	' "$c" >console && ! cmp -s "$c" console
}

test_expect_success XZ,SNAPSHOT_7_3 "a bio to a filesystem's disk after the hibernation snapshot fails, named by its task" '
	sample 7.3 hibernate >/dev/null && d=$(btrfs_dev 7.3-hibernate.report) && test -n "$d" &&
	after_snapshot "snapshot_save: (swsusp_save" "[   31.700000] block_bio_queue: $d DS 305152 + 128 [kworker/u4:9]" &&
	check_exits 1 7.3-hibernate.report console &&
	grep -q "^FAIL \[io-frozen\] after the hibernation snapshot: btrfs (vd[a-z]): 1 request(s) to its disk while the image was written, from kworker/u4:9 (first: block_bio_queue: $d DS 305152 + 128 \[kworker/u4:9\])\$" out
'

test_expect_success XZ,SNAPSHOT_7_3 "the same bio before the snapshot, or in the boot that restored the image, is not one after it" '
	sample 7.3 hibernate >/dev/null && d=$(btrfs_dev 7.3-hibernate.report) &&
	after_snapshot "e2e-mark: cycle 1 hibernate begin" "[   19.100000] block_bio_queue: $d DS 305152 + 128 [kworker/u4:9]" &&
	check_exits 0 7.3-hibernate.report console &&
	c=$(console 7.3 hibernate) &&
	awk -v d="$d" "{ print } /Linux version / { n++ } n == 2 && !done { print \"[    1.000000] snapshot_save: (swsusp_save+0x0/0x470)\"; print \"[    1.100000] block_bio_queue: \" d \" DS 305152 + 128 [kworker/u4:9]\"; done = 1 }" $c >console &&
	check_exits 0 7.3-hibernate.report console
'

test_expect_success XZ,SNAPSHOT_7_3 "a console with no snapshot_save event in the boot that wrote the image fails [guest]" '
	sample 7.3 hibernate >/dev/null && c=$(console 7.3 hibernate) &&
	grep -v "snapshot_save: (swsusp_save" $c >console && ! cmp -s $c console &&
	check_exits 1 7.3-hibernate.report console &&
	grep -q "^FAIL \[guest\] after the hibernation snapshot: no snapshot_save event on the console" out
'

test_expect_success XZ "a hibernation whose image did not come back fails [guest]" '
	r=$(sample 7.3 hibernate) &&
	sed "/^e2e: hibernating\$/,\$d" $r >report &&
	printf "e2e: begin 7.3.4\ne2e: mode hibernate\ne2e: error resume: booted with resume=/dev/vdh, but the hibernation image did not come back\ne2e: dmesg begin\ne2e: dmesg end\ne2e: end\n" >>report &&
	check_exits 1 report &&
	grep -q "^FAIL \[guest\] guest: error resume: " out
'

# The proofs of what mainline's freeze lacks (patches/linux-mainline/),
# recorded from 7.3: the converted kernel with the prerequisites
# ("patched") and without them ("unready"), through a hibernation by
# /dev/snapshot, and through a suspend in which an ext4 (the "victim")
# fails to freeze.
test_lazy_prereq PREREQ_RUNS "test -f $SAMPLES/linux-7.3-io-snapshot-unready.report.xz && test -f $SAMPLES/linux-7.3-io-failfreeze-unready.report.xz"

test_expect_success XZ,PREREQ_RUNS "7.3 /dev/snapshot: with the prerequisites, no request to a flagged disk from the image to SNAPSHOT_UNFREEZE" '
	r=$(sample 7.3 snapshot-patched) && check_exits 0 $r &&
	grep -q "^e2e: snapshot: image [1-9][0-9]* bytes, in_suspend 1" $r &&
	grep -q "^ok from SNAPSHOT_CREATE_IMAGE to SNAPSHOT_UNFREEZE: no request to the disk of a flagged filesystem\$" out &&
	grep -q "^ok cycle 1 (snapshot): froze " out
'

test_expect_success XZ,PREREQ_RUNS "7.3 /dev/snapshot: without them, the same run fails, on I/O from a converted thread" '
	r=$(sample 7.3 snapshot-unready) && check_exits 1 $r &&
	grep -q "^FAIL \[snapshot-io\] from SNAPSHOT_CREATE_IMAGE to SNAPSHOT_UNFREEZE: [a-z0-9]* (vd[a-z]): [0-9]* request(s) to its disk, from " out
'

test_expect_success XZ,PREREQ_RUNS "7.3 /dev/snapshot: a bio put between the image and SNAPSHOT_UNFREEZE fails, named by its work function" '
	r=$(sample 7.3 snapshot-patched) && d=$(btrfs_dev $r) && test -n "$d" &&
	awk -v d="$d" "{ print } /: tracing_mark_write: e2e-mark: snapshot created\$/ {
		print \"    kworker/u4:9-999     [001] .....        1: workqueue_execute_start: work struct 00000000deadbeef: function e2e_snapshot_workfn\"
		print \"    kworker/u4:9-999     [001] .....        2: block_bio_queue: \" d \" WS 4096 + 8 [kworker/u4:9]\" }" $r >report &&
	! cmp -s $r report &&
	check_exits 1 report &&
	grep -q "^FAIL \[snapshot-io\] from SNAPSHOT_CREATE_IMAGE to SNAPSHOT_UNFREEZE: btrfs (vd[a-z]): 1 request(s) to its disk, from e2e_snapshot_workfn " out
'

test_expect_success XZ,PREREQ_RUNS "7.3 failed freeze: with the prerequisites, the suspend is refused, the victim named, all thawed" '
	r=$(sample 7.3 failfreeze-patched) && check_exits 0 $r &&
	grep -q "^ok cycle 1 (failfreeze): the suspend was refused, ext4 (vd[a-z]) having failed to freeze\$" out &&
	grep -q "^ok cycle 1 (failfreeze): the kernel names it: VFS: ext4 (vd[a-z]): freeze for system sleep failed: -[0-9]*\$" out &&
	grep -q "^ok cycle 1 (failfreeze): each filesystem frozen in the attempt was thawed: ext4 (vda), " out
'

test_expect_success XZ,PREREQ_RUNS "7.3 failed freeze: without them, the suspend goes on with the victim unfrozen" '
	r=$(sample 7.3 failfreeze-unready) && check_exits 1 $r &&
	grep -q "^FAIL \[freeze-fail\] cycle 1 (failfreeze): the suspend went on though ext4 (vd[a-z]) failed to freeze\$" out
'

test_expect_success XZ,PREREQ_RUNS "7.3 failed freeze: a filesystem left frozen after the refusal fails" '
	r=$(sample 7.3 failfreeze-patched) &&
	grep -v ": thaw_xfs: " $r >report && ! cmp -s $r report &&
	check_exits 1 report &&
	grep -q "^FAIL \[freeze-fail\] cycle 1 (failfreeze): xfs (vd[a-z]) froze and was not thawed\$" out
'

test_done
