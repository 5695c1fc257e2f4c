# SPDX-License-Identifier: GPL-2.0
#
# The benchmark: our tool against the same work done by hand, on whole
# kernel trees.
#   make bench [BENCH_TREES="<tree> <tree>..."] [J=n]

BENCH_TREES ?= $(BUILD)/linux-source-6.1 $(BUILD)/linux-source-6.12 $(BUILD)/linux-source-7.3
export BENCH_TREES

## bench: time make diff vs spatch by hand and scan vs grep on whole trees (BENCH_TREES); fails if their hunks differ
.PHONY: bench
bench: helper
	@"$$TOP/scripts/bench.sh"
