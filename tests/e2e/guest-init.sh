#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the e2e guest (busybox sh, PID 1).  It runs the scenario and
# states what it saw on the second serial port (/dev/ttyS1), one fact per
# line starting with "e2e:", then the kernel log between "e2e: dmesg
# begin" and "e2e: dmesg end".  It decides nothing: the host's
# e2e-check.sh reads those lines and says pass or fail.
#
# The scenario, on the disks the host attached (e2e.fs=, below):
#   each mounted in order, with the host's mount options;
#   on each, a writer with fsync (dd ... conv=fsync of random data, a
#   sha256 per file) and a writer that only dirties the page cache;
#   background I/O of the filesystems' own: on btrfs, mounted with
#   discard=async, emptied block groups of deleted files for its discard
#   worker, throttled so that it runs for minutes (the guest waits until
#   it has started), and a scrub at a throttled speed, started again
#   whenever it ends, through the freezer cycles; the discard worker
#   discarding as each devices cycle begins; f2fs's GC thread at its
#   urgent pace; an fstrim of each other filesystem as each cycle begins;
#   suspend cycles at pm_test level "freezer", then "devices";
#   writer progress across each cycle, then remount and verify sums;
#   fsfreeze --freeze on xfs, one more suspend cycle, then probe: a write
#   to xfs must still block until --unfreeze, to the others it must not.
#
# With e2e.mode=hibernate, one cycle is a real hibernation in place of
# the suspend cycles and the user freeze: swap on the last disk,
# "echo disk > /sys/power/state" with /sys/power/disk at "reboot", and
# qemu exits.  The host boots the kernel again with resume= on that disk;
# the image comes back, "echo disk" returns here, and the scenario goes
# on: progress, verify, and a write to each filesystem.  A fresh /init on
# a kernel booted with resume= means the image did not come back.  From
# just before "echo disk" the trace events go to the console as well
# (tracepoint_printk, with tp_printk on the first boot's command line):
# what the first boot does after the snapshot is in no trace read back.
#
# With e2e.mode=snapshot, one cycle is a hibernation through
# /dev/snapshot, as uswsusp's s2disk drives it, in place of the suspend
# cycles and the user freeze: /bin/snapshot-client (snapshot-client.c)
# freezes, creates the image, reads it out, holds 3 s where s2disk would
# write it, frees it and unfreezes, marking each step in the trace; the
# writers and the background work run throughout.  Then progress,
# verify and a write to each filesystem, as after a hibernation.
#
# With e2e.mode=failfreeze, one suspend (pm_test "freezer") in which a
# flagged filesystem fails to freeze, in place of the suspend cycles and
# the user freeze: the host's extra ext4 disk (e2e.victim=DEV) is mounted
# first (so frozen last, after the others), dirtied, and made to fail
# every bio (fail_make_request) just before "echo mem", with no sync on
# suspend, so that its freeze meets the errors in its sync.  Then the
# injection is off again, progress, verify and a write to each of the
# other filesystems (none may be left frozen).
#
# Every cycle is traced, and the trace follows the kernel log in the
# report, between "e2e: trace begin" and "e2e: trace end", in the order
# of the "counter" trace clock (the guest's clock ticks in jiffies, too
# coarse to order two CPUs' events): each type's ->freeze_fs (return)
# and ->unfreeze_fs (entry and return) and the freezer taking and
# letting go of the kernel threads as kprobe events, every bio submitted
# (block:block_bio_queue) and request sent (block:block_rq_issue), and
# which work function each kworker runs (workqueue:workqueue_execute_start
# and _end), so that the host can tell what reached a frozen
# filesystem's disk and who submitted it.  A kernel with our core series
# also prints "<type> (<dev>): freezing" and "thawing" itself.
#
# Kernel command line knobs (the host sets them):
#   e2e.cycles=N     suspend cycles per pm_test level (default 2)
#   e2e.mode=M       "suspend" (default), "hibernate", "snapshot" or
#                    "failfreeze"
#   e2e.victim=DEV   failfreeze: the ext4 disk whose freeze is made to fail
#   e2e.swap=DEV     the swap disk, for hibernate
#   e2e.discard_wait=0  do not wait for btrfs's discard worker to start
#                    (a kernel whose filesystems do not freeze on suspend)
#   e2e.fs=TYPE:FREEZE_FS:UNFREEZE_FS:OPTIONS, once per disk, in the
#                    order of the disks (vda, vdb, ...); OPTIONS "-" for
#                    none
#   e2e.unflagged=TYPE,...  of those, the types the conversion does not
#                    flag on this version: run all the same, and named in
#                    the report, for the check not to expect their freeze

PATH=/bin
export PATH

/bin/busybox --install -s /bin
mkdir -p /proc /sys /dev /tmp /mnt
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
tracing=/sys/kernel/tracing
mount -t tracefs tracefs $tracing 2>/dev/null

out=/dev/ttyS1
[ -c "$out" ] || out=/dev/console
exec 3>"$out"

say()
{
	echo "e2e: $*" >&3
}

# A mark in the kernel log and the trace, so the host can cut them into
# cycles.
mark()
{
	echo "e2e-mark: $*" > /dev/kmsg
	[ ! -w $tracing/trace_marker ] || echo "e2e-mark: $*" > $tracing/trace_marker
}

finish()
{
	say "dmesg begin"
	dmesg >&3
	say "dmesg end"
	if [ -n "$traced" ]; then
		say "trace begin"
		grep -v '^#' $tracing/trace >&3
		say "trace end"
	fi
	knob
	say "end"
	sync
	reboot -f
	sleep 60
}

# Mainline freezes every filesystem on suspend when this is 1; the test
# is about the ones that opt in, so it must stay at its default, 0.
knob()
{
	[ ! -r /sys/power/freeze_filesystems ] ||
		say "freeze_filesystems $(cat /sys/power/freeze_filesystems)"
}

# Return probes e2e/freeze_<type> and e2e/thaw_<type>, with the return
# value (0 is a filesystem frozen, or thawed, anything else a failure),
# and an entry probe e2e/unfreeze_<type>: a filesystem's frozen window
# runs from its ->freeze_fs's return to its ->unfreeze_fs's entry.  And
# when the freezer holds the kernel threads: from freeze_kernel_threads()
# returning 0 to thaw_workqueues(), the first thing thaw_processes() and
# thaw_kernel_threads() let go.  And e2e/snapshot_save, on entry to
# swsusp_save(), which copies memory into the hibernation image.
probe_freeze_ops()
{
	for spec in $fs_specs; do
		set -- $(echo "$spec" | tr : ' ')
		echo "r:e2e/freeze_$1 $2 ret=\$retval:s32" &&
		echo "p:e2e/unfreeze_$1 $3" &&
		echo "r:e2e/thaw_$1 $3 ret=\$retval:s32" || return 1
	done >> $tracing/kprobe_events &&
	{
		echo "r:e2e/freezer_on freeze_kernel_threads ret=\$retval:s32" &&
		echo "p:e2e/freezer_off thaw_workqueues" &&
		echo "p:e2e/snapshot_save swsusp_save"
	} >> $tracing/kprobe_events &&
	echo 1 > $tracing/events/e2e/enable &&
	echo 1 > $tracing/events/block/block_rq_issue/enable &&
	echo 1 > $tracing/events/block/block_bio_queue/enable &&
	echo 1 > $tracing/events/workqueue/workqueue_execute_start/enable &&
	echo 1 > $tracing/events/workqueue/workqueue_execute_end/enable &&
	quiet_events &&
	echo 16384 > $tracing/buffer_size_kb &&
	echo counter > $tracing/trace_clock &&
	echo 0 > $tracing/tracing_on
}

# Leave out what floods the trace and decides nothing: writeback's work
# item (which requeues itself over and over while a filesystem is
# frozen; its bios then show under the kworker's name), and requests to
# the swap disk (the hibernation image).
quiet_events()
{
	addr=$(sed -n 's/^\([0-9a-f]*\) [tT] wb_workfn$/\1/p' /proc/kallsyms)
	if [ -n "$addr" ] && [ "$addr" != 0000000000000000 ]; then
		echo "function != 0x$addr" > $tracing/events/workqueue/workqueue_execute_start/filter &&
		echo "function != 0x$addr" > $tracing/events/workqueue/workqueue_execute_end/filter ||
			return 1
	fi
	[ -n "$swap" ] || return 0
	d=$(cat /sys/block/$swap/dev)
	for ev in block_bio_queue block_rq_issue; do
		echo "dev != $(( (${d%:*} << 20) | ${d#*:} ))" > $tracing/events/block/$ev/filter ||
			return 1
	done
}

cycles=2
btrfs_sysfs=
mode=suspend
discard_wait=1
swap=
resume=
fs_specs=
unflagged=
victim=
for arg in $(cat /proc/cmdline); do
	case $arg in
	e2e.cycles=*) cycles=${arg#e2e.cycles=} ;;
	e2e.mode=*) mode=${arg#e2e.mode=} ;;
	e2e.swap=*) swap=${arg#e2e.swap=} ;;
	e2e.discard_wait=*) discard_wait=${arg#e2e.discard_wait=} ;;
	resume=*) resume=${arg#resume=} ;;
	e2e.fs=*) fs_specs="$fs_specs ${arg#e2e.fs=}" ;;
	e2e.unflagged=*) unflagged=${arg#e2e.unflagged=} ;;
	e2e.victim=*) victim=${arg#e2e.victim=} ;;
	esac
done

say "begin $(uname -r)"
say "mode $mode"
if [ -n "$resume" ]; then
	say "error resume: booted with resume=$resume, but the hibernation image did not come back"
	finish
fi
echo 10 > /proc/sys/kernel/hung_task_timeout_secs
if [ ! -w /sys/power/pm_test ]; then
	say "error no /sys/power/pm_test (CONFIG_PM_DEBUG)"
	finish
fi
say "pm_test $(cat /sys/power/pm_test)"
say "state $(cat /sys/power/state)"
knob
[ -n "$fs_specs" ] || { say "error no e2e.fs= on the kernel command line"; finish; }
traced=
if [ -w $tracing/kprobe_events ] && probe_freeze_ops; then
	traced=1
	say "kprobes$(sed -n 's|^[pr][0-9]*:e2e/\([a-z]*_[a-z0-9]*\) .*| \1|p' $tracing/kprobe_events | tr -d '\n')"
else
	say "error kprobe and block events on ->freeze_fs, ->unfreeze_fs and block_rq_issue failed"
	finish
fi

# mount_fs TYPE DEV OPTIONS
mount_fs()
{
	if [ "$3" = - ]; then
		mount -t $1 /dev/$2 /mnt/$1
	else
		mount -t $1 -o $3 /dev/$2 /mnt/$1
	fi
}

# The victim of failfreeze first: the oldest superblock, frozen last.
if [ $mode = failfreeze ]; then
	mkdir -p /mnt/victim
	if [ -n "$victim" ] && mount -t ext4 /dev/$victim /mnt/victim; then
		say "victim ext4 $victim $(cat /sys/block/$victim/dev)"
	else
		say "error mount of the failfreeze victim /dev/$victim failed"
		finish
	fi
fi

# The host's disks, in order.  They are mounted in this order: the kernel
# freezes the newest superblock first.
disks=
fss=
n=0
for spec in $fs_specs; do
	fs=${spec%%:*}
	opts=${spec##*:}
	dev=vd$(echo abcdefghijklmnop | cut -c $((n + 1)))
	disks="$disks $fs:$dev:$opts"
	mkdir -p /mnt/$fs
	if mount_fs $fs $dev $opts; then
		n=$((n + 1))
		fss="$fss $fs"
		say "mount $n $fs $dev"
		case ,$unflagged, in
		*,$fs,*) say "unflagged $fs" ;;
		esac
		say "disk $fs $dev $(cat /sys/block/$dev/dev)"
	else
		say "error mount $fs $dev failed"
		finish
	fi
done

# The writers wait between files while /tmp/pause is there.
paused()
{
	while [ -e /tmp/pause ] && [ ! -e /tmp/stop ]; do
		sleep 0.2
	done
}

# A bounded writer: at most 100000 files, stops when /tmp/stop appears.
writer()
{
	fs=$1
	i=0
	mkdir -p /mnt/$fs/w
	while [ $i -lt 100000 ] && [ ! -e /tmp/stop ]; do
		paused
		i=$((i + 1))
		f=/mnt/$fs/w/$i
		if ! dd if=/dev/urandom of=$f bs=4096 count=8 conv=fsync \
				2>/dev/null; then
			echo "$i" > /tmp/$fs.error
			break
		fi
		sha256sum $f >> /tmp/$fs.sums
		# Renamed into place, so that a reader never sees it empty.
		echo $i > /tmp/$fs.count.new
		mv /tmp/$fs.count.new /tmp/$fs.count
	done
}

# Dirty page cache for the freeze to write back: a rotating set of 16
# files, never synced by the writer itself.
dirtier()
{
	fs=$1
	i=0
	mkdir -p /mnt/$fs/d
	while [ ! -e /tmp/stop ]; do
		paused
		i=$(((i + 1) % 16))
		dd if=/dev/urandom of=/mnt/$fs/d/$i bs=4096 count=16 \
			2>/dev/null || break
		sleep 0.5
	done
}

count()
{
	cat /tmp/$1.count 2>/dev/null || echo 0
}

# counts: " fs=N ..." for every filesystem, the files each writer wrote
counts()
{
	for fs in $fss; do
		printf ' %s=%s' $fs "$(count $fs)"
	done
}

# btrfs's own background I/O.  Async discard takes up a block group
# that is left empty 10 s after it emptied (and one with space freed in
# it only after 120 s): so a small file first, which keeps the first data
# block group in use and the writers' allocations in it, then 96 MiB
# written and deleted, which empties the block groups after it.  One
# discard every 250 ms, of at most 64 KiB, keeps the discard worker busy
# for minutes.  A scrub (btrfs_scrub_start) keeps the scrub workers busy.
btrfs_background()
{
	uuid=$(ls /sys/fs/btrfs | grep -- -)
	sysfs=/sys/fs/btrfs/$uuid
	if [ ! -d "$sysfs/discard" ]; then
		say "error btrfs: no /sys/fs/btrfs/<uuid>/discard"
		return
	fi
	echo 4 > $sysfs/discard/iops_limit
	echo 65536 > $sysfs/discard/max_discard_size
	dd if=/dev/urandom of=/mnt/btrfs/keep bs=4096 count=16 conv=fsync 2>/dev/null
	mkdir -p /mnt/btrfs/garbage
	j=0
	while [ $j -lt 12 ]; do
		j=$((j + 1))
		dd if=/dev/zero of=/mnt/btrfs/garbage/$j bs=1M count=8 2>/dev/null
	done
	sync
	rm -r /mnt/btrfs/garbage
	sync
	# The cleaner hands the empty block groups to the discard worker
	# now, not at its next transaction commit.
	btrfs filesystem sync /mnt/btrfs >/dev/null 2>&1
	btrfs_sysfs=$sysfs
	say "btrfs discard=async: 96 MiB deleted, $(cat $sysfs/discard/discardable_bytes) bytes to discard, iops_limit 4, max_discard_size 64 KiB"
}

# A scrub at 1 MiB/s, started again whenever it ends (a freeze cancels
# it).  Each pass hands the empty block groups back to the discard worker
# (scrub_enumerate_chunks() calls btrfs_discard_queue_work()), which then
# waits 10 s for them again: the two take turns.  The scrub runs through
# the freezer cycles, and btrfs_scrub_stop ends it before the devices
# cycles, where the discard worker runs.
btrfs_scrub_start()
{
	for d in $btrfs_sysfs/devinfo/*; do
		echo 1048576 > $d/scrub_speed_max
	done
	if command -v btrfs >/dev/null; then
		(while [ ! -e /tmp/stop ] && [ ! -e /tmp/btrfs.scrub.stop ]; do
			btrfs scrub start -B -q /mnt/btrfs >/dev/null 2>&1
			echo x >> /tmp/btrfs.scrubs
			sleep 1
		done) &
		echo $! > /tmp/btrfs.scrub.pid
		say "btrfs scrub: running at 1 MiB/s"
	else
		say "error btrfs: no btrfs tool in the guest for scrub"
	fi
}

# Stop btrfs's scrub loop and report its runs.
btrfs_scrub_stop()
{
	[ -e /tmp/btrfs.scrub.pid ] && [ ! -e /tmp/btrfs.scrub.stop ] || return 0
	touch /tmp/btrfs.scrub.stop
	btrfs scrub cancel /mnt/btrfs >/dev/null 2>&1
	wait "$(cat /tmp/btrfs.scrub.pid)"
	say "btrfs scrub: $(wc -l < /tmp/btrfs.scrubs) runs"
}

# btrfs_discarding SECONDS: wait, at most SECONDS, until btrfs's discard
# worker has discarded since the last look, so that it has work queued as
# a suspend begins.
btrfs_discarding()
{
	[ -n "$btrfs_sysfs" ] && [ "$discard_wait" != 0 ] || return 0
	last=$(cat $btrfs_sysfs/discard/discard_extent_bytes)
	now=$last
	tenths=0
	while [ "$now" = "$last" ]; do
		if [ $tenths -ge $(($1 * 10)) ]; then
			say "btrfs discard: idle for $1 s, discarded $last bytes"
			return 1
		fi
		sleep 0.5
		tenths=$((tenths + 5))
		now=$(cat $btrfs_sysfs/discard/discard_extent_bytes)
	done
	say "btrfs discard: running after $((tenths / 10)).$((tenths % 10)) s, discarded $now bytes"
}

f2fs_background()
{
	for d in /sys/fs/f2fs/vd*; do
		echo 100 > $d/gc_urgent_sleep_time &&
		echo 1 > $d/gc_urgent ||
			say "error f2fs: gc_urgent not set in $d"
	done
	say "f2fs gc: urgent, every 100 ms"
}

for fs in $fss; do
	case $fs in
	btrfs) btrfs_background ;;
	f2fs) f2fs_background ;;
	esac
	writer $fs &
	echo $! > /tmp/$fs.pid
	dirtier $fs &
	echo $! > /tmp/$fs.dirtier
done
# Until btrfs's discard worker has started on the emptied block groups
# (10 s after the cleaner handed them over); then the scrub.
if [ -z "$btrfs_sysfs" ] || [ "$discard_wait" = 0 ]; then
	sleep 1
elif ! btrfs_discarding 60; then
	say "error btrfs: async discard did not start in 60 s"
	finish
fi
[ -z "$btrfs_sysfs" ] || btrfs_scrub_start

# suspend_mem: "echo mem > /sys/power/state", as a suspend daemon does,
# from a process of its own.  Not from this shell: the fstrim jobs of
# the cycle are its children, and one that ends as the suspend begins
# leaves a SIGCHLD pending in the writer, which fails an interruptible
# freeze (6.1's nilfs2 sleeps TASK_INTERRUPTIBLE in nilfs_segctor_sync())
# and with it the attempt, which the kernel then restarts.
suspend_mem()
{
	sh -c "echo mem > /sys/power/state"
}

suspend_cycle()
{
	level=$1
	k=$2
	echo $level > /sys/power/pm_test
	[ $level != devices ] || [ -e /tmp/stop ] || btrfs_discarding 20 || true
	# Discards of their own, in flight as the freeze begins (not on a
	# user-frozen filesystem, which the writers have left by then).
	trims=
	if [ ! -e /tmp/stop ]; then
		for fs in $fss; do
			# btrfs discards by itself (discard=async); an
			# fstrim would take its backlog away.
			[ $fs != btrfs ] || continue
			fstrim /mnt/$fs >/dev/null 2>&1 &
			trims="$trims $!"
		done
	fi
	echo 1 > $tracing/tracing_on
	mark "cycle $k $level begin"
	if suspend_mem; then
		rc=0
	else
		rc=1
	fi
	mark "cycle $k $level end"
	say "cycle $k $level rc=$rc"
	# What the thaw lets loose, in the trace too.
	sleep 1
	echo 0 > $tracing/tracing_on
	for pid in $trims; do
		wait $pid
	done
}

# Stop the writers and the background work; report what they did.
finish_writers()
{
	touch /tmp/stop
	btrfs_scrub_stop
	for fs in $fss; do
		wait "$(cat /tmp/$fs.dirtier)"
		wait "$(cat /tmp/$fs.pid)"
		say "writer $fs files=$(count $fs) error=$(cat /tmp/$fs.error 2>/dev/null || echo none)"
	done
}

# Every file must read back as written, from disk: remount first.
verify()
{
	for spec in $disks; do
		set -- $(echo "$spec" | tr : ' ')
		fs=$1
		sync
		if ! umount /mnt/$fs || ! mount_fs $1 $2 $3; then
			say "error remount $fs failed"
			finish
		fi
		bad=$(sha256sum -c /tmp/$fs.sums 2>/dev/null | grep -vc ': OK$')
		say "verify $fs files=$(wc -l < /tmp/$fs.sums) bad=$bad"
	done
	# The remount made new superblocks, in the same order as before.
	say "remounted"
}

# A write to each filesystem; a user-frozen one blocks it.
probe_writes()
{
	for fs in $fss; do
		(echo probe > /mnt/$fs/probe && sync -f /mnt/$fs/probe && \
			touch /tmp/$fs.probed) &
		echo $! > /tmp/$fs.probe
	done
	sleep 3
	for fs in $fss; do
		if [ -e /tmp/$fs.probed ]; then
			say "probe $fs written"
		else
			say "probe $fs blocked"
		fi
	done
}

# One real hibernation, to the swap disk; qemu exits once the image is
# written, and this returns in the second boot, from the image.
hibernate_cycle()
{
	k=1
	if [ -z "$swap" ] || ! swapon /dev/$swap; then
		say "error swapon /dev/$swap failed"
		finish
	fi
	echo reboot > /sys/power/disk
	echo 0 > /sys/power/image_size
	# The discard worker, not the scrub, busy as the hibernation begins.
	btrfs_scrub_stop
	btrfs_discarding 20 || true
	# The writers wait out the hibernation's entry: from here on every
	# trace event is printed on the console too (below), and on 6.1
	# and 6.12, whose serial console prints under the console lock,
	# theirs outran it and the hibernation never got past its sync (3
	# runs of 4).  They are frozen before any filesystem is on 6.1 and
	# 6.12; the suspend cycles run them through 7.3's freeze.
	touch /tmp/pause
	sleep 1
	# What the kernel does after the snapshot, while it writes the
	# image, is not in the image's trace: the trace events go to the
	# console too (tp_printk on the host's command line), from here
	# until the image is back.
	if echo 1 > /proc/sys/kernel/tracepoint_printk &&
			[ "$(cat /proc/sys/kernel/tracepoint_printk)" = 1 ]; then
		say "tracepoint_printk 1"
	else
		say "error tracepoint_printk: cannot set it (no tp_printk on the kernel command line?)"
		finish
	fi
	before=$(counts)
	echo 1 > $tracing/tracing_on
	mark "cycle $k hibernate begin"
	say "hibernating"
	if echo disk > /sys/power/state; then
		rc=0
	else
		rc=1
	fi
	echo 0 > /proc/sys/kernel/tracepoint_printk
	mark "cycle $k hibernate end"
	say "cycle $k hibernate rc=$rc"
	rm -f /tmp/pause
	sleep 3
	echo 0 > $tracing/tracing_on
	after=$(counts)
	say "progress $k before$before after$after"
	swapoff /dev/$swap
}

# One hibernation through /dev/snapshot, the image read out and dropped.
snapshot_cycle()
{
	k=1
	# The discard worker, not the scrub, busy as the freeze begins.
	btrfs_scrub_stop
	btrfs_discarding 20 || true
	before=$(counts)
	echo 1 > $tracing/tracing_on
	mark "cycle $k snapshot begin"
	if /bin/snapshot-client 3 > /tmp/snapshot.out 2>&1; then
		rc=0
	else
		rc=1
	fi
	mark "cycle $k snapshot end"
	while read -r line; do
		say "$line"
	done < /tmp/snapshot.out
	say "cycle $k snapshot rc=$rc"
	sleep 1
	echo 0 > $tracing/tracing_on
	after=$(counts)
	say "progress $k before$before after$after"
}

# One suspend in which the victim's freeze fails: it must be refused,
# and every filesystem frozen before the failure thawed.
failfreeze_cycle()
{
	k=1
	fi=/sys/kernel/debug/fail_make_request
	btrfs_scrub_stop
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	if [ ! -w $fi/probability ] || [ ! -w /sys/block/$victim/make-it-fail ]; then
		say "error failfreeze: no fail_make_request (CONFIG_FAIL_MAKE_REQUEST, CONFIG_FAULT_INJECTION_DEBUG_FS)"
		finish
	fi
	# The freeze, not the sync before it, meets the errors.
	[ ! -w /sys/power/sync_on_suspend ] || echo 0 > /sys/power/sync_on_suspend
	echo freezer > /sys/power/pm_test
	dd if=/dev/urandom of=/mnt/victim/dirty bs=4096 count=64 2>/dev/null
	before=$(counts)
	echo 100 > $fi/probability
	echo -1 > $fi/times
	echo 0 > $fi/verbose
	echo 1 > /sys/block/$victim/make-it-fail
	echo 1 > $tracing/tracing_on
	mark "cycle $k failfreeze begin"
	if suspend_mem; then
		rc=0
	else
		rc=1
	fi
	mark "cycle $k failfreeze end"
	echo 0 > /sys/block/$victim/make-it-fail
	say "cycle $k failfreeze rc=$rc"
	sleep 1
	echo 0 > $tracing/tracing_on
	after=$(counts)
	say "progress $k before$before after$after"
}

# umount_all: the filesystems under test unmounted, before finish.
umount_all()
{
	for fs in $fss; do
		umount /mnt/$fs || say "error umount $fs failed"
	done
}

# wind_up: the end of a run of one cycle (a failed freeze, a hibernation
# through /dev/snapshot, a real one): the writers stopped, their files
# read back, a write to each filesystem, all unmounted.
wind_up()
{
	finish_writers
	verify
	probe_writes
	umount_all
}

if [ $mode = failfreeze ]; then
	failfreeze_cycle
	wind_up
	umount /mnt/victim 2>/dev/null
	finish
fi

if [ $mode = snapshot ]; then
	snapshot_cycle
	wind_up
	finish
fi

if [ $mode = hibernate ]; then
	hibernate_cycle
	wind_up
	finish
fi

k=0
for level in freezer devices; do
	[ $level != devices ] || btrfs_scrub_stop
	j=0
	while [ $j -lt "$cycles" ]; do
		j=$((j + 1))
		k=$((k + 1))
		before=$(counts)
		suspend_cycle $level $k
		after=$(counts)
		say "progress $k before$before after$after"
	done
done

finish_writers
verify

# The user's freeze is the user's: suspend must leave it in place.
if ! fsfreeze --freeze /mnt/xfs; then
	say "error fsfreeze --freeze /mnt/xfs failed"
	finish
fi
say "user-frozen xfs"
k=$((k + 1))
suspend_cycle freezer $k

# A write to each: the user-frozen one must block, the others complete.
probe_writes
fsfreeze --unfreeze /mnt/xfs
say "user-thawed xfs"
wait "$(cat /tmp/xfs.probe)"
if [ -e /tmp/xfs.probed ] && [ "$(cat /mnt/xfs/probe)" = probe ]; then
	say "probe-after-thaw xfs written"
else
	say "probe-after-thaw xfs lost"
fi

umount_all
finish
