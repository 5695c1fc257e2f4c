#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The real-kernel goldens: make diff DIR=fs (default policy) on each
# Debian tree, split by unit, must be expected-diffs/linux-<v>/<unit>.diff
# exactly, unit for unit; make report DIR=fs must be report.txt; and
# make apply, then git diff, must give the same hunks again.  diff and
# apply run where they can: on 6.1 and 6.12 after make vfs (on a copy),
# on 7.3 as it is; report runs on the tree as Debian ships it.

. "$(dirname "$0")/lib.sh"

for v in ${T60_VERSIONS:-6.1 6.12 7.3}; do
	prereq=KTREE_${v/./_},SPATCH
	src=$TOP/build/linux-source-$v
	gold=$GOLDEN/linux-$v

	test_expect_success $prereq "linux-source-$v: make diff DIR=fs, unit by unit, is the golden" '
		tgt=$(target_tree $v) &&
		make -s -C "$TOP" diff KTREE=$tgt DIR=fs >$v.diff &&
		"$TOP"/scripts/autofreeze plan $tgt fs >$v.plan &&
		split_by_unit $v.plan $v <$v.diff &&
		(cd $gold && ls *.diff) >want.$v && (cd $v && ls) >got.$v &&
		test_cmp want.$v got.$v &&
		for f in $(cat want.$v); do
			test_cmp $gold/$f $v/$f || return 1
		done
	'

	test_expect_success $prereq "linux-source-$v: make report DIR=fs is the golden, in lines of at most 100 columns" '
		make -s -C "$TOP" report KTREE=$src DIR=fs >$v.report &&
		test_cmp $gold/report.txt $v.report &&
		expand $v.report | awk "length > 100" >wide.$v &&
		test_cmp /dev/null wide.$v
	'

	test_expect_success $prereq "linux-source-$v: the report lists exactly the uses scan finds" '
		(cd $src && "$TOP"/scripts/autofreeze scan fs) | cut -d: -f1-3 | sort >scan.$v &&
		sed -n "s/^\t\(fs[^:]*:[0-9]*:[0-9]*\): .*/\1/p" $v.report | sort >listed.$v &&
		test_cmp scan.$v listed.$v
	'

	test_expect_success $prereq "linux-source-$v: every conversion names what the freeze does to its work (a quiesced judgment)" '
		make -s -C "$TOP" report KTREE=$src DIR=fs V=1 >$v.full &&
		grep -c ": converted: " $v.full >converted.$v &&
		test "$(cat converted.$v)" -gt 0 &&
		grep ": converted: " $v.full | grep -v "; quiesced: .*[a-z_0-9]()" >unjustified.$v;
		test_cmp /dev/null unjustified.$v
	'

	test_expect_success $prereq "linux-source-$v: every quiesced judgment that holds on the tree is used there" '
		"$TOP"/scripts/autofreeze plan $src fs >$v.plan &&
		"$TOP"/scripts/autofreeze judgments $src fs >$v.judgments &&
		sed -n "s/^[^ ]*: [^ ]*: quiesced on .*: holds: //p" $v.judgments |
			sort -u >judged.$v &&
		test -s judged.$v &&
		sed -n "s/^quiesced\t[^\t]*\t[^\t]*\t[^\t]*\tquiesced: //p" $v.plan | sort -u >used.$v &&
		comm -23 judged.$v used.$v >stale.$v &&
		test_cmp /dev/null stale.$v
	'

	# The code decides, not the version: the tree relabeled (its
	# Makefile says 9.99) gives the same conversion and the same
	# report, before and after make vfs.
	test_expect_success $prereq "linux-source-$v relabeled 9.99: make diff DIR=fs and make report are the original's" '
		ktree_link_copy $src rl$v && rm rl$v/Makefile &&
		sed "s/^VERSION = .*/VERSION = 9/; s/^PATCHLEVEL = .*/PATCHLEVEL = 99/" \
			$src/Makefile >rl$v/Makefile &&
		make -s -C "$TOP" report KTREE="$TRASH"/rl$v DIR=fs >rl$v.report &&
		test_cmp $gold/report.txt rl$v.report &&
		if [ "$("$TOP"/scripts/autofreeze optin rl$v | cut -f2)" = series ]; then
			"$TOP"/scripts/vfs.sh "$TRASH"/rl$v >/dev/null
		fi &&
		make -s -C "$TOP" diff KTREE="$TRASH"/rl$v DIR=fs >rl$v.diff &&
		"$TOP"/scripts/autofreeze plan rl$v fs >rl$v.plan &&
		split_by_unit rl$v.plan rl$v.split <rl$v.diff &&
		(cd rl$v.split && ls) >got.rl$v && test_cmp want.$v got.rl$v &&
		for f in $(cat want.$v); do
			test_cmp $gold/$f rl$v.split/$f || return 1
		done &&
		rm -rf rl$v rl$v.split
	'

	test_expect_success $prereq "linux-source-$v: make report FORMAT=json is valid JSON with the same totals" '
		make -s -C "$TOP" report KTREE=$src DIR=fs FORMAT=json >$v.json &&
		python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
t = d[\"totals\"]
print(\"%d converted, %d kept, %d manual\" % (t[\"converted\"], t[\"kept\"], t[\"manual\"]))" $v.json >$v.totals &&
		tail -n 1 $gold/report.txt >$v.want-totals &&
		test_cmp $v.want-totals $v.totals
	'

	test_expect_success $prereq "linux-source-$v: make apply DIR=fs/xfs, then git diff, gives the golden's hunks; again is a no-op" '
		tgt=$(target_tree $v) &&
		mkdir t$v && cp -a $tgt/Makefile $tgt/Kconfig $tgt/fs t$v/ &&
		mkdir -p t$v/include/linux && cp $tgt/include/linux/fs.h t$v/include/linux/ &&
		mkdir -p t$v/kernel && cp -a $tgt/kernel/power t$v/kernel/ &&
		(cd t$v && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm base) &&
		make -s -C "$TOP" apply KTREE="$TRASH"/t$v DIR=fs/xfs 2>apply.err &&
		(cd t$v && git diff) | diff_hunks >got-xfs.$v &&
		diff_hunks <$gold/fs-xfs.diff >want-xfs.$v &&
		test_cmp want-xfs.$v got-xfs.$v &&
		make -s -C "$TOP" apply KTREE="$TRASH"/t$v DIR=fs/xfs 2>again.err &&
		grep -q "nothing to convert" again.err &&
		(cd t$v && git diff) | diff_hunks >got-xfs2.$v &&
		test_cmp want-xfs.$v got-xfs2.$v
	'
done

# gfs2meta_fs_type mounts gfs2's superblock, it owns none: the trace of
# its fs_context sees that by itself, with no judgment to help.
test_expect_success KTREE_6_12,KTREE_7_3 "6.12, 7.3 with no judgment: gfs2 would flag gfs2_fs_type, never gfs2meta_fs_type" '
	for v in 6.12 7.3; do
		"$TOP"/scripts/autofreeze plan --judgments /dev/null \
			"$TOP"/build/linux-source-$v fs/gfs2 >gfs2.$v &&
		grep "^fstype	" gfs2.$v >types.$v &&
		printf "fstype\tfs/gfs2\tgfs2_fs_type\tfs/gfs2/ops_fstype.c\n" | test_cmp - types.$v &&
		grep -q "gfs2meta_fs_type not flagged: no-superblock: gfs2meta_fs_type.s mount reaches no call that creates a superblock" gfs2.$v || return 1
	done
'

# Every judgment holds on a tree it was reviewed on: none is stale.
test_expect_success KTREE_6_1,KTREE_6_12,KTREE_7_3 "every judgment of policy/judgments.tsv holds on one of the Debian trees" '
	for v in 6.1 6.12 7.3; do
		"$TOP"/scripts/autofreeze judgments "$(target_tree $v)" fs &&
		"$TOP"/scripts/autofreeze judgments "$TOP"/build/linux-source-$v fs || return 1
	done | sed -n "s/^\([^ ]*\): .*: holds: .*/\1/p" | sort -u >held &&
	grep -n "" "$TOP"/policy/judgments.tsv | grep -v "^[0-9]*:#" | grep -v "^[0-9]*:\$" |
		sed "s/^\([0-9]*\):.*/policy\/judgments.tsv:\1/" | sort -u >written &&
	comm -23 written held >stale &&
	test_cmp /dev/null stale
'

# A judgment rests on code: change that code in a copy of 7.3 (with
# make vfs, so that diff runs) and exactly that judgment lapses; what it
# decided is then unreviewed and stays as it is.
# verdicts: "autofreeze judgments" output on stdin, each line cut to
# its verdict (holds, lapsed, or another line holds here).
verdicts()
{
	sed -E "s/: (holds|lapsed|other code, line [0-9]+ holds here): .*/: \1/"
}

# only_lapse COPY SUBJECT WHY: of every judgment on fs/, only SUBJECT's
# ("fs/gfs2: cluster") goes from holds in 7.3 to lapsed in COPY, saying
# WHY (a grep pattern); COPY's list is left in j.COPY.
only_lapse()
{
	"$TOP"/scripts/autofreeze judgments "$(target_tree 7.3)" fs |
		verdicts >v.orig &&
	"$TOP"/scripts/autofreeze judgments "$1" fs >j.$1 &&
	verdicts <j.$1 | diff v.orig - | sed -n "s/^\([<>]\) [^ ]* /\1 /p" >changed &&
	printf "< %s: holds\n> %s: lapsed\n" "$2" "$2" | test_cmp - changed &&
	grep -q "^policy/judgments.tsv:[0-9]*: $2: lapsed: $3\$" j.$1
}

# anchor_copy DEST FILE SED: a linked copy of 7.3 with make vfs in which
# FILE is edited by SED (and so differs).
anchor_copy()
{
	local base
	base=$(target_tree 7.3) &&
	ktree_link_copy "$base" "$1" &&
	rm "$1/$2" && sed "$3" "$base/$2" >"$1/$2" &&
	! cmp -s "$base/$2" "$1/$2"
}

test_expect_success KTREE_7_3 "7.3, gfs2's freeze made local: only the cluster judgment lapses; gfs2 is unreviewed, and stays as it is" '
	anchor_copy gl fs/gfs2/super.c "s/^\(\t*error = \)gfs2_lock_fs_check_clean(sdp);/\10;/" &&
	only_lapse gl "fs/gfs2: cluster" "gfs2_freeze_super() -> gfs2_lock_fs_check_clean(): gfs2_freeze_super() (super.c:728) calls no gfs2_lock_fs_check_clean()" &&
	make -s -C "$TOP" report KTREE="$TRASH"/gl DIR=fs/gfs2 V=1 >gl.report &&
	grep -q "^fs/gfs2: unreviewed: cluster (policy/judgments.tsv:[0-9]*) no longer holds: gfs2_freeze_super() -> gfs2_lock_fs_check_clean(): " gl.report &&
	grep -c ": kept: unit not converted: unreviewed: cluster" gl.report >n && test "$(cat n)" = 8 &&
	make -s -C "$TOP" diff KTREE="$TRASH"/gl DIR=fs/gfs2 >gl.diff &&
	test_cmp /dev/null gl.diff &&
	make -s -C "$TOP" report KTREE="$TRASH"/gl DIR=fs FORMAT=json >gl.json &&
	python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
u = [x for x in d[\"units\"] if x[\"unit\"] == \"fs/gfs2\"][0]
assert u[\"status\"] == \"unreviewed\" and not u[\"converted\"], u[\"status\"]
assert set(x[\"code\"] for x in u[\"uses\"]) == {\"unreviewed\"}" gl.json &&
	rm -rf gl
'

test_expect_success KTREE_7_3 "7.3, btrfs_freeze() made to stop discard no more: only the quiesced discard judgment lapses; btrfs is left whole, the discard use unreviewed" '
	anchor_copy bd fs/btrfs/super.c "/^static int btrfs_freeze(/,/^}/{/^\tbtrfs_discard_pause(fs_info);\$/d}" &&
	only_lapse bd "fs/btrfs: quiesced on btrfs_init_workqueues() (\"btrfs-discard\")" \
		"btrfs_freeze() -> btrfs_discard_pause(): btrfs_freeze() (super.c:2330) calls no btrfs_discard_pause()" &&
	make -s -C "$TOP" report KTREE="$TRASH"/bd DIR=fs/btrfs V=1 >bd.report &&
	grep -q "^	fs/btrfs/disk-io.c:1993:44: WQ_FREEZABLE: kept: WQ_FREEZABLE in btrfs_init_workqueues(): unreviewed: the not-quiesced judgment on btrfs_init_workqueues() (policy/judgments.tsv:[0-9]*) no longer holds: " bd.report &&
	grep -q "^	no FS_POWER_FREEZE, left whole: unreviewed: 1 use the conversion would take off the freezer" bd.report &&
	grep -q "^	fs/btrfs/scrub.c:3032:23: WQ_FREEZABLE: kept: unit left whole, it gets no FS_POWER_FREEZE: would convert (workqueue flag in scrub_workers_get(); quiesced: btrfs_freeze() pauses scrub and dev-replace" bd.report &&
	grep -q "^	fs/btrfs/disk-io.c:1955:40: WQ_FREEZABLE: kept: unit left whole, it gets no FS_POWER_FREEZE: would convert (workqueue flag in btrfs_init_workqueues(); quiesced: btrfs_freeze() commits the transaction (super.c:2346)" bd.report &&
	make -s -C "$TOP" diff KTREE="$TRASH"/bd DIR=fs/btrfs >bd.diff 2>bd.err &&
	test_cmp /dev/null bd.diff &&
	grep -q "fs/btrfs: left as it is, it gets no FS_POWER_FREEZE: unreviewed: " bd.err &&
	rm -rf bd
'

test_done
