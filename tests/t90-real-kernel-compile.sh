#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The rules over the whole fs/ of both Debian trees: every touched object
# compiles under allmodconfig with no new warning.  Takes minutes, so it
# runs when KTREE_COMPILE=1 (CI sets it): the KTREE_COMPILE prerequisite.

. "$(dirname "$0")/lib.sh"

for v in 6.1 6.12; do
	test_expect_success KTREE_COMPILE,KTREE_${v/./_},SPATCH "linux-source-$v fs/: touched objects compile, no new warnings" '
		"$TESTS"/tools/real-kernel-compile.sh "$TOP"/build/linux-source-$v "$TRASH"/compile-$v >compile.log 2>&1;
		rc=$?; grep -v "^OK " compile.log; test $rc -eq 0
	'
done

test_done
