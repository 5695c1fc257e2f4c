# SPDX-License-Identifier: GPL-2.0
#
# ktree.sh: sourced by the drivers.  ktree_check KTREE DIR validates a
# kernel tree and a directory inside it, by asking the helper (one check
# for every driver: "autofreeze ktree"), and sets KTREE (absolute) and
# DIR (relative, normalised), and KSTATE, where the tree's bookkeeping
# lives (journal.sh); on bad input it prints one line naming $prog and
# exits 2.  A change a killed run left half done (journal.sh) is put
# back there by the drivers that set recovers=1 (they write the tree);
# every other driver refuses with one line while it is left.

AF=$TOP/scripts/autofreeze
# Git finds the tree's repository from the tree, never from the caller's
# environment: a GIT_DIR or GIT_WORK_TREE (set by a hook, say) would point
# every git command here at another repository.
# shellcheck disable=SC2046 # one variable name per word
unset $(git rev-parse --local-env-vars 2>/dev/null)
# Only a driver that writes the tree sets recovers (after sourcing this),
# never the environment.
unset recovers
# What make knew of the caller (Makefile): the directory a relative KTREE
# is relative to, and, when no KTREE was given, the default that gives way
# to the kernel tree the caller stands in.  Read once and not passed on: a
# script this one runs resolves its own arguments where it stands.
af_caller_dir=${AF_CALLER_DIR:-}
af_ktree_default=${AF_KTREE_DEFAULT:-}
unset AF_CALLER_DIR AF_KTREE_DEFAULT
. "$TOP/scripts/lib/journal.sh"

# ktree_link_copy SRC DEST: a cheap copy of kernel tree SRC, hard links
# where the file system allows (vfs.sh, apply.sh, build-check.sh and git
# replace files, never write into them), else a plain copy.  SRC may be
# a symbolic link to the tree: -H copies the tree, never the link (a
# link copied would make every change to "the copy" one to SRC).
ktree_link_copy()
{
	rm -rf "$2"
	cp -alH "$1" "$2" 2>/dev/null || { rm -rf "$2" && cp -aH "$1" "$2"; }
}

# af_version: this autofreeze's version, one word, as autofreeze
# --version prints it, the series' changelogs name it and make e2e's
# record is stamped with (the two must agree for the series to quote the
# record).  The release is the VERSION file (the one place it is set);
# in a git checkout of TOP, git describe says where from it: 0.1.0 at
# the tag v0.1.0, 0.1.0-3-gabc1234 three commits on, 0.1.0+gabc1234 with
# no tag of this release, -dirty for changes.  An install (make install
# writes af_version into its VERSION) is no checkout, even inside
# another repository.
af_version()
{
	local v d
	v=$(cat "$TOP/VERSION" 2>/dev/null) || v=unknown
	if [ ! -e "$TOP/INSTALLED" ] &&
	   [ "$(command git -C "$TOP" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$TOP" && pwd -P)" ] &&
	   d=$(command git -C "$TOP" describe --tags --always --dirty --match "v$v" 2>/dev/null); then
		case $d in
		"v$v"*) v=${d#v} ;;
		*) v=$v+g$d ;;
		esac
	fi
	printf '%s\n' "$v"
}

# driver_args "$@": a driver's KTREE DIR arguments, checked.
driver_args()
{
	[ $# -eq 2 ] || { echo "usage: $prog KTREE DIR" >&2; exit 2; }
	ktree_check "$1" "$2"
}

# ktree_here DIR: the top of the kernel tree DIR is in (DIR or its
# nearest parent that the helper calls a kernel tree), else fail.
ktree_here()
{
	local d=$1
	while ! "$AF" ktree "$d" . >/dev/null 2>&1; do
		[ "$d" != / ] && [ -n "$d" ] || return 1
		d=$(dirname "$d")
	done
	printf '%s\n' "$d"
}

ktree_check()
{
	local out base= here

	[ -x "$AF" ] || make -s -C "$TOP" helper >&2 ||
		{ echo "$prog: cannot build the helper (make helper)" >&2; exit 2; }
	# No KTREE given to make, and the caller stands in a kernel tree: it.
	if [ -n "$af_ktree_default" ] && [ "$1" = "$af_ktree_default" ] &&
	   here=$(ktree_here "$af_caller_dir"); then
		set -- "$here" "$2"
	fi
	# A relative KTREE given to make is relative to where the caller
	# stands, which make -C left; the refusal says so.
	case $1 in
	/*) ;;
	*) [ -z "$af_caller_dir" ] || [ ! -d "$af_caller_dir" ] || base=$af_caller_dir ;;
	esac
	if ! out=$(cd "${base:-.}" && "$AF" ktree "$1" "$2" 2>&1); then
		out=${out#autofreeze: }
		case $out in
		"KTREE=$1: "*)
			[ -z "$base" ] ||
			out="KTREE=$1 (relative to $(shown "$base")): ${out#"KTREE=$1: "}" ;;
		esac
		echo "$prog: $out" >&2
		exit 2
	fi
	KTREE=${out%%$'\t'*}
	DIR=${out#*$'\t'}
	KSTATE=$(ktree_state "$KTREE")
	state_drop_stale
	# A change a killed run left half done: the drivers that write the
	# tree (recovers=1: apply, vfs) put it back; the others only read,
	# and refuse, naming the command that does.
	if [ -n "${recovers:-}" ]; then
		journal_recover
		state_drop_stale
	else
		journal_pending
	fi
}

# shown VALUE: VALUE as a message quotes it, on one line (a newline in
# it written as bash's $'...' does): a message is one line, whatever
# the user gave.
shown()
{
	case $1 in
	*[[:cntrl:]]*) printf '%q' "$1" ;;
	*) printf '%s' "$1" ;;
	esac
}

# jobs_check: J, the number of parallel jobs (default: the number of
# CPUs), is a whole number of 1 or more.  Sets J; on anything else prints
# one line naming $prog and exits 2, before any work is done.
jobs_check()
{
	J=${J:-$(nproc)}
	case $J in
	*[!0-9]* | 0 | 0[0-9]*)
		echo "$prog: J=$(shown "$J"): not a number of jobs (1 or more)" >&2
		exit 2 ;;
	esac
}

# spatch_check: spatch is there and new enough for the rules (script
# constraints on positions, fresh identifiers from python: 1.1).
spatch_check()
{
	local v
	if ! command -v "${SPATCH:-spatch}" >/dev/null 2>&1; then
		echo "$prog: ${SPATCH:-spatch} not found (install coccinelle: make deps)" >&2
		exit 2
	fi
	v=$("${SPATCH:-spatch}" --version 2>/dev/null | sed -n 's/^spatch version \([0-9][0-9.]*\).*/\1/p')
	# by number: 1.1, 1.1.1, 1.2 and 1.10 are new enough, 1.0.8 is not
	if ! printf '%s\n' "$v" | awk -F. '/^[0-9]+(\.[0-9]+)+$/ &&
			($1 > 1 || ($1 == 1 && $2 >= 1)) { ok = 1 } END { exit !ok }'; then
		echo "$prog: ${SPATCH:-spatch} ${v:-of unknown version} is too old: the rules need coccinelle 1.1 or later" >&2
		exit 2
	fi
	# which spatch, for the result cache (convert.sh)
	SPATCH_ID="$(command -v "${SPATCH:-spatch}") $v"
}
