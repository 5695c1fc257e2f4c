#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# e2e.sh: prove the conversion at runtime.  Build two kernels of the same
# minimal config from the Debian linux-source-KVER tarball, one converted
# (patched) and one as Debian ships it (control), boot each under qemu
# with ext4, xfs and btrfs disks, run tests/e2e/guest-init.sh in the
# guest, and judge its report with e2e-check.sh.  The patched kernel must
# pass every check; the control must fail, and only the checks for the
# VFS freeze, so that the test is known to be able to fail.
#
#   e2e.sh KVER                       (6.1, 6.12 or 7.3)
#
# Where autofreeze has a core VFS series for KVER (patches/linux-KVER/),
# the patched kernel is `make vfs` and `make apply DIR=fs`, and the
# series' own "<type> (<dev>): freezing" lines show each freeze.  Where
# the tree's own suspend freeze honours a flag (mainline's
# filesystems_freeze() and FS_POWER_FREEZE), it is `make apply DIR=fs`
# alone; that freeze prints nothing, so both kernels get kprobe events
# (tests/e2e/kernel-kprobes.config) and the guest reads each
# filesystem's ->freeze_fs and ->unfreeze_fs back from tracefs.
#
# Environment:
#   E2E_ROLES    which kernels to run, default "control patched"
#   E2E_CYCLES   suspend cycles per pm_test level (default 2)
#   E2E_TIMEOUT  seconds a guest may run before it is killed (default 300)
#   E2E_ACCEL    qemu accelerator, tcg (default) or kvm
#   J            parallel jobs for the kernel build (default: nproc)
#
# Everything lands under build/e2e/linux-KVER/<role>/: src/ and src/obj/
# (the tree and its O= build), console.log (serial console), report.log
# (what the guest reported), dmesg.txt, check.txt (the verdict).  A kernel
# is rebuilt only when what it is built from (tarball, config fragments,
# series, rules, scripts) changed.  The control is built first, and the
# patched kernel starts from a copy of its tree and build, so that only
# what make vfs and make apply changed is compiled again.  Both are built
# in the same place, build/e2e/linux-KVER/tree, and moved to their role
# afterwards: objtool's build records absolute paths, and every object
# depends on objtool, so a copy built elsewhere would compile it all.
#
# Exit status: 0 the patched kernel passed and the control failed as it
# must, 1 otherwise, 2 bad input or missing tools.

set -eu
prog=e2e.sh
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
BUILD=${BUILD:-$TOP/build}
. "$TOP/scripts/lib/ktree.sh"	# jobs_check

say()
{
	echo "$prog: $*" >&2
}

die()
{
	say "$@"
	exit 2
}

[ $# -eq 1 ] || die "usage: $prog KVER (6.1, 6.12 or 7.3)"
kver=$1
case $kver in
*[!0-9.]* | "") die "KVER '$kver': not a kernel version (6.1, 6.12 or 7.3)" ;;
esac
tarball=/usr/src/linux-source-$kver.tar.xz
[ -f "$tarball" ] || die "no $tarball (make deps installs linux-source-6.1, 6.12 and 7.3)"
# series: our core VFS series, then make apply; mainline: make apply on
# the tree's own freeze, which make apply checks is there.
if [ -d "$TOP/patches/linux-$kver" ]; then
	freeze=series
else
	freeze=mainline
fi

roles=
for r in ${E2E_ROLES:-control patched}; do
	case $r in
	patched | control) ;;
	*) die "E2E_ROLES: '$r' is not patched or control" ;;
	esac
done
# The control first: the patched kernel is built on a copy of its build.
for r in control patched; do
	case " ${E2E_ROLES:-control patched} " in
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

# The guest's disks, filesystem:size, in the order it sees them (vda,
# vdb, vdc).  300 MiB is the smallest filesystem mkfs.xfs makes.
disks="ext4:64M xfs:320M btrfs:256M"
qemu="qemu-system-x86_64"
busybox=/bin/busybox
for t in "$qemu" $(for d in $disks; do echo "mkfs.${d%%:*}"; done) make gcc; do
	command -v "$t" >/dev/null || die "$t: not found (make deps installs it)"
done
[ -x "$busybox" ] && "$busybox" fsfreeze --help >/dev/null 2>&1 ||
	die "$busybox: no static busybox with fsfreeze (make deps installs busybox-static)"
# A dynamic busybox would find no libc in the initramfs.
if LC_ALL=C readelf -l "$busybox" 2>/dev/null | grep -q 'INTERP'; then
	die "$busybox: not statically linked (make deps installs busybox-static)"
fi

fragments=("$TOP/tests/e2e/kernel.config")
[ $freeze = series ] || fragments+=("$TOP/tests/e2e/kernel-kprobes.config")
guest_init=$TOP/tests/e2e/guest-init.sh
work=$BUILD/e2e/linux-$kver
# Where each kernel is built, before it moves to its role's directory.
tree=$work/tree
mkdir -p "$work"

# What a role's kernel is built from; a change to any of it rebuilds.
inputs()
{
	local role=$1
	{
		echo "tarball $(stat -c '%s %Y' "$tarball")"
		sha256sum "${fragments[@]}"
		# What make vfs and make apply run, for the patched kernel.
		if [ "$role" = patched ]; then
			[ $freeze = mainline ] ||
				sha256sum "$TOP"/patches/linux-"$kver"/*.patch
			sha256sum "$TOP"/cocci/*.cocci "$TOP"/scripts/helper/*.[ch] \
				"$TOP"/policy/* \
				"$TOP"/scripts/{vfs,apply}.sh \
				"$TOP"/scripts/lib/{convert,ktree,plan}.sh
		fi
	} | sed "s|$TOP/||"
}

# Every option of the fragments must be in the final .config: allnoconfig
# drops, silently, an option whose dependencies are not met.
check_config()
{
	local config=$1 missing
	missing=$(grep -h '^CONFIG_' "${fragments[@]}" | while read -r opt; do
		grep -qxF "$opt" "$config" || printf ' %s' "$opt"
	done)
	[ -z "$missing" ] || {
		say "${fragments[*]#"$TOP"/}: not in the built config:$missing"
		return 1
	}
}

# built ROLE: ROLE's kernel is there, built from what it would be now.
built()
{
	[ -f "$work/$1/src/obj/arch/x86/boot/bzImage" ] &&
		inputs "$1" | cmp -s - "$work/$1/inputs"
}

build_kernel()
{
	local role=$1 dir=$work/$1 start
	start=$(date +%s)
	if built "$role"; then
		say "linux $kver $role: kernel up to date"
		return 0
	fi
	rm -rf "$dir" "$tree"
	mkdir -p "$dir"
	if [ "$role" = patched ] && built control; then
		say "linux $kver $role: copying the control's tree and build"
		cp -a "$work/control/src" "$tree"
	else
		say "linux $kver $role: unpacking ${tarball##*/}"
		tar -C "$work" -xJf "$tarball"
		mv "$work/linux-source-$kver" "$tree"
	fi
	if [ "$role" = patched ]; then
		if [ $freeze = series ]; then
			say "linux $kver $role: core VFS series (make vfs)"
			"$TOP/scripts/vfs.sh" "$tree" > "$dir/vfs.log" 2>&1 || {
				say "make vfs failed, see ${dir#"$TOP"/}/vfs.log"
				return 1
			}
		fi
		say "linux $kver $role: make apply DIR=fs"
		make -s -C "$TOP" apply KTREE="$tree" DIR=fs \
			> "$dir/apply.log" 2>&1 || {
			say "make apply failed, see ${dir#"$TOP"/}/apply.log:"
			grep -v '^make' "$dir/apply.log" | tail -n 3 >&2
			return 1
		}
	fi
	say "linux $kver $role: building bzImage (J=$J, log in ${dir#"$TOP"/}/build.log)"
	{
		cat "${fragments[@]}" > "$dir/allconfig" &&
		make -C "$tree" O=obj allnoconfig \
			KCONFIG_ALLCONFIG="$dir/allconfig" &&
		make -C "$tree" O=obj -j"$J" bzImage
	} > "$dir/build.log" 2>&1 || {
		say "linux $kver $role: kernel build failed, from ${dir#"$TOP"/}/build.log:"
		grep -m 10 -E 'error:|\*\*\*' "$dir/build.log" >&2 ||
			tail -n 10 "$dir/build.log" >&2
		return 1
	}
	check_config "$tree/obj/.config" || return 1
	mv "$tree" "$dir/src"
	inputs "$role" > "$dir/inputs"
	say "linux $kver $role: built in $(($(date +%s) - start)) s"
}

make_initramfs()
{
	local dir=$1
	cat > "$dir/initramfs.list" <<-EOF
	dir /dev 755 0 0
	nod /dev/console 600 0 0 c 5 1
	dir /bin 755 0 0
	dir /proc 755 0 0
	dir /sys 755 0 0
	dir /tmp 1777 0 0
	dir /mnt 755 0 0
	file /bin/busybox $busybox 755 0 0
	slink /bin/sh busybox 777 0 0
	file /init $guest_init 755 0 0
	EOF
	"$dir/src/obj/usr/gen_init_cpio" "$dir/initramfs.list" > "$dir/initramfs.cpio"
}

# Fresh disks for every boot, as sparse files: the guest writes to them.
# Sets drives, qemu's arguments for them.
make_disks()
{
	local dir=$1 d fs img force
	drives=()
	rm -f "$dir"/*.img
	for d in $disks; do
		fs=${d%%:*}
		img=$dir/$fs.img
		case $fs in
		ext4) force=-F ;;
		*) force=-f ;;
		esac
		truncate -s "${d#*:}" "$img" &&
		"mkfs.$fs" -q "$force" "$img" > /dev/null || return 1
		drives+=(-drive "file=$img,format=raw,if=virtio")
	done
}

boot()
{
	local role=$1 dir=$work/$1 start rc
	make_initramfs "$dir"
	make_disks "$dir" || { say "mkfs failed"; return 1; }
	rm -f "$dir/console.log" "$dir/report.log"
	say "linux $kver $role: booting under qemu ($accel, timeout ${timeout_s} s)"
	start=$(date +%s)
	rc=0
	# Serial 0 is the console, serial 1 the guest's report.
	timeout "$timeout_s" "$qemu" "${qaccel[@]}" -smp 2 -m 1024 \
		-nographic -monitor none -no-reboot \
		-kernel "$dir/src/obj/arch/x86/boot/bzImage" \
		-initrd "$dir/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 no_console_suspend suspend.pm_test_delay=1 e2e.cycles=$cycles" \
		"${drives[@]}" \
		-serial "file:$dir/console.log" -serial "file:$dir/report.log" \
		> "$dir/qemu.log" 2>&1 || rc=$?
	boot_s=$(($(date +%s) - start))
	if [ $rc -eq 124 ]; then
		say "linux $kver $role: guest killed after ${timeout_s} s"
	elif [ $rc -ne 0 ]; then
		say "linux $kver $role: qemu exited with $rc, see ${dir#"$TOP"/}/qemu.log"
	fi
	sed -n '/^e2e: dmesg begin/,/^e2e: dmesg end/p' "$dir/report.log" |
		sed '1d;$d' > "$dir/dmesg.txt"
	say "linux $kver $role: guest ran for $boot_s s"
}

status=0
for role in $roles; do
	dir=$work/$role
	build_kernel "$role" || exit 1
	boot "$role" || exit 1
	rc=0
	"$TOP/scripts/lib/e2e-check.sh" "$dir/report.log" "$dir/console.log" \
		> "$dir/check.txt" || rc=$?
	[ $rc -le 1 ] || exit 2
	summary=$(tail -n 1 "$dir/check.txt")
	case $role in
	patched)
		if [ $rc -eq 0 ]; then
			say "linux $kver patched: PASS (${summary#*: })"
		else
			say "linux $kver patched: FAIL (${summary#*: }), from ${dir#"$TOP"/}/check.txt:"
			grep '^FAIL' "$dir/check.txt" >&2
			status=1
		fi
		;;
	control)
		# The control must fail, and only where the series matters.
		other=$(grep '^FAIL' "$dir/check.txt" | grep -v '^FAIL \[fs-freeze\]' || true)
		if [ $rc -eq 1 ] && [ -z "$other" ]; then
			say "linux $kver control: fails as it must (${summary#*: }, all of them [fs-freeze])"
		elif [ $rc -eq 0 ]; then
			say "linux $kver control: PASSES, so the test cannot tell a patched kernel from an unpatched one"
			status=1
		else
			say "linux $kver control: fails for another reason too, from ${dir#"$TOP"/}/check.txt:"
			echo "$other" >&2
			status=1
		fi
		;;
	esac
done
exit $status
