#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t47-vfs-git: make vfs in a git tree leaves the user's git state
# theirs (issue 29, principle 3).  It refuses, one line, exit 2, nothing
# changed, while an am, rebase, merge, cherry-pick, revert or bisect is
# in progress, while the index differs from HEAD or a file the series
# changes is not as HEAD has it; the environment cannot point it at
# another repository; a signal to its process group (INT, TERM, HUP,
# KILL) at any moment leaves HEAD, the index and the work tree as they
# were or with the whole series; a switch itself killed (a power cut)
# is finished by the next make vfs.  The commits are those git am
# makes.
#
# The tree: the files of linux-source-6.1 that its series (7 patches)
# touches, with Makefile, Kconfig and .gitignore, one commit: git needs
# no more, and vfs.sh takes it in a fraction of a second.
# test-run: light

. "$(dirname "$0")/lib.sh"

V=6.1
SRC=$TOP/build/linux-source-$V
PATCHES=("$TOP"/patches/linux-$V/000[1-9]-*.patch)
NP=${#PATCHES[@]}
VFS=$TOP/scripts/vfs.sh
G=(git -c user.name=t47 -c user.email=t47@localhost)
# the scratch directories a killed run leaves go with the trash
TMPDIR=$TRASH/tmp
export TMPDIR
mkdir -p "$TMPDIR"

# base: the one-commit git tree every test copies (cp -a, .git and all)
test_expect_success KTREE_6_1 "set up: a git tree of the files the series touches" '
	mkdir base &&
	(cd "$SRC" && cp --parents .gitignore Makefile Kconfig \
		$(sed -n "s|^+++ b/||p" "${PATCHES[@]}" | sort -u) "$TRASH/base/") &&
	git -C base init -q &&
	git -C base config gc.auto 0 &&
	git -C base add -f -A &&
	"${G[@]}" -C base commit -q -m "Debian tree" &&
	test "$NP" -eq 7
'

# state DIR: what make vfs may change, commit ids aside (the committer
# date makes them differ from run to run): the branch, the commits'
# trees, authors, dates and subjects, git status, the index, every file
# of the work tree with its content, and any git operation under way.
state()
{
	(cd "$1" &&
	 git symbolic-ref -q HEAD; git log --format="%T %an <%ae> %ad %s" &&
	 git status --porcelain=v1 -uall --ignored &&
	 git ls-files -s --debug | grep -v "^  \(ctime\|mtime\|dev\|uid\|size\|flags\)" &&
	 find . -path ./.git -prune -o -type f -print | LC_ALL=C sort | xargs md5sum &&
	 ls -a "$(git rev-parse --git-dir)" | grep -E "^(rebase-apply|rebase-merge|MERGE_HEAD|CHERRY_PICK_HEAD|REVERT_HEAD|BISECT_LOG|sequencer|index.lock)$" || true)
}

# fresh NAME: a copy of base, and NAME.before, its state
fresh()
{
	rm -rf "$1" && cp -a base "$1" && state "$1" >"$1.before"
}

test_expect_success KTREE_6_1 "make vfs makes the commits git am makes: tree, author, date, message; the bookkeeping as before" '
	fresh ok && cp -a base am &&
	"${G[@]}" -C am am -q "${PATCHES[@]}" &&
	(cd /; "$VFS" "$TRASH/ok") >out 2>err &&
	test_cmp /dev/null err &&
	grep -q "^vfs.sh: applied the VFS series patches/linux-$V to $TRASH/ok (git am, $NP commits)$" out &&
	for t in ok am; do
		git -C $t log --format="%T%n%an <%ae> %ad%n%B" HEAD~$NP.. >$t.log || exit 1
	done &&
	test_cmp am.log ok.log &&
	test "$(git -C ok rev-parse HEAD~$NP)" = "$(git -C base rev-parse HEAD)" &&
	test -z "$(git -C ok status --porcelain -uall --ignored)" &&
	test "$(git -C ok rev-parse ORIG_HEAD)" = "$(git -C base rev-parse HEAD)" &&
	git -C ok diff-files --quiet &&
	st=$(ktree_state ok) &&
	sed -n "s|^+++ b/||p" "${PATCHES[@]}" | awk "!seen[\$0]++" >want &&
	test_cmp want "$st/touched" &&
	for f in $(cat want); do
		cmp "base/$f" "$st/orig/$f" || exit 1
	done &&
	test ! -e "$st/journal" && test ! -e "$st/vfs-switch" &&
	state ok >after.state
'

# before_or_after DIR: DIR is as base was (DIR.before), or as make vfs
# leaves it (after.state); nothing half done is left
before_or_after()
{
	local st
	state "$1" >"$1.now" &&
	{ cmp -s "$1.before" "$1.now" || cmp -s after.state "$1.now" ||
	  { diff -u after.state "$1.now"; false; }; } &&
	st=$(ktree_state "$1") &&
	test ! -e "$st/journal" && test ! -e "$st/vfs-switch"
}

# refused NAME WHAT: make vfs on NAME exits 2 with one line matching
# WHAT, and NAME's state is as before
refused()
{
	test_exit_code 2 "$VFS" "$TRASH/$1" >"$TRASH/out" 2>"$TRASH/err" &&
	test_line_count "$TRASH/err" 1 &&
	grep -q "^vfs.sh: $TRASH/$1: $2" "$TRASH/err" &&
	state "$TRASH/$1" >"$TRASH/$1.now" &&
	test_cmp "$TRASH/$1.before" "$TRASH/$1.now"
}

# user_am DIR: in DIR, the user's own git am of two patches stopped at
# the second (a conflict in Kconfig, which the series does not touch),
# the first committed, a resolution staged
user_am()
{
	(cd "$1" &&
	 git checkout -q -b topic &&
	 echo "# topic 1" >>Makefile && "${G[@]}" commit -qam "topic 1" &&
	 echo "# topic 2" >>Kconfig && "${G[@]}" commit -qam "topic 2" &&
	 "${G[@]}" format-patch -q -2 -o "$TRASH/$1.mbox" &&
	 git checkout -q - && git branch -q -D topic &&
	 echo "# mine" >>Kconfig && "${G[@]}" commit -qam mine &&
	 ! "${G[@]}" am -q --no-3way "$TRASH/$1.mbox"/*.patch >/dev/null 2>&1 &&
	 test "$(git log -1 --format=%s)" = "topic 1" &&
	 echo "# resolved" >>Kconfig && git add Kconfig &&
	 test -e "$(git rev-parse --git-path rebase-apply)/applying")
}

test_expect_success KTREE_6_1 "the user's own git am, one patch in, a resolution staged: refused, the am, HEAD and the resolution kept" '
	rm -rf uam && cp -a base uam && user_am uam &&
	head=$(git -C uam rev-parse HEAD) &&
	state uam >uam.before &&
	refused uam "a git am is in progress; finish or abort it first; nothing changed$" &&
	test "$(git -C uam rev-parse HEAD)" = "$head" &&
	git -C uam diff --cached | grep -q "^+# resolved" &&
	"${G[@]}" -C uam am -q --continue &&
	test "$(git -C uam log -1 --format=%s)" = "topic 2"
'

test_expect_success KTREE_6_1 "the check for an am in progress holds from any directory, and in a linked git worktree" '
	rm -rf wt wt-main && cp -a base wt-main &&
	git -C wt-main worktree add -q --detach "$TRASH/wt" &&
	user_am wt &&
	state wt >wt.before && state wt-main >wt-main.before &&
	(cd / && refused wt "a git am is in progress") &&
	state wt-main >wt-main.now && test_cmp wt-main.before wt-main.now
'

# busy DIR OP: in DIR, the git operation OP stopped half way (a conflict
# in Kconfig or Makefile, which the series does not touch)
busy()
{
	(cd "$1" &&
	 git checkout -q -b side &&
	 echo "# side" >>Kconfig && "${G[@]}" commit -qam side &&
	 echo "# side 2" >>Makefile && "${G[@]}" commit -qam "side 2" &&
	 git checkout -q - &&
	 echo "# main" >>Kconfig && "${G[@]}" commit -qam main &&
	 sed -i "s/^# main$/# main 2/" Kconfig && "${G[@]}" commit -qam "main 2" &&
	 case $2 in
	 rebase-merge) ! "${G[@]}" rebase -q --merge side ;;
	 rebase-apply) ! "${G[@]}" rebase -q --apply side ;;
	 merge) ! "${G[@]}" merge -q side ;;
	 cherry-pick) ! "${G[@]}" cherry-pick side~1 ;;
	 revert) ! "${G[@]}" revert --no-edit HEAD~1 ;;
	 bisect) git bisect start HEAD HEAD~2 ;;
	 sequence)
		! "${G[@]}" cherry-pick side~1 side &&
		git checkout -q --theirs Kconfig && git add Kconfig &&
		"${G[@]}" commit -q --no-edit &&
		test ! -e "$(git rev-parse --git-path CHERRY_PICK_HEAD)" ;;
	 esac >/dev/null 2>&1)
}

test_expect_success KTREE_6_1 "a rebase (merge and apply backends), a merge, a cherry-pick, a revert, a bisect, a cherry-pick sequence in progress: refused" '
	for op in rebase-merge rebase-apply merge cherry-pick revert bisect sequence; do
		rm -rf $op && cp -a base $op && busy $op $op || { echo "cannot set up $op"; exit 1; }
		state $op >$op.before &&
		case $op in
		rebase-*) what="a git rebase" ;;
		sequence) what="a git cherry-pick or revert sequence" ;;
		*) what="a git $op" ;;
		esac &&
		refused $op "$what is in progress; finish or abort it first; nothing changed$" ||
			{ echo "$op: not refused"; exit 1; }
	done
'

test_expect_success KTREE_6_1 "a staged change, a modified, a staged, a deleted file of the series (no series fits then), one marked assume-unchanged or skip-worktree, a running git: refused" '
	fresh ix && echo "# staged" >>ix/Kconfig && git -C ix add Kconfig && state ix >ix.before &&
	refused ix "the index has changes not committed (Kconfig); commit or unstage them first; nothing changed$" &&
	fresh mod && echo "/* mine */" >>mod/fs/super.c && state mod >mod.before &&
	refused mod "fs/super.c, which the series changes, is modified or deleted; commit, stash or remove it first; nothing changed$" &&
	fresh del && rm del/fs/ioctl.c && state del >del.before &&
	refused del "no VFS series for this tree: .*fs/ioctl.c: no such file" &&
	fresh stg && echo "/* mine */" >>stg/fs/super.c && git -C stg add -f fs/super.c &&
	echo "/* more */" >>stg/fs/super.c && state stg >stg.before &&
	refused stg "the index has changes not committed (fs/super.c)" &&
	fresh au && git -C au update-index --assume-unchanged fs/super.c &&
	echo "/* hidden */" >>au/fs/super.c && state au >au.before &&
	refused au "fs/super.c, which the series changes, is marked assume-unchanged in the index; nothing changed$" &&
	grep -q hidden au/fs/super.c &&
	fresh sw && git -C sw update-index --skip-worktree include/linux/fs.h && state sw >sw.before &&
	refused sw "include/linux/fs.h, which the series changes, is marked skip-worktree in the index" &&
	fresh lk && : >lk/.git/index.lock && state lk >lk.before &&
	refused lk "another git command is running (.*index.lock exists); nothing changed$"
'

test_expect_success KTREE_6_1 "a modified file the series does not touch is no obstacle, and stays" '
	fresh other && echo "# mine" >>other/Kconfig &&
	"$VFS" "$TRASH/other" >out 2>err &&
	test "$(git -C other rev-list --count HEAD)" -eq $((NP + 1)) &&
	git -C other status --porcelain >st && echo " M Kconfig" >want && test_cmp want st &&
	grep -q "^# mine" other/Kconfig
'

test_expect_success KTREE_6_1 "GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, GIT_CONFIG_* and their kin cannot point make vfs at another repository" '
	fresh mine && fresh victim &&
	: >elsewhere.index &&
	GIT_DIR="$TRASH/victim/.git" GIT_WORK_TREE="$TRASH/victim" \
		GIT_INDEX_FILE="$TRASH/elsewhere.index" GIT_COMMON_DIR="$TRASH/victim/.git" \
		GIT_OBJECT_DIRECTORY="$TRASH/victim/.git/objects" \
		GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.worktree \
		GIT_CONFIG_VALUE_0="$TRASH/victim" \
		"$VFS" "$TRASH/mine" >out 2>err &&
	cat err &&
	state victim >victim.now && test_cmp victim.before victim.now &&
	test ! -s elsewhere.index &&
	state mine >mine.now && test_cmp after.state mine.now &&
	fresh mk &&
	GIT_DIR="$TRASH/victim/.git" GIT_WORK_TREE="$TRASH/victim" \
		make -s --no-print-directory -C "$TOP" vfs KTREE="$TRASH/mk" >out 2>&1 &&
	state victim >victim.now && test_cmp victim.before victim.now &&
	state mk >mk.now && test_cmp after.state mk.now
'

# killed NAME SIG [ENV...]: make vfs on a fresh NAME in a process group
# of its own, that group sent SIG at the step AUTOFREEZE_VFS_STEP (in
# ENV) or after the delay DELAY; then wait until nothing of it runs
# (a switch outlives its group: it holds the tree's lock).
killed()
{
	local name=$1 sig=$2 pid
	shift 2
	fresh "$name" || return 1
	# as from a terminal: SIGINT not ignored, as it is in a background job
	setsid env --default-signal AUTOFREEZE_VFS_SIGNAL="$sig" "$@" \
		"$VFS" "$TRASH/$name" >"$name.out" 2>"$name.err" &
	pid=$!
	if [ -n "${DELAY:-}" ]; then
		sleep "$DELAY"
		kill -s "$sig" -- "-$pid" 2>/dev/null ||
			echo "$name: no $sig sent (the run had not begun or was over)"
	fi
	{ wait $pid; } 2>/dev/null	# not bash's word on a KILL
	echo $? >"$name.rc"
	flock -w 30 "$TRASH/$name" true
}

test_expect_success KTREE_6_1 "SIGTERM, SIGINT, SIGHUP to the process group at each step: HEAD, index, work tree as before, or the whole series" '
	steps=$((NP + 5)) &&
	for sig in TERM INT HUP; do
		for n in $(seq 1 $steps); do
			[ $sig = TERM ] || [ $n -eq 1 ] || [ $n -eq $((NP + 1)) ] ||
				[ $n -eq $((NP + 3)) ] || continue
			killed s$sig$n $sig AUTOFREEZE_VFS_STEP=$n || exit 1
			before_or_after s$sig$n || { echo "$sig at step $n"; cat s$sig$n.err; exit 1; }
			rc=$(cat s$sig$n.rc)
			# before the switch: stopped, nothing done; in it: done
			if [ $n -le $((NP + 1)) ]; then
				cmp -s s$sig$n.before s$sig$n.now && test "$rc" -gt 128 ||
					{ echo "$sig at step $n: rc $rc, not as before"; cat s$sig$n.err; exit 1; }
			else
				cmp -s after.state s$sig$n.now && test "$rc" -eq 0 ||
					{ echo "$sig at step $n: rc $rc, not the whole series"; cat s$sig$n.err; exit 1; }
			fi
		done
	done
'

test_expect_success KTREE_6_1 "SIGKILL to the process group at each step: as before, or the whole series (the switch outlives it)" '
	for n in $(seq 1 $((NP + 5))); do
		killed k$n KILL AUTOFREEZE_VFS_STEP=$n || exit 1
		before_or_after k$n || { echo "KILL at step $n"; exit 1; }
		if [ $n -le $((NP + 1)) ]; then
			cmp -s k$n.before k$n.now || { echo "KILL at step $n: not as before"; exit 1; }
		else
			cmp -s after.state k$n.now || { echo "KILL at step $n: not the whole series"; exit 1; }
		fi
	done
'

# The moments: a clean run timed, then signals at 0 to 110% of its
# time, so that every part of it is hit, however fast this machine.
test_expect_success KTREE_6_1 "a signal to the group at any moment (TERM at 16, KILL at 8 moments of a run): as before, or the whole series" '
	fresh timed &&
	t0=$(date +%s%N) && "$VFS" "$TRASH/timed" >/dev/null 2>&1 && t1=$(date +%s%N) &&
	for sig in TERM KILL; do
		n=$([ $sig = TERM ] && echo 16 || echo 8) &&
		for DELAY in $(awk -v t=$(((t1 - t0) / 1000)) -v n=$n \
				"BEGIN { for (i = 0; i < n; i++) printf \"%.3f\\n\", t * 1.1 * i / (n - 1) / 1e6 }"); do
			DELAY=$DELAY killed d$sig$DELAY $sig || exit 1
			before_or_after d$sig$DELAY ||
				{ echo "$sig after $DELAY s"; cat d$sig$DELAY.err; exit 1; }
			cmp -s d$sig$DELAY.before d$sig$DELAY.now && echo "$sig $DELAY: as before" ||
				echo "$sig $DELAY: the whole series"
		done
	done
'

# after_rerun NAME: make vfs again on NAME leaves the whole series
after_rerun()
{
	"$VFS" "$TRASH/$1" >"$1.out2" 2>"$1.err2" &&
	state "$1" >"$1.now" &&
	test_cmp after.state "$1.now" &&
	test ! -e "$(ktree_state "$1")/vfs-switch" ||
		{ cat "$1.out2" "$1.err2"; false; }
}

test_expect_success KTREE_6_1 "the switch killed as by a power cut, at each of its steps: the next make vfs finishes it or starts again" '
	for n in $(seq $((NP + 2)) $((NP + 5))); do
		killed p$n KILL AUTOFREEZE_VFS_STEP=$n AUTOFREEZE_VFS_CRASH=1 &&
		after_rerun p$n || { echo "power cut at step $n"; exit 1; }
		# the files in, the index or HEAD not yet: finished, and said so
		case $n in
		$((NP + 3)) | $((NP + 4)))
			grep -q "^vfs.sh: $TRASH/p$n: finished the VFS series patches/linux-$V that a killed make vfs left half done (HEAD now [0-9a-f]*)$" p$n.err2 ||
				{ echo "power cut at step $n: not said"; cat p$n.err2; exit 1; } ;;
		esac
	done
'

test_expect_success KTREE_6_1 "the switch killed between two files: one line; the next make vfs puts them back and applies the series" '
	fresh jk &&
	AUTOFREEZE_FAIL_AFTER=3 AUTOFREEZE_FAIL_SIGNAL=KILL \
		test_exit_code 1 "$VFS" "$TRASH/jk" >out 2>err &&
	test_line_count err 1 &&
	grep -q "^vfs.sh: $TRASH/jk: the switch to the VFS series was killed half done (exit 137); make vfs KTREE=$TRASH/jk again puts it back or finishes it$" err &&
	after_rerun jk &&
	grep -q "undid a change a killed autofreeze run left half done" jk.err2
'

test_expect_success KTREE_6_1 "a failure while the switch replaces the files (the journal): every file, the index and HEAD as before" '
	fresh jf &&
	AUTOFREEZE_FAIL_AFTER=3 test_exit_code 1 "$VFS" "$TRASH/jf" >out 2>err &&
	cat err &&
	grep -q "every file put back as it was" err &&
	state jf >jf.now && test_cmp jf.before jf.now &&
	test ! -e "$(ktree_state jf)/vfs-switch" &&
	"$VFS" "$TRASH/jf" >out 2>err &&
	state jf >jf.now && test_cmp after.state jf.now
'

test_done
