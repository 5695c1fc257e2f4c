#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# e2e.sh: prove the conversion at runtime.  Build two kernels of the same
# minimal config from the Debian linux-source-KVER tarball, one with the
# core VFS series and `make apply DIR=fs` (patched) and one without
# (control), boot each under qemu with ext4, xfs and btrfs disks, run
# tests/e2e/guest-init.sh in the guest, and judge its report with
# e2e-check.sh.  The patched kernel must pass every check; the control
# must fail, and only the checks for the VFS freeze, so that the test is
# known to be able to fail.
#
#   e2e.sh KVER                       (6.1 or 6.12)
#
# Environment:
#   E2E_ROLES    which kernels to run, default "patched control"
#   E2E_CYCLES   suspend cycles per pm_test level (default 2)
#   E2E_TIMEOUT  seconds a guest may run before it is killed (default 300)
#   E2E_ACCEL    qemu accelerator, tcg (default) or kvm
#   J            parallel jobs for the kernel build (default: nproc)
#
# Everything lands under build/e2e/linux-KVER/<role>/: src/ and obj/ (the
# tree and its O= build), console.log (serial console), report.log (what
# the guest reported), dmesg.txt, check.txt (the verdict).  A kernel is
# rebuilt only when what it is built from (tarball, config fragment,
# series, rules, scripts) changed.
#
# Exit status: 0 the patched kernel passed and the control failed as it
# must, 1 otherwise, 2 bad input or missing tools.

set -eu
prog=e2e.sh
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
BUILD=${BUILD:-$TOP/build}

say()
{
	echo "$prog: $*" >&2
}

die()
{
	say "$@"
	exit 2
}

[ $# -eq 1 ] || die "usage: $prog KVER (6.1 or 6.12)"
kver=$1
case $kver in
*[!0-9.]* | "") die "KVER '$kver': not a kernel version (6.1 or 6.12)" ;;
esac
tarball=/usr/src/linux-source-$kver.tar.xz
[ -f "$tarball" ] || die "no $tarball (make deps installs linux-source-6.1 and linux-source-6.12)"
[ -d "$TOP/patches/linux-$kver" ] || die "no VFS series for Linux $kver in patches/"

roles=${E2E_ROLES:-patched control}
for r in $roles; do
	case $r in
	patched | control) ;;
	*) die "E2E_ROLES: '$r' is not patched or control" ;;
	esac
done
cycles=${E2E_CYCLES:-2}
timeout_s=${E2E_TIMEOUT:-300}
accel=${E2E_ACCEL:-tcg}
jobs=${J:-$(nproc)}
case $cycles$timeout_s$jobs in
*[!0-9]*) die "E2E_CYCLES, E2E_TIMEOUT and J must be numbers" ;;
esac
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

fragment=$TOP/tests/e2e/kernel.config
guest_init=$TOP/tests/e2e/guest-init.sh
work=$BUILD/e2e/linux-$kver
mkdir -p "$work"

# What a role's kernel is built from; a change to any of it rebuilds.
inputs()
{
	local role=$1
	{
		echo "tarball $(stat -c '%s %Y' "$tarball")"
		sha256sum "$fragment"
		# What make vfs and make apply run, for the patched kernel.
		if [ "$role" = patched ]; then
			sha256sum "$TOP"/patches/linux-"$kver"/*.patch \
				"$TOP"/cocci/*.cocci "$TOP"/scripts/helper/*.[ch] \
				"$TOP"/scripts/{vfs,apply}.sh "$TOP"/scripts/lib/{convert,ktree}.sh
		fi
	} | sed "s|$TOP/||"
}

# Every option of the fragment must be in the final .config: allnoconfig
# drops, silently, an option whose dependencies are not met.
check_config()
{
	local config=$1 missing
	missing=$(grep '^CONFIG_' "$fragment" | while read -r opt; do
		grep -qxF "$opt" "$config" || printf ' %s' "$opt"
	done)
	[ -z "$missing" ] || {
		say "tests/e2e/kernel.config: not in the built config:$missing"
		return 1
	}
}

build_kernel()
{
	local role=$1 dir=$work/$1 start
	start=$(date +%s)
	if [ -f "$dir/obj/arch/x86/boot/bzImage" ] &&
		inputs "$role" | cmp -s - "$dir/inputs"; then
		say "linux $kver $role: kernel up to date"
		return 0
	fi
	rm -rf "$dir"
	mkdir -p "$dir"
	say "linux $kver $role: unpacking ${tarball##*/}"
	tar -C "$dir" -xJf "$tarball"
	mv "$dir/linux-source-$kver" "$dir/src"
	if [ "$role" = patched ]; then
		say "linux $kver $role: core VFS series (make vfs)"
		"$TOP/scripts/vfs.sh" "$dir/src" > "$dir/vfs.log" 2>&1 || {
			say "make vfs failed, see ${dir#"$TOP"/}/vfs.log"
			return 1
		}
		say "linux $kver $role: make apply DIR=fs"
		make -s -C "$TOP" apply KTREE="$dir/src" DIR=fs \
			> "$dir/apply.log" 2>&1 || {
			say "make apply failed, see ${dir#"$TOP"/}/apply.log"
			return 1
		}
	fi
	say "linux $kver $role: building bzImage (J=$jobs, log in ${dir#"$TOP"/}/build.log)"
	{
		make -C "$dir/src" O="$dir/obj" allnoconfig \
			KCONFIG_ALLCONFIG="$fragment" &&
		make -C "$dir/src" O="$dir/obj" -j"$jobs" bzImage
	} > "$dir/build.log" 2>&1 || {
		say "linux $kver $role: kernel build failed, from ${dir#"$TOP"/}/build.log:"
		grep -m 10 -E 'error:|\*\*\*' "$dir/build.log" >&2 ||
			tail -n 10 "$dir/build.log" >&2
		return 1
	}
	check_config "$dir/obj/.config" || return 1
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
	"$dir/obj/usr/gen_init_cpio" "$dir/initramfs.list" > "$dir/initramfs.cpio"
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
		-kernel "$dir/obj/arch/x86/boot/bzImage" \
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
