#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The e2e verdict, without qemu: scripts/lib/e2e-check.sh on guest reports
# recorded from real runs (tests/e2e/samples/, one patched and one
# control per kernel version), and on copies of a passing report with
# one thing broken each, as a broken series would break it.  7.3's
# reports carry the freezes as traced returns of ->freeze_fs and
# ->unfreeze_fs rather than the series' kernel log lines.  Also e2e.sh's
# answers to bad input.
# test-run: light

. "$(dirname "$0")/lib.sh"

CHECK=$TOP/scripts/lib/e2e-check.sh
SAMPLES=$TESTS/e2e/samples

for v in 6.1 6.12 7.3; do
	pass=$SAMPLES/linux-$v-patched.report
	ctl=$SAMPLES/linux-$v-control.report

	test_expect_success "linux $v: the recorded patched run passes every check" '
		$CHECK $pass >out; rc=$?; cat out;
		test $rc -eq 0 && ! grep "^FAIL" out &&
		grep -q "^ok cycle 1 (freezer): froze btrfs (vdc), xfs (vdb), ext4 (vda)\$" out &&
		grep -q "^ok cycle 1 (freezer): thawed ext4 (vda), xfs (vdb), btrfs (vdc)\$" out
	'

	test_expect_success "linux $v: the recorded control run fails, on the VFS freeze only" '
		$CHECK $ctl >out; rc=$?; cat out;
		test $rc -eq 1 && grep -q "^FAIL \[fs-freeze\]" out &&
		! grep "^FAIL" out | grep -v "^FAIL \[fs-freeze\]"
	'
done

pass=$SAMPLES/linux-6.1-patched.report

# broken_case DESCRIPTION CLASS SED-SCRIPT: the sample, edited by
# SED-SCRIPT, fails with a FAIL line of CLASS.
broken_case()
{
	local class=$2 edit=$3

	test_expect_success "a run where $1 fails [$2]" '
		sed -e "$edit" $pass >report && ! cmp -s $pass report &&
		{ $CHECK report >out; rc=$?; cat out; test $rc -eq 1; } &&
		grep -q "^FAIL \[$class\]" out
	'
}

broken_case "one filesystem was not thawed" fs-freeze \
	'0,/^\(.*\] \)\?xfs (vdb): thawing$/{/xfs (vdb): thawing$/d}'
broken_case "filesystems froze in mount order, not reverse" fs-freeze \
	's/btrfs (vdc): freezing/SWAP/; s/ext4 (vda): freezing/btrfs (vdc): freezing/; s/SWAP/ext4 (vda): freezing/'
broken_case "filesystems thawed in reverse order" fs-freeze \
	's/btrfs (vdc): thawing/SWAP/; s/ext4 (vda): thawing/btrfs (vdc): thawing/; s/SWAP/ext4 (vda): thawing/'
broken_case "a freeze failed" suspend \
	'0,/xfs (vdb): freezing$/s/xfs (vdb): freezing$/&\n[    2.5] xfs (vdb): unable to freeze, error=-16/'
broken_case "a task hung" suspend \
	'/^e2e: dmesg end$/i [   40.1] INFO: task xfsaild/vdb:201 blocked for more than 10 seconds.'
broken_case "the kernel warned" suspend \
	'/^e2e: dmesg end$/i [   40.1] WARNING: CPU: 0 PID: 1 at fs/super.c:1800 thaw_super_locked+0x1/0x2'
broken_case "the freezer gave up on tasks" suspend \
	'/^e2e: dmesg end$/i [   40.1] Freezing of tasks failed after 20.004 seconds (1 tasks refusing to freeze, wq_busy=0):'
broken_case "a suspend cycle returned an error" suspend \
	's/^e2e: cycle 2 freezer rc=0$/e2e: cycle 2 freezer rc=1/'
broken_case "a writer stopped across a cycle" data \
	's/^\(e2e: progress 1 before ext4=\)\([0-9]*\)\(.* after ext4=\)[0-9]*/\1\2\3\2/'
broken_case "a writer hit an error" data \
	's/^e2e: writer btrfs files=\([0-9]*\) error=none$/e2e: writer btrfs files=\1 error=7/'
broken_case "data read back wrong after remount" data \
	's/^\(e2e: verify xfs files=[0-9]*\) bad=0$/\1 bad=3/'
broken_case "suspend thawed the user-frozen filesystem" user \
	's/^e2e: probe xfs blocked$/e2e: probe xfs written/'
broken_case "suspend left another filesystem frozen" user \
	's/^e2e: probe ext4 written$/e2e: probe ext4 blocked/'
broken_case "the write blocked by the user freeze was lost" user \
	's/^e2e: probe-after-thaw xfs written$/e2e: probe-after-thaw xfs lost/'
broken_case "the guest stopped half way" guest \
	'/^e2e: cycle 3 /,$d'
broken_case "the guest reported an error" guest \
	's/^e2e: remounted$/e2e: error remount btrfs failed/'

# A type the conversion does not flag on the version (the policy holds
# it back) is mounted, named "unflagged" by the guest, and must not
# freeze.
test_expect_success "an unflagged filesystem that does not freeze passes, named" '
	sed -e "/^e2e: mount 3 btrfs vdc$/a e2e: unflagged btrfs" \
		-e "/btrfs (vdc): freezing$/d" -e "/btrfs (vdc): thawing$/d" \
		$pass >report &&
	$CHECK report >out; rc=$?; cat out; test $rc -eq 0 &&
	grep -q "^ok cycle 1 (freezer): froze xfs (vdb), ext4 (vda); not btrfs (vdc), not flagged\$" out &&
	grep -q "^ok cycle 1 (freezer): thawed ext4 (vda), xfs (vdb)\$" out &&
	grep -q "^ok verify btrfs: " out
'
broken_case "an unflagged filesystem froze all the same" fs-freeze \
	'/^e2e: mount 3 btrfs vdc$/a e2e: unflagged btrfs'
broken_case "an unflagged filesystem went unfrozen, and so did a flagged one" fs-freeze \
	'/^e2e: mount 3 btrfs vdc$/a e2e: unflagged btrfs
/xfs (vdb): freezing$/d
/xfs (vdb): thawing$/d'

# Mainline's suspend freeze prints nothing: 7.3's report carries each
# ->freeze_fs and ->unfreeze_fs return as a kprobe event in the trace.
pass=$SAMPLES/linux-7.3-patched.report

test_expect_success "linux 7.3: the user's own fsfreeze, traced outside the cycles, is not a suspend freeze" '
	grep -q "fsfreeze-[0-9]* .*: freeze_xfs: " $pass &&
	$CHECK $pass >out && grep -q "^ok cycle 5 (freezer, xfs user-frozen): froze btrfs (vdc), ext4 (vda)\$" out
'

broken_case "a traced ->freeze_fs was missing" fs-freeze \
	'0,/: freeze_xfs: /{/: freeze_xfs: /d}'
broken_case "a traced ->unfreeze_fs came in the wrong order" fs-freeze \
	'0,/: thaw_ext4: /s/: thaw_ext4: /: thaw_btrfs: /'
broken_case "a traced ->freeze_fs returned an error" suspend \
	'0,/: freeze_ext4: .* ret=0$/s/\(: freeze_ext4: .* ret=\)0$/\1-16/'
broken_case "the guest ran with /sys/power/freeze_filesystems at 1" guest \
	's/^e2e: freeze_filesystems 0$/e2e: freeze_filesystems 1/'
broken_case "the kprobes were set but no trace came back" guest \
	'/^e2e: trace begin$/,/^e2e: trace end$/d'
broken_case "suspend thawed a filesystem it had not frozen" fs-freeze \
	'/^e2e: dmesg end$/i [   13.4] WARNING: fs/super.c:2157 at thaw_super_locked+0x2ac/0x2c0, CPU#0: init/1\n[   13.4] Call Trace:'

test_expect_success "linux 7.3: that warning is the control's, and not counted again as a splat" '
	ctl=$SAMPLES/linux-7.3-control.report &&
	grep -q "WARNING: .* at thaw_super_locked+" $ctl &&
	$CHECK $ctl >out; cat out;
	grep -q "^FAIL \[fs-freeze\] suspend thawed a filesystem it had not frozen: WARNING: " out &&
	! grep -q "^FAIL \[suspend\]" out
'

test_expect_success "a splat on the console only (guest never dumped dmesg) fails [suspend]" '
	printf "[    9.9] BUG: kernel NULL pointer dereference, address: 0000000000000008\n" >console &&
	{ $CHECK $pass console >out; rc=$?; cat out; test $rc -eq 1; } &&
	grep -q "^FAIL \[suspend\] console: BUG: kernel NULL pointer" out
'

test_expect_success "a splat in both dmesg and console is reported once" '
	sed -e "/^e2e: dmesg end\$/i [   40.1] BUG: soft lockup - CPU#0 stuck for 22s!" $pass >report &&
	printf "[   40.1] BUG: soft lockup - CPU#0 stuck for 22s!\r\n" >console &&
	{ $CHECK report console >out; rc=$?; cat out; test $rc -eq 1; } &&
	test $(grep -c "soft lockup" out) -eq 1
'

test_expect_success "an empty report fails [guest]" '
	: >report && { $CHECK report >out; rc=$?; cat out; test $rc -eq 1; } &&
	grep -q "^FAIL \[guest\] guest ran" out
'

test_expect_success "e2e-check.sh: no report file is one line and exit 2" '
	{ $CHECK nosuch >out 2>&1; rc=$?; cat out; test $rc -eq 2; } &&
	test $(wc -l <out) -eq 1 && grep -q "^e2e-check.sh: nosuch: no such file" out
'

test_expect_success "e2e-check.sh: no arguments is usage and exit 2" '
	{ $CHECK >out 2>&1; rc=$?; test $rc -eq 2; } && grep -q "^usage: e2e-check.sh" out
'

# e2e.sh refuses bad input before it creates anything.
# e2e_bad [PREREQ] WHAT ENV KVER MESSAGE
e2e_bad()
{
	local prereq=
	if [ $# -eq 5 ]; then
		prereq=$1
		shift
	fi
	local env_set=$2 kver=$3 want="e2e.sh: $4"

	test_expect_success $prereq "e2e.sh: $1 is one line, exit 2, nothing created" '
		mkdir build && { env $env_set BUILD=$PWD/build "$TOP"/scripts/e2e.sh $kver >out 2>&1; rc=$?; cat out; test $rc -eq 2; } &&
		test $(wc -l <out) -eq 1 && grep -qF -e "$want" out &&
		test -z "$(ls build)"; rc=$?; rm -rf build; exit $rc
	'
}

e2e_bad "no version" "" "" "usage: e2e.sh KVER"
e2e_bad "KVER=abc" "" "abc" "KVER 'abc': not a kernel version"
e2e_bad "a version Debian does not ship" "" "5.99" "no /usr/src/linux-source-5.99.tar.xz"
# e2e.sh looks for Debian's source before it reads the E2E_* settings
e2e_bad DEBIAN_SRC_6_1 "E2E_ROLES=both" "E2E_ROLES=both" "6.1" "E2E_ROLES: 'both' is not control, patched, mutant or unready"
e2e_bad DEBIAN_SRC_6_1 "E2E_HIBERNATE=all" "E2E_HIBERNATE=all" "6.1" "E2E_HIBERNATE: 'all' is not control, patched, mutant or unready"
e2e_bad DEBIAN_SRC_6_1 "E2E_SNAPSHOT=all" "E2E_SNAPSHOT=all" "6.1" "E2E_SNAPSHOT: 'all' is not control, patched, mutant or unready"
e2e_bad DEBIAN_SRC_6_1 "E2E_ACCEL=hvf" "E2E_ACCEL=hvf" "6.1" "E2E_ACCEL 'hvf': not tcg or kvm"
e2e_bad DEBIAN_SRC_6_1 "E2E_CYCLES=many" "E2E_CYCLES=many" "6.1" "E2E_CYCLES and E2E_TIMEOUT must be numbers"
e2e_bad DEBIAN_SRC_6_1 "J=0" "J=0" "6.1" "J=0: not a number of jobs (1 or more)"

test_done
