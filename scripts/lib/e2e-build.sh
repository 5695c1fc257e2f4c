# SPDX-License-Identifier: GPL-2.0
#
# e2e-build.sh: building make e2e's kernels, sourced by e2e.sh, whose
# settings it reads (TOP, work, tree, kver, tarball or ktree and
# ktree_id, asis, label, version_config, cc, J).  build_kernel ROLE builds a role's
# kernel from the tarball or KTREE in $work/tree and moves it to
# $work/ROLE/src, with ROLE's allconfig, inputs and vfs.log, apply.log,
# build.log beside it.
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
# A kernel is rebuilt only when what it is built from (tarball, config
# fragment, series, rules, scripts) changed.  The control is built
# first, and the patched kernel starts from a copy of its tree and
# build, so that only what make vfs and make apply changed is compiled
# again; the mutant starts from the patched kernel's.  Both are built
# in the same place, build/e2e/linux-KVER/tree, and moved to their role
# afterwards: objtool's build records absolute paths, and every object
# depends on objtool, so a copy built elsewhere would compile it all.

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
