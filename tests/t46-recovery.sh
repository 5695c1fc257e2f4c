#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Faults and their recovery: nothing of the user's is ever lost, and
# resources run out cleanly.  After a killed apply only a writer (apply,
# vfs) puts the tree back, each file only while it is byte for byte what
# the killed run wrote; the commands that only read refuse, naming the
# command that does.  The bookkeeping never leads outside the tree and
# is never dropped while it holds a journal.  A full disk during apply
# leaves the tree as it was or converted, one line saying which; a
# cache that cannot be written or holds a damaged entry is no cache.
# test-run: light

. "$(dirname "$0")/lib.sh"

# the fixtures' threads and workqueues, judged for these tests
JUDGMENTS=$TESTS/helper/judgments.tsv
export JUDGMENTS

S=$TOP/scripts

# a private mount (a read-only tree) can be made here
test_lazy_prereq UNSHARE 'unshare -m true'
# a small file system of its own can be mounted here (root)
test_lazy_prereq TMPFS 'test "$(id -u)" = 0 && mkdir m &&
	mount -t tmpfs -o size=64k tmpfs m && umount m'

# two_file_ktree DIR: xfs with xfs_fs_type (xfs_super.c) and xfsaild()
# (xfs_trans_ail.c): apply replaces both, xfs_super.c first
two_file_ktree()
{
	fake_ktree xfs-fs-type "$1" &&
	case_tree xfs-xfsaild-6.1 "$1" &&
	echo "obj-y += xfs_super.o xfs_trans_ail.o" >"$1"/fs/xfs/Makefile
}

# killed DIR: DIR a two_file_ktree that an apply killed between its two
# replacements left (xfs_super.c converted, xfs_trans_ail.c not), with
# DIR.orig as it was and DIR.killed as the kill left it
killed()
{
	two_file_ktree "$1" && cp -a "$1" "$1.orig" &&
	AUTOFREEZE_FAIL_AFTER=1 AUTOFREEZE_FAIL_SIGNAL=KILL \
		test_exit_code 137 $S/apply.sh "$TRASH/$1" fs/xfs 2>/dev/null &&
	test -d "$(ktree_state "$1")/journal" &&
	grep -q FS_AUTOFREEZE "$1"/fs/xfs/xfs_super.c &&
	grep -q set_freezable "$1"/fs/xfs/xfs_trans_ail.c &&
	cp -a "$1" "$1.killed"
}

# readers_refuse DIR: diff, report and check-tree each exit 2 with one
# line naming make apply on DIR, and leave DIR as they found it
readers_refuse()
{
	local d
	rm -rf "$1.before" && cp -a "$1" "$1.before" &&
	for d in diff report check-tree; do
		test_exit_code 2 $S/$d.sh "$TRASH/$1" fs/xfs >out 2>err &&
		test_cmp /dev/null out && test_line_count err 1 &&
		grep -q "^$d.sh: .*/$1: a killed autofreeze run (apply.sh) left a change half done, .*: make apply KTREE=.*/$1 DIR=fs/xfs does that first; nothing done\$" err &&
		diff -r "$1.before" "$1" || return 1
	done
}

# journal_at DIR LIST...: a journal of DIR's bookkeeping listing LIST
journal_at()
{
	local st
	st=$(ktree_state "$1") && shift &&
	mkdir -p "$st/journal/save" "$st/orig" && : >"$st/journal/list" &&
	: >"$st/journal/orig-new" &&
	if [ $# -gt 0 ]; then printf "%s\n" "$@" >"$st/journal/list"; fi
}

test_expect_success SPATCH "set up: the expected conversion of the test tree" '
	make -s -C "$TOP" helper >/dev/null &&
	two_file_ktree ref &&
	$S/diff.sh "$TRASH"/ref fs/xfs >ref.diff &&
	cp -a ref want && (cd want && patch -s -p1 <../ref.diff) &&
	grep -q FS_AUTOFREEZE want/fs/xfs/xfs_super.c &&
	! grep -q set_freezable want/fs/xfs/xfs_trans_ail.c
'

# --- Only writers recover, and only what the killed run wrote ----------

test_expect_success SPATCH "a killed apply: diff, report and check-tree refuse, naming make apply, and change nothing; apply puts it back and converts" '
	killed kd &&
	readers_refuse kd &&
	$S/apply.sh "$TRASH"/kd fs/xfs 2>err &&
	grep -q "^apply.sh: .*/kd: undid a change a killed autofreeze run left half done (1 files put back)\$" err &&
	diff -r want kd && test ! -e "$(ktree_state kd)/journal"
'

test_expect_success SPATCH "a killed apply, then a line added to the file it replaced: readers refuse; apply exits 2 naming the file, nothing changed, the journal kept" '
	killed ke &&
	echo "/* the user s own line */" >>ke/fs/xfs/xfs_super.c && cp -a ke ke.edited &&
	readers_refuse ke &&
	test_exit_code 2 $S/apply.sh "$TRASH"/ke fs/xfs 2>err &&
	test_line_count err 1 && st=$(ktree_state ke) &&
	grep -q "^apply.sh: .*/ke/fs/xfs/xfs_super.c: changed since an autofreeze run that was killed replaced it (.*): nothing changed; check the file, then remove $st/journal to keep the tree as it is" err &&
	diff -r ke.edited ke && test -d "$st/journal" &&
	rm -rf "$st/journal" &&
	$S/apply.sh "$TRASH"/ke fs/xfs 2>err &&
	grep -qF "/* the user s own line */" ke/fs/xfs/xfs_super.c &&
	! grep -q set_freezable ke/fs/xfs/xfs_trans_ail.c
'

test_expect_success SPATCH "a killed apply, then a file it had not reached yet edited: apply exits 2 naming it, the edit kept" '
	killed kn &&
	sed -i "1i /* an edit after the kill */" kn/fs/xfs/xfs_trans_ail.c && cp -a kn kn.edited &&
	test_exit_code 2 $S/apply.sh "$TRASH"/kn fs/xfs 2>err &&
	test_line_count err 1 && grep -q "^apply.sh: .*/kn/fs/xfs/xfs_trans_ail.c: changed since" err &&
	diff -r kn.edited kn
'

test_expect_success SPATCH "a killed apply, then the replaced file put back by hand: apply has nothing to put back and converts" '
	killed kh && cp kh.orig/fs/xfs/xfs_super.c kh/fs/xfs/xfs_super.c &&
	$S/apply.sh "$TRASH"/kh fs/xfs 2>err &&
	grep -q "undid a change a killed autofreeze run left half done (0 files put back)" err &&
	diff -r want kh
'

test_expect_success SPATCH "a killed apply in a git tree, then another branch checked out: check-tree and report refuse, apply exits 2 naming the file, the branch intact" '
	two_file_ktree kg && cp -a kg kg.orig &&
	(cd kg && git init -q && git add -A &&
		git -c user.name=t -c user.email=t@t commit -qm base &&
		git checkout -q -b other &&
		sed -i "1i /* only on the other branch */" fs/xfs/xfs_super.c &&
		git -c user.name=t -c user.email=t@t commit -qam other &&
		git checkout -q -) &&
	AUTOFREEZE_FAIL_AFTER=1 AUTOFREEZE_FAIL_SIGNAL=KILL \
		test_exit_code 137 $S/apply.sh "$TRASH"/kg fs/xfs 2>/dev/null &&
	test -d kg/.git/autofreeze/journal &&
	git -C kg checkout -q -f other && cp -a kg kg.other &&
	readers_refuse kg &&
	test_exit_code 2 $S/apply.sh "$TRASH"/kg fs/xfs 2>err &&
	test_line_count err 1 && grep -q "/kg/fs/xfs/xfs_super.c: changed since" err &&
	diff -r kg.other kg && test -z "$(git -C kg status --porcelain)"
'

test_expect_success SPATCH,UNSHARE "a killed apply, then its tree read-only: apply cannot put the file back: exit 1, one line saying the tree is half changed, the journal kept; once writable, apply puts it back" '
	killed ks && st=$(ktree_state ks) &&
	unshare -m sh -c "mount --bind $TRASH/ks $TRASH/ks &&
		mount -o remount,bind,ro $TRASH/ks &&
		$S/apply.sh $TRASH/ks fs/xfs" 2>err; rc=$?;
	test $rc -eq 1 && test_line_count err 1 &&
	grep -q "^apply.sh: .*/ks/fs/xfs/xfs_super.c: cannot put it back (Read-only file system): the tree is left half changed; " err &&
	diff -r ks.killed ks && test -d "$st/journal" &&
	$S/apply.sh "$TRASH"/ks fs/xfs 2>err &&
	grep -q "(1 files put back)" err && diff -r want ks
'

test_expect_success SPATCH "recovers=1 in the environment does not make diff a writer" '
	killed kv &&
	recovers=1 test_exit_code 2 $S/diff.sh "$TRASH"/kv fs/xfs >/dev/null 2>err &&
	grep -q "left a change half done" err && diff -r kv.killed kv
'

test_expect_success SPATCH "a journal left by make vfs: the readers name make vfs" '
	killed kf && printf "vfs.sh\t.\n" >"$(ktree_state kf)/journal/run" &&
	test_exit_code 2 $S/check-tree.sh "$TRASH"/kf fs 2>err &&
	test_line_count err 1 &&
	grep -q "^check-tree.sh: .*/kf: a killed autofreeze run (vfs.sh) left a change half done, .*: make vfs KTREE=.*/kf does that first; nothing done\$" err &&
	diff -r kf.killed kf
'

test_expect_success SPATCH "a journal while a writer holds the tree: diff says another run is at work, one line, nothing changed" '
	killed kw &&
	(flock 9 && test_exit_code 2 $S/diff.sh "$TRASH"/kw fs/xfs >/dev/null 2>err) 9<kw &&
	test_line_count err 1 && grep -q "^diff.sh: .*/kw: another autofreeze run is changing this tree" err &&
	diff -r kw.killed kw
'

# --- Bookkeeping is never dropped while it holds a journal --------------

test_expect_success SPATCH "a killed apply, then the tree looks like another (remounted: its tree_id changed): the journal is kept, apply puts the tree back" '
	killed km && st=$(ktree_state km) &&
	sed -i "1s/.*/0:0:-/" "$st/tree" && cp -a "$st" km.state &&
	readers_refuse km &&
	diff -r km.state "$st" &&
	$S/apply.sh "$TRASH"/km fs/xfs 2>err &&
	grep -q "undid a change a killed autofreeze run left half done (1 files put back)" err &&
	diff -r want km && test ! -e "$st/journal" &&
	test "$(head -n 1 "$st/tree")" != 0:0:-
'

test_expect_success SPATCH "a killed apply, then the tree removed and made again: apply finds nothing to put back, and drops the old bookkeeping" '
	killed kr && st=$(ktree_state kr) &&
	rm -rf kr && cp -a kr.orig kr && sed -i "1i /* new */" kr/fs/xfs/xfs_super.c &&
	test_exit_code 2 $S/apply.sh "$TRASH"/kr fs/xfs 2>err &&
	grep -q "/kr/fs/xfs/xfs_super.c: changed since" err &&
	rm -rf kr && cp -a kr.orig kr &&
	$S/apply.sh "$TRASH"/kr fs/xfs 2>err &&
	grep -q "(0 files put back)" err && diff -r want kr &&
	test "$(sort "$st/touched")" = "$(printf "fs/xfs/xfs_super.c\nfs/xfs/xfs_trans_ail.c")"
'

test_expect_success SPATCH "a journal of a file the killed run made: removed while it is what the run wrote, kept (exit 2) once it is the user s own" '
	two_file_ktree nf && cp -a nf nf.orig &&
	journal_at nf fs/xfs/made.c && st=$(ktree_state nf) &&
	echo "/* what the run wrote */" >nf/fs/xfs/made.c &&
	sha256sum <nf/fs/xfs/made.c | cut -c1-64 >"$st/journal/new" &&
	cp -a "$st/journal" nf.journal &&
	$S/apply.sh "$TRASH"/nf fs/xfs 2>err &&
	grep -q "undid a change a killed autofreeze run left half done (0 files put back)" err &&
	test ! -e nf/fs/xfs/made.c &&
	rm -rf nf && cp -a nf.orig nf && rm -rf "$st" && mkdir -p "$st" &&
	cp -a nf.journal "$st/journal" &&
	echo "/* the user s own */" >nf/fs/xfs/made.c && cp -a nf nf.own &&
	test_exit_code 2 $S/apply.sh "$TRASH"/nf fs/xfs 2>err &&
	test_line_count err 1 && grep -q "/nf/fs/xfs/made.c: changed since" err &&
	diff -r nf.own nf
'

# --- Bookkeeping never names a path outside the tree --------------------


test_expect_success SPATCH "a journal naming ../victim and ../gone: diff refuses without touching them, apply exits 2 naming it, nothing changed" '
	two_file_ktree pj && cp -a pj pj.orig &&
	echo mine >victim && echo mine too >gone &&
	journal_at pj ../victim ../gone && st=$(ktree_state pj) &&
	echo PWNED >"$st/journal/victim" &&
	test_exit_code 2 $S/diff.sh "$TRASH"/pj fs/xfs >/dev/null 2>err &&
	test_exit_code 2 $S/apply.sh "$TRASH"/pj fs/xfs 2>err &&
	test_line_count err 1 &&
	grep -q "^apply.sh: $st/journal/list names .../victim., not a path inside .*/pj: nothing changed" err &&
	test "$(cat victim)" = mine && test "$(cat gone)" = "mine too" &&
	diff -r pj.orig pj && test -d "$st/journal"
'

test_expect_success SPATCH "a journal naming a file through a symbolic link out of the tree: apply exits 2, the file outside untouched" '
	two_file_ktree ps && mkdir -p outside && echo mine >outside/victim &&
	ln -s "$TRASH"/outside ps/fs/out && cp -a ps ps.orig &&
	journal_at ps fs/out/victim && st=$(ktree_state ps) &&
	mkdir -p "$st/journal/save/fs/out" && echo PWNED >"$st/journal/save/fs/out/victim" &&
	test_exit_code 2 $S/apply.sh "$TRASH"/ps fs/xfs 2>err &&
	test_line_count err 1 && grep -q "names .fs/out/victim., not a path inside" err &&
	test "$(cat outside/victim)" = mine && diff -r ps.orig ps
'

test_expect_success SPATCH "a journal whose orig-new leads out of the bookkeeping: apply exits 2, nothing removed" '
	two_file_ktree po && journal_at po && st=$(ktree_state po) &&
	echo mine >"$AUTOFREEZE_STATE"/victim2 &&
	echo ../../victim2 >"$st/journal/orig-new" && cp -a po po.orig &&
	test_exit_code 2 $S/apply.sh "$TRASH"/po fs/xfs 2>err &&
	test_line_count err 1 && grep -q "orig-new names .../../victim2., not a path inside" err &&
	test "$(cat "$AUTOFREEZE_STATE"/victim2)" = mine && diff -r po.orig po
'

test_expect_success SPATCH "a journal whose saved copy is a symbolic link to a file elsewhere: apply exits 2, nothing of it reaches the tree" '
	two_file_ktree pl && echo SECRET >secret &&
	journal_at pl fs/xfs/xfs_super.c && st=$(ktree_state pl) &&
	mkdir -p "$st/journal/save/fs/xfs" &&
	ln -s "$TRASH"/secret "$st/journal/save/fs/xfs/xfs_super.c" &&
	echo changed >>pl/fs/xfs/xfs_super.c && cp -a pl pl.orig &&
	test_exit_code 2 $S/apply.sh "$TRASH"/pl fs/xfs 2>err &&
	test_line_count err 1 && grep -q "save/fs/xfs/xfs_super.c is not a plain file or directory" err &&
	diff -r pl.orig pl
'

test_expect_success SPATCH "a touched list naming a path outside the tree: apply exits 2 before it writes anything" '
	two_file_ktree pt && cp -a pt pt.orig && st=$(ktree_state pt) &&
	mkdir -p "$st" && printf "fs/xfs/xfs_super.c\n/etc/passwd\n" >"$st/touched" &&
	test_exit_code 2 $S/apply.sh "$TRASH"/pt fs/xfs 2>err &&
	test_line_count err 1 && grep -q "touched names ./etc/passwd., not a path inside" err &&
	diff -r pt.orig pt
'

# --- A full disk: the tree as it was or converted, one line says which --

# big_ktree DIR: two_file_ktree with both files a few pages long
big_ktree()
{
	local f i
	two_file_ktree "$1" &&
	for f in "$1"/fs/xfs/xfs_super.c "$1"/fs/xfs/xfs_trans_ail.c; do
		for i in $(seq 250); do
			echo "/* padding $i: a file of a few pages, which a full disk cannot take */"
		done >>"$f" || return 1
	done
}

# leave_free DIR N: the file system of DIR with N pages free
leave_free()
{
	rm -f "$1/fill" &&
	{ dd if=/dev/zero of="$1/fill" bs=4096 2>/dev/null; true; } &&
	truncate -s -$(($2 * 4096)) "$1/fill"
}

# full_sweep MNT MAKE: with 0, 1, 2... pages left on MNT, a fresh tree
# (MAKE MNT/t makes it) applied: converted whole, exit 0, or as it was,
# one line saying so, no stray, no journal, until one converts
full_sweep()
{
	local free rc st
	for free in $(seq 0 80); do
		rm -rf "${1:?}"/* && "$2" "$1/t" && leave_free "$1" $free || return 1
		$S/apply.sh "$1/t" fs/xfs 2>err
		rc=$?
		st=$(ktree_state "$1/t")
		test -z "$(find "$1/t" -name "*.autofreeze-*")" &&
		test ! -e "$st/journal" && test ! -e "$st/journal.new" ||
			{ echo "free=$free: a stray or a journal left"; return 1; }
		if [ $rc -eq 0 ]; then
			diff -r -x .git big.want "$1/t" && return 0
			echo "free=$free: exit 0, not converted"
			return 1
		fi
		test_line_count err 1 &&
		grep -qE "^apply.sh: .*(nothing changed|every file put back as it was)\$" err &&
		diff -r -x .git big.orig "$1/t" || { echo "free=$free: exit $rc"; return 1; }
		echo "free=$free: $(cat err)"
	done
	echo "never converted"
	return 1
}

big_git_ktree()
{
	big_ktree "$1" && (cd "$1" && git init -q && git add -A &&
		git -c user.name=t -c user.email=t@t commit -qm base)
}

test_expect_success SPATCH,TMPFS "set up: the big tree and its conversion" '
	big_ktree big.orig && cp -a big.orig big.want &&
	$S/apply.sh "$TRASH"/big.want fs/xfs 2>/dev/null &&
	! grep -q set_freezable big.want/fs/xfs/xfs_trans_ail.c
'

test_expect_success SPATCH,TMPFS "a full disk during apply, the bookkeeping on it too: the tree as it was or converted, one line, no stray" '
	mkdir -p fa && mount -t tmpfs -o size=1m tmpfs fa &&
	{ AUTOFREEZE_STATE=$TRASH/fa/state full_sweep "$TRASH"/fa big_ktree; rc=$?; umount fa; test $rc = 0; }
'

test_expect_success SPATCH,TMPFS "a full disk during apply in a git tree (the journal in its .git): the tree as it was or converted, one line" '
	mkdir -p fg && mount -t tmpfs -o size=2m tmpfs fg &&
	{ full_sweep "$TRASH"/fg big_git_ktree; rc=$?; umount fg; test $rc = 0; }
'

test_expect_success SPATCH,TMPFS "a full disk during apply, the bookkeeping on another file system: the tree as it was or converted, one line" '
	mkdir -p fo && mount -t tmpfs -o size=1m tmpfs fo &&
	{ AUTOFREEZE_STATE=$TRASH/fo.state full_sweep "$TRASH"/fo big_ktree; rc=$?; umount fo; test $rc = 0; }
'

test_expect_success SPATCH,TMPFS "a full TMPDIR during check-tree: its own result, or exit 2, never a pass or a finding it did not make" '
	$S/check-tree.sh "$TRASH"/big.want fs >ct.want 2>/dev/null &&
	mkdir -p ft && mount -t tmpfs -o size=1m tmpfs ft &&
	{ ok=
	  for free in $(seq 0 4 160); do
		leave_free ft $free &&
		TMPDIR=$TRASH/ft AUTOFREEZE_CACHE=none \
			$S/check-tree.sh "$TRASH"/big.want fs >ct.out 2>err
		rc=$?
		case $rc in
		0)	test_cmp ct.want ct.out && ok=1 && break ;;
		2)	tail -n 1 err | grep -q "^check-tree.sh: " ||
				{ echo "free=$free: exit 2 without a line of its own"; break; } ;;
		*)	echo "free=$free: exit $rc"; break ;;
		esac
	  done
	  umount ft; test -n "$ok"; }
'

# --- The cache: an optimisation, never a failure -----------------------

test_expect_success SPATCH,TMPFS "a full cache: diff and apply are right and say nothing of it; no stray in the cache" '
	mkdir -p fc && mount -t tmpfs -o size=64k tmpfs fc &&
	{ leave_free fc 0 &&
	  AUTOFREEZE_CACHE=$TRASH/fc $S/diff.sh "$TRASH"/ref fs/xfs >fc.diff 2>err &&
	  test_cmp /dev/null err && test_cmp ref.diff fc.diff &&
	  cp -a ref fc.tree && AUTOFREEZE_CACHE=$TRASH/fc $S/apply.sh "$TRASH"/fc.tree fs/xfs 2>err &&
	  test_line_count err 1 && diff -r want fc.tree &&
	  test -z "$(find fc -name ".new.*")"; rc=$?; umount fc; test $rc = 0; }
'

test_expect_success SPATCH,TMPFS "a read-only cache that holds the entries: diff, apply and report are right and say nothing of it" '
	mkdir -p roc && mount -t tmpfs -o size=4m tmpfs roc &&
	{ AUTOFREEZE_CACHE=$TRASH/roc $S/diff.sh "$TRASH"/ref fs/xfs >/dev/null &&
	  AUTOFREEZE_CACHE=$TRASH/roc $S/report.sh "$TRASH"/ref fs/xfs >rc.want.report &&
	  mount -o remount,ro roc &&
	  AUTOFREEZE_CACHE=$TRASH/roc $S/diff.sh "$TRASH"/ref fs/xfs >rc.diff 2>err &&
	  test_cmp /dev/null err && test_cmp ref.diff rc.diff &&
	  AUTOFREEZE_PROGRESS=600 AUTOFREEZE_CACHE=$TRASH/roc $S/report.sh "$TRASH"/ref fs/xfs >rc.report 2>err &&
	  test_cmp /dev/null err && test_cmp rc.want.report rc.report &&
	  cp -a ref rc.tree && AUTOFREEZE_CACHE=$TRASH/roc $S/apply.sh "$TRASH"/rc.tree fs/xfs 2>err &&
	  test_line_count err 1 && diff -r want rc.tree; rc=$?; umount roc; test $rc = 0; }
'

test_expect_success SPATCH "a cache that cannot be made (its path under a file): diff is right and says nothing" '
	echo x >afile &&
	AUTOFREEZE_CACHE=$TRASH/afile/cache $S/diff.sh "$TRASH"/ref fs/xfs >af.diff 2>err &&
	test_cmp /dev/null err && test_cmp ref.diff af.diff
'

# corrupt HOW: every entry of the cache damaged: its log truncated, or
# garbage, or without its .out members (the sums made again, as a
# writer that lost them would), its files truncated, its sums gone, or
# the entry a plain file
corrupt()
{
	local e
	for e in "$AUTOFREEZE_CACHE"/spatch/*/; do
		e=${e%/}
		case $1 in
		truncated) head -c 700 "$e/log.tar" >"$e/t" && mv "$e/t" "$e/log.tar" ;;
		garbage) echo garbage >"$e/log.tar" ;;
		member)	mkdir "$e/x" && tar -C "$e/x" -xf "$e/log.tar" &&
			rm "$e"/x/*.out && tar -C "$e/x" -cf "$e/log.tar" . &&
			rm -rf "$e/x" &&
			(cd "$e" && sha256sum -- log.tar $(ls files.tar 2>/dev/null)) >"$e/sums" ;;
		files)	[ ! -f "$e/files.tar" ] ||
			{ head -c 1000 "$e/files.tar" >"$e/t" && mv "$e/t" "$e/files.tar"; } ;;
		nosums)	rm -f "$e/sums" ;;
		file)	rm -rf "$e" && echo x >"$e" ;;
		esac || return 1
	done
}

# only_warnings PROG ERR WANT: ERR is WANT with, at most, a line per
# damaged entry naming it
only_warnings()
{
	if grep -E "^(cat|tar|sha256sum|mv|cp): " "$2"; then
		return 1
	fi
	grep -v "^$1: warning: .*: a damaged entry of the spatch cache" "$2" >"$2.rest"
	test_cmp "$3" "$2.rest"
}

test_expect_success SPATCH "set up: a tree check-tree fails (a flagged unit still on the freezer), and its cache" '
	ck_tree ck && sed -i "s/\(\.fs_flags.*=.*\)FS_REQUIRES_DEV/\1FS_REQUIRES_DEV | FS_AUTOFREEZE/" ck/fs/xfs/xfs_super.c &&
	grep -q FS_AUTOFREEZE ck/fs/xfs/xfs_super.c &&
	AUTOFREEZE_CACHE=$TRASH/ckcache test_exit_code 1 $S/check-tree.sh "$TRASH"/ck fs >ck.out 2>ck.err &&
	grep -q "error: set_freezable" ck.out &&
	AUTOFREEZE_CACHE=$TRASH/dcache $S/diff.sh "$TRASH"/ref fs/xfs >d.out 2>d.err &&
	test_cmp ref.diff d.out
'

for how in truncated garbage member nosums file; do
	test_expect_success SPATCH "a cache entry $how: check-tree gives the same findings, at most a line of warning, and the next run none" '
		rm -rf c.$how && cp -a ckcache c.$how && AUTOFREEZE_CACHE=$TRASH/c.$how &&
		corrupt $how &&
		test_exit_code 1 $S/check-tree.sh "$TRASH"/ck fs >out 2>err &&
		test_cmp ck.out out && only_warnings check-tree.sh err ck.err &&
		test_exit_code 1 $S/check-tree.sh "$TRASH"/ck fs >out 2>err &&
		test_cmp ck.out out && test_cmp ck.err err
	'
done

for how in truncated member files file; do
	test_expect_success SPATCH "a cache entry $how: diff gives the same diff, at most a line of warning, and the next run none" '
		rm -rf d.$how && cp -a dcache d.$how && AUTOFREEZE_CACHE=$TRASH/d.$how &&
		corrupt $how &&
		$S/diff.sh "$TRASH"/ref fs/xfs >out 2>err &&
		test_cmp ref.diff out && only_warnings diff.sh err d.err &&
		$S/diff.sh "$TRASH"/ref fs/xfs >out 2>err &&
		test_cmp ref.diff out && test_cmp d.err err
	'
done

# whatever a test left mounted
awk -v t="$TRASH/" 'index($2, t) == 1 { print $2 }' /proc/mounts | sort -r |
while IFS= read -r m; do umount "$m"; done

test_done
