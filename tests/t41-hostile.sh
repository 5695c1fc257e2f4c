#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The drivers used as a hostile but fair user would: read-only files,
# an unprivileged user, a spatch that fails or cannot write, signals
# during the restore, symbolic links, odd file names.  Each test names
# its row of the reliability sweep (docs: reviews/reliability-sweep.md
# in the shared notes); the rule for all of them is the same: a right
# result, or one line and exit non-zero with the tree as it was.
# test-run: light

. "$(dirname "$0")/lib.sh"

# the fixtures' threads and workqueues, judged for these tests
JUDGMENTS=$TESTS/helper/judgments.tsv
export JUDGMENTS

S=$TOP/scripts

# the unprivileged cases run as nobody, which needs root to switch to
test_lazy_prereq NOBODY 'test "$(id -u)" = 0 && command -v setpriv && id nobody'
# a private mount (a full TMPDIR) can be made here
test_lazy_prereq UNSHARE 'unshare -m true'

# as_nobody CMD...: CMD as user and group nobody, no other groups; the
# Python tests/run resolved for spatch may be one only root can run
as_nobody()
{
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		env -u SPATCH_PYTHON "$@"
}

# two_file_ktree DIR: xfs with xfs_fs_type (xfs_super.c, WQ_FREEZABLE
# workqueues) and xfsaild() (xfs_trans_ail.c): an eligible unit whose
# conversion changes both files and flags the type
two_file_ktree()
{
	fake_ktree xfs-fs-type "$1" &&
	case_tree xfs-xfsaild-6.1 "$1" &&
	echo "obj-y += xfs_super.o xfs_trans_ail.o" >"$1"/fs/xfs/Makefile
}

# pristine DIR: no file of the tree DIR changed, none added, none left
# half-replaced, no journal; and its bookkeeping as DIR.state holds it,
# when the test saved it there, else none
pristine()
{
	local st
	st=$(ktree_state "$1") &&
	diff -r "$1.orig" "$1" &&
	test -z "$(find "$1" -name "*.autofreeze-new" -o -name "*.autofreeze-old")" &&
	test ! -e "$st/journal" && test ! -e "$st/journal.new" &&
	if [ -d "$1.state" ]; then
		diff -r "$1.state" "$st"
	else
		test ! -e "$st/touched" && test ! -e "$st/orig"
	fi
}

# old_or_converted DIR: DIR, a two_file_ktree, is as it was (pristine)
# or converted whole, as ref.diff says
old_or_converted()
{
	diff -r "$1.orig" "$1" >/dev/null && { pristine "$1"; return; }
	rm -rf "$1.want" && cp -a "$1.orig" "$1.want" &&
	(cd "$1.want" && patch -s -p1 <../ref.diff) &&
	diff -r "$1.want" "$1"
}

test_expect_success SPATCH "set up: the expected conversion of a writable copy" '
	make -s -C "$TOP" helper >/dev/null &&
	chmod 755 "$TRASH" &&
	two_file_ktree ref &&
	$S/diff.sh "$TRASH"/ref fs/xfs >ref.diff &&
	grep -q "^+++ b/fs/xfs/xfs_trans_ail.c" ref.diff &&
	grep -q "^+.*FS_AUTOFREEZE" ref.diff
'

test_expect_success SPATCH,NOBODY "row 32: as nobody, a read-only tree: diff is the full diff, apply exits 2 naming a file, nothing changed" '
	two_file_ktree ro && chown -R nobody:nogroup ro && chmod -R a-w ro &&
	cp -a ro ro.orig &&
	as_nobody $S/diff.sh "$TRASH"/ro fs/xfs >ro.diff &&
	test_cmp ref.diff ro.diff &&
	test_exit_code 2 as_nobody $S/apply.sh "$TRASH"/ro fs/xfs 2>err &&
	test_line_count err 1 && grep -q "^apply.sh: .*/ro/fs/xfs/xfs_[a-z_]*\.c: not writable; nothing changed" err &&
	pristine ro
'

test_expect_success SPATCH,NOBODY "row 33: as nobody, one candidate file 0444 in the user own tree: apply exits 2 naming it, nothing changed" '
	two_file_ktree one && chown -R nobody:nogroup one &&
	chmod 0444 one/fs/xfs/xfs_trans_ail.c && cp -a one one.orig &&
	as_nobody $S/diff.sh "$TRASH"/one fs/xfs >one.diff &&
	test_cmp ref.diff one.diff &&
	test_exit_code 2 as_nobody $S/apply.sh "$TRASH"/one fs/xfs 2>err &&
	test_line_count err 1 && grep -q "/one/fs/xfs/xfs_trans_ail.c: not writable; nothing changed" err &&
	pristine one
'

test_expect_success SPATCH "row 30: a tree made read-only with chmod a-w: apply exits 2 even as root, nothing changed" '
	two_file_ktree ra && chmod -R a-w ra/fs && cp -a ra ra.orig &&
	test_exit_code 2 $S/apply.sh "$TRASH"/ra fs/xfs 2>err &&
	test_line_count err 1 && grep -q "/ra/fs/xfs/xfs_[a-z_]*\.c: read-only (mode 444); nothing changed" err &&
	chmod -R u+w ra/fs && pristine ra
'

test_expect_success SPATCH "a spatch that cannot write its result (exit 0, a cp error in its log): diff and apply exit 2 saying so" '
	mkdir -p nowrite &&
	cat >nowrite/spatch <<-EOF &&
	#!/bin/sh
	case "\$*" in *--version*) exec $SPATCH --version ;; esac
	echo "cp: cannot create regular file '"'"'fs/xfs/xfs_trans_ail.c'"'"': Permission denied" >&2
	EOF
	chmod +x nowrite/spatch &&
	two_file_ktree nw && cp -a nw nw.orig &&
	SPATCH=$TRASH/nowrite/spatch test_exit_code 2 $S/diff.sh "$TRASH"/nw fs/xfs >out 2>err &&
	test_cmp /dev/null out && test_line_count err 1 &&
	grep -qF "diff.sh: spatch could not write its result on cocci/kthread_freezer.cocci: cp: cannot create regular file '"'"'fs/xfs/xfs_trans_ail.c'"'"'" err &&
	SPATCH=$TRASH/nowrite/spatch test_exit_code 2 $S/apply.sh "$TRASH"/nw fs/xfs 2>err &&
	test_line_count err 1 && pristine nw
'

test_expect_success SPATCH "row 28: a crashing spatch: its own message reaches stderr, nothing changed" '
	mkdir -p crash &&
	cat >crash/spatch <<-EOF &&
	#!/bin/sh
	case "\$*" in *--version*) exec $SPATCH --version ;; esac
	echo "init_defs_builtins: /usr/lib/coccinelle/standard.h" >&2
	echo "fake spatch: crashing" >&2
	exit 1
	EOF
	chmod +x crash/spatch &&
	two_file_ktree cr && cp -a cr cr.orig &&
	SPATCH=$TRASH/crash/spatch test_exit_code 1 $S/apply.sh "$TRASH"/cr fs/xfs 2>err &&
	test_line_count err 1 &&
	grep -qF "apply.sh: spatch failed on cocci/kthread_freezer.cocci: fake spatch: crashing" err &&
	pristine cr
'

test_expect_success SPATCH "row 46: a second signal during the restore does not stop it" '
	fake_ktree gfs2-6.12 ds && cp -a ds ds.orig &&
	AUTOFREEZE_FAIL_AFTER=1 AUTOFREEZE_FAIL_SIGNAL=INT FORCE=1 \
		test_exit_code 130 $S/apply.sh "$TRASH"/ds fs/gfs2 2>err &&
	grep -q "every file put back as it was" err &&
	pristine ds
'

test_expect_success SPATCH "row 59: a symbolic link among a unit sources: diff, apply and report exit 2, one line naming it" '
	two_file_ktree ln &&
	mv ln/fs/xfs/xfs_trans_ail.c ln/fs/xfs_trans_ail_real.c &&
	ln -s ../xfs_trans_ail_real.c ln/fs/xfs/xfs_trans_ail.c &&
	cp -a ln ln.orig &&
	for d in diff apply report; do
		test_exit_code 2 $S/$d.sh "$TRASH"/ln fs/xfs >out 2>err &&
		test_line_count err 1 &&
		grep -q "^$d.sh: .*/ln/fs/xfs/xfs_trans_ail.c: a symbolic link: autofreeze converts regular files only" err &&
		test_cmp /dev/null out || return 1
	done &&
	pristine ln
'

# odd_ktree DIR UNIT: two_file_ktree with the unit at fs/UNIT and its
# files named with a blank, a colon, a backslash and a quote
odd_ktree()
{
	two_file_ktree "$1" &&
	if [ "$2" != xfs ]; then mv "$1/fs/xfs" "$1/fs/$2"; fi &&
	mv "$1/fs/$2/xfs_trans_ail.c" "$1/fs/$2/xfs trans:ail\\x.c" &&
	mv "$1/fs/$2/xfs_super.c" "$1/fs/$2/xfs \"super\".c"
}

for unit in xfs "my xfs"; do
	t=${unit// /-}
	test_expect_success SPATCH "rows 55, 56, 60: odd names in fs/$unit: the diff quotes them as git does, GNU patch and git apply take it, apply gives the same tree" '
		odd_ktree odd-$t "$unit" &&
		$S/diff.sh "$TRASH"/odd-$t "fs/$unit" >odd-$t.diff &&
		grep -qxF "+++ \"b/fs/$unit/xfs trans:ail\\\\x.c\"" odd-$t.diff &&
		grep -qxF "+++ \"b/fs/$unit/xfs \\\"super\\\".c\"" odd-$t.diff &&
		test "$(grep -c "^@@" odd-$t.diff)" = "$(grep -c "^@@" ref.diff)" &&
		cp -a odd-$t byp-$t && (cd byp-$t && patch -s -p1 <../odd-$t.diff) &&
		cp -a odd-$t byg-$t && (cd byg-$t && git apply ../odd-$t.diff) &&
		$S/apply.sh "$TRASH"/odd-$t "fs/$unit" 2>/dev/null &&
		diff -r byp-$t odd-$t && diff -r byg-$t odd-$t &&
		! grep -q set_freezable "odd-$t/fs/$unit/xfs trans:ail\\x.c"
	'

	test_expect_success SPATCH "rows 57, 58, 67, 68: odd names in fs/$unit: the text report names each use right, the JSON is valid and names them" '
		odd_ktree rep-$t "$unit" &&
		$S/report.sh "$TRASH"/rep-$t "fs/$unit" >rep-$t.txt &&
		grep -q "^	fs/$unit/xfs trans:ail\\\\x.c:27:2: set_freezable: converted: in kernel thread xfsaild()" rep-$t.txt &&
		test "$(tail -n 1 rep-$t.txt)" = "4 converted, 0 kept, 0 manual" &&
		FORMAT=json $S/report.sh "$TRASH"/rep-$t "fs/$unit" >rep-$t.json &&
		python3 -c "import json, sys
d = json.load(open(\"rep-$t.json\"))
files = set()
def walk(x):
	if isinstance(x, dict):
		if \"file\" in x: files.add(x[\"file\"])
		for v in x.values(): walk(v)
	elif isinstance(x, list):
		for v in x: walk(v)
walk(d)
want = \"fs/$unit/xfs trans:ail\\\\x.c\"
sys.exit(0 if want in files else \"no %r in %r\" % (want, files))"
	'
done

test_expect_success SPATCH "row 44: SIGKILL between two replacements: the commands that only read refuse, naming make apply; the next apply undoes it and says so" '
	fake_ktree gfs2-6.12 kl && cp -a kl kl.orig &&
	AUTOFREEZE_FAIL_AFTER=1 AUTOFREEZE_FAIL_SIGNAL=KILL FORCE=1 \
		test_exit_code 137 $S/apply.sh "$TRASH"/kl fs/gfs2 2>err &&
	! diff -r kl.orig kl >/dev/null &&
	test -d "$(ktree_state kl)/journal" && cp -a kl kl.killed &&
	for d in diff report check-tree; do
		FORCE=1 test_exit_code 2 $S/$d.sh "$TRASH"/kl fs/gfs2 >out 2>err &&
		test_cmp /dev/null out && test_line_count err 1 &&
		grep -q "^$d.sh: .*/kl: a killed autofreeze run (apply.sh) left a change half done, .*: make apply KTREE=.*/kl DIR=fs/gfs2 does that first; nothing done\$" err &&
		diff -r kl.killed kl || return 1
	done &&
	FORCE=1 $S/apply.sh "$TRASH"/kl fs/gfs2 2>err &&
	grep -q "^apply.sh: .*/kl: undid a change a killed autofreeze run left half done (1 files put back)" err &&
	grep -q "^apply.sh: fs/gfs2: converted" err &&
	cp -a kl.orig kl.want && FORCE=1 $S/apply.sh "$TRASH"/kl.want fs/gfs2 2>/dev/null &&
	diff -r kl.want kl &&
	st=$(ktree_state kl) && test ! -e "$st/journal" &&
	test "$(sort "$st/touched" | uniq -d)" = "" &&
	test "$(sort "$st/touched")" = "$(sort "$(ktree_state kl.want)/touched")"
'

test_expect_success SPATCH "a run killed while it wrote its journal: diff leaves it be, the next apply drops it without a word" '
	two_file_ktree jn && cp -a jn jn.orig &&
	st=$(ktree_state jn) && mkdir -p "$st/journal.new/save" &&
	$S/diff.sh "$TRASH"/jn fs/xfs >jn.diff 2>err &&
	test_cmp /dev/null err && test_cmp ref.diff jn.diff &&
	test -d "$st/journal.new" && rm -rf "$st/journal.new" && pristine jn &&
	mkdir -p "$st/journal.new/save" &&
	$S/apply.sh "$TRASH"/jn fs/xfs 2>err &&
	! grep -v "^apply.sh: fs/xfs: converted 2 files" err &&
	test ! -e "$st/journal.new" && test ! -e "$st/journal"
'

test_expect_success SPATCH "row 45: a signal during the bookkeeping: files and bookkeeping put back" '
	fake_ktree gfs2-6.12 bk && cp -a bk bk.orig &&
	FORCE=1 $S/diff.sh "$TRASH"/bk fs/gfs2 >bk.diff &&
	n=$(grep -c "^+++ " bk.diff) &&
	AUTOFREEZE_FAIL_AFTER=$((n + 1)) AUTOFREEZE_FAIL_SIGNAL=INT FORCE=1 \
		test_exit_code 130 $S/apply.sh "$TRASH"/bk fs/gfs2 2>err &&
	grep -q "every file put back as it was" err &&
	pristine bk
'

test_expect_success SPATCH "row 45: a failure during the bookkeeping of a tree converted before keeps the old bookkeeping" '
	two_file_ktree bb && FORCE=1 $S/apply.sh "$TRASH"/bb fs/xfs 2>/dev/null &&
	fake_ktree gfs2-6.12 bb && cp -a bb bb.orig &&
	cp -a "$(ktree_state bb)" bb.state &&
	AUTOFREEZE_FAIL_AFTER=3 FORCE=1 test_exit_code 1 $S/apply.sh "$TRASH"/bb fs/gfs2 2>err &&
	grep -q "every file put back as it was" err &&
	pristine bb
'

test_expect_success SPATCH "row 48: a second apply while one holds the tree refuses, one line, nothing changed" '
	two_file_ktree lk && cp -a lk lk.orig &&
	(flock 9 && test_exit_code 2 $S/apply.sh "$TRASH"/lk fs/xfs 2>err) 9<lk &&
	test_line_count err 1 &&
	grep -q "^apply.sh: .*/lk: another autofreeze run is changing this tree; nothing changed" err &&
	pristine lk
'

# make vfs on a hard-linked copy of Debian's 6.1: the journal replaces
# files, so the source tree's files must never change
test_expect_success KTREE_6_1,UNSHARE "rows 70, 71: make vfs on a read-only directory, interrupted or failing between two files: the tree as it was, and a rerun applies" '
	src=$TOP/build/linux-source-6.1 &&
	ktree_link_copy "$src" v61 &&
	(cd v61 && ls -A) >top.before &&
	unshare -m sh -c "mount --bind $TRASH/v61/kernel/power $TRASH/v61/kernel/power &&
		mount -o remount,bind,ro $TRASH/v61/kernel/power &&
		$S/vfs.sh $TRASH/v61" 2>err; rc=$?;
	test $rc -eq 2 && test_line_count err 1 &&
	grep -q "^vfs.sh: .*/v61/kernel/power/process.c: not writable; nothing changed" err &&
	AUTOFREEZE_FAIL_AFTER=4 AUTOFREEZE_FAIL_SIGNAL=INT \
		test_exit_code 130 $S/vfs.sh "$TRASH"/v61 2>err &&
	grep -q "every file put back as it was" err &&
	AUTOFREEZE_FAIL_AFTER=11 test_exit_code 1 $S/vfs.sh "$TRASH"/v61 2>err &&
	grep -q "every file put back as it was" err &&
	(cd v61 && ls -A) >top.after && test_cmp top.before top.after &&
	sed -n "s|^+++ b/||p" "$TOP"/patches/linux-6.1/*.patch | sort -u >files &&
	while IFS= read -r f; do
		cmp "$src/$f" "v61/$f" || return 1
	done <files &&
	test -z "$(find v61/fs v61/kernel v61/include -name "*.autofreeze-*")" &&
	$S/vfs.sh "$TRASH"/v61 >out &&
	grep -q "applied the VFS series patches/linux-6.1 to" out &&
	grep -q FS_AUTOFREEZE v61/include/linux/fs.h &&
	! grep -q FS_AUTOFREEZE "$src"/include/linux/fs.h &&
	sort "$(ktree_state v61)/touched" | test_cmp files -
'

test_expect_success SPATCH "row 73: spatch 1.10 is new enough (versions compare by number)" '
	mkdir -p v110 &&
	cat >v110/spatch <<-EOF &&
	#!/bin/sh
	case "\$*" in *--version*) echo "spatch version 1.10 compiled with OCaml version 5.1.1"; exit 0 ;; esac
	exec $SPATCH "\$@"
	EOF
	chmod +x v110/spatch &&
	SPATCH=$TRASH/v110/spatch $S/diff.sh "$TRASH"/ref fs/xfs >v110.diff &&
	test_cmp ref.diff v110.diff
'

test_expect_success SPATCH "row 73: make -s -C from elsewhere puts only the diff on stdout" '
	mkdir -p elsewhere && (cd elsewhere && make -s -C "$TOP" diff KTREE="$TRASH"/ref DIR=fs/xfs) >mk.diff &&
	test_cmp ref.diff mk.diff
'

test_expect_success SPATCH "rows 53, 72: apply leaves nothing in a plain tree but the converted files; its bookkeeping is under AUTOFREEZE_STATE" '
	two_file_ktree pl && cp -a pl pl.want &&
	(cd pl.want && patch -s -p1 <../ref.diff) &&
	$S/apply.sh "$TRASH"/pl fs/xfs 2>/dev/null &&
	diff -r pl.want pl &&
	st=$(ktree_state pl) &&
	case $st in "$AUTOFREEZE_STATE"/pl-*) ;; *) false ;; esac &&
	test "$(sort "$st/touched")" = "$(printf "fs/xfs/xfs_super.c\nfs/xfs/xfs_trans_ail.c")" &&
	cmp "$st/orig/fs/xfs/xfs_trans_ail.c" ref/fs/xfs/xfs_trans_ail.c
'

test_expect_success SPATCH "rows 52, 53: in a git tree the bookkeeping is under .git/; git status shows only the converted files" '
	two_file_ktree gt && (cd gt && git init -q && git add -A &&
		git -c user.name=t -c user.email=t@t commit -qm base) &&
	$S/apply.sh "$TRASH"/gt fs/xfs 2>/dev/null &&
	git -C gt status --porcelain >st &&
	printf " M fs/xfs/xfs_super.c\n M fs/xfs/xfs_trans_ail.c\n" >want &&
	test_cmp want st &&
	test "$(ktree_state gt)" = "$(cd gt && pwd -P)/.git/autofreeze" &&
	test -s gt/.git/autofreeze/touched
'

test_expect_success SPATCH,NOBODY "row 72: apply as root on a tree nobody owns: every file in the tree still nobody-owned, modes kept" '
	two_file_ktree ow && chmod 0664 ow/fs/xfs/xfs_super.c && chown -R nobody:nogroup ow &&
	(cd ow && find . -printf "%p %m %u:%g\n" | sort) >before &&
	$S/apply.sh "$TRASH"/ow fs/xfs 2>/dev/null &&
	grep -q FS_AUTOFREEZE ow/fs/xfs/xfs_super.c &&
	(cd ow && find . -printf "%p %m %u:%g\n" | sort) >after &&
	test_cmp before after
'

# The rows that passed when the sweep ran, so that they keep passing.

test_expect_success SPATCH "rows 5, 6, 7, 14, 15, 16: KTREE relative, with a trailing slash or a blank; DIR with a trailing slash, . or empty: the same diff" '
	cp -a ref "k sp" && mkdir -p sub &&
	(cd sub && $S/diff.sh ../ref fs/xfs) >d5 && test_cmp ref.diff d5 &&
	$S/diff.sh "$TRASH"/ref/ fs/xfs >d6 && test_cmp ref.diff d6 &&
	$S/diff.sh "$TRASH/k sp" fs/xfs >d7 && test_cmp ref.diff d7 &&
	$S/diff.sh "$TRASH"/ref fs/xfs/ >d14 && test_cmp ref.diff d14 &&
	$S/diff.sh "$TRASH"/ref . >d15 && test_cmp ref.diff d15 &&
	$S/diff.sh "$TRASH"/ref "" >d16 && test_cmp ref.diff d16
'

test_expect_success SPATCH "rows 9, 24: make diff without DIR is DIR=fs; J=1000 gives the same diff" '
	make -s -C "$TOP" diff KTREE="$TRASH"/ref >d9 && test_cmp ref.diff d9 &&
	J=1000 $S/diff.sh "$TRASH"/ref fs/xfs >d24 && test_cmp ref.diff d24
'

test_expect_success SPATCH "row 17: a unit with no freezer use: empty diff, apply changes nothing, exit 0" '
	two_file_ktree mx && mkdir mx/fs/minix &&
	printf "int minix_f(void)\n{\n\treturn 0;\n}\n" >mx/fs/minix/inode.c &&
	echo "obj-y += inode.o" >mx/fs/minix/Makefile && cp -a mx mx.orig &&
	$S/diff.sh "$TRASH"/mx fs/minix >d17 && test_cmp /dev/null d17 &&
	$S/apply.sh "$TRASH"/mx fs/minix 2>err && grep -q "nothing to convert" err &&
	pristine mx
'

test_expect_success SPATCH,NOBODY "row 34: as nobody, a candidate file of mode 000: exit 2, one line naming it" '
	two_file_ktree nr && chown -R nobody:nogroup nr &&
	chmod 000 nr/fs/xfs/xfs_trans_ail.c && cp -a nr nr.orig &&
	for d in diff apply report; do
		test_exit_code 2 as_nobody $S/$d.sh "$TRASH"/nr fs/xfs >out 2>err &&
		test_line_count err 1 && grep -q "^$d.sh: .*/nr/fs/xfs/xfs_trans_ail.c: Permission denied" err ||
		return 1
	done &&
	chmod 644 nr/fs/xfs/xfs_trans_ail.c nr.orig/fs/xfs/xfs_trans_ail.c && pristine nr
'

test_expect_success SPATCH "row 37: TMPDIR that does not exist: diff and apply fail, one line, nothing changed" '
	two_file_ktree tm && cp -a tm tm.orig &&
	for d in diff apply; do
		TMPDIR=$TRASH/no/such/dir test_must_fail $S/$d.sh "$TRASH"/tm fs/xfs >out 2>err &&
		test_line_count err 1 && grep -q "no/such/dir" err || return 1
	done &&
	pristine tm
'

for t in 0.3 0.8 1.5 2.5; do
	test_expect_success SPATCH "rows 38, 39: SIGINT and SIGTERM $t s into apply: the tree as it was, or converted whole" '
		for sig in INT TERM; do
			rm -rf to to.orig && two_file_ktree to && cp -a to to.orig &&
			timeout -s $sig $t $S/apply.sh "$TRASH"/to fs/xfs 2>/dev/null
			old_or_converted to || return 1
		done
	'
done

test_expect_success SPATCH "row 49: a git tree with an uncommitted edit: apply converts on top and keeps the edit" '
	two_file_ktree ge && (cd ge && git init -q && git add -A &&
		git -c user.name=t -c user.email=t@t commit -qm base) &&
	sed -i "1i /* a local edit */" ge/fs/xfs/xfs_trans_ail.c &&
	$S/apply.sh "$TRASH"/ge fs/xfs 2>/dev/null &&
	head -n 1 ge/fs/xfs/xfs_trans_ail.c | grep -qF "/* a local edit */" &&
	! grep -q set_freezable ge/fs/xfs/xfs_trans_ail.c
'

test_expect_success SPATCH "row 55: a file named with \$(touch PWNED) and quotes: converted, nothing run" '
	two_file_ktree pw &&
	mv pw/fs/xfs/xfs_trans_ail.c "pw/fs/xfs/x\$(touch PWNED)'"'"'q.c" &&
	(cd pw && $S/apply.sh "$TRASH"/pw fs/xfs 2>/dev/null) &&
	! grep -q set_freezable "pw/fs/xfs/x\$(touch PWNED)'"'"'q.c" &&
	test -z "$(find "$TRASH" / -maxdepth 1 -name PWNED 2>/dev/null)" &&
	test -z "$(find "$TRASH" -name PWNED)"
'

test_expect_success SPATCH "row 62: CRLF line ends are kept, the content converted" '
	two_file_ktree cl && sed -i "s/\$/\r/" cl/fs/xfs/xfs_trans_ail.c &&
	$S/apply.sh "$TRASH"/cl fs/xfs 2>/dev/null &&
	! grep -q set_freezable cl/fs/xfs/xfs_trans_ail.c &&
	test "$(grep -vc $(printf "\r\$") cl/fs/xfs/xfs_trans_ail.c)" = 0 &&
	tr -d "\r" <cl/fs/xfs/xfs_trans_ail.c >cl.lf &&
	cp -a ref ref.conv && (cd ref.conv && patch -s -p1 <../ref.diff) &&
	cmp ref.conv/fs/xfs/xfs_trans_ail.c cl.lf
'

test_expect_success SPATCH "rows 4, 13: KTREE or DIR naming a file: exit 2, one line saying it is not a directory" '
	for d in diff apply report; do
		test_exit_code 2 $S/$d.sh "$TRASH"/ref/Makefile fs/xfs >out 2>err &&
		test_line_count err 1 && grep -q "^$d.sh: KTREE=.*/ref/Makefile: not a directory" err &&
		test_exit_code 2 $S/$d.sh "$TRASH"/ref fs/xfs/xfs_super.c >out 2>err &&
		test_line_count err 1 && grep -q "^$d.sh: DIR=fs/xfs/xfs_super.c: not a directory in " err ||
		return 1
	done
'

test_expect_success SPATCH "a tree removed and made again at the same path does not inherit the old one's bookkeeping" '
	two_file_ktree re && $S/apply.sh "$TRASH"/re fs/xfs 2>/dev/null &&
	st=$(ktree_state re) && test -s "$st/touched" &&
	rm -rf re && two_file_ktree re && sed -i "1i /* new */" re/fs/xfs/xfs_super.c &&
	$S/diff.sh "$TRASH"/re fs/xfs >/dev/null &&
	test ! -e "$st" &&
	$S/apply.sh "$TRASH"/re fs/xfs 2>/dev/null &&
	head -n 1 "$st/orig/fs/xfs/xfs_super.c" | grep -qF "/* new */" &&
	test "$(sed -n 2p "$st/tree")" = "$(cd re && pwd -P)"
'

test_expect_success SPATCH "row 12: DIR a symbolic link to a unit inside the tree: that unit's diff" '
	cp -a ref sl && ln -s xfs sl/fs/xfslink &&
	$S/diff.sh "$TRASH"/sl fs/xfslink >d12 && test_cmp ref.diff d12
'

test_expect_success SPATCH "row 29: spatch killed by a signal: apply exits 1 saying so, nothing changed" '
	mkdir -p killed &&
	cat >killed/spatch <<-EOF &&
	#!/bin/sh
	case "\$*" in *--version*) exec $SPATCH --version ;; esac
	kill -KILL \$\$
	EOF
	chmod +x killed/spatch &&
	two_file_ktree ks && cp -a ks ks.orig &&
	SPATCH=$TRASH/killed/spatch test_exit_code 1 $S/apply.sh "$TRASH"/ks fs/xfs 2>err &&
	test_line_count err 1 && grep -q "^apply.sh: spatch failed on cocci/kthread_freezer.cocci" err &&
	pristine ks
'

test_expect_success SPATCH,UNSHARE "rows 35, 36: TMPDIR on a small file system: diff and apply fail or are right, the tree as it was or converted whole" '
	mkdir -p small && cp -a ref fu.want && (cd fu.want && patch -s -p1 <../ref.diff) &&
	for size in 16k 64k 128k 1m; do
		rm -rf fu fu.orig && two_file_ktree fu && cp -a fu fu.orig &&
		unshare -m sh -c "mount -t tmpfs -o size=$size tmpfs $TRASH/small &&
			TMPDIR=$TRASH/small $S/diff.sh $TRASH/fu fs/xfs >$TRASH/fu.diff" 2>/dev/null;
		test $? -ne 0 || test_cmp ref.diff fu.diff || return 1
		unshare -m sh -c "mount -t tmpfs -o size=$size tmpfs $TRASH/small &&
			TMPDIR=$TRASH/small $S/apply.sh $TRASH/fu fs/xfs" 2>/dev/null
		if [ $? -eq 0 ]; then
			diff -r fu.want fu || return 1
		else
			pristine fu || return 1
		fi
	done
'

test_expect_success SPATCH "row 40: SIGKILL at four moments of an apply: diff changes nothing after it, and the next apply leaves the tree converted whole" '
	cp -a ref kk.want && (cd kk.want && patch -s -p1 <../ref.diff) &&
	for t in 0.3 0.8 1.5 2.5; do
		rm -rf kk kk.orig kk.killed && two_file_ktree kk && cp -a kk kk.orig &&
		timeout -s KILL $t $S/apply.sh "$TRASH"/kk fs/xfs 2>/dev/null
		cp -a kk kk.killed &&
		{ $S/diff.sh "$TRASH"/kk fs/xfs >/dev/null 2>err ||
			grep -q "left a change half done" err; } &&
		diff -r kk.killed kk &&
		$S/apply.sh "$TRASH"/kk fs/xfs 2>/dev/null &&
		diff -r kk.want kk &&
		test -z "$(find kk -name "*.autofreeze-*")" || return 1
	done
'

# A kernel tree given as a symbolic link (a worktree whose build/ links
# to the shared trees): the copy is a tree of its own, and changing it,
# as t60 does, never changes the linked tree.
test_expect_success "ktree_link_copy of a symbolic link copies the tree, never the link" '
	mkdir -p lk/real && echo "VERSION = 7" >lk/real/Makefile && ln -s real lk/link &&
	(. "$TOP"/scripts/lib/ktree.sh && ktree_link_copy lk/link lk/copy) &&
	test -d lk/copy && test ! -L lk/copy &&
	rm lk/copy/Makefile && : >lk/copy/Makefile &&
	grep -qx "VERSION = 7" lk/real/Makefile
'

test_done
