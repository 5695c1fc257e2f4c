#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The runtime proof (make e2e): for each version in E2E_VERSIONS (default
# 6.1), a patched kernel suspends and resumes under qemu with its
# filesystems frozen by the VFS, and the unpatched control kernel fails
# the same checks, on the VFS freeze only.  Builds two kernels per
# version (minutes each), so it runs when E2E=1 (CI sets it).

. "$(dirname "$0")/lib.sh"

for v in ${E2E_VERSIONS:-6.1}; do
	if [ -z "${E2E:-}" ]; then
		test_skip "make e2e KVER=$v" "E2E unset"
	elif [ ! -f /usr/src/linux-source-$v.tar.xz ] || ! test_have_prereq SPATCH; then
		test_skip "make e2e KVER=$v" "no linux-source-$v or spatch (make deps)"
	else
		test_expect_success "make e2e KVER=$v: patched kernel passes, control fails on the VFS freeze only" "
			\$TOP/scripts/e2e.sh $v >e2e.log 2>&1; rc=\$?; cat e2e.log;
			test \$rc -eq 0 &&
			grep -q '^e2e.sh: linux $v patched: PASS' e2e.log &&
			grep -q '^e2e.sh: linux $v control: fails as it must' e2e.log
		"
		# The verdict lines, for the CI log.
		grep -h '^e2e.sh: linux .*\(PASS\|FAIL\|fails\|built in\|ran for\)' \
			"$TRASH/.out.$test_count" 2>/dev/null | sed 's/^/# /'
	fi
done

test_done
