#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The rules over the whole fs/ of both Debian trees: every touched object
# compiles under allmodconfig with no new warning.  Takes minutes, so it
# runs when KTREE_COMPILE=1 (CI sets it).

. "$(dirname "$0")/lib.sh"

for v in 6.1 6.12; do
	prereq=KTREE_${v/./_}
	if [ -z "${KTREE_COMPILE:-}" ]; then
		test_skip "linux-source-$v fs/: touched objects compile" "KTREE_COMPILE unset"
	elif ! test_have_prereq "$prereq" || ! test_have_prereq SPATCH; then
		test_skip "linux-source-$v fs/: touched objects compile" "no tree or spatch (make deps)"
	else
		test_expect_success "linux-source-$v fs/: touched objects compile, no new warnings" "
			\$TESTS/real-kernel-compile.sh \$TOP/build/linux-source-$v \$TRASH/compile-$v >compile.log 2>&1;
			rc=\$?; grep -v '^OK ' compile.log; test \$rc -eq 0
		"
	fi
done

test_done
