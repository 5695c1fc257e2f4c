#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the e2e guest (busybox sh, PID 1).  It runs the scenario and
# states what it saw on the second serial port (/dev/ttyS1), one fact per
# line starting with "e2e:", then the kernel log between "e2e: dmesg
# begin" and "e2e: dmesg end".  It decides nothing: the host's
# e2e-check.sh reads those lines and says pass or fail.
#
# The scenario, on the disks the host attached in this order:
#   vda ext4, vdb xfs, vdc btrfs, mounted in that order;
#   a writer on each (dd ... conv=fsync of random data, a sha256 per file);
#   suspend cycles at pm_test level "freezer", then "devices";
#   writer progress across each cycle, then remount and verify sums;
#   fsfreeze --freeze on xfs, one more suspend cycle, then probe: a write
#   to xfs must still block until --unfreeze, to the others it must not.
#
# A kernel with our core series prints "<type> (<dev>): freezing" and
# "thawing" itself.  Mainline's suspend freeze prints nothing: where the
# kernel has kprobe events, each filesystem's ->freeze_fs and
# ->unfreeze_fs get a return probe, and the trace follows the kernel log
# in the report, between "e2e: trace begin" and "e2e: trace end".
#
# Kernel command line knobs (the host sets them):
#   e2e.cycles=N     suspend cycles per pm_test level (default 2)

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

# The ->freeze_fs and ->unfreeze_fs of each filesystem under test.
freeze_ops="ext4:ext4_freeze:ext4_unfreeze xfs:xfs_fs_freeze:xfs_fs_unfreeze
	btrfs:btrfs_freeze:btrfs_unfreeze"

# Return probes e2e/freeze_<type> and e2e/thaw_<type>, with the return
# value: 0 is a filesystem frozen (thawed), anything else a failure.
probe_freeze_ops()
{
	for op in $freeze_ops; do
		fs=${op%%:*}
		op=${op#*:}
		echo "r:e2e/freeze_$fs ${op%%:*} ret=\$retval:s32" &&
		echo "r:e2e/thaw_$fs ${op#*:} ret=\$retval:s32" || return 1
	done >> $tracing/kprobe_events &&
	echo 1 > $tracing/events/e2e/enable &&
	echo 1 > $tracing/tracing_on
}

cycles=2
for arg in $(cat /proc/cmdline); do
	case $arg in
	e2e.cycles=*) cycles=${arg#e2e.cycles=} ;;
	esac
done

say "begin $(uname -r)"
echo 10 > /proc/sys/kernel/hung_task_timeout_secs
if [ ! -w /sys/power/pm_test ]; then
	say "error no /sys/power/pm_test (CONFIG_PM_DEBUG)"
	finish
fi
say "pm_test $(cat /sys/power/pm_test)"
say "state $(cat /sys/power/state)"
knob
traced=
if [ -w $tracing/kprobe_events ]; then
	if probe_freeze_ops; then
		traced=1
		say "kprobes$(sed -n 's|^r[0-9]*:e2e/\([a-z]*_[a-z0-9]*\) .*| \1|p' $tracing/kprobe_events | tr -d '\n')"
	else
		say "error kprobe events on ->freeze_fs and ->unfreeze_fs failed"
		finish
	fi
fi

# The host's disks, in order.  They are mounted in this order: the kernel
# freezes the newest superblock first.
disks="ext4:vda xfs:vdb btrfs:vdc"
fss=
n=0
for spec in $disks; do
	fs=${spec%%:*}
	dev=${spec#*:}
	mkdir -p /mnt/$fs
	if mount -t $fs /dev/$dev /mnt/$fs; then
		n=$((n + 1))
		fss="$fss $fs"
		say "mount $n $fs $dev"
	else
		say "error mount $fs $dev failed"
		finish
	fi
done

# A bounded writer: at most 100000 files, stops when /tmp/stop appears.
writer()
{
	fs=$1
	i=0
	mkdir -p /mnt/$fs/w
	while [ $i -lt 100000 ] && [ ! -e /tmp/stop ]; do
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

count()
{
	cat /tmp/$1.count 2>/dev/null || echo 0
}

for fs in $fss; do
	writer $fs &
	echo $! > /tmp/$fs.pid
done
sleep 1

suspend_cycle()
{
	level=$1
	k=$2
	echo $level > /sys/power/pm_test
	mark "cycle $k $level begin"
	if echo mem > /sys/power/state; then
		rc=0
	else
		rc=1
	fi
	mark "cycle $k $level end"
	say "cycle $k $level rc=$rc"
}

k=0
for level in freezer devices; do
	j=0
	while [ $j -lt "$cycles" ]; do
		j=$((j + 1))
		k=$((k + 1))
		before=""
		for fs in $fss; do
			before="$before $fs=$(count $fs)"
		done
		suspend_cycle $level $k
		sleep 1
		after=""
		for fs in $fss; do
			after="$after $fs=$(count $fs)"
		done
		say "progress $k before$before after$after"
	done
done

touch /tmp/stop
for fs in $fss; do
	wait "$(cat /tmp/$fs.pid)"
	say "writer $fs files=$(count $fs) error=$(cat /tmp/$fs.error 2>/dev/null || echo none)"
done

# Every file must read back as written, from disk: remount first.
for spec in $disks; do
	fs=${spec%%:*}
	dev=${spec#*:}
	sync
	if ! umount /mnt/$fs || ! mount -t $fs /dev/$dev /mnt/$fs; then
		say "error remount $fs failed"
		finish
	fi
	bad=$(sha256sum -c /tmp/$fs.sums 2>/dev/null | grep -vc ': OK$')
	say "verify $fs files=$(wc -l < /tmp/$fs.sums) bad=$bad"
done
# The remount made new superblocks, in the same order as before.
say "remounted"

# The user's freeze is the user's: suspend must leave it in place.
if ! fsfreeze --freeze /mnt/xfs; then
	say "error fsfreeze --freeze /mnt/xfs failed"
	finish
fi
say "user-frozen xfs"
k=$((k + 1))
suspend_cycle freezer $k

# A write to each: the user-frozen one must block, the others complete.
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
fsfreeze --unfreeze /mnt/xfs
say "user-thawed xfs"
wait "$(cat /tmp/xfs.probe)"
if [ -e /tmp/xfs.probed ] && [ "$(cat /mnt/xfs/probe)" = probe ]; then
	say "probe-after-thaw xfs written"
else
	say "probe-after-thaw xfs lost"
fi

for fs in $fss; do
	umount /mnt/$fs || say "error umount $fs failed"
done
finish
