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

	test_expect_success $prereq "linux-source-$v: make report DIR=fs is the golden" '
		make -s -C "$TOP" report KTREE=$src DIR=fs >$v.report &&
		test_cmp $gold/report.txt $v.report
	'

	test_expect_success $prereq "linux-source-$v: the report lists exactly the uses scan finds" '
		(cd $src && "$TOP"/scripts/autofreeze scan fs) | cut -d: -f1-3 | sort >scan.$v &&
		sed -n "s/^\t\(fs[^:]*:[0-9]*:[0-9]*\): .*/\1/p" $v.report | sort >listed.$v &&
		test_cmp scan.$v listed.$v
	'

	test_expect_success $prereq "linux-source-$v: every conversion names what the freeze does to its work (a quiesced judgment)" '
		grep -c ": converted: " $v.report >converted.$v &&
		test "$(cat converted.$v)" -gt 0 &&
		grep ": converted: " $v.report | grep -v "; quiesced: .*[a-z_0-9]()" >unjustified.$v;
		test_cmp /dev/null unjustified.$v
	'

	test_expect_success $prereq "linux-source-$v: every quiesced judgment for $v is used on its tree (none is stale)" '
		"$TOP"/scripts/autofreeze plan $src fs >$v.plan &&
		awk -F"\t" -v v=$v "!/^#/ && NF == 7 && \$3 == \"quiesced\" {
			n = split(\$1, k, \",\")
			for (i = 1; i <= n; i++) if (k[i] == v || k[i] == \"*\") print \$7
		}" "$TOP"/policy/judgments.tsv >judged.$v &&
		test -s judged.$v &&
		sed -n "s/^quiesced\t[^\t]*\t[^\t]*\t[^\t]*\tquiesced: //p" $v.plan | sort -u >used.$v &&
		sort -u judged.$v | comm -23 - used.$v >stale.$v &&
		test_cmp /dev/null stale.$v
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

test_done
