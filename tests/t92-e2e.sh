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
#
# make e2e KTREE= proves a user's own tree: a hard-linked copy of
# linux-source-7.3 (the objects are the KVER=7.3 run's, from ccache),
# converted by e2e on its own copy, the tree itself left as it was.
# Four more kernels and nine more guests, too many for CI's hour: it
# runs when E2E_KTREE=1 too.

. "$(dirname "$0")/lib.sh"

# e2e_verdicts LOG WHO: LOG says, of the kernels of WHO (a pattern:
# "linux 7.3", "linux 7.3 at .*"), what make e2e must: the patched
# kernel passes and hibernates, the control fails on the VFS freeze
# only, the mutant's I/O to a frozen disk is caught.
e2e_verdicts()
{
	grep -q "^e2e\.sh: $2 patched: PASS" "$1" &&
	grep -q "^e2e\.sh: $2 patched hibernate: PASS" "$1" &&
	grep -q "^e2e\.sh: $2 control: fails as it must" "$1" &&
	grep -q "^e2e\.sh: $2 mutant: caught (\[io-frozen\] .* from btrfs_discard_workfn " "$1"
}

for v in ${E2E_VERSIONS:-7.3}; do
	# lib.sh knows 6.1 and 6.12; E2E_VERSIONS may name another
	test_lazy_prereq DEBIAN_SRC_${v/./_} "test -f /usr/src/linux-source-$v.tar.xz"
	test_expect_success E2E,DEBIAN_SRC_${v/./_},SPATCH "make e2e KVER=$v: patched kernel passes and hibernates, control fails on the VFS freeze only, mutant is caught" '
		"$TOP"/scripts/e2e.sh $v >e2e.log 2>&1; rc=$?; cat e2e.log;
		test $rc -eq 0 &&
		e2e_verdicts e2e.log "linux $v"
	'

	# The verdict lines, for the CI log.
	grep -h '^e2e.sh: linux .*\(PASS\|FAIL\|fails\|caught\|CAUGHT\|built in\|ran for\)' \
		"$TRASH/.out.$test_count" 2>/dev/null | sed 's/^/# /'

	# make series quotes this record: the version that ran, and every
	# verdict line, as the run said them
	test_expect_success E2E,DEBIAN_SRC_${v/./_},SPATCH "make e2e KVER=$v: the record make series quotes" '
		r="$TOP"/build/e2e/linux-$v/verdicts &&
		head -n 1 "$r" | grep -q "^autofreeze $(af_version) linux-source-$v [0-9]" &&
		sed 1d "$r" >got &&
		sed -n "s/^e2e.sh: \(linux $v .*: \(PASS\|fails as it must\|caught\).*\)/\1/p" e2e.log >want &&
		test_cmp want got
	'
done

# What a tree is, as far as e2e could change it: every path, its size,
# time and inode (hard links made to it are no change).
tree_listing()
{
	(cd "$1" && find . -printf '%P %s %T@ %i %y\n' | LC_ALL=C sort)
}

test_lazy_prereq E2E_KTREE 'test -n "${E2E_KTREE:-}"'
test_expect_success E2E,E2E_KTREE,KTREE_7_3,SPATCH "make e2e KTREE=<a tree of 7.3>: patched passes, control fails on the VFS freeze only, mutant caught, the tree left as it was" '
	cp -al "$TOP/build/linux-source-7.3" ktree &&
	tree_listing ktree >before &&
	start=$SECONDS &&
	{ make -s -C "$TOP" e2e KTREE="$TRASH/ktree" >ktree.log 2>&1; rc=$?; } &&
	cat ktree.log &&
	echo "make e2e KTREE=: $((SECONDS - start)) s" &&
	w=$(sed -n "s|^e2e\.sh: linux 7\.3 at .*: kernels and results in \(build/e2e/ktree-ktree-[0-9a-f]*\)/\$|\1|p" ktree.log) &&
	# a new directory for each scratch tree: none is built again
	if [ -n "$w" ]; then rm -rf "${TOP:?}/$w"; fi &&
	tree_listing ktree >after &&
	test_cmp before after &&
	test -n "$w" && test $rc -eq 0 &&
	e2e_verdicts ktree.log "linux 7\.3 at .*"
'
grep -h '^\(e2e.sh: linux .*\(PASS\|FAIL\|fails\|caught\|CAUGHT\|built in\|ran for\)\|make e2e KTREE=: \)' \
	"$TRASH/.out.$test_count" 2>/dev/null | sed 's/^/# /'

test_done
