#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Each rule works three ways with the same result: through our Makefile
# (make diff FORCE=1: fixtures are single files, not freeze-capable
# units), with spatch by hand, and copied into a kernel tree's
# scripts/coccinelle/ for make coccicheck, in patch and report modes.
# The cases are those whose CASE names a rule: line (and the unit the
# rule is run on): each exercises that one rule, so that rule's output
# alone is the golden.
# test-run: light

. "$(dirname "$0")/lib.sh"

# the fixtures' threads and workqueues, judged for make diff
JUDGMENTS=$TESTS/helper/judgments.tsv
export JUDGMENTS

# the cases with a rule: line
CASES=$(for c in $(case_list); do
	[ -z "$(case_field $c rule)" ] || echo $c
done)

for c in $CASES; do
	rule=$(case_field $c rule)
	unit=$(case_field $c unit)

	test_expect_success SPATCH "$c: make diff gives the golden" '
		fake_ktree $c $c.tree &&
		make -s -C "$TOP" diff FORCE=1 KTREE="$TRASH"/$c.tree DIR=$unit >$c.make &&
		diff_hunks <"$FIXTURES"/$c/expected.diff >$c.want &&
		diff_hunks <$c.make >$c.got &&
		test_cmp $c.want $c.got
	'

	test_expect_success SPATCH "$c: spatch --sp-file cocci/$rule.cocci by hand gives the golden" '
		case_tree $c $c.hand &&
		mapfile -t defs < <(case_defines $c) &&
		(cd $c.hand && $SPATCH --very-quiet -D patch "${defs[@]}" \
			--sp-file "$COCCI"/$rule.cocci --dir $unit) >$c.spatch &&
		diff_hunks <"$FIXTURES"/$c/expected.diff >$c.want &&
		sed "s|^--- a/|--- a/$unit/|" $c.spatch | diff_hunks >$c.got &&
		test_cmp $c.want $c.got
	'

	# since 6.13 make coccicheck M=dir runs spatch inside dir: paths
	# are relative to it, and -D keep_at's to the tree's top
	test_expect_success SPATCH "$c: spatch by hand from inside $unit, as make coccicheck M= runs it, gives the golden" '
		fake_ktree $c $c.inside &&
		mapfile -t defs < <(case_defines $c) &&
		(cd $c.inside/$unit && $SPATCH --very-quiet -D patch "${defs[@]}" \
			--sp-file "$COCCI"/$rule.cocci --dir .) >$c.inside.out &&
		diff_hunks <"$FIXTURES"/$c/expected.diff >$c.want &&
		sed "s|^--- a/|--- a/$unit/|" $c.inside.out | diff_hunks >$c.got &&
		test_cmp $c.want $c.got
	'

	test_expect_success SPATCH "$c: spatch -D report by hand gives the golden report" '
		case_tree $c $c.hand-report &&
		mapfile -t defs < <(case_defines $c) &&
		(cd $c.hand-report && $SPATCH --very-quiet -D report "${defs[@]}" --no-show-diff \
			--sp-file "$COCCI"/$rule.cocci --dir $unit) |
			LC_ALL=C sort -t: -k1,1 -k2,2n >$c.got &&
		test_cmp "$FIXTURES"/$c/expected.report $c.got
	'
done

# coccicheck needs a real kernel tree: a symlink copy of the 6.1 one,
# with the case's files and our rules in it as real files.
test_expect_success SPATCH,KTREE_6_1 "make a scratch kernel tree for coccicheck" '
	cp -as "$TOP/build/linux-source-6.1/." k &&
	mkdir -p k/scripts/coccinelle/freezer &&
	cp "$COCCI"/*.cocci k/scripts/coccinelle/freezer/
'
for c in $CASES; do
	rule=$(case_field $c rule)
	unit=$(case_field $c unit)
	test_expect_success SPATCH,KTREE_6_1 "$c: make coccicheck MODE=patch gives the golden" '
		rm -rf k/$unit && case_tree $c $c.cc &&
		cp -r $c.cc/$unit k/$unit &&
		make -s -C k coccicheck MODE=patch M=$unit SPFLAGS="$(case_defines $c | paste -sd" " -)" \
			COCCI=scripts/coccinelle/freezer/$rule.cocci >$c.cc.out 2>&1 &&
		diff_hunks <"$FIXTURES"/$c/expected.diff >$c.want &&
		diff_hunks <$c.cc.out >$c.got &&
		test_cmp $c.want $c.got
	'
	test_expect_success SPATCH,KTREE_6_1 "$c: make coccicheck MODE=report gives the golden report" '
		make -s -C k coccicheck MODE=report M=$unit SPFLAGS="$(case_defines $c | paste -sd" " -)" \
			COCCI=scripts/coccinelle/freezer/$rule.cocci >$c.ccr.out 2>&1 &&
		grep "^fs/" $c.ccr.out | LC_ALL=C sort -t: -k1,1 -k2,2n >$c.got &&
		test_cmp "$FIXTURES"/$c/expected.report $c.got
	'
	test_expect_success SPATCH,KTREE_6_1 "$c: make coccicheck MODE=context marks the lines the patch changes" '
		make -s -C k coccicheck MODE=context M=$unit SPFLAGS="$(case_defines $c | paste -sd" " -)" \
			COCCI=scripts/coccinelle/freezer/$rule.cocci >$c.ctx.out 2>&1 &&
		grep -c "^-" $c.ctx.out >/dev/null
	'
done

test_done
