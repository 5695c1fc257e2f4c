# SPDX-License-Identifier: GPL-2.0
#
# vfs-apply.sh: sourced by vfs.sh.  vfs_apply NAME PATCH... puts the
# series NAME (its patches, in order) into KTREE, all or nothing: in the
# top of a git work tree as one commit per patch, else with patch -p1
# through the journal (lib/journal.sh).  Sets method (how it was
# applied, for vfs.sh's last line).  Needs $prog, ktree, KTREE and
# KSTATE (ktree_check), and fail() and die() of vfs.sh.  vfs_recover
# finishes or drops a git switch that a SIGKILL or a power cut stopped.
#
# In a git tree the user's git state is theirs: vfs refuses (one line,
# exit 2, nothing changed) while an am, rebase, merge, cherry-pick,
# revert or bisect is in progress, while the index differs from HEAD,
# or while a file the series changes is modified, staged, untracked or
# flagged to be ignored by git; and it never runs git am.  The commits
# are made as git am makes them (git mailsplit, git mailinfo, git apply,
# git commit-tree: same tree, author, date and message) with a scratch
# index, off the user's index and work tree.  Then one short switch, in
# a session of its own (a signal to vfs's process group, SIGKILL
# included, does not reach it) and deaf to signals: the work tree's
# files through the journal, the index, then HEAD (git update-ref HEAD
# NEW OLD).  Whatever stops vfs, HEAD, the index and the work tree are
# as they were, or hold the whole series; a switch itself killed (a
# power cut) leaves a record that vfs_recover, the next make vfs, acts
# on.
#
# When run (not sourced) as "vfs-apply.sh --switch OLD NEW TMP NAME",
# it is that switch.
#
# AUTOFREEZE_VFS_STEP=N makes the Nth step (each patch built, the
# switch, and in the switch its record, the files, the index, HEAD)
# send AUTOFREEZE_VFS_SIGNAL (default TERM) to vfs's process group;
# with AUTOFREEZE_VFS_CRASH=1 the step is killed too, as by a power
# cut: the tests' fault injection.

# vfs_step: one step further; the fault injection's hook.
vfs_step()
{
	vfs_steps=$((${vfs_steps:-0} + 1))
	[ "${AUTOFREEZE_VFS_STEP:-}" = "$vfs_steps" ] && [ -n "${vfs_pgid:-}" ] ||
		return 0
	kill -s "${AUTOFREEZE_VFS_SIGNAL:-TERM}" -- "-$vfs_pgid" 2>/dev/null || true
	[ -z "${AUTOFREEZE_VFS_CRASH:-}" ] || kill -s KILL "$BASHPID"
}

# vfs_git CMD...: git in KTREE.  Pathspecs are file names, as the
# patches spell them, whatever the caller's environment says.
vfs_git()
{
	env -u GIT_GLOB_PATHSPECS -u GIT_NOGLOB_PATHSPECS \
		-u GIT_ICASE_PATHSPECS -u GIT_NAMESPACE \
		GIT_LITERAL_PATHSPECS=1 git -C "$KTREE" "$@"
}

# vfs_git_path NAME: the absolute path of NAME in KTREE's git directory
# (git -C prints it relative to KTREE).
vfs_git_path()
{
	local p
	p=$(vfs_git rev-parse --git-path "$1") || return 1
	case $p in
	/*) printf '%s' "$p" ;;
	*) printf '%s/%s' "$KTREE" "$p" ;;
	esac
}

# vfs_git_busy: one line and exit 2 when a git operation of the user's
# is under way in KTREE (the files git status reads for it), another
# git command holds the index, or the index differs from HEAD.
vfs_git_busy()
{
	local what='' f
	if [ -e "$(vfs_git_path rebase-apply/applying)" ]; then
		what="a git am"
	elif [ -d "$(vfs_git_path rebase-apply)" ] ||
	     [ -d "$(vfs_git_path rebase-merge)" ]; then
		what="a git rebase"
	elif [ -e "$(vfs_git_path MERGE_HEAD)" ]; then
		what="a git merge"
	elif [ -e "$(vfs_git_path CHERRY_PICK_HEAD)" ]; then
		what="a git cherry-pick"
	elif [ -e "$(vfs_git_path REVERT_HEAD)" ]; then
		what="a git revert"
	elif [ -d "$(vfs_git_path sequencer)" ]; then
		what="a git cherry-pick or revert sequence"
	elif [ -e "$(vfs_git_path BISECT_LOG)" ]; then
		what="a git bisect"
	fi
	[ -z "$what" ] ||
		die "$KTREE: $what is in progress; finish or abort it first; nothing changed"
	[ ! -e "$(vfs_git_path index.lock)" ] ||
		die "$KTREE: another git command is running ($(vfs_git_path index.lock) exists); nothing changed"
	if ! vfs_git diff-index --cached --quiet HEAD -- 2>/dev/null; then
		f=$(vfs_git diff-index --cached --name-only HEAD -- | head -n 1)
		die "$KTREE: the index has changes not committed (${f:-?}); commit or unstage them first; nothing changed"
	fi
}

# vfs_git_dirty PATCH...: one line and exit 2 when a file the patches
# change or create is not as HEAD has it, in the work tree or the index:
# modified, staged, untracked, ignored but there, or hidden from git
# status (assume-unchanged, skip-worktree).
vfs_git_dirty()
{
	local paths st f why
	mapfile -t paths < <(sed -n 's|^+++ b/||p; s|^--- a/||p' "$@" | sort -u)
	[ ${#paths[@]} -gt 0 ] || return 0
	# read only: no opportunistic index refresh
	st=$(vfs_git --no-optional-locks status --porcelain --no-renames \
		--untracked-files=all --ignored=matching -- "${paths[@]}" | head -n 1)
	if [ -n "$st" ]; then
		f=${st:3}
		case ${st:0:2} in
		'??') why="untracked, where the series creates it" ;;
		'!!') why="there and ignored by git, where the series creates it" ;;
		' '?) why="modified or deleted" ;;
		*) why="staged" ;;
		esac
		die "$KTREE: $f, which the series changes, is $why; commit, stash or remove it first; nothing changed"
	fi
	st=$(vfs_git ls-files -v -- "${paths[@]}" | grep -m 1 '^[a-zS]' || true)
	case ${st:0:1} in
	'') return 0 ;;
	S) why=skip-worktree ;;
	*) why=assume-unchanged ;;
	esac
	die "$KTREE: ${st:2}, which the series changes, is marked $why in the index; nothing changed"
}

# vfs_git_commits OLD NAME PATCH...: the series as commits on OLD, made
# as git am makes them, in a scratch index ($tmp/index); sets vfs_new,
# the last, and vfs_ncommits.  A patch that does not apply: one line,
# exit 1.
vfs_git_commits()
{
	local old=$1 name=$2 p m n=0 parent key val subject author email date
	local split=() info=()
	shift 2
	# what git am takes from the configuration for mailsplit and mailinfo
	[ "$(vfs_git config --type=bool am.keepcr 2>/dev/null)" != true ] ||
		split=(--keep-cr)
	[ "$(vfs_git config --type=bool am.messageid 2>/dev/null)" != true ] ||
		info=(-m)
	GIT_INDEX_FILE=$tmp/index vfs_git read-tree "$old"
	parent=$old
	for p in "$@"; do
		rm -rf "$tmp/mail" && mkdir "$tmp/mail"
		vfs_git mailsplit "${split[@]}" -o"$tmp/mail" -- "$p" >/dev/null
		for m in "$tmp"/mail/*; do
			n=$((n + 1))
			vfs_step
			vfs_git mailinfo "${info[@]}" "$tmp/msg" "$tmp/patch" <"$m" >"$tmp/info"
			subject='' author='' email='' date=''
			while IFS= read -r key; do
				val=${key#*: }
				case $key in
				'Subject: '*) subject=$val ;;
				'Author: '*) author=$val ;;
				'Email: '*) email=$val ;;
				'Date: '*) date=$val ;;
				esac
			done <"$tmp/info"
			[ -s "$tmp/patch" ] ||
				fail "patch $(printf %04d $n) of the VFS series $name is empty; tree left as it was"
			if ! GIT_INDEX_FILE=$tmp/index vfs_git apply --cached \
					"$tmp/patch" >"$tmp/apply.log" 2>&1; then
				why=$(grep -m 1 -E '^error:' "$tmp/apply.log" || head -n 1 "$tmp/apply.log")
				fail "patch $(printf %04d $n) of the VFS series $name does not apply to $ktree (git apply: ${why:-see git apply}); tree left as it was"
			fi
			# git am's message: the subject, a blank line, the body,
			# cleaned as git stripspace does
			{ printf '%s\n\n' "$subject"; cat "$tmp/msg"; } |
				command git stripspace >"$tmp/message"
			parent=$(GIT_AUTHOR_NAME=$author GIT_AUTHOR_EMAIL=$email \
				GIT_AUTHOR_DATE=$date vfs_git "${ident[@]}" commit-tree \
				"$(GIT_INDEX_FILE=$tmp/index vfs_git write-tree)" -p "$parent" -F "$tmp/message")
		done
	done
	vfs_ncommits=$n
	vfs_new=$parent
}

# vfs_git_finish OLD NEW NAME: the index, then HEAD, from OLD to NEW,
# once the work tree has NEW's files; then the switch's record goes.
# The index keeps all it has but the paths OLD..NEW changes.
vfs_git_finish()
{
	local rec
	rec=$(state_path vfs-switch)
	vfs_git diff-tree -r --no-renames "$1" "$2" |
		sed "s/^:[0-7]* \([0-7]*\) [0-9a-f]* \([0-9a-f]*\) [A-Z]*$(printf '\t')/\1 \2$(printf '\t')/" \
		>"$rec.index" &&
	vfs_git update-index --index-info <"$rec.index" || return 1
	# the stat data of the new entries (content is set already)
	vfs_git update-index -q --refresh >/dev/null 2>&1 || true
	vfs_step
	vfs_git update-ref -m "am: the VFS series $3 (make vfs)" HEAD "$2" "$1" ||
		return 1
	vfs_step
	# as git am leaves it: ORIG_HEAD is where it started
	vfs_git update-ref ORIG_HEAD "$1" || true
	rm -f "$rec" "$rec.index"
}

# vfs_switch OLD NEW TMP NAME: the switch, run in a session of its own
# (vfs_git_apply): TMP/stage's files (the list TMP/list) into the work
# tree through the journal, then the index and HEAD.  Its lines go to
# TMP/switch.log (the caller's terminal or pipe may be gone); exit 0
# done, 1 or 2 nothing changed (the journal's), 3 the files are in but
# the index or HEAD could not follow (the record stays for vfs_recover).
vfs_switch()
{
	local old=$1 new=$2
	tmp=$3
	trap '' INT TERM HUP PIPE
	exec >>"$tmp/switch.log" 2>&1
	rec=$(state_path vfs-switch)
	# the record goes again when the journal fails (and put all back)
	files_in=
	trap '[ -n "$files_in" ] || rm -f "$rec"' EXIT
	printf '%s %s\n%s\n' "$old" "$new" "$4" >"$rec.new" && mv -f "$rec.new" "$rec"
	vfs_step
	journal_replace "$tmp/list" "$tmp/stage"
	files_in=1
	vfs_step
	if ! vfs_git_finish "$old" "$new" "$4"; then
		echo "$prog: $KTREE: the series' files are in the work tree, but git could not move the index and HEAD from $old to $new: run make vfs again to finish" >&2
		exit 3
	fi
	# the caller is gone (SIGKILL): its scratch directory too
	kill -0 "$PPID" 2>/dev/null || rm -rf "$tmp"
}

# vfs_git_apply NAME PATCH...: the series as commits in KTREE, a git
# work tree.
vfs_git_apply()
{
	local name=$1 old new rc=0
	shift
	old=$(vfs_git rev-parse -q --verify HEAD) ||
		die "$ktree: git tree without a commit; commit the tree first; nothing changed"
	vfs_git_busy
	vfs_git_dirty "$@"
	# git am needs an identity; lend it one only when there is none.
	ident=()
	vfs_git var GIT_COMMITTER_IDENT >/dev/null 2>&1 ||
		ident=(-c user.name=autofreeze -c user.email=autofreeze@localhost)
	vfs_git_commits "$old" "$name" "$@"
	new=$vfs_new
	# the new files as git checks them out (filters, modes), in stage/
	printf '%s\n' "$touched" | sed '/^$/d' >"$tmp/list"
	GIT_INDEX_FILE=$tmp/index vfs_git checkout-index -f -q \
		--prefix="$tmp/stage/" --stdin <"$tmp/list"
	vfs_step
	# Again, just before the switch: the user may have started something
	# while the commits were made.
	vfs_git_busy
	vfs_git_dirty "$@"
	[ "$(vfs_git rev-parse -q --verify HEAD)" = "$old" ] ||
		fail "$KTREE: HEAD moved while make vfs ran; nothing changed"
	# From here nothing stops the switch: vfs ignores the signals until
	# it is done, the switch hears none (its own session).
	trap '' INT TERM HUP
	: >"$tmp/switch.log"
	# (the braces' 2>/dev/null: bash's own word when the switch is killed)
	# shellcheck disable=SC2097,SC2098 # this shell's values, handed over
	{ tree_locked=1 vfs_steps=$vfs_steps vfs_pgid=$vfs_pgid TOP=$TOP prog=$prog \
		KTREE=$KTREE KSTATE=$KSTATE setsid -w bash "$TOP/scripts/lib/vfs-apply.sh" \
		--switch "$old" "$new" "$tmp" "$name" </dev/null >>"$tmp/switch.log" 2>&1
	} 2>/dev/null || rc=$?
	cat "$tmp/switch.log" >&2
	case $rc in
	0) ;;
	1 | 2) exit "$rc" ;;	# the journal said why, nothing changed
	3) exit 1 ;;		# the switch said why
	*) fail "$KTREE: the switch to the VFS series was killed half done (exit $rc); make vfs KTREE=$KTREE again puts it back or finishes it" ;;
	esac
	method="git am, $vfs_ncommits commits"
}

# vfs_recover: a git switch of make vfs that was killed half done
# (vfs_switch's record): finish it when the work tree has the new
# files (the index and HEAD follow), drop it when the work tree has the
# old (the journal put them back).  Anything else: one line, exit 2.
vfs_recover()
{
	local rec old new name paths
	rec=$(state_path vfs-switch)
	[ -f "$rec" ] || return 0
	tree_lock
	{ read -r old new; read -r name; } <"$rec" || true
	paths=()
	[ -z "$new" ] ||
		mapfile -t paths < <(vfs_git diff-tree -r --name-only --no-renames "$old" "$new" 2>/dev/null)
	case $(vfs_git rev-parse -q --verify HEAD) in
	"$new")	# all but the record's removal was done
		rm -f "$rec" "$rec.index" ;;
	"$old")
		if [ ${#paths[@]} -gt 0 ] &&
		   vfs_git --no-optional-locks diff --quiet "$new" -- "${paths[@]}"; then
			vfs_git_finish "$old" "$new" "$name" ||
				die "$KTREE: cannot finish the switch to $new a killed make vfs left: git update-index or update-ref failed"
			echo "$prog: $KTREE: finished the VFS series $name that a killed make vfs left half done (HEAD now $new)" >&2
		elif vfs_git --no-optional-locks diff --quiet "$old" -- "${paths[@]}"; then
			rm -f "$rec" "$rec.index"
		else
			die "$KTREE: a killed make vfs left $rec, and the files of its series ($(printf '%s ' "${paths[@]}" | cut -c1-60)...) have changed since; check them, then remove that file"
		fi ;;
	*)	# HEAD moved on since: the user's work, left alone
		echo "$prog: $KTREE: dropped the record of a killed make vfs (HEAD is no longer $old)" >&2
		rm -f "$rec" "$rec.index" ;;
	esac
}

vfs_apply()
{
	name=$1
	shift
	patches=("$@")
	# The files the series touches, in the order they first appear.
	touched=$(sed -n 's|^+++ b/||p' "${patches[@]}" | awk '!seen[$0]++')

	tree_lock
	state_init
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/vfs.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 129' HUP
	vfs_steps=0
	vfs_pgid=
	[ -z "${AUTOFREEZE_VFS_STEP:-}" ] || vfs_pgid=$(ps -o pgid= $$ | tr -d ' ')

	top=$(git -C "$ktree" rev-parse --show-toplevel 2>/dev/null || true)
	if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$ktree" ]; then
		vfs_recover
		vfs_git_apply "$name" "${patches[@]}"
	else
		# Apply the whole series to copies first; touch the tree only when
		# every patch went in.
		mkdir -p "$tmp/stage"
		while read -r f; do
			[ -n "$f" ] && [ -f "$ktree/$f" ] || continue
			mkdir -p "$tmp/stage/$(dirname "$f")"
			cp -p "$ktree/$f" "$tmp/stage/$f"
		done <<<"$touched"
		for p in "${patches[@]}"; do
			if ! patch -d "$tmp/stage" -p1 -s -f -N -F 0 --no-backup-if-mismatch \
					-r - <"$p" >"$tmp/patch.log" 2>&1; then
				why=$(grep -m 1 -iE 'failed|can.t find|no file' "$tmp/patch.log" || head -n 1 "$tmp/patch.log")
				fail "${p##*/} does not apply to $ktree (patch: $why); tree left as it was"
			fi
		done
		# In through the journal, bookkeeping and all: every file or none,
		# whatever stops the run.
		printf '%s\n' "$touched" | sed '/^$/d' >"$tmp/list"
		journal_replace "$tmp/list" "$tmp/stage"
		method="patch -p1, ${#patches[@]} patches"
	fi
}

# The switch, run by vfs_git_apply in a session of its own.
if [ "${BASH_SOURCE[0]}" = "$0" ] && [ "${1:-}" = --switch ]; then
	set -eu
	shift
	. "$TOP/scripts/lib/journal.sh"
	vfs_switch "$@"
fi
