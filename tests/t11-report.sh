#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every rule in report mode over every fixture case: the sorted
# file:line: messages must be the case's golden report, which says of
# every freezer use whether it is converted, kept (and why) or manual.
# test-run: light

. "$(dirname "$0")/lib.sh"

for c in $(case_list); do
	test_expect_success SPATCH "$c: report is the golden" '
		case_tree $c $c &&
		mapfile -t defs < <(case_defines $c) &&
		"$TOP"/tests/tools/rules.sh -m report "${defs[@]}" $c >$c.report &&
		test -f "$FIXTURES"/$c/expected.report &&
		test_cmp "$FIXTURES"/$c/expected.report $c.report
	'
done

# Report mode never writes: the tree is byte-identical afterwards.
test_expect_success SPATCH "report mode leaves the tree alone" '
	for c in $(case_list); do
		case_tree $c ro/$c || return 1
	done &&
	cp -r ro ro.orig &&
	for c in $(case_list); do
		mapfile -t defs < <(case_defines $c) &&
		"$TOP"/tests/tools/rules.sh -m report "${defs[@]}" ro/$c >/dev/null || return 1
	done &&
	diff -r ro.orig ro
'

test_done
