# SPDX-License-Identifier: GPL-2.0
#
# The runtime proof: a patched and an unpatched (control) kernel of
# Debian's linux-source-KVER, booted under qemu through suspend cycles.
#   make e2e [KVER=6.1|6.12|7.3]

KVER ?= 6.1
export KVER

## e2e: converted, control, mutant (and on mainline unready) kernels of KVER (6.1, 6.12, 7.3) through suspend, hibernation and /dev/snapshot under qemu, no I/O to a frozen disk (build/e2e/)
.PHONY: e2e
e2e:
	@"$$TOP/scripts/e2e.sh" "$$KVER"
