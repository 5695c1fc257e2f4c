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

# The program is in three parts, by job; the order of their rules
# matters (e2e-check-report.awk).
lib=$(dirname "$0")
# Serial output may carry carriage returns.
tr -d '\r' < "$report" | awk -v console="$console" \
	-f "$lib/e2e-check-report.awk" \
	-f "$lib/e2e-check-trace.awk" \
	-f "$lib/e2e-check-verdict.awk"
