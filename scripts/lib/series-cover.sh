# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# series-cover.sh: make series' last step, sourced by series.sh, whose
# write_out() it calls once the series is committed, checked and
# compiled: the page that writes the series out, with the driver's
# settings (KTREE, TOP, out, branch, start, base, first,
# prereqs, core, lacks, npatches, converted, already, prev, pbase,
# reroll, changes, sprefix, in_reply_to, add_to, add_cc, ...).  It
# writes the cover letter ($scratch/cover.raw) as the topic branch's
# description, git format-patch's series into OUT, the per-patch notes
# of a new version below each ---, and the To: and Cc: of every patch
# and the cover letter (get_maintainer.pl, $scratch/pm-to, pm-cc).

write_out()
{
	# --- the cover letter: the topic branch's description --------------------
	{
		echo "fs: freeze filesystems, not their kernel threads, for suspend and hibernation"
		echo
		{ printf 'The kthread freezer stops kernel threads and freezable workqueues wherever they happen to call try_to_freeze(). '
		  printf 'What a frozen thread may hold, and which of its I/O must still pass, was never defined; its uses spread by copy and paste, and its removal has been discussed since 2015 [1][2][3]. '
		  printf 'What a filesystem needs from it, no writes to its disk while the system sleeps or its image is taken, the filesystem'"'"'s own freeze gives, at a defined point and for all its writers, as the 2023 series [4] proposed. '
		  printf 'Filesystems whose file_system_type carries %s are now %s.\n' "$flag" "$mechanism"; } | wrap
		echo
		{ printf 'This series sets %s on %s and, in the same patch each, takes their kernel threads and workqueues off the kthread freezer: ' \
			"$flag" "$(plural ${#converted[@]} filesystem)"
		  printf 'the filesystem is frozen before the tasks are, and its freeze quiesces their work. '
		  printf 'Each patch lists the uses it removes, what the freeze does to their work and the code that shows it.\n'; } | wrap
		echo
		echo "Safety"
		echo
		if [ "$prereqs" -gt 0 ]; then
			{ printf 'A conversion is only as safe as the freeze that replaces the kthread freezer. '
			  printf 'Patches 1-%s close what this tree'"'"'s freeze still lacks (%s in autofreeze), and come first:\n' "$prereqs" "$core"; } | wrap
			echo
			i=0
			while IFS= read -r s; do
				i=$((i + 1))
				why=$(prereq_why "$s")
				if [ -n "$why" ]; then
					printf -- '- %s/%s %s: without it, %s.\n' "$i" "$npatches" "$s" "$why"
				else
					printf -- '- %s/%s %s: a fix of the filesystem'"'"'s own freeze, needed before its conversion (its changelog says why).\n' "$i" "$npatches" "$s"
				fi
			done < <(git log --reverse --format='%s' "$start..$base") | items 2
		elif [ -n "$core" ]; then
			{ printf 'It applies on top of the core VFS series that adds %s and the suspend freeze (%s in autofreeze), ' "$flag" "$core"
			  printf 'the %s below its base.\n' "$(plural "$(git rev-list --count "$start..$base")" commit)"; } | wrap
		else
			printf 'The freeze the conversions rely on is in the tree as it is.\n' | wrap
		fi
		echo
		{ printf 'A unit is converted only where a reviewed judgment shows its freeze quiescing each thread and workqueue taken off the freezer; '
		  printf 'what cannot be shown quiesced keeps freezing, and is listed below with the reason.\n'; } | wrap
		echo
		echo "Merge order"
		echo
		if [ "$prereqs" -gt 0 ]; then
			{ printf 'Patches 1-%s first (VFS and PM; a filesystem fix among them goes with its filesystem). ' "$prereqs"
			  printf 'The conversions depend on them and not on each other: once they are in, each can go through its filesystem'"'"'s tree.\n'; } | wrap
		elif [ -n "$core" ]; then
			printf 'The conversions need the core series below the base, and not each other: with it in, each can go through its filesystem'"'"'s tree.\n' | wrap
		else
			printf 'The conversions do not depend on each other: each can go through its filesystem'"'"'s tree.\n' | wrap
		fi
		echo
		echo "Testing"
		echo
		{
			if [ "$compile" = 1 ]; then
				echo "- Every object the series touches compiles with allmodconfig at its head, without a new warning against the same files before it (autofreeze build-check)."
			else
				echo "- Not compiled by autofreeze (COMPILE=0)."
			fi
			if [ -s "$scratch/cp-moved" ]; then
				echo "- checkpatch.pl --strict reports nothing on any patch but $(awk '{ printf "%s%s (%s)", (NR > 1 ? ", " : ""), $1, $2 }' "$scratch/cp-moved"): on a line the patch only re-indents, to align it with the renamed call, it asks for a comment on existing code."
			else
				echo "- checkpatch.pl --strict reports nothing on any patch."
			fi
			echo "- make check-tree finds no freezer use left in kernel-thread context of a converted filesystem."
			if [ -n "$e2e_head" ]; then
				echo "- At runtime, under qemu, on $e2e_head (make e2e: suspend cycles at pm_test freezer and devices with writers on every converted filesystem, a hibernation, a hibernation through /dev/snapshot, and a suspend in which a flagged filesystem fails to freeze; an unconverted control kernel and kernels with one fix taken out must fail):"
			else
				echo "- Not run at runtime with this autofreeze version on $kver: make e2e KVER=$kver boots it under qemu through suspend and hibernation."
			fi
		} | items 2
		[ -z "$e2e_head" ] || sed '1d; s/^/    /' "$e2e_dir/verdicts"
		echo
		echo "Converted, one patch each:"
		for u in "${converted[@]}"; do
			printf '  %s (%s)\n' "$u" "$(awk -F'\t' -v u="$u" '$2 == u { print $3 }' "$scratch/conv/flags" | sed 's/,/, /g')"
		done
		held=0
		while IFS=$'\t' read -r u why; do
			[ "$(facts "$u" count)" -gt 0 ] || [ "${why#MAINTAINERS}" != "$why" ] || continue
			[ $held -gt 0 ] || { echo; echo "Held back, and why:"; echo; }
			held=$((held + 1))
			printf -- '- %s: %s\n' "$u" "$why" | items 2
		done <"$scratch/held"
		if [ ${#already[@]} -gt 0 ]; then
			echo
			echo "Converted already (they carry $flag):"
			printf '%s\n' "${already[@]}" | paste -sd' ' - | sed 's/ /, /g' | wrap 2 | sed '1s/^/  /'
		fi
		echo
		echo "No kthread freezer use to convert:"
		while IFS=$'\t' read -r u why; do
			[ "$(facts "$u" count)" -eq 0 ] && [ "${why#MAINTAINERS}" = "$why" ] && echo "$u"
		done <"$scratch/held" | paste -sd' ' - | sed 's/ /, /g' | wrap 2 | sed '1s/^/  /'
		for u in "${converted[@]}"; do
			facts "$u" note | sed "s|^|- $u: |" >>"$scratch/risks"
		done
		[ "$prereqs" -eq 0 ] || case " $lacks " in
		*" failed-freeze-fails "*)
			echo "- A flagged filesystem that fails to freeze now fails the suspend (patch 2), where it was only logged; so a filesystem whose freeze can fail for a reason of its own turns that into a failed suspend." >>"$scratch/risks" ;;
		esac
		if [ -s "$scratch/risks" ]; then
			echo
			echo "Risks"
			echo
			items 2 <"$scratch/risks"
		fi
		echo
		echo "How this was made"
		echo
		{ printf 'The conversions are generated by autofreeze %s with Coccinelle %s: ' "$version" "${spver:-?}"
		  printf 'its SmPL rules, below, take the freezer out of kernel-thread context only, and its helper gives them the thread functions, and the uses a reviewed judgment keeps, of each unit. '
		  printf 'The changelogs are generated from its report. '
		  printf 'Per unit: make apply KTREE=<tree> DIR=<unit>; or by hand, spatch --sp-file <rule> -D patch --in-place --no-includes --include-headers with the -D values the helper'"'"'s plan gives for the unit (kthread_fns, twins, unused_twins, keep_at, fs_types, flag: scripts/lib/convert.sh).\n'; } | wrap
		if [ "$prereqs" -gt 0 ]; then
			echo
			{ printf 'Patches 1-%s come from autofreeze (%s), written with the help of a coding assistant; ' "$prereqs" "$core"
			  printf 'their changelogs say what each was seen to do under qemu.\n'; } | wrap
		fi
		echo
		echo "[1] https://lwn.net/Articles/662703/"
		echo "[2] https://lwn.net/Articles/705269/"
		echo "[3] https://lwn.net/Articles/935602/"
		echo "[4] https://lkml.kernel.org/r/20230114003409.1168311-1-mcgrof@kernel.org"
		if [ "$reroll" -gt 1 ]; then
			echo
			echo "Changes in v$reroll:"
			[ -z "$changes" ] || { echo; cat "$changes"; }
			if [ -n "$prev" ]; then
				echo
				printf -- '- Compared with %s (the range-diff is below): %s.\n' "$prev" \
					"$(cat "$scratch/rd-summary")" | items 2
			fi
		fi
		echo
		echo "The SmPL rules:"
		echo
		if [ -n "${SMPL_URL:-}" ]; then
			echo "  $SMPL_URL"
		else
			for r in kthread_freezer wq_freezable fs_autofreeze; do
				echo "==> cocci/$r.cocci <=="
				cat "$TOP/cocci/$r.cocci"
				echo
			done
		fi
	} >"$scratch/cover.raw" 2>/dev/null

	git config "branch.$branch.description" "$(cat "$scratch/cover.raw")"
	git config "branch.$branch.autofreeze-base" "$first"
	git config "branch.$branch.b4-prep-cover-strategy" branch-description

	# --- git format-patch ----------------------------------------------------
	fp=(format-patch -q --cover-letter --cover-from-description=subject --base="$first"
		--subject-prefix="$sprefix" -o "$out")
	[ "$reroll" -le 1 ] || fp+=(-v "$reroll")
	[ -z "$in_reply_to" ] || fp+=(--in-reply-to="$in_reply_to")
	[ -z "$prev" ] || fp+=(--range-diff="$pbase..$prev" --creation-factor=60)
	git "${fp[@]}" "$first..HEAD" >/dev/null || fail "git format-patch failed"
	cover=$(ls "$out"/*0000-cover-letter.patch)

	# The per-patch notes below ---, for a new version
	if [ -n "$prev" ]; then
		for p in "$out"/*.patch; do
			[ "$p" != "$cover" ] || continue
			n=$(basename "$p" | sed 's/^v[0-9]*-//; s/^0*\([0-9][0-9]*\)-.*/\1/')
			s=$(awk -F'\t' -v n="$n" '$1 == n { print $2 }' "$scratch/rd-status")
			awk -v v="$reroll" -v s="${s:-new}" -v pv="$prev" '
				!done && $0 == "---" { print; print "Changes in v" v ": " s " since " pv "."; print ""; done = 1; next }
				{ print }' "$p" >"$p.new" && mv "$p.new" "$p"
		done
	fi

	# --- To: and Cc: -----------------------------------------------------------
	# the VFS and PM maintainers and lists ($scratch/pm-to, pm-cc) are
	# known since the run began
	: >"$scratch/all-to"
	: >"$scratch/all-cc"
	i=0
	for p in "$out"/*.patch; do
		[ "$p" != "$cover" ] || continue
		i=$((i + 1))
		gm TO "$p" >"$scratch/to"
		gm CC "$p" >"$scratch/cc"
		# a unit with no maintainer (6.1's reiserfs): its lists are To:
		if [ ! -s "$scratch/to" ]; then
			mv "$scratch/cc" "$scratch/to"
			: >"$scratch/cc"
		fi
		# a patch of the freeze itself (a prerequisite), not a
		# filesystem's own fix
		if [ "$i" -le "$prereqs" ] &&
		   [ -n "$(prereq_why "$(git log -1 --format=%s "$(git rev-list --reverse "$first..HEAD" | sed -n "${i}p")")")" ]; then
			cat "$scratch/pm-to" >>"$scratch/to"
			cat "$scratch/pm-cc" >>"$scratch/cc"
		fi
		printf '%s\n' "$add_to" | grep . >>"$scratch/to" || true
		printf '%s\n' "$add_cc" | grep . >>"$scratch/cc" || true
		cat "$scratch/to" >>"$scratch/all-to"
		cat "$scratch/cc" >>"$scratch/all-cc"
		add_headers "$p" "$(join <"$scratch/to")" \
			"$(awk 'NR == FNR { t[$0]; next } !($0 in t)' "$scratch/to" "$scratch/cc" | join)"
	done
	cat "$scratch/pm-to" "$scratch/all-to" >"$scratch/c-to"
	cat "$scratch/pm-cc" "$scratch/all-cc" >"$scratch/c-cc"
	add_headers "$cover" "$(join <"$scratch/c-to")" \
		"$(awk 'NR == FNR { t[$0]; next } !($0 in t)' "$scratch/c-to" "$scratch/c-cc" | join)"
}
