#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The runtime proof (make e2e): for each version in E2E_VERSIONS (default
# 7.3), a converted kernel suspends and resumes under qemu with its
# filesystems frozen by the VFS and no block I/O reaching a frozen disk,
# and hibernates and resumes; the unconverted control kernel fails the
# same checks, on the VFS freeze only; and the mutant (btrfs's discard
# workqueue without WQ_FREEZABLE) fails on I/O to the frozen btrfs, from
# btrfs_discard_workfn.  Builds three kernels per version (minutes
# each), so it runs when E2E=1 (CI sets it): the E2E prerequisite.

. "$(dirname "$0")/lib.sh"

for v in ${E2E_VERSIONS:-7.3}; do
	# lib.sh knows 6.1 and 6.12; E2E_VERSIONS may name another
	test_lazy_prereq DEBIAN_SRC_${v/./_} "test -f /usr/src/linux-source-$v.tar.xz"
	test_expect_success E2E,DEBIAN_SRC_${v/./_},SPATCH "make e2e KVER=$v: patched kernel passes and hibernates, control fails on the VFS freeze only, mutant is caught" '
		"$TOP"/scripts/e2e.sh $v >e2e.log 2>&1; rc=$?; cat e2e.log;
		test $rc -eq 0 &&
		grep -q "^e2e.sh: linux $v patched: PASS" e2e.log &&
		grep -q "^e2e.sh: linux $v patched hibernate: PASS" e2e.log &&
		grep -q "^e2e.sh: linux $v control: fails as it must" e2e.log &&
		grep -q "^e2e.sh: linux $v mutant: caught (\[io-frozen\] .* from btrfs_discard_workfn " e2e.log
	'

	# The verdict lines, for the CI log.
	grep -h '^e2e.sh: linux .*\(PASS\|FAIL\|fails\|caught\|CAUGHT\|built in\|ran for\)' \
		"$TRASH/.out.$test_count" 2>/dev/null | sed 's/^/# /'

	# make series quotes this record: the version that ran, and every
	# verdict line, as the run said them
	test_expect_success E2E,DEBIAN_SRC_${v/./_},SPATCH "make e2e KVER=$v: the record make series quotes" '
		r="$TOP"/build/e2e/linux-$v/verdicts &&
		head -n 1 "$r" | grep -q "^autofreeze $(git -C "$TOP" describe --always --dirty) linux-source-$v [0-9]" &&
		sed 1d "$r" >got &&
		sed -n "s/^e2e.sh: \(linux $v .*: \(PASS\|fails as it must\|caught\).*\)/\1/p" e2e.log >want &&
		test_cmp want got
	'
done

test_done
