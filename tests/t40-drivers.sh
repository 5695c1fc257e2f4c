#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The drivers on bad input: each gets one clear line on stderr, a
# non-zero exit (2 for bad input) and leaves the tree as it was.  Run
# directly, not through make, so the scripts' own exit codes are seen.
# test-run: light

. "$(dirname "$0")/lib.sh"

# the fixtures' threads and workqueues, judged for these tests
JUDGMENTS=$TESTS/helper/judgments.tsv
export JUDGMENTS

S=$TOP/scripts

# one_line FILE: FILE holds exactly one line, naming the script.
one_line()
{
	test "$(wc -l <"$1")" -eq 1 && grep -qE '^(diff|apply|report)\.sh: ' "$1"
}

test_expect_success SPATCH "set up a kernel-like tree (xfsaild) and a pristine copy" '
	make -s -C "$TOP" helper >/dev/null &&
	fake_ktree xfs-xfsaild-6.1 kt &&
	cp -a kt kt.orig
'

for d in diff apply report; do
	test_expect_success SPATCH "$d: missing KTREE: exit 2, one line" '
		test_exit_code 2 $S/$d.sh "$TRASH"/no-such-tree fs 2>err &&
		one_line err && grep -q "no such directory" err
	'
	test_expect_success SPATCH "$d: KTREE that is not a kernel tree: exit 2, one line" '
		mkdir -p notk/fs &&
		test_exit_code 2 $S/$d.sh "$TRASH"/notk fs 2>err &&
		one_line err && grep -q "not a kernel tree" err
	'
	test_expect_success SPATCH "$d: DIR absent: exit 2, one line" '
		test_exit_code 2 $S/$d.sh "$TRASH"/kt fs/nope 2>err &&
		one_line err && grep -q "DIR=fs/nope" err
	'
	test_expect_success SPATCH "$d: DIR inside a unit: exit 2, one line naming the unit, tree as it was" '
		mkdir -p kt/fs/xfs/libxfs &&
		test_exit_code 2 $S/$d.sh "$TRASH"/kt fs/xfs/libxfs >out 2>err &&
		rmdir kt/fs/xfs/libxfs &&
		one_line err && grep -qF "DIR=fs/xfs/libxfs is inside the unit fs/xfs" err &&
		test_cmp /dev/null out && diff -r kt.orig kt
	'
	test_expect_success SPATCH "$d: DIR absolute: exit 2, one line" '
		test_exit_code 2 $S/$d.sh "$TRASH"/kt /etc 2>err && one_line err
	'
	test_expect_success SPATCH "$d: DIR escaping with ..: exit 2, one line" '
		test_exit_code 2 $S/$d.sh "$TRASH"/kt fs/../.. 2>err &&
		one_line err && grep -q outside err
	'
	test_expect_success SPATCH "$d: DIR escaping through a symlink: exit 2, one line" '
		ln -sfn "$TRASH"/notk kt/fs/escape &&
		test_exit_code 2 $S/$d.sh "$TRASH"/kt fs/escape 2>err &&
		one_line err && grep -q outside err && rm kt/fs/escape
	'
	test_expect_success SPATCH "$d: no spatch: exit 2, one line" '
		SPATCH=no-such-spatch test_exit_code 2 $S/$d.sh "$TRASH"/kt fs/xfs 2>err &&
		one_line err && grep -q "not found" err
	'
	test_expect_success SPATCH "$d: spatch too old: exit 2, one line" '
		mkdir -p oldbin &&
		printf "#!/bin/sh\necho \"spatch version 1.0.8 compiled with OCaml version 4.05.0\"\n" >oldbin/spatch &&
		chmod +x oldbin/spatch &&
		SPATCH="$TRASH"/oldbin/spatch test_exit_code 2 $S/$d.sh "$TRASH"/kt fs/xfs 2>err &&
		one_line err && grep -q "too old" err
	'
	if [ $d = report ]; then
		test_expect_success SPATCH "report: FORMAT=xml: exit 2, one line, no work done" '
			FORMAT=xml test_exit_code 2 $S/report.sh "$TRASH"/kt fs/xfs >out 2>err &&
			one_line err && grep -qF "report.sh: FORMAT=xml: unknown format" err &&
			test_cmp /dev/null out
		'
	fi
	for j in -1 0 abc 2x; do
		test_expect_success SPATCH "$d: J=$j: exit 2, one line, tree as it was" '
			J=$j test_exit_code 2 $S/$d.sh "$TRASH"/kt fs/xfs >out 2>err &&
			one_line err && grep -qF "J=$j: not a number of jobs" err &&
			test_cmp /dev/null out && diff -r kt.orig kt
		'
	done
done

test_expect_success SPATCH "no spatch on PATH at all: exit 2, one line" '
	mkdir -p nospatch &&
	for f in /usr/bin/* /bin/*; do
		case ${f##*/} in spatch*) ;; *) ln -sf "$f" nospatch/ 2>/dev/null ;; esac
	done &&
	PATH=$TRASH/nospatch test_exit_code 2 $S/diff.sh $TRASH/kt fs/xfs 2>err &&
	one_line err
'

test_expect_success SPATCH "the bad inputs left the tree as it was" '
	diff -r kt.orig kt
'

# The opt-in flag is the tree's: never write one it does not define.
# Which series a tree takes is read from its code: the files our 6.1
# series changes, as Debian ships them, under the fixture's units.
test_expect_success SPATCH,KTREE_6_1 "a tree without our series applied: diff and apply exit 2, one line naming make vfs; nothing changed" '
	cp -a kt nv && sed -i "/FS_AUTOFREEZE/d" nv/include/linux/fs.h &&
	sed -n "s|^+++ b/||p" "$TOP"/patches/linux-6.1/*.patch | sort -u |
	while IFS= read -r f; do
		mkdir -p "nv/$(dirname "$f")" &&
		cp "$TOP/build/linux-source-6.1/$f" "nv/$f" || return 1
	done && cp -a nv nv.orig &&
	for d in diff apply; do
		test_exit_code 2 $S/$d.sh "$TRASH"/nv fs/xfs >out 2>err &&
		one_line err && test_cmp /dev/null out &&
		grep -q "does not define FS_AUTOFREEZE yet: run make vfs KTREE=.* first, which applies patches/linux-6.1/" err || return 1
	done &&
	FORCE=1 test_exit_code 2 $S/apply.sh "$TRASH"/nv fs/xfs 2>err && one_line err &&
	diff -r nv.orig nv
'

test_expect_success SPATCH "a tree that defines neither flag, and no series fits: apply exits 2, one line; byte-identical" '
	cp -a kt nf && sed -i "/FS_AUTOFREEZE/d" nf/include/linux/fs.h &&
	rm nf/fs/super.c && cp -a nf nf.orig &&
	for d in diff apply; do
		test_exit_code 2 $S/$d.sh "$TRASH"/nf fs/xfs >out 2>err &&
		one_line err && test_cmp /dev/null out &&
		grep -q "nothing would freeze a converted filesystem on suspend: .*no core series autofreeze ships applies to it" err || return 1
	done &&
	diff -r nf.orig nf &&
	mkdir -p nf/kernel/power && : >nf/kernel/power/process.c &&
	test_exit_code 2 $S/vfs.sh "$TRASH"/nf 2>err && test_line_count err 1 &&
	grep -q "no VFS series for this tree: .*fs/super.c: no such file" err
'

test_expect_success SPATCH "a tree whose own suspend freeze honours FS_POWER_FREEZE: the flag written is that one; make vfs says no series is needed, exit 0" '
	fake_ktree xfs-fs-type pf && (cd kt && tar -cf - fs/xfs) | tar -C pf -xf - &&
	sed -i "/FS_AUTOFREEZE/d" pf/include/linux/fs.h &&
	echo "#define FS_POWER_FREEZE		256" >>pf/include/linux/fs.h &&
	sed -i "s/^VERSION = 6\$/VERSION = 7/; s/^PATCHLEVEL = 1\$/PATCHLEVEL = 3/" pf/Makefile &&
	cp -r "$TESTS"/helper/upstream/ready/. pf/ &&
	mkdir -p pf/kernel/power && : >pf/kernel/power/process.c &&
	make -s -C "$TOP" vfs KTREE="$TRASH"/pf >out 2>err &&
	grep -q "^vfs.sh: .* needs no VFS series: its own suspend freeze, filesystems_freeze_callback() (fs/super.c), freezes the types that carry FS_POWER_FREEZE" out &&
	$S/diff.sh "$TRASH"/pf fs/xfs >out 2>err &&
	grep -q "^+.*FS_REQUIRES_DEV | FS_ALLOW_IDMAP | FS_POWER_FREEZE,\$" out &&
	grep -q "^-.*set_freezable" out && ! grep -q FS_AUTOFREEZE out
'

# diff_apply_refuse TREE PATTERN: diff.sh and apply.sh on fs/xfs of
# $TRASH/TREE both refuse (exit 2, one line on stderr, diff's matching
# the grep PATTERN, nothing on stdout) and leave TREE as it was.
diff_apply_refuse()
{
	tar -C "$1" -cf - . | md5sum >before &&
	test_exit_code 2 "$S"/diff.sh "$TRASH/$1" fs/xfs >out 2>err &&
	test_cmp /dev/null out && one_line err &&
	grep -q "$2" err &&
	test_exit_code 2 "$S"/apply.sh "$TRASH/$1" fs/xfs >out 2>err &&
	one_line err &&
	tar -C "$1" -cf - . | md5sum >after && test_cmp before after
}

# Mainline: its freeze as upstream ships it lacks what a conversion
# needs (policy/prerequisites.tsv), and a tree with only part of it is
# named as such.  diff and apply refuse in one line, naming make vfs or
# what is missing, and change nothing; report says what is missing.
test_expect_success SPATCH "a mainline tree without the prerequisites of its freeze: diff and apply refuse, report says what it lacks" '
	cp -r pf bare && rm -rf bare/kernel/power/user.c bare/kernel/power/suspend.c bare/kernel/power/hibernate.c &&
	cp "$TESTS"/helper/upstream/super.c bare/fs/super.c &&
	diff_apply_refuse bare "^diff.sh: .*bare: nothing would freeze a converted filesystem on suspend: filesystems_freeze_callback() lacks thaw-only-frozen .*snapshot-freeze (hibernation through /dev/snapshot" &&
	$S/report.sh "$TRASH"/bare fs/xfs >out 2>err &&
	grep -q "lacks thaw-only-frozen" out
'

test_expect_success SPATCH "a mainline tree with only part of the prerequisites: diff and apply refuse, naming what it has and lacks" '
	cp -r pf part && cp "$TESTS"/helper/upstream/super.c part/fs/super.c &&
	diff_apply_refuse part "^diff.sh: .*part has only part of what a conversion needs from its suspend freeze: it has snapshot-freeze, and lacks thaw-only-frozen (.*); failed-freeze-fails (.*) (nothing changed; make vfs KTREE=.*part applies the missing patches, from patches/linux-mainline/)\$" &&
	"$TOP"/scripts/autofreeze prereqs part >out &&
	printf "lacks\nlacks\nhas\n" >want && cut -f1 out >got && test_cmp want got
'

test_expect_success SPATCH "apply converts, reports on stderr, records the files" '
	FORCE=1 $S/apply.sh $TRASH/kt fs/xfs 2>err &&
	grep -q "converted 1 files" err &&
	grep -qx fs/xfs/xfs_trans_ail.c "$(ktree_state kt)"/touched &&
	! grep -q set_freezable kt/fs/xfs/xfs_trans_ail.c
'

test_expect_success SPATCH "apply keeps each file's mode and owner" '
	fake_ktree xfs-xfsaild-6.1 mt &&
	f=mt/fs/xfs/xfs_trans_ail.c &&
	chmod 0640 $f &&
	if [ "$(id -u)" = 0 ]; then chown nobody:nogroup $f; fi &&
	stat -c "%a %U:%G" $f >want &&
	FORCE=1 $S/apply.sh $TRASH/mt fs/xfs 2>err &&
	! grep -q set_freezable $f &&
	stat -c "%a %U:%G" $f >got && test_cmp want got
'

test_expect_success SPATCH "apply on a converted tree is a no-op, exit 0" '
	cp -a kt kt.done &&
	FORCE=1 $S/apply.sh $TRASH/kt fs/xfs 2>err &&
	grep -q "nothing to convert" err &&
	diff -r kt.done kt
'

test_expect_success SPATCH "a failed apply puts every file back" '
	fake_ktree gfs2-6.12 jt && cp -a jt jt.orig &&
	AUTOFREEZE_FAIL_AFTER=1 FORCE=1 test_must_fail $S/apply.sh $TRASH/jt fs/gfs2 2>err &&
	grep -q "put back" err &&
	diff -r jt.orig jt
'

test_expect_success SPATCH "an interrupted apply puts every file back" '
	fake_ktree gfs2-6.12 it && cp -a it it.orig &&
	AUTOFREEZE_FAIL_AFTER=1 AUTOFREEZE_FAIL_SIGNAL=INT FORCE=1 \
		test_exit_code 130 $S/apply.sh $TRASH/it fs/gfs2 2>err &&
	grep -q "put back" err &&
	diff -r it.orig it
'

test_expect_success SPATCH "a file spatch cannot parse: report names it, apply refuses" '
	fake_ktree xfs-xfsaild-6.1 pt &&
	printf "static int t(void *d)\n{\n\tset_freezable();\n\twhile (1 {\n\t\ttry_to_freeze();\n\t}\n}\n" >pt/fs/xfs/xfs_broken.c &&
	cp -a pt pt.orig &&
	FORCE=1 $S/report.sh $TRASH/pt fs/xfs >rep &&
	grep -q "fs/xfs/xfs_broken.c:3:.*spatch cannot parse" rep &&
	FORCE=1 test_exit_code 2 $S/apply.sh $TRASH/pt fs/xfs 2>err &&
	one_line err && grep -q "xfs_broken.c:3" err &&
	diff -r pt.orig pt
'

# a private read-only mount can be made here
test_lazy_prereq UNSHARE 'unshare -m true'

test_expect_success SPATCH,UNSHARE "a read-only tree: apply exits 2 with one line, nothing changed" '
	fake_ktree xfs-xfsaild-6.1 rt && cp -a rt rt.orig &&
	unshare -m sh -c "mount --bind $TRASH/rt $TRASH/rt &&
		mount -o remount,bind,ro $TRASH/rt &&
		FORCE=1 $S/apply.sh $TRASH/rt fs/xfs" 2>err; rc=$?;
	test $rc -eq 2 && one_line err && grep -q "not writable" err &&
	diff -r rt.orig rt
'


# spatch picks files with git grep inside a git work tree, and finds
# none in a tree the outer one does not track: the drivers hand it the
# files, so where the tree sits does not matter.
test_expect_success SPATCH "make diff is the same in a plain tree, a git tree, and either inside another git work tree" '
	fake_ktree xfs-fs-type plain && (cd kt.orig && tar -cf - fs/xfs) | tar -C plain -xf - &&
	$S/diff.sh "$TRASH"/plain fs/xfs >want &&
	grep -q "^-.*set_freezable" want && grep -q "^+.*FS_AUTOFREEZE" want &&
	cp -a plain gt && (cd gt && git init -q && git add -A &&
		git -c user.name=t -c user.email=t@t commit -qm base) &&
	mkdir outer && (cd outer && git init -q) &&
	cp -a plain outer/plain && cp -a gt outer/gt &&
	for t in gt outer/plain outer/gt; do
		$S/diff.sh "$TRASH"/$t fs/xfs >got &&
		test_cmp want got || return 1
	done &&
	test -z "$(git -C gt status --porcelain)"
'

test_expect_success SPATCH "file names with spaces" '
	fake_ktree xfs-xfsaild-6.1 sp &&
	mv sp/fs/xfs/xfs_trans_ail.c "sp/fs/xfs/xfs trans ail.c" &&
	FORCE=1 $S/diff.sh $TRASH/sp fs/xfs >sp.diff &&
	grep -qxF -e "--- \"a/fs/xfs/xfs trans ail.c\"" sp.diff &&
	FORCE=1 $S/apply.sh $TRASH/sp fs/xfs 2>/dev/null &&
	! grep -q set_freezable "sp/fs/xfs/xfs trans ail.c"
'

# an eligible xfs (xfs_fs_type, xfsaild) with a second thread whose
# try_to_freeze() value is used: no rule converts that one
whole_ktree()
{
	fake_ktree xfs-fs-type "$1" &&
	case_tree xfs-xfsaild-6.1 "$1" &&
	cp "$FIXTURES"/try-to-freeze-value-used/mm/vmscan.c "$1"/fs/xfs/xfs_manual.c &&
	echo "obj-y += xfs_super.o xfs_trans_ail.o xfs_manual.o" >"$1"/fs/xfs/Makefile
}

test_expect_success SPATCH "a unit that cannot be flagged is left whole: diff, apply and report say why" '
	whole_ktree wt && cp -a wt wt.orig &&
	$S/diff.sh $TRASH/wt fs/xfs >wt.diff 2>err &&
	test_cmp /dev/null wt.diff &&
	grep -q "^diff.sh: warning: fs/xfs: left as it is, it gets no FS_AUTOFREEZE: kthread freezer uses left: fs/xfs/xfs_manual.c:" err &&
	$S/apply.sh $TRASH/wt fs/xfs 2>err &&
	grep -q "^apply.sh: warning: fs/xfs: left as it is" err &&
	diff -r wt.orig wt &&
	$S/report.sh $TRASH/wt fs/xfs >rep &&
	grep -q "^	no FS_AUTOFREEZE, left whole: kthread freezer uses left" rep &&
	grep -q "xfs_trans_ail.c:[0-9]*:[0-9]*: set_freezable: kept: unit left whole" rep &&
	grep -q "xfs_manual.c:[0-9]*:[0-9]*: try_to_freeze: manual: " rep &&
	! grep -q ": converted: " rep
'

test_expect_success SPATCH "FORCE=1 converts such a unit and warns that nothing freezes it" '
	whole_ktree ft &&
	FORCE=1 $S/diff.sh $TRASH/ft fs/xfs >ft.diff 2>err &&
	grep -q "^-.*set_freezable" ft.diff &&
	! grep -q "FS_AUTOFREEZE" ft.diff &&
	one_line err &&
	grep -q "^diff.sh: warning: fs/xfs: FORCE=1 converts it without FS_AUTOFREEZE: its threads no longer freeze and nothing freezes the filesystem" err &&
	FORCE=1 $S/report.sh $TRASH/ft fs/xfs >rep &&
	grep -q "^	no FS_AUTOFREEZE, converted with FORCE=1: its threads no longer freeze" rep
'

test_expect_success SPATCH "JUDGMENTS= names the judgments to apply; one that is missing or malformed is one line, exit 2" '
	fake_ktree xfs-fs-type jd && case_tree xfs-xfsaild-6.1 jd &&
	echo "obj-y += xfs_super.o xfs_trans_ail.o" >jd/fs/xfs/Makefile &&
	$S/diff.sh "$TRASH"/jd fs/xfs >out 2>err &&
	grep -q "^-.*set_freezable" out &&
	JUDGMENTS=/dev/null $S/diff.sh "$TRASH"/jd fs/xfs >out 2>err &&
	test_cmp /dev/null out &&
	grep -q "^diff.sh: warning: fs/xfs: left as it is, it gets no FS_AUTOFREEZE: unreviewed: 4 uses the conversion would take off the freezer, and no reviewed judgment holds here for them: fs/xfs/xfs_trans_ail.c:27, " err &&
	JUDGMENTS="$TRASH"/nope.tsv test_exit_code 2 $S/diff.sh "$TRASH"/jd fs/xfs >out 2>err &&
	one_line err && grep -q "^diff.sh: .*nope.tsv: No such file or directory" err &&
	printf "6.1\tfs/xfs\tunit\t-\t-\tx\ty\n" >old.tsv &&
	JUDGMENTS="$TRASH"/old.tsv test_exit_code 2 $S/report.sh "$TRASH"/jd fs/xfs >out 2>err &&
	one_line err && grep -q "^report.sh: .*old.tsv: line 1: \"6.1\" names kernel versions" err
'

test_expect_success SPATCH "make help lists the entry points" '
	make -s -C $TOP help >help &&
	for t in deps diff apply report check vfs build-check helper fuzz; do
		grep -qE "^ +$t " help || { echo "no $t"; return 1; }
	done
'

test_done
