# SPDX-License-Identifier: GPL-2.0
#
# e2e-judge.sh: judging make e2e's runs, sourced by e2e.sh, whose
# settings it reads (TOP, work, label, kver, ktree).  check ROLE MODE
# has scripts/lib/e2e-check.sh judge the guest's report of the run into
# $work/ROLE/MODE.check.txt; judge ROLE MODE says what that check must
# show for the role, and records it in $work/verdicts.new.

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
