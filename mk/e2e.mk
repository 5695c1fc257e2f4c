# SPDX-License-Identifier: GPL-2.0
#
# The runtime proof: a patched and an unpatched (control) kernel of
# Debian's linux-source-KVER, booted under qemu through suspend cycles;
# or, with KTREE given, of a copy of that tree (its version read from
# its Makefile).
#   make e2e [KVER=6.1|6.12|7.3]
#   make e2e KTREE=~/linux

KVER ?= 6.1
export KVER

# e2e_given VAR: non-empty when the user gave VAR, on make's command line
# or in the environment; a default of the Makefile (KTREE has one) is
# not given.  origin's answers have spaces: compare them as words.
e2e_space := $() $()
e2e_given = $(filter command_line environment environment_override,$(subst $(e2e_space),_,$(origin $1)))

## e2e: converted, control, mutant (and on mainline unready) kernels of KVER (6.1, 6.12, 7.3), or of your KTREE=, through suspend, hibernation and /dev/snapshot under qemu, no I/O to a frozen disk (build/e2e/)
.PHONY: e2e
e2e:
ifneq ($(call e2e_given,KTREE),)
	@"$$TOP/scripts/e2e.sh" --ktree "$$KTREE" $(if $(call e2e_given,KVER),"$$KVER")
else
	@"$$TOP/scripts/e2e.sh" "$$KVER"
endif
