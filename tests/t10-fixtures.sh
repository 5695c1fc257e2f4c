#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every fixture case through the rule set, as a user running spatch by
# hand would: the output must be its golden, byte for byte, and a second
# run must change nothing.
# test-run: light

. "$(dirname "$0")/lib.sh"

for c in $(case_list); do
	test_expect_success SPATCH "$c: output is the golden" '
		case_tree $c $c/a && case_tree $c $c/b &&
		case_convert $c $c/b &&
		"$TOP"/scripts/lib/tree-diff.sh $c/a $c/b >$c/actual &&
		test -f "$FIXTURES"/$c/expected.diff &&
		test_cmp "$FIXTURES"/$c/expected.diff $c/actual
	'
	test_expect_success SPATCH "$c: expect: line agrees with the golden" '
		expect=$(case_field $c expect) &&
		case $expect in
		change) test -s "$FIXTURES"/$c/expected.diff ;;
		unchanged) test -f "$FIXTURES"/$c/expected.diff && ! test -s "$FIXTURES"/$c/expected.diff ;;
		*) false ;;
		esac
	'
	test_expect_success SPATCH "$c: a second run changes nothing" '
		cp -r $c/b $c/c &&
		case_convert $c $c/c &&
		"$TOP"/scripts/lib/tree-diff.sh $c/b $c/c >$c/again &&
		test_cmp /dev/null $c/again
	'
done

test_done
