#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vfs.sh: apply the series of patches/ that the kernel tree's suspend
# freeze needs before a conversion: on a stable tree the core VFS series
# (FS_AUTOFREEZE, kernel freeze/thaw of filesystems on suspend); on a
# tree with upstream's own freeze (filesystems_freeze(), FS_POWER_FREEZE)
# what that freeze lacks (patches/linux-mainline/: the prerequisites of
# policy/prerequisites.tsv, and btrfs's freeze).
#
#   vfs.sh [KTREE]            (default: $KTREE)
#
# The series is the one of patches/linux-*/ that applies to the tree, as
# the helper finds it ("autofreeze optin": each is applied in memory), so
# a tree is known by its code, not by its version number.  A tree with
# only some of the prerequisites gets the patches of those it lacks
# ("autofreeze prereqs"), and a tree with only the first patches of
# one of our core series (FS_AUTOFREEZE defined, but no PM hook that
# calls its freeze) the patches it lacks ("autofreeze series": partial).
# A tree whose PM core does not call its freeze, and that no series
# completes, is refused.  In the top of a git work tree each patch
# becomes a commit as `git am` makes it, switched in at once, refused
# while a git operation of the user's is in progress or the series'
# files have changes (lib/vfs-apply.sh); elsewhere it is applied as
# `patch -p1` would.  All or nothing: when a patch fails the tree is
# left as it was.  A tree that already has the series is left alone.
#
# After a successful run the tree's bookkeeping (lib/journal.sh, outside
# the tree) holds:
#   touched  every file changed, one per line, each once (apply adds
#            its own)
#   orig/    the content of each such file before its first change,
#            the baseline build-check.sh compares to
#
# Exit status: 0 applied or nothing to do, 1 the series does not apply,
# 2 bad input (no kernel tree, a tree no series fits).

set -eu
prog=vfs.sh
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$TOP/scripts/lib/ktree.sh"
. "$TOP/scripts/lib/vfs-apply.sh"

die()
{
	echo "$prog: $*" >&2
	exit 2
}

fail()
{
	echo "$prog: $*" >&2
	exit 1
}

ktree=${1:-${KTREE:-}}
[ -n "$ktree" ] || die "no kernel tree given (set KTREE)"
# vfs writes the tree: it finishes or undoes a change a killed run left.
recovers=1
ktree_check "$ktree" .
ktree=$KTREE
# a git switch of make vfs that a power cut stopped half way (vfs-apply.sh)
vfs_recover

# The tree's suspend freeze: its own (mainline's filesystems_freeze() and
# FS_POWER_FREEZE: no series needed; or ours, applied already), or the
# series of patches/ whose code fits it ("autofreeze series": each is
# applied in memory, or taken out to see whether it is in).
IFS=$'\t' read -r _ state flag func where why < <("$AF" optin "$ktree") || true
if [ "${state:-}" = tree ] && [ "$flag" != FS_AUTOFREEZE ]; then
	echo "$prog: $ktree needs no VFS series: its own suspend freeze, $func() ($where), freezes the types that carry $flag, which make apply adds, and has what a conversion needs from it (autofreeze prereqs)"
	exit 0
fi
{ IFS=$'\t' read -r fit name split; mapfile -t patches; } < <("$AF" series "$ktree") || true
if [ "${state:-}" = partial ] && [ "${fit:-}" = partial ] &&
	[ "$flag" = FS_AUTOFREEZE ]; then
	# Our core series half in (git am stopped, say): the patches
	# missing, those the helper found apply on top of the others.
	fit=applies
	missing=${split##*in, }
	name="$name (only what the tree lacked: ${missing% missing})"
elif [ "${state:-}" = partial ]; then
	# Only the prerequisites the tree lacks, each its own patch.
	fit=applies
	name="${where%/} (only what the tree lacked)"
	mapfile -t patches < <("$AF" prereqs "$ktree" |
		awk -F'\t' -v top="$TOP/patches/" '$1 == "lacks" && $3 != "-" { print top $3 }')
elif [ "${fit:-}" = partial ]; then
	# Half in, yet the helper does not see our freeze in it.
	die "$ktree: $split, and the tree's suspend freeze is not as the series leaves it: ${why:-autofreeze optin failed}"
fi
if [ "${fit:-}" = applied ]; then
	echo "$prog: $ktree already has the VFS series $name, nothing to do"
	exit 0
fi
[ "${state:-}" != tree ] ||
	fail "$ktree has a suspend freeze of FS_AUTOFREEZE types already, the PM core's calls of it included, but not as a series of autofreeze's does; not applying"
[ "${state:-}" != none ] || die "$ktree: no VFS series for this tree: $why"
[ "${fit:-}" = applies ] && [ ${#patches[@]} -gt 0 ] ||
	die "$ktree: no VFS series for this tree: ${name:-autofreeze series failed}"
[ -f "$ktree/kernel/power/process.c" ] ||
	die "KTREE=$ktree: no kernel/power/process.c for the series to hook"

vfs_apply "$name" "${patches[@]}"
echo "$prog: applied the VFS series $name to $ktree ($method)"
