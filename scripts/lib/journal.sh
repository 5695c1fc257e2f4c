# SPDX-License-Identifier: GPL-2.0
#
# journal.sh: sourced through ktree.sh by every driver.  The one way
# files of KTREE are replaced, by the drivers that write a tree (apply,
# vfs, series):
#
#   tree_lock                 take KTREE's lock, or refuse with one line
#   journal_replace LIST NEW  replace each file of LIST (paths relative
#                             to KTREE) with NEW/FILE, all or nothing
#   journal_recover           undo a replacement a killed run left (the
#                             writers: ktree_check, when $recovers)
#   journal_pending           while such a replacement is left, refuse
#                             with one line naming the command that
#                             undoes it (the commands that only read)
#
# The bookkeeping of a tree lives outside it (ktree_state): in a git
# work tree under its git directory, else under AUTOFREEZE_STATE.  The
# journal, STATE/journal/, is written before the first file changes:
# the old content of every file (a hard link where the file system
# allows: files are replaced, never written into, so the link keeps the
# old content, and putting it back needs no space), the hash of the
# content each is to get, the bookkeeping as it was, and the list.  It
# is complete once renamed into place, and gone once the replacement and
# its bookkeeping are done.  Whatever stops a run in between (a signal,
# SIGKILL, a full disk, a power cut), the run itself or the next writer
# puts back each file that is still byte for byte what the run wrote,
# and says so.  A file that is neither that nor what the run replaced
# (edited since, another branch checked out) stops it: one line naming
# the file, nothing changed, the journal kept for the user to decide.
# Every path the bookkeeping names is checked to be inside the tree
# before it is used (state_check).  Needs $prog, KTREE, DIR and KSTATE
# (ktree_check sets them).

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
# a git tree): its list and old contents are not this tree's, so it is
# dropped before anything reads it.  Never while it holds a journal:
# the same tree remounted has another tree_id too, and its half-changed
# files need the journal; putting back only what is byte for byte what
# the killed run wrote (journal_check) is safe in any tree.
state_drop_stale()
{
	local id
	[ -f "$KSTATE/tree" ] && read -r id <"$KSTATE/tree" || return 0
	[ "$id" != "$(tree_id)" ] && [ ! -d "$KSTATE/journal" ] || return 0
	rm -rf "$KSTATE" 2>/dev/null || true
}

# why_of TEXT: the reason at the end of a tool's error message ("cat:
# write error: No space left on device" -> "No space left on device").
why_of()
{
	local e=${1%$'\n'}
	e=${e##*$'\n'}
	e=${e##*: }
	printf '%s' "${e:-failed}"
}

# state_init: KSTATE made, writable, and marked as KTREE's; else one
# line and exit 2, before the tree is touched.
state_init()
{
	local id err
	if ! mkdir -p "$KSTATE" 2>/dev/null || [ ! -w "$KSTATE" ]; then
		echo "$prog: $KSTATE: cannot keep the tree's bookkeeping there (AUTOFREEZE_STATE=DIR puts it elsewhere); nothing changed" >&2
		exit 2
	fi
	id=$(printf '%s\n%s' "$(tree_id)" "$KTREE")
	[ "$(cat "$KSTATE/tree" 2>/dev/null)" != "$id" ] || return 0
	if ! err=$({ printf '%s\n' "$id" >"$KSTATE/tree.new" &&
			mv -f "$KSTATE/tree.new" "$KSTATE/tree"; } 2>&1); then
		rm -f "$KSTATE/tree.new"
		echo "$prog: $KSTATE: cannot keep the tree's bookkeeping there ($(why_of "$err")); nothing changed" >&2
		exit 2
	fi
}

# state_path NAME: the bookkeeping NAME of KTREE: tree (its tree_id and
# path), touched (the files apply and vfs changed, each once), orig/
# (each as it was before its first change), journal/.
state_path()
{
	printf '%s/%s' "$KSTATE" "$1"
}

# path_inside BASE PATH: PATH names something under BASE: relative,
# without an empty, "." or ".." component, and no directory on its way
# a symbolic link (or not a directory).
path_inside()
{
	local d=$1 p=$2
	case /$p/ in
	//* | *//* | */./* | */../*) return 1 ;;
	esac
	while [ "${p#*/}" != "$p" ]; do
		d=$d/${p%%/*}
		p=${p#*/}
		[ ! -L "$d" ] && { [ -d "$d" ] || [ ! -e "$d" ]; } || return 1
	done
}

# state_check: every path the bookkeeping names is inside KTREE, and the
# bookkeeping holds only files and directories (a symbolic link in it
# would lead a write or a removal elsewhere); else one line, exit 2,
# before anything is touched.
state_check()
{
	local f l bad=
	[ -d "$KSTATE" ] || return 0
	f=$(find "$KSTATE" \( -type l -o \( ! -type f ! -type d \) \) -print -quit 2>/dev/null)
	[ -z "$f" ] || state_bad "$f" "is not a plain file or directory"
	for l in touched journal/list journal/orig-new journal/touched; do
		[ -f "$KSTATE/$l" ] || continue
		while IFS= read -r f || [ -n "$f" ]; do
			path_inside "$KTREE" "$f" ||
				state_bad "$KSTATE/$l" "names '$f', not a path inside $KTREE"
		done <"$KSTATE/$l"
	done
	for l in orig journal/save; do
		[ -d "$KSTATE/$l" ] || continue
		while IFS= read -r -d '' f; do
			path_inside "$KTREE" "${f#"$KSTATE/$l/"}" ||
				{ bad=$f; break; }
		done < <(find "$KSTATE/$l" -type f -print0)
		[ -z "$bad" ] || state_bad "$bad" "stands for a path outside $KTREE"
	done
}

# state_bad WHAT WHY: bookkeeping that cannot be trusted: one line,
# exit 2, nothing changed.
state_bad()
{
	echo "$prog: $1 $2: nothing changed (the tree's bookkeeping in $KSTATE is damaged: check it, then remove what is wrong)" >&2
	exit 2
}

# tree_lock: an exclusive flock on the tree's top directory, held until
# the driver exits; a second writer refuses at once.  A driver run by
# one that holds it (series.sh runs build-check.sh) is handed it as the
# inherited descriptor AUTOFREEZE_LOCK_FD.
tree_lock()
{
	[ -z "${tree_locked:-}" ] || return 0
	if [ -n "${AUTOFREEZE_LOCK_FD:-}" ] &&
	   [ "$(readlink "/proc/self/fd/$AUTOFREEZE_LOCK_FD" 2>/dev/null)" = "$(cd "$KTREE" && pwd -P)" ] &&
	   flock -n "$AUTOFREEZE_LOCK_FD" 2>/dev/null; then
		tree_lock_fd=$AUTOFREEZE_LOCK_FD
		tree_locked=1
		return 0
	fi
	exec {tree_lock_fd}<"$KTREE"
	if ! flock -n "$tree_lock_fd"; then
		echo "$prog: $KTREE: another autofreeze run is changing this tree; nothing changed" >&2
		exit 2
	fi
	tree_locked=1
}

# writable F: KTREE/F can be replaced (or made): else one line, exit 2.
# A file with no write bit at all was made read-only on purpose (chmod
# a-w), which root's [ -w ] does not see.  Only regular files are
# replaced.
writable()
{
	local f=$KTREE/$1 d
	d=$(dirname "$f")
	while [ ! -e "$d" ]; do d=$(dirname "$d"); done
	if [ -L "$f" ] || { [ -e "$f" ] && [ ! -f "$f" ]; }; then
		echo "$prog: $f: not a regular file; nothing changed" >&2
		exit 2
	fi
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
# tree may be hard-linked to another, and the journal's copy may be a
# link.  On failure nothing is left of the new file.
replace_file()
{
	local dst=$KTREE/$1
	rm -f "$dst.autofreeze-new"
	if [ -e "$dst" ]; then
		cp -p --attributes-only "$dst" "$dst.autofreeze-new"
	else
		mkdir -p "$(dirname "$dst")" &&
		cp -p --attributes-only "$2" "$dst.autofreeze-new"
	fi && cat "$2" >"$dst.autofreeze-new" && mv -f "$dst.autofreeze-new" "$dst" ||
		{ rm -f "$dst.autofreeze-new"; return 1; }
}

# journal_write LIST NEW JOURNAL: the journal of replacing LIST's files
# by NEW's: list, new (the sha256 of each file's new content, in list
# order), run (the driver and its DIR), save/ (each existing file as it
# is), touched (the bookkeeping's list as it is), orig-new (filled as
# orig/ grows).
journal_write()
{
	local list=$1 new=$2 jn=$3 f h
	mkdir -p "$jn/save" && cp "$list" "$jn/list" && : >"$jn/orig-new" &&
		: >"$jn/new" && printf '%s\t%s\n' "$prog" "${DIR:-.}" >"$jn/run" ||
		return 1
	while IFS= read -r f; do
		h=$(sha256sum <"$new/$f") && printf '%s\n' "${h%% *}" >>"$jn/new" ||
			return 1
		[ -e "$KTREE/$f" ] || continue
		mkdir -p "$jn/save/$(dirname "$f")" &&
		{ ln "$KTREE/$f" "$jn/save/$f" 2>/dev/null ||
		  cp -p "$KTREE/$f" "$jn/save/$f"; } || return 1
	done <"$list"
	[ ! -e "$(state_path touched)" ] ||
		cp -p "$(state_path touched)" "$jn/touched" || return 1
	sync -f "$jn" 2>/dev/null || true
}

# journal_check J: what putting back each file of journal J takes, in
# journal_files[] and journal_todo[]: "put" (it is byte for byte what
# the run wrote: its old content goes back), "remove" (what the run wrote
# where there was no file) or "-" (it is as it was).  A file that is
# neither what the run wrote nor what it replaced: one line naming it,
# exit 2, nothing changed, the journal kept.
journal_check()
{
	local j=$1 f h dst sums=$1/new how
	journal_files=()
	journal_todo=()
	[ -f "$j/list" ] || state_bad "$j" "has no list"
	[ -f "$sums" ] || sums=/dev/null	# what it wrote is not known
	while IFS= read -r f <&3; do
		IFS= read -r h <&4 || h=
		dst=$KTREE/$f
		how=
		if [ -L "$dst" ] || { [ -e "$dst" ] && [ ! -f "$dst" ]; }; then
			how=
		elif [ -e "$j/save/$f" ]; then
			if [ ! -e "$dst" ]; then
				how=
			elif cmp -s "$j/save/$f" "$dst"; then
				how=-
			elif [ "$(sha256sum <"$dst" | cut -c1-64)" = "$h" ]; then
				how=put
			fi
		elif [ ! -e "$dst" ]; then
			how=-
		elif [ "$(sha256sum <"$dst" | cut -c1-64)" = "$h" ]; then
			how=remove
		fi
		if [ -z "$how" ]; then
			echo "$prog: $dst: changed since an autofreeze run that was killed replaced it (neither what it wrote nor what it replaced): nothing changed; check the file, then remove $j to keep the tree as it is (its old content is in $j/save/)" >&2
			exit 2
		fi
		journal_files+=("$f")
		journal_todo+=("$how")
	done 3<"$j/list" 4<"$sums"
}

# put_back F: KTREE/F gets the journal's old content back: a link to it
# renamed into place where the file system allows (no space needed),
# else a copy.
put_back()
{
	local dst=$KTREE/$1 tmp=$KTREE/$1.autofreeze-old
	local save
	save=$(state_path journal)/save/$1
	{ ln -f "$save" "$tmp" 2>/dev/null || cp -p "$save" "$tmp"; } &&
		mv -f "$tmp" "$dst" || { rm -f "$tmp"; return 1; }
}

# journal_undo: put back every file the journal says the run wrote, and
# the bookkeeping it saved, then drop it; last replaced first, so that
# each file put back from a copy has the space its new content took.
# Signals wait until it is done.  A file that cannot be put back: one
# line, exit 1, the journal kept for the next writer.
journal_undo()
{
	local j f i n=0 err orig
	j=$(state_path journal)
	orig=$(state_path orig)
	trap '' INT TERM HUP
	rm -rf "$j.new"
	[ -d "$j" ] || return 0
	journal_check "$j"
	for ((i = ${#journal_files[@]} - 1; i >= 0; i--)); do
		f=${journal_files[i]}
		rm -f "$KTREE/$f.autofreeze-new" "$KTREE/$f.autofreeze-old" 2>/dev/null || true
		case ${journal_todo[i]} in
		put)	err=$(put_back "$f" 2>&1) || journal_stuck "$KTREE/$f" "$err"
			n=$((n + 1)) ;;
		remove)	err=$(rm -f "$KTREE/$f" 2>&1) || journal_stuck "$KTREE/$f" "$err" ;;
		esac
		# AUTOFREEZE_FAIL_SIGNAL: the signal comes again here
		[ -z "${AUTOFREEZE_FAIL_SIGNAL:-}" ] ||
			kill -s "$AUTOFREEZE_FAIL_SIGNAL" $$
	done
	if [ -e "$j/touched" ]; then
		err=$(ln -f "$j/touched" "$(state_path touched)" 2>&1) ||
			journal_stuck "$(state_path touched)" "$err"
	else
		rm -f "$(state_path touched)"
	fi
	if [ -f "$j/orig-new" ]; then
		while IFS= read -r f; do
			rm -f "$orig/$f"
		done <"$j/orig-new"
	fi
	[ ! -d "$orig" ] || find "$orig" -depth -type d -empty -delete
	sync -f "$KTREE" 2>/dev/null || true
	journal_drop
	journal_undone=$n
}

# journal_drop: the journal gone at once (renamed first: a journal
# half removed would be a damaged one).
journal_drop()
{
	local j
	j=$(state_path journal)
	rm -rf "$j.done"
	mv -f "$j" "$j.done" && rm -rf "$j.done"
	sync -f "$KSTATE" 2>/dev/null || true
}

# journal_stuck WHAT ERR: a file (or the bookkeeping) could not be put
# back: the tree is half changed; the journal stays for the next writer.
journal_stuck()
{
	echo "$prog: $1: cannot put it back ($(why_of "$2")): the tree is left half changed; $(state_path journal) keeps what is needed, and the next make apply or make vfs KTREE=$KTREE puts it back once that is fixed" >&2
	exit 1
}

# journal_recover: a journal left by a run that was killed: undo it.
# A journal.new alone was being written when its run was killed: the
# tree was not touched yet, so it goes without a word.
journal_recover()
{
	local j
	j=$(state_path journal)
	[ -d "$j" ] || [ -d "$j.new" ] || [ -d "$j.done" ] || return 0
	tree_lock
	state_check
	rm -rf "$j.new" "$j.done"
	[ -d "$j" ] || return 0
	journal_undo
	echo "$prog: $KTREE: undid a change a killed autofreeze run left half done ($journal_undone files put back)" >&2
}

# journal_pending: for the commands that only read the tree: while a
# journal is left, the tree is half changed: one line naming the
# command that puts it back, exit 2.
journal_pending()
{
	local rc=0
	[ -d "$(state_path journal)" ] || return 0
	# a writer at work holds the lock: its journal is no leftover
	flock -n -E 200 -s "$KTREE" true 2>/dev/null || rc=$?
	if [ $rc -eq 200 ]; then
		echo "$prog: $KTREE: another autofreeze run is changing this tree; try again once it is done" >&2
		exit 2
	fi
	journal_left
}

# journal_left: a journal is left: one line naming the command that
# puts it back, exit 2.
journal_left()
{
	local j who='' dir='' how
	j=$(state_path journal)
	[ ! -f "$j/run" ] || IFS=$'\t' read -r who dir <"$j/run" || true
	case $who in
	vfs.sh)	how="make vfs KTREE=$(sh_quote "$KTREE")" ;;
	apply.sh) how="make apply KTREE=$(sh_quote "$KTREE") DIR=$(sh_quote "$dir")" ;;
	*)	how="make apply KTREE=$(sh_quote "$KTREE") DIR=$(sh_quote "${dir:-fs}") (or make vfs KTREE=$(sh_quote "$KTREE"))" ;;
	esac
	echo "$prog: $KTREE: a killed autofreeze run${who:+ ($who)} left a change half done, which only a command that writes the tree puts back: $how does that first; nothing done" >&2
	exit 2
}

# sh_quote WORD: WORD as a shell reads it back, quoted only when needed
# (a command line the user copies).
sh_quote()
{
	case $1 in
	'' | *[!A-Za-z0-9._/+=:@-]*) printf "'%s'" "${1//\'/\'\\\'\'}" ;;
	*) printf '%s' "$1" ;;
	esac
}

# journal_replace LIST NEW: each file of LIST (one per line) replaced
# by NEW/FILE; the bookkeeping gets the list (touched, each name once)
# and each file's first old content (orig/, build-check's baseline).
# On failure or a signal the tree is put back and the driver exits
# non-zero, one line saying so.  AUTOFREEZE_FAIL_AFTER=N makes step
# N+1 (the files' replacements, then their bookkeeping, in list order)
# fail, or with AUTOFREEZE_FAIL_SIGNAL=SIG get that signal (and again
# during the undo): the tests' fault injection.
journal_replace()
{
	local list=$1 new=$2 j f n=0 touched orig traps err
	j=$(state_path journal)
	touched=$(state_path touched)
	orig=$(state_path orig)
	tree_lock
	state_check
	# the writers that recover did in ktree_check
	[ ! -d "$j" ] || journal_left
	while IFS= read -r f; do
		path_inside "$KTREE" "$f" ||
			{ echo "$prog: '$f': not a path inside $KTREE; nothing changed" >&2; exit 2; }
		writable "$f"
	done <"$list"
	state_init
	# From here a signal or a failure undoes what was done; the journal
	# counts only once it is complete and renamed.
	traps=$(trap -p INT TERM HUP)
	trap 'journal_fail 130 interrupted' INT
	trap 'journal_fail 143 interrupted' TERM
	trap 'journal_fail 129 interrupted' HUP
	rm -rf "$j.new" "$j.done"
	err=$(journal_write "$list" "$new" "$j.new" 2>&1) && mv "$j.new" "$j" ||
		journal_fail 1 "$KSTATE: cannot write the journal ($(why_of "$err"))"
	while IFS= read -r f; do
		fault_point $((n++)) "$f"
		err=$(replace_file "$f" "$new/$f" 2>&1) ||
			journal_fail 1 "$KTREE/$f: cannot replace it ($(why_of "$err"))"
	done <"$list"
	err=$(touch "$touched" 2>&1) ||
		journal_fail 1 "$touched: cannot write it ($(why_of "$err"))"
	while IFS= read -r f; do
		fault_point $((n++)) "$f"
		err=$(journal_book "$f" 2>&1) ||
			journal_fail 1 "$KSTATE: cannot keep the bookkeeping ($(why_of "$err"))"
	done <"$list"
	sync -f "$KTREE" 2>/dev/null || true
	# Done: a signal now would undo a finished change, or report one
	# undone that was not.
	trap '' INT TERM HUP
	journal_drop
	trap - INT TERM HUP
	eval "$traps"
}

# journal_book F: F in the bookkeeping: in touched, and its old content
# in orig/ if it has none there yet (a link to the journal's, where the
# file system allows), which the journal's orig-new lists for the undo.
journal_book()
{
	grep -qxF -- "$1" "$touched" || printf '%s\n' "$1" >>"$touched" || return 1
	[ -e "$j/save/$1" ] && [ ! -e "$orig/$1" ] || return 0
	printf '%s\n' "$1" >>"$j/orig-new" &&
	mkdir -p "$(dirname "$orig/$1")" &&
	{ ln "$j/save/$1" "$orig/$1" 2>/dev/null || cp -p "$j/save/$1" "$orig/$1"; }
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
		journal_fail 1 "$2: failing as AUTOFREEZE_FAIL_AFTER asks"
	fi
}

# journal_fail RC WHY: the replacement failed or was interrupted: undo
# it, say so in one line (the tree as it was), exit RC.
journal_fail()
{
	trap '' INT TERM HUP
	if [ ! -d "$(state_path journal)" ]; then
		rm -rf "$(state_path journal).new"
		echo "$prog: $2; nothing changed" >&2
		exit "$1"
	fi
	journal_undo
	echo "$prog: $2; every file put back as it was" >&2
	exit "$1"
}
