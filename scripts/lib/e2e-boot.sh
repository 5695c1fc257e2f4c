# SPDX-License-Identifier: GPL-2.0
#
# e2e-boot.sh: booting make e2e's kernels, sourced by e2e.sh, whose
# settings it reads (TOP, work, label, tarball or ktree, fs_rows,
# guest_init, busybox, btrfs_tool, snapshot_client, qemu, qaccel, accel,
# timeout_s, cycles; flagged_units of e2e-build.sh).  boot ROLE MODE
# boots $work/ROLE/src's kernel under qemu, with tests/e2e/guest-init.sh
# as its init, through one run (a suspend, a hibernation, one through
# /dev/snapshot, or a suspend whose freeze fails), on fresh disks: it
# writes the initramfs and the disk images into $work/ROLE/, and the
# run's MODE.console.log, MODE.report.log (what the guest reported) and
# MODE.dmesg.txt.

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
