# SPDX-License-Identifier: GPL-2.0
#
# journal.sh: sourced by the drivers that write a kernel tree (apply.sh,
# vfs.sh), and through ktree.sh by every driver for the recovery.  The
# one way files of KTREE are replaced:
#
#   tree_lock                 take KTREE's lock, or refuse with one line
#   journal_replace LIST NEW  replace each file of LIST (paths relative
#                             to KTREE) with NEW/FILE, all or nothing
#   journal_recover           undo a replacement a killed run left
#
# The bookkeeping of a tree lives outside it (ktree_state): in a git
# work tree under its git directory, else under AUTOFREEZE_STATE.  The
# journal, STATE/journal/, is written before the first file changes:
# the old content of every file, the bookkeeping as it was, and the
# list.  It is complete once renamed into place, and gone once the
# replacement and its bookkeeping are done.  Whatever stops a run in
# between (a signal, SIGKILL, a full disk, a power cut), the next
# driver run on KTREE finds the journal and puts the tree back as it
# was, and says so.  Needs $prog, KTREE and KSTATE (ktree_check sets
# them).

# ktree_state TREE: the directory of TREE's bookkeeping.  At the top of
# a git work tree, autofreeze/ in its git directory; else a directory
# named for the tree's path in $AUTOFREEZE_STATE (default
# $XDG_STATE_HOME/autofreeze, that is ~/.local/state/autofreeze).  A
# plain tree moved, and any tree copied, starts without one.
ktree_state()
{
	local t top base
	t=$(cd "$1" && pwd -P) || return 1
	if top=$(git -C "$t" rev-parse --show-toplevel 2>/dev/null) &&
	   [ "$(cd "$top" && pwd -P)" = "$t" ]; then
		printf '%s/autofreeze' "$(git -C "$t" rev-parse --absolute-git-dir)"
		return
	fi
	base=${AUTOFREEZE_STATE:-${XDG_STATE_HOME:-${HOME:-/nonexistent}/.local/state}/autofreeze}
	printf '%s/%s-%s' "$base" "$(basename "$t")" \
		"$(printf '%s' "$t" | sha256sum | cut -c1-16)"
}

# tree_id: KTREE's top directory as device:inode:birth time.  A tree
# removed and made again at the same path, or copied, has another: the
# inode alone may be reused at once (ext4), its birth time is not
# (where the file system keeps one; else "-").
tree_id()
{
	stat -c '%d:%i:%w' "$KTREE" | tr ' ' _
}

# state_drop_stale: bookkeeping whose "tree" file names another
# tree_id belongs to a tree since removed (or came along with cp -a of
# a git tree): its list, old contents and journal are not this tree's,
# so it is dropped before anything reads it.
state_drop_stale()
{
	local id
	[ -f "$KSTATE/tree" ] && read -r id <"$KSTATE/tree" || return 0
	[ "$id" = "$(tree_id)" ] || rm -rf "$KSTATE" 2>/dev/null || true
}

# state_init: KSTATE made, writable, and marked as KTREE's; else one
# line and exit 2, before the tree is touched.
state_init()
{
	if ! mkdir -p "$KSTATE" 2>/dev/null || [ ! -w "$KSTATE" ]; then
		echo "$prog: $KSTATE: cannot keep the tree's bookkeeping there (AUTOFREEZE_STATE=DIR puts it elsewhere); nothing changed" >&2
		exit 2
	fi
	printf '%s\n%s\n' "$(tree_id)" "$KTREE" >"$KSTATE/tree"
}

# state_path NAME: the bookkeeping NAME of KTREE: tree (its tree_id and
# path), touched (the files apply and vfs changed, each once), orig/
# (each as it was before its first change), journal/.
state_path()
{
	printf '%s/%s' "$KSTATE" "$1"
}

# tree_lock: an exclusive flock on the tree's top directory, held until
# the driver exits; a second writer refuses at once.
tree_lock()
{
	[ -z "${tree_locked:-}" ] || return 0
	exec {tree_lock_fd}<"$KTREE"
	if ! flock -n "$tree_lock_fd"; then
		echo "$prog: $KTREE: another autofreeze run is changing this tree; nothing changed" >&2
		exit 2
	fi
	tree_locked=1
}

# writable F: KTREE/F can be replaced (or made): else one line, exit 2.
# A file with no write bit at all was made read-only on purpose (chmod
# a-w), which root's [ -w ] does not see.
writable()
{
	local f=$KTREE/$1 d
	d=$(dirname "$f")
	while [ ! -e "$d" ]; do d=$(dirname "$d"); done
	if { [ -e "$f" ] && [ ! -w "$f" ]; } || [ ! -w "$d" ]; then
		echo "$prog: $f: not writable; nothing changed" >&2
		exit 2
	fi
	if [ -e "$f" ] && [ -z "$(find "$f" -maxdepth 0 -perm /222)" ]; then
		echo "$prog: $f: read-only (mode $(stat -c %a "$f")); nothing changed" >&2
		exit 2
	fi
}

# replace_file F SRC: KTREE/F gets SRC's content, keeping its own mode
# and owner (SRC's when it is new).  Replaced, never written into: a
# tree may be hard-linked to another.
replace_file()
{
	local dst=$KTREE/$1
	if [ -e "$dst" ]; then
		cp -p "$dst" "$dst.autofreeze-new"
	else
		mkdir -p "$(dirname "$dst")" && cp -p "$2" "$dst.autofreeze-new"
	fi && cat "$2" >"$dst.autofreeze-new" && mv -f "$dst.autofreeze-new" "$dst"
}

# journal_undo: put back every file and the bookkeeping the journal
# saved, then drop it.  Signals wait until it is done.
journal_undo()
{
	local j f n=0
	j=$(state_path journal)
	trap '' INT TERM HUP
	rm -rf "$j.new"
	[ -d "$j" ] || return 0
	while IFS= read -r f; do
		rm -f "$KTREE/$f.autofreeze-new" "$KTREE/$f.autofreeze-old"
		if [ ! -e "$j/save/$f" ]; then
			rm -f "$KTREE/$f"		# the run created it
		elif ! cmp -s "$j/save/$f" "$KTREE/$f"; then
			cp -p "$j/save/$f" "$KTREE/$f.autofreeze-old"
			mv -f "$KTREE/$f.autofreeze-old" "$KTREE/$f"
			n=$((n + 1))
		fi
		# AUTOFREEZE_FAIL_SIGNAL: the signal comes again here
		[ -z "${AUTOFREEZE_FAIL_SIGNAL:-}" ] ||
			kill -s "$AUTOFREEZE_FAIL_SIGNAL" $$
	done <"$j/list"
	if [ -e "$j/touched" ]; then
		cp -p "$j/touched" "$(state_path touched)"
	else
		rm -f "$(state_path touched)"
	fi
	while IFS= read -r f; do
		rm -f "$(state_path orig)/$f"
	done <"$j/orig-new"
	[ ! -d "$(state_path orig)" ] ||
		find "$(state_path orig)" -depth -type d -empty -delete
	sync -f "$KTREE" 2>/dev/null || true
	rm -rf "$j"
	sync -f "$KSTATE" 2>/dev/null || true
	journal_undone=$n
}

# journal_recover: a journal left by a run that was killed: undo it.
# A journal.new alone was being written when its run was killed: the
# tree was not touched yet, so it goes without a word.
journal_recover()
{
	local j
	j=$(state_path journal)
	[ -d "$j" ] || [ -d "$j.new" ] || return 0
	tree_lock
	if [ ! -d "$j" ]; then
		rm -rf "$j.new"
		return 0
	fi
	journal_undo
	echo "$prog: $KTREE: undid a change a killed autofreeze run left half done ($journal_undone files put back)" >&2
}

# journal_replace LIST NEW: each file of LIST (one per line) replaced
# by NEW/FILE; the bookkeeping gets the list (touched, each name once)
# and each file's first old content (orig/, build-check's baseline).  On failure or a signal the tree is put back
# and the driver exits non-zero.  AUTOFREEZE_FAIL_AFTER=N makes step
# N+1 (the files' replacements, then their bookkeeping, in list order)
# fail, or with AUTOFREEZE_FAIL_SIGNAL=SIG get that signal (and again
# during the undo): the tests' fault injection.
journal_replace()
{
	local list=$1 new=$2 j f n=0 touched orig traps
	j=$(state_path journal)
	touched=$(state_path touched)
	orig=$(state_path orig)
	tree_lock
	while IFS= read -r f; do
		writable "$f"
	done <"$list"
	state_init
	# From here a signal or a failure undoes what was done; the journal
	# counts only once it is complete and renamed.
	traps=$(trap -p INT TERM HUP)
	trap 'journal_fail 130' INT
	trap 'journal_fail 143' TERM
	trap 'journal_fail 129' HUP
	rm -rf "$j.new"
	mkdir -p "$j.new/save" && cp "$list" "$j.new/list" &&
		: >"$j.new/orig-new" || journal_fail 1
	(set -o pipefail
	 cd "$KTREE" && while IFS= read -r f; do
		[ ! -e "$f" ] || printf '%s\0' "$f"
	 done <"$list" | tar --null -T - -cf - | tar -C "$j.new/save" -xpf -) ||
		journal_fail 1
	[ ! -e "$touched" ] || cp -p "$touched" "$j.new/touched" || journal_fail 1
	sync -f "$j.new" 2>/dev/null || true
	mv "$j.new" "$j" || journal_fail 1
	while IFS= read -r f; do
		fault_point $((n++)) "$f"
		replace_file "$f" "$new/$f" || journal_fail 1
	done <"$list"
	touch "$touched" || journal_fail 1
	while IFS= read -r f; do
		fault_point $((n++)) "$f"
		grep -qxF -- "$f" "$touched" ||
			printf '%s\n' "$f" >>"$touched" || journal_fail 1
		[ -e "$j/save/$f" ] && [ ! -e "$orig/$f" ] || continue
		printf '%s\n' "$f" >>"$j/orig-new" &&
		mkdir -p "$(dirname "$orig/$f")" &&
		cp -p "$j/save/$f" "$orig/$f" || journal_fail 1
	done <"$list"
	sync -f "$KTREE" 2>/dev/null || true
	# Done: a signal now would undo a finished change, or report one
	# undone that was not.
	trap '' INT TERM HUP
	rm -rf "$j"
	trap - INT TERM HUP
	eval "$traps"
}

# fault_point N FILE: the Nth step (a replacement, then a file's
# bookkeeping) fails or gets a signal when AUTOFREEZE_FAIL_AFTER says so.
fault_point()
{
	[ -n "${AUTOFREEZE_FAIL_AFTER:-}" ] && [ "$1" -ge "$AUTOFREEZE_FAIL_AFTER" ] ||
		return 0
	if [ -n "${AUTOFREEZE_FAIL_SIGNAL:-}" ]; then
		kill -s "$AUTOFREEZE_FAIL_SIGNAL" $$
	else
		echo "$prog: $2: failing as AUTOFREEZE_FAIL_AFTER asks" >&2
		journal_fail 1
	fi
}

# journal_fail RC: the replacement failed or was interrupted: undo it,
# say so, exit RC.
journal_fail()
{
	journal_undo
	echo "$prog: failed; every file put back as it was" >&2
	exit "$1"
}
