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
# The patched kernel is `make vfs` and `make apply DIR=fs`.  On a stable
# tree make vfs applies our core VFS series, whose own "<type> (<dev>):
# freezing" lines show each freeze.  On mainline (filesystems_freeze()
# and FS_POWER_FREEZE, found by the code) it applies what that freeze
# lacks, patches/linux-mainline/; that freeze prints nothing, and the
# order checks read the kprobe events on each filesystem's ->freeze_fs
# and ->unfreeze_fs that every kernel's guest traces.  After make apply,
# every unit the tree then flags must have its row in
# tests/e2e/filesystems.
#
# Where make vfs applied patches/linux-mainline/, the mutant is the
# patched kernel without its btrfs patch (btrfs_freeze() stops no
# discard), with btrfs converted all the same; elsewhere it is the
# patched kernel with WQ_FREEZABLE taken off btrfs's discard workqueue.
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
# (what the guest reported), dmesg.txt, check.txt (the verdict).  A kernel
# is rebuilt only when what it is built from (tarball, config fragment,
# series, rules, scripts) changed.  The control is built first, and the
# patched kernel starts from a copy of its tree and build, so that only
# what make vfs and make apply changed is compiled again; the mutant
# starts from the patched kernel's.  Both are built
# in the same place, build/e2e/linux-KVER/tree, and moved to their role
# afterwards: objtool's build records absolute paths, and every object
# depends on objtool, so a copy built elsewhere would compile it all.
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

# What a role's kernel is built from; a change to any of it rebuilds.
inputs()
{
	local role=$1
	{
		if [ -n "$ktree" ]; then
			echo "ktree $ktree_id"
		else
			echo "tarball $(stat -c '%s %Y' "$tarball")"
		fi
		sha256sum "$TOP/tests/e2e/kernel.config"
		[ ! -f "$version_config" ] || sha256sum "$version_config"
		# What the table gives the build: the types and their options.
		guest_fs | awk '{ print "filesystem", $1, $2 }'
		# What make vfs and make apply run, for the patched kernel
		# and the mutant built on it.  A KTREE proved as it is has
		# neither run on it: the patches that mutate takes out, and
		# what finds the prerequisites unready_tree takes out.
		if [ "$role" != control ] && [ -z "$asis" ]; then
			sha256sum "$TOP"/patches/linux-*/*.patch
			sha256sum "$TOP"/cocci/*.cocci "$TOP"/scripts/helper/*.[ch] \
				"$TOP"/policy/* \
				"$TOP"/scripts/{vfs,apply}.sh \
				"$TOP"/scripts/lib/{convert,ktree,plan}.sh
		elif [ "$role" = mutant ]; then
			sha256sum "$TOP"/patches/linux-*/*.patch
		elif [ "$role" = unready ]; then
			sha256sum "$TOP"/patches/linux-*/*.patch
			sha256sum "$TOP"/scripts/helper/*.[ch] "$TOP"/policy/*
		fi
		[ "$role" != mutant ] || declare -f mutate
		[ "$role" != unready ] || declare -f unready_tree
	} | sed "s|$TOP/||"
}

# fs_types: the filesystems (directories of fs/) the tarball's tree has,
# listed once per tarball into build/e2e/linux-KVER/fs-types; KTREE's
# from the tree.
fs_types()
{
	local list=$work/fs-types stamp
	if [ -n "$ktree" ]; then
		find "$ktree/fs" -mindepth 2 -maxdepth 2 -name Kconfig -printf '%h\n' |
			sed 's|.*/||'
		return
	fi
	stamp=$(stat -c '%s %Y' "$tarball")
	if [ "$(head -n 1 "$list" 2>/dev/null)" != "$stamp" ]; then
		{
			echo "$stamp"
			tar -tJf "$tarball" --wildcards '*/fs/*/Kconfig' |
				sed -n 's|^[^/]*/fs/\([^/]*\)/Kconfig$|\1|p'
		} > "$list.new" && mv "$list.new" "$list" || return 1
	fi
	tail -n +2 "$list"
}

# guest_fs: the rows of the filesystems the guest runs: those the tree
# has, that Debian's tools can make.
guest_fs()
{
	fs_rows | awk 'NR == FNR { have[$1] = 1; next }
		($1 in have) && $7 != "none:"' <(fs_types) -
}

# allconfig: the config fragment, the base (and what the version needs
# besides) and the options of the filesystems the guest runs.
allconfig()
{
	cat "$TOP/tests/e2e/kernel.config"
	[ ! -f "$version_config" ] || { echo; cat "$version_config"; }
	echo
	echo "# The filesystems under test, from tests/e2e/filesystems"
	guest_fs | awk '{ n = split($2, o, ","); for (i = 1; i <= n; i++) print o[i] "=y" }'
}

# check_config CONFIG ALLCONFIG TREE: every option of the fragment must
# be in the final .config: allnoconfig drops, silently, an option whose
# dependencies are not met.  One the tree's Kconfig does not define (one
# newer than the version) is not asked for.
check_config()
{
	local config=$1 allconfig=$2 tree=$3 missing
	missing=$(grep -h '^CONFIG_' "$allconfig" | while read -r opt; do
		grep -qxF "$opt" "$config" && continue
		sym=${opt%%=*}
		grep -rqx --include='Kconfig*' "config ${sym#CONFIG_}" "$tree" ||
			continue
		printf ' %s' "$opt"
	done)
	[ -z "$missing" ] || {
		say "${allconfig#"$TOP"/}: not in the built config:$missing"
		return 1
	}
}

# mutate TREE: put back one removal the policy holds unsafe: btrfs's
# async discard is not stopped by btrfs_freeze(), and its workqueue
# without WQ_FREEZABLE runs while the filesystem is frozen.  Where the
# patched tree has btrfs's freeze fix of patches/linux-mainline/ (and so
# no WQ_FREEZABLE on that workqueue any more), the fix is taken out;
# else the flag: 6.1 makes the workqueue with alloc_workqueue(...,
# WQ_UNBOUND | WQ_FREEZABLE, 1), later trees with
# alloc_ordered_workqueue(..., WQ_FREEZABLE).
mutate()
{
	local f=$1/fs/btrfs/disk-io.c call='workqueue("btrfs[-_]discard",' fix
	fix=$(ls "$TOP"/patches/linux-mainline/[0-9]*-btrfs-*.patch 2>/dev/null | head -n 1)
	if [ -n "$fix" ] && ! grep -q "$call.*WQ_FREEZABLE" "$f"; then
		patch -d "$1" -p1 -R -s -F 0 --no-backup-if-mismatch <"$fix" &&
		! grep -q "$call.*WQ_FREEZABLE" "$f"
		return
	fi
	grep -q "$call.*WQ_FREEZABLE" "$f" &&
	sed -i -e "/$call/s/ | WQ_FREEZABLE//" \
		-e "/$call/s/\(\"btrfs[-_]discard\", \)WQ_FREEZABLE)/\10)/" "$f" &&
	grep -q "$call" "$f" && ! grep -q "$call.*WQ_FREEZABLE" "$f"
}

# unready_tree TREE: take out of the patched TREE the prerequisites its
# suspend freeze has ("autofreeze prereqs": the patches of
# patches/linux-mainline/ that policy/prerequisites.tsv names), the last
# first, and keep the conversion: the kernel a conversion without them
# would give.  Fails where the freeze has none to take out.
unready_tree()
{
	local p n=0
	for p in $("$TOP/scripts/autofreeze" prereqs "$1" |
			awk -F'\t' '$1 == "has" { print $3 }' | tac); do
		patch -d "$1" -p1 -R -s -F 0 --no-backup-if-mismatch \
			<"$TOP/patches/$p" || return 1
		n=$((n + 1))
	done
	[ $n -gt 0 ] && ! "$TOP/scripts/autofreeze" prereqs "$1" | grep -q '^has'
}

# flagged_units TREE: the units of fs/ the conversion flags, "fs/xfs",
# one a line: on a converted tree those that carry the flag, on the
# tree as Debian ships it those that get it.  The same list for every
# role of a version, so that all are judged by the same expectations.
flagged_units()
{
	"$TOP/scripts/autofreeze" plan "$1" fs |
		awk -F '\t' -v asis="$asis" '$1 == "flagstate" &&
			($6 == "set" || ($6 == "missing" && asis == "")) {
			print $2 }' | sort -u
}

# carries_flag TREE: some type of TREE's fs/ carries the flag (make apply
# ran on it).
carries_flag()
{
	"$TOP/scripts/autofreeze" plan "$1" fs |
		awk -F '\t' '$1 == "flagstate" && $6 == "set" { f = 1 } END { exit !f }'
}

# ktree_copy: KTREE into $tree, as build_kernel builds it: hard links,
# without its .git (nothing here reads it), and with no build of its
# own, which would stop the O= build (make mrproper unlinks, never
# writes into a file).
ktree_copy()
{
	ktree_link_copy "$ktree" "$tree" && rm -rf "$tree/.git" || return 1
	if [ -e "$tree/.config" ] || [ -d "$tree/include/config" ] ||
	   [ -d "$tree/arch/x86/include/generated" ]; then
		make -s -C "$tree" mrproper >/dev/null
	fi
}

# flagged_exercised TREE: every unit the converted TREE flags has its row
# in the table; name the ones the guest cannot run.
flagged_exercised()
{
	local tree=$1 unit row missing=
	for unit in $(flagged_units "$tree"); do
		row=$(fs_rows | awk -v t="${unit#fs/}" '$1 == t')
		if [ -z "$row" ]; then
			missing="$missing $unit"
		elif [ "$(echo "$row" | awk '{ print $7 }')" = none: ]; then
			say "$label: $unit is flagged, not run in the guest: ${row#*none: }"
		fi
	done
	[ -z "$missing" ] || {
		say "$label: flagged, with no row in tests/e2e/filesystems:$missing"
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
		say "$label $role: kernel up to date"
		return 0
	fi
	rm -rf "$dir" "$tree"
	mkdir -p "$dir"
	if [ "$role" = patched ] && built control; then
		say "$label $role: copying the control's tree and build"
		cp -a "$work/control/src" "$tree"
	elif [ "$role" = mutant ] || [ "$role" = unready ]; then
		built patched || {
			say "$label $role: no patched kernel to start from"
			return 1
		}
		say "$label $role: copying the patched kernel's tree and build"
		cp -a "$work/patched/src" "$tree"
		if [ "$role" = mutant ]; then
			mutate "$tree" || {
				say "$label mutant: neither btrfs's freeze fix to take out nor a btrfs discard workqueue with WQ_FREEZABLE to take it from"
				return 1
			}
		else
			unready_tree "$tree" || {
				say "$label unready: no prerequisite of the suspend freeze to take out of the patched tree"
				return 1
			}
		fi
	elif [ -n "$ktree" ]; then
		say "$label $role: copying the tree"
		ktree_copy || {
			say "$label $role: cannot copy $(shown "$ktree") to ${tree#"$TOP"/}"
			return 1
		}
	else
		say "$label $role: unpacking ${tarball##*/}"
		tar -C "$work" -xJf "$tarball"
		mv "$work/linux-source-$kver" "$tree"
	fi
	if [ "$role" = patched ] && [ -n "$asis" ]; then
		say "$label $role: the tree as it is: it carries the flag, no make vfs or make apply"
		flagged_exercised "$tree" || return 1
	elif [ "$role" = patched ]; then
		say "$label $role: what its suspend freeze needs (make vfs)"
		"$TOP/scripts/vfs.sh" "$tree" > "$dir/vfs.log" 2>&1 || {
			say "make vfs failed, see ${dir#"$TOP"/}/vfs.log"
			return 1
		}
		say "$label $role: make apply DIR=fs"
		make -s -C "$TOP" apply KTREE="$tree" DIR=fs \
			> "$dir/apply.log" 2>&1 || {
			say "make apply failed, see ${dir#"$TOP"/}/apply.log:"
			grep -v '^make' "$dir/apply.log" | tail -n 3 >&2
			return 1
		}
		flagged_exercised "$tree" || return 1
	fi
	say "$label $role: building bzImage (J=$J, log in ${dir#"$TOP"/}/build.log)"
	{
		allconfig > "$dir/allconfig" &&
		make -C "$tree" O=obj CC="$cc" allnoconfig \
			KCONFIG_ALLCONFIG="$dir/allconfig" &&
		make -C "$tree" O=obj CC="$cc" -j"$J" bzImage
	} > "$dir/build.log" 2>&1 || {
		say "$label $role: kernel build failed, from ${dir#"$TOP"/}/build.log:"
		grep -m 10 -E 'error:|\*\*\*' "$dir/build.log" >&2 ||
			tail -n 10 "$dir/build.log" >&2
		return 1
	}
	check_config "$tree/obj/.config" "$dir/allconfig" "$tree" || return 1
	mv "$tree" "$dir/src"
	inputs "$role" > "$dir/inputs"
	say "$label $role: built in $(($(date +%s) - start)) s"
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
	file /bin/btrfs $btrfs_tool 755 0 0
	file /bin/snapshot-client $snapshot_client 755 0 0
	EOF
	# The btrfs tool's libraries, where its loader looks for them,
	# each directory after its parent.
	ldd "$btrfs_tool" | awk '$(NF - 1) ~ /^\// { print $(NF - 1) } $1 ~ /^\// { print $1 }' |
		while read -r lib; do
			d=${lib%/*}
			while [ -n "$d" ]; do
				echo "$d"
				d=${d%/*}
			done | sort | sed 's/.*/dir & 755 0 0/'
			echo "file $lib $(readlink -f "$lib") 755 0 0"
		done | awk '!seen[$0]++' >> "$dir/initramfs.list"
	"$dir/src/obj/usr/gen_init_cpio" "$dir/initramfs.list" > "$dir/initramfs.cpio"
}

# make_disks DIR MODE: fresh disks for every run, as sparse files: the
# guest writes to them.  Sets drives, qemu's arguments for them, and
# guest_args, the guest's e2e.fs= arguments, in the same order, and an
# e2e.unflagged= for the types the conversion does not flag on this
# version (held back by the policy), which the guest runs all the same
# and the check expects not to freeze; for a hibernation, a swap disk
# last, swap_dev.  Discards reach the files.
make_disks()
{
	local dir=$1 mode=$2 row img letters=abcdefghijklmnop flagged
	local unflagged=
	drives=()
	guest_args=
	swap_dev=
	flagged=$(flagged_units "$dir/src")
	[ -n "$flagged" ] || {
		say "$label: the plan of ${dir#"$TOP"/}/src flags no unit"
		return 1
	}
	rm -f "$dir"/*.img
	while read -r row; do
		set -- $row
		echo "$flagged" | grep -qx "fs/$1" ||
			unflagged="$unflagged${unflagged:+,}$1"
		img=$dir/$1.img
		truncate -s "$3" "$img" &&
		"${@:7}" "$img" > "$dir/mkfs.log" 2>&1 || {
			say "${*:7} $img failed:"
			tail -n 3 "$dir/mkfs.log" >&2
			return 1
		}
		drives+=(-drive "file=$img,format=raw,if=virtio,discard=unmap")
		guest_args="$guest_args e2e.fs=$1:$4:$5:$6"
	done < <(guest_fs)
	[ -z "$unflagged" ] || {
		say "$label: not flagged on this version, run and expected not to freeze: $unflagged"
		guest_args="$guest_args e2e.unflagged=$unflagged"
	}
	if [ "$mode" = failfreeze ]; then
		# the filesystem whose freeze fails: an ext4 of its own
		victim_dev=vd${letters:$((${#drives[@]} / 2)):1}
		truncate -s 64M "$dir/victim.img" &&
		mkfs.ext4 -q -F "$dir/victim.img" > "$dir/mkfs.log" 2>&1 || {
			say "mkfs.ext4 $dir/victim.img failed"
			return 1
		}
		drives+=(-drive "file=$dir/victim.img,format=raw,if=virtio")
		guest_args="$guest_args e2e.victim=$victim_dev"
	fi
	[ "$mode" = hibernate ] || return 0
	swap_dev=vd${letters:$((${#drives[@]} / 2)):1}
	truncate -s 512M "$dir/swap.img" &&
	mkswap "$dir/swap.img" > "$dir/mkfs.log" 2>&1 || {
		say "mkswap $dir/swap.img failed"
		return 1
	}
	drives+=(-drive "file=$dir/swap.img,format=raw,if=virtio")
}

# qemu_boot TAG APPEND...: one boot of the role's kernel in dir on the disks
# of make_disks, the console in TAG.console.log and the guest's report
# in TAG.report.log.
qemu_boot()
{
	local tag=$1 start rc=0
	shift
	rm -f "$dir/$tag.console.log" "$dir/$tag.report.log"
	say "$label $role: $tag: booting under qemu ($accel, timeout ${timeout_s} s)"
	start=$(date +%s)
	# Serial 0 is the console, serial 1 the guest's report.
	timeout "$timeout_s" "$qemu" "${qaccel[@]}" -smp 2 -m 1024 \
		-nographic -monitor none -no-reboot \
		-kernel "$dir/src/obj/arch/x86/boot/bzImage" \
		-initrd "$dir/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 no_console_suspend $*$guest_args" \
		"${drives[@]}" \
		-serial "file:$dir/$tag.console.log" \
		-serial "file:$dir/$tag.report.log" \
		> "$dir/$tag.qemu.log" 2>&1 || rc=$?
	if [ $rc -eq 124 ]; then
		say "$label $role: $tag: guest killed after ${timeout_s} s"
	elif [ $rc -ne 0 ]; then
		say "$label $role: $tag: qemu exited with $rc, see ${dir#"$TOP"/}/$tag.qemu.log"
	fi
	say "$label $role: $tag: guest ran for $(($(date +%s) - start)) s"
}

# boot ROLE MODE: run the scenario, suspend or hibernate, into
# MODE.report.log and MODE.console.log.  A hibernation is two boots: the
# first writes the image to the swap disk and ends, the second restores
# it from resume= and the first's scenario goes on.  The first boots with
# tp_printk, so that the guest can have the trace events it sees after
# the snapshot, which no trace read back has, printed on the console.
boot()
{
	local role=$1 mode=$2 dir=$work/$1 wait=1
	make_initramfs "$dir"
	make_disks "$dir" "$mode" || return 1
	# The control's filesystems do not freeze on suspend: no window for
	# btrfs's discard worker to be seen in, no need to wait for it.
	[ "$role" != control ] || wait=0
	case $mode in
	suspend)
		qemu_boot suspend suspend.pm_test_delay=1 e2e.cycles=$cycles \
			e2e.discard_wait=$wait
		;;
	hibernate)
		qemu_boot hibernate1 e2e.mode=hibernate e2e.swap=$swap_dev \
			tp_printk tp_printk_stop_on_boot
		qemu_boot hibernate2 e2e.mode=hibernate e2e.swap=$swap_dev \
			resume=/dev/$swap_dev
		cat "$dir"/hibernate[12].report.log > "$dir/hibernate.report.log"
		cat "$dir"/hibernate[12].console.log > "$dir/hibernate.console.log"
		;;
	snapshot)
		qemu_boot snapshot e2e.mode=snapshot e2e.discard_wait=$wait
		;;
	failfreeze)
		qemu_boot failfreeze e2e.mode=failfreeze e2e.discard_wait=0
		;;
	esac
	sed -n '/^e2e: dmesg begin/,/^e2e: dmesg end/p' "$dir/$mode.report.log" |
		sed '1d;$d' > "$dir/$mode.dmesg.txt"
}

# check ROLE MODE: judge the run; sets rc (0 pass, 1 fail) and summary.
check()
{
	local dir=$work/$1 mode=$2
	rc=0
	"$TOP/scripts/lib/e2e-check.sh" "$dir/$mode.report.log" \
		"$dir/$mode.console.log" > "$dir/$mode.check.txt" || rc=$?
	[ $rc -le 1 ] || exit 2
	summary=$(tail -n 1 "$dir/$mode.check.txt")
}

# built_with_btrfs_fix: in the patched tree, the judgment that btrfs's
# freeze stops async discard holds (its freeze fix is in), so no discard
# may reach the frozen disk, even outside the freezer.
built_with_btrfs_fix()
{
	"$TOP/scripts/autofreeze" judgments "$work/patched/src" fs/btrfs 2>/dev/null |
		grep -q ': quiesced on btrfs_init_workqueues() ("btrfs-discard"): holds'
}

# verdict TEXT: say TEXT, and record it in verdicts.new, which becomes
# $work/verdicts (make series quotes it) when every role was judged: its
# first line "autofreeze VERSION linux-source-KVER RELEASE", the release
# the guest reported.
verdict()
{
	say "$@"
	if [ ! -f "$work/verdicts.new" ]; then
		printf 'autofreeze %s %s %s\n' \
			"$(af_version)" \
			"${ktree:-linux-source-$kver}" "$(sed -n 's/^ok guest ran: //p' "$work"/*/*.check.txt 2>/dev/null | head -n 1)" \
			>"$work/verdicts.new"
	fi
	echo "$*" >>"$work/verdicts.new"
}

# judge ROLE MODE: what the role must show in the run's check, said in
# one line; sets status to 1 when it does not.  The converted kernel
# passes, and where its btrfs freeze stops discard, no discard reaches
# the frozen disk at all; the control fails, and only where the series
# matters; the mutant is caught: I/O to the frozen btrfs's disk, from its
# discard work; the unready kernel (the conversion without the
# prerequisites of its suspend freeze) is caught sending block I/O to a
# flagged filesystem's disk between the image of a hibernation through
# /dev/snapshot and its SNAPSHOT_UNFREEZE.
judge()
{
	local role=$1 mode=$2 dir=$work/$1 what=$1 check other caught
	check=$dir/$mode.check.txt
	[ "$mode" = suspend ] || what="$role $mode"
	case $role in
	patched)
		discard=$(grep '^note .*btrfs_discard_workfn' "$check" | head -n 1 || true)
		if [ $rc -eq 0 ] && [ -n "$discard" ] && built_with_btrfs_fix; then
			verdict "$label $what: FAIL, btrfs discards reach its frozen disk, though its freeze stops them: ${discard#note }"
			status=1
		elif [ $rc -eq 0 ]; then
			verdict "$label $what: PASS (${summary#*: })"
		else
			verdict "$label $what: FAIL (${summary#*: }), from ${check#"$TOP"/}:"
			grep '^FAIL' "$check" >&2
			status=1
		fi
		;;
	control)
		other=$(grep '^FAIL' "$check" | grep -v '^FAIL \[fs-freeze\]' || true)
		if [ $rc -eq 1 ] && [ -z "$other" ]; then
			verdict "$label $what: fails as it must (${summary#*: }, all of them [fs-freeze])"
		elif [ $rc -eq 0 ]; then
			verdict "$label $what: PASSES, so the test cannot tell a patched kernel from an unpatched one"
			status=1
		else
			verdict "$label $what: fails for another reason too, from ${check#"$TOP"/}:"
			echo "$other" >&2
			status=1
		fi
		;;
	unready)
		# What each proof must catch without the prerequisites.
		case $mode in
		snapshot) caught=$(grep '^FAIL \[snapshot-io\]' "$check" | head -n 1 || true) ;;
		*) caught=$(grep '^FAIL \[freeze-fail\] .*went on' "$check" | head -n 1 || true) ;;
		esac
		if [ -n "$caught" ]; then
			verdict "$label $what: caught (${caught#FAIL })"
		else
			verdict "$label $what: NOT CAUGHT without the prerequisites of its suspend freeze (${summary#*: }), see ${check#"$TOP"/}"
			status=1
		fi
		;;
	mutant)
		caught=$(grep '^FAIL \[io-frozen\].*btrfs_discard_workfn' "$check" | head -n 1 || true)
		if [ -n "$caught" ]; then
			verdict "$label $what: caught (${caught#FAIL })"
		else
			verdict "$label $what: NOT CAUGHT, btrfs's discard work without WQ_FREEZABLE went unseen (${summary#*: }), see ${check#"$TOP"/}"
			status=1
		fi
		;;
	esac
}

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
