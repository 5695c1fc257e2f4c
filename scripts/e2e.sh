#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# e2e.sh: prove the conversion at runtime.  Build kernels of the same
# minimal config from the Debian linux-source-KVER tarball: one converted
# (patched), one as Debian ships it (control), and the patched one with a
# known-unsafe removal put back (mutant: btrfs's discard workqueue without
# WQ_FREEZABLE).  Boot each under qemu with a disk for every filesystem
# of tests/e2e/filesystems the tree has, run tests/e2e/guest-init.sh in
# the guest, and judge its report with e2e-check.sh.  The patched kernel
# must pass every check, no block request reaching a frozen filesystem's
# disk among them; the control must fail, and only the checks for the
# VFS freeze; the mutant must fail on a request to a frozen disk issued
# by btrfs's discard work.  So the test is known to be able to fail.
#
#   e2e.sh KVER                       (6.1, 6.12 or 7.3)
#   e2e.sh --ktree KTREE [KVER]       (the user's own tree; make e2e KTREE=)
#
# With --ktree the kernels are built from a copy of KTREE (hard links,
# its .git left out, make mrproper where it was built in place: the
# copy's files are replaced, never written into, so KTREE stays as it
# is), and its version, read from its Makefile, must be one of those
# above (KVER, if given, the same).  A KTREE that carries no flag yet is
# the control, as it is, and the patched kernel is it after make vfs and
# make apply, as for a tarball.  A KTREE that carries the flag on some
# unit (make apply ran on it) is the patched kernel as it is, without
# make vfs or make apply, its units that carry the flag the ones
# expected to freeze; it has no control (the tree before the conversion
# is not to be had from it), so the mutant alone shows the checks can
# fail.  Its results land in build/e2e/ktree-NAME-HASH/ (NAME its last
# component, HASH of its path).
#
# The jobs are a library each, sourced here: scripts/lib/e2e-build.sh
# builds a role's kernel, scripts/lib/e2e-boot.sh boots it under qemu
# through a run, scripts/lib/e2e-judge.sh judges the run.  This driver
# reads the arguments and the environment, checks the tools, and runs
# the roles in order, each through its runs, into the summary.
#
# Environment:
#   E2E_ROLES    which kernels to run, default "control patched mutant
#                unready" (unready only where the tree's freeze has
#                prerequisites)
#   E2E_HIBERNATE  which run a real hibernation too (default "patched")
#   E2E_SNAPSHOT   which run a hibernation through /dev/snapshot
#                (default "patched unready"; mainline only)
#   E2E_FAILFREEZE which run a suspend in which a flagged filesystem
#                fails to freeze (default "patched unready"; mainline
#                only; unready runs only these two)
#   E2E_CYCLES   suspend cycles per pm_test level (default 2)
#   E2E_TIMEOUT  seconds a guest may run before it is killed (default 300)
#   E2E_ACCEL    qemu accelerator, tcg (default) or kvm
#   J            parallel jobs for the kernel build (default: nproc)
#
# Everything lands under build/e2e/linux-KVER/<role>/: src/ and src/obj/
# (the tree and its O= build), console.log (serial console), report.log
# (what the guest reported), dmesg.txt, check.txt (the verdict).
#
# The unready kernel is the patched one without the prerequisites
# patches/linux-mainline/ gives mainline's freeze (policy/
# prerequisites.tsv), the conversion kept.  Two runs must catch it: a
# hibernation through /dev/snapshot (tests/e2e/snapshot-client.c), in
# which it writes between the image and SNAPSHOT_UNFREEZE; and a suspend
# in which an ext4 of its own (e2e.victim) fails to freeze (every bio to
# its disk fails, fail_make_request), which it lets go on.  The patched
# kernel runs both too, and must pass them: no write, and the suspend
# refused with everything thawed.
#
# Exit status: 0 the patched kernel passed and the control, mutant and
# unready kernels failed as they must, 1 otherwise, 2 bad input or
# missing tools.

set -eu
prog=e2e.sh
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
BUILD=${BUILD:-$TOP/build}
. "$TOP/scripts/lib/ktree.sh"	# jobs_check, af_version
. "$TOP/scripts/lib/e2e-build.sh"	# build_kernel, built, carries_flag
. "$TOP/scripts/lib/e2e-boot.sh"	# boot
. "$TOP/scripts/lib/e2e-judge.sh"	# check, judge

say()
{
	echo "$prog: $*" >&2
}

die()
{
	say "$@"
	exit 2
}

# The versions the guest's config and the expectations are written for.
versions="6.1 6.12 7.3"

# tree_version TREE: VERSION.PATCHLEVEL of TREE's top Makefile.
tree_version()
{
	awk -F '[[:space:]]*=[[:space:]]*' '
		$1 == "VERSION" && v == "" { v = $2 }
		$1 == "PATCHLEVEL" && p == "" { p = $2 }
		END { if (v ~ /^[0-9]+$/ && p ~ /^[0-9]+$/) print v "." p }' "$1/Makefile"
}

# The tree under test: a Debian tarball (KVER), or the user's (--ktree),
# named so in every message.
ktree=
if [ "${1-}" = --ktree ]; then
	[ $# -eq 2 ] || [ $# -eq 3 ] || die "usage: $prog --ktree KTREE [KVER]"
	ktree_check "$2" fs	# a kernel tree, else one line and exit 2
	ktree=$KTREE
	kver=$(tree_version "$ktree")
	in_versions=" $versions "
	[ "${in_versions#* "$kver" }" != "$in_versions" ] ||
		die "$(shown "$ktree"): linux ${kver:-of no version}, which make e2e has no guest config and expectations for (${versions// /, })"
	[ $# -eq 2 ] || [ "$3" = "$kver" ] ||
		die "KVER=$(shown "$3"), but KTREE $(shown "$ktree") is linux $kver (leave KVER out with KTREE)"
	label="linux $kver at $(shown "$ktree")"
else
[ $# -eq 1 ] || die "usage: $prog KVER (6.1, 6.12 or 7.3)"
kver=$1
case $kver in
*[!0-9.]* | "") die "KVER '$kver': not a kernel version (6.1, 6.12 or 7.3)" ;;
esac
tarball=/usr/src/linux-source-$kver.tar.xz
[ -f "$tarball" ] || die "no $tarball (make deps installs linux-source-6.1, 6.12 and 7.3)"
label="linux $kver"
fi

roles=
all_roles="control patched mutant unready"
hibernate_roles=${E2E_HIBERNATE-patched}
snapshot_roles=${E2E_SNAPSHOT-patched unready}
failfreeze_roles=${E2E_FAILFREEZE-patched unready}
# check_roles VAR ROLE...: each ROLE (from VAR) is a role.
check_roles()
{
	local var=$1 r
	shift
	for r in "$@"; do
		case " $all_roles " in
		*" $r "*) ;;
		*) die "$var: '$r' is not control, patched, mutant or unready" ;;
		esac
	done
}
check_roles E2E_ROLES ${E2E_ROLES:-$all_roles}
check_roles E2E_HIBERNATE $hibernate_roles
check_roles E2E_SNAPSHOT $snapshot_roles
check_roles E2E_FAILFREEZE $failfreeze_roles
# The control first: the patched kernel is built on a copy of its build,
# the mutant on a copy of the patched one's.
for r in $all_roles; do
	case " ${E2E_ROLES:-$all_roles} " in
	*" $r "*) roles="$roles $r" ;;
	esac
done
cycles=${E2E_CYCLES:-2}
timeout_s=${E2E_TIMEOUT:-300}
accel=${E2E_ACCEL:-tcg}
case $cycles$timeout_s in
*[!0-9]*) die "E2E_CYCLES and E2E_TIMEOUT must be numbers" ;;
esac
jobs_check
case $accel in
tcg) qaccel=(-accel "tcg,thread=multi" -cpu max) ;;
kvm) qaccel=(-accel kvm -cpu host) ;;
*) die "E2E_ACCEL '$accel': not tcg or kvm" ;;
esac

# The guest's filesystems: the rows of the table, without comments.
fs_table=$TOP/tests/e2e/filesystems
fs_rows()
{
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$fs_table"
}
qemu="qemu-system-x86_64"
busybox=/bin/busybox
for t in "$qemu" $(fs_rows | awk '$7 != "none:" { print $7 }') mkswap make gcc; do
	command -v "$t" >/dev/null || die "$t: not found (make deps installs it)"
done
[ -x "$busybox" ] && "$busybox" fsfreeze --help >/dev/null 2>&1 ||
	die "$busybox: no static busybox with fsfreeze (make deps installs busybox-static)"
# A dynamic busybox would find no libc in the initramfs.
if LC_ALL=C readelf -l "$busybox" 2>/dev/null | grep -q 'INTERP'; then
	die "$busybox: not statically linked (make deps installs busybox-static)"
fi

guest_init=$TOP/tests/e2e/guest-init.sh
# What the version's guest kernel needs besides kernel.config, if anything.
version_config=$TOP/tests/e2e/kernel-$kver.config
# The guest runs the btrfs tool (for scrub) from the host, with its
# libraries.
btrfs_tool=$(command -v btrfs) || die "btrfs: not found (make deps installs btrfs-progs)"
# The kernels share most of their objects (the unready one has the
# control's include/linux/fs.h): ccache, where there is one, compiles
# them once.
cc=gcc
! command -v ccache >/dev/null || cc="ccache gcc"
# The hibernation client of /dev/snapshot, static, for the guest.
snapshot_client_src=$TOP/tests/e2e/snapshot-client.c
if [ -n "$ktree" ]; then
	# its last component, made a plain name, and a hash of its path
	work=$BUILD/e2e/ktree-$(printf '%s' "${ktree##*/}" | tr -c 'A-Za-z0-9._-' _)-$(printf '%s' "$ktree" | sha256sum | cut -c1-12)
else
	work=$BUILD/e2e/linux-$kver
fi
# Where each kernel is built, before it moves to its role's directory.
tree=$work/tree
mkdir -p "$work"
snapshot_client=$work/snapshot-client
if [ ! -x "$snapshot_client" ] || [ "$snapshot_client_src" -nt "$snapshot_client" ]; then
	gcc -static -O2 -Wall -Wextra -Werror -o "$snapshot_client" \
		"$snapshot_client_src" ||
		die "$snapshot_client_src: does not build static (make deps installs libc6-dev)"
fi

# prerequisites: the patched tree's suspend freeze is one with
# prerequisites (mainline's), which the snapshot and failfreeze runs
# prove.
prerequisites()
{
	"$TOP/scripts/autofreeze" prereqs "$work/patched/src" 2>/dev/null | grep -q '^has'
}

# in_list WORD LIST...: WORD is one of LIST.
in_list()
{
	local w=$1
	shift
	case " $* " in
	*" $w "*) return 0 ;;
	esac
	return 1
}

# flagged_units() reads the helper's plan, for every role.
make -s -C "$TOP" helper || die "make helper failed"

# KTREE as it is: its identity for inputs() (every file's name, size
# and time, its .git left out), and whether it is converted already.
asis=
if [ -n "$ktree" ]; then
	ktree_id=$(cd "$ktree" && find . -path ./.git -prune -o -type f \
		-printf '%P %s %T@\n' | LC_ALL=C sort | sha256sum | cut -c1-64) ||
		die "$(shown "$ktree"): cannot read the tree"
	say "$label: kernels and results in ${work#"$TOP"/}/"
	if carries_flag "$ktree"; then
		asis=1
		say "$label: carries the flag: proved as it is, with no control"
	fi
fi

status=0
rm -f "$work/verdicts.new"
for role in $roles; do
	if [ "$role" = control ] && [ -n "$asis" ]; then
		say "$label control: skipped, the tree is converted already: no unconverted kernel of it to compare"
		continue
	fi
	if [ "$role" = unready ] && built patched &&
	   ! "$TOP/scripts/autofreeze" prereqs "$work/patched/src" | grep -q '^has'; then
		say "$label unready: skipped, its suspend freeze has no prerequisites to take out"
		continue
	fi
	build_kernel "$role" || exit 1
	for mode in suspend hibernate snapshot failfreeze; do
		case $mode in
		suspend) [ "$role" != unready ] || continue ;;
		hibernate) in_list "$role" $hibernate_roles || continue ;;
		snapshot) in_list "$role" $snapshot_roles && prerequisites || continue ;;
		failfreeze) in_list "$role" $failfreeze_roles && prerequisites || continue ;;
		esac
		boot "$role" $mode || exit 1
		check "$role" $mode
		judge "$role" $mode
	done
done
# the record, for make series: only a run of every role, and only if
# it passed
rm -f "$work/verdicts"
if [ $status -eq 0 ] && [ -z "${E2E_ROLES:-}" ] && [ -f "$work/verdicts.new" ]; then
	mv "$work/verdicts.new" "$work/verdicts"
fi
exit $status
