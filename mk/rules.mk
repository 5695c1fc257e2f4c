# SPDX-License-Identifier: GPL-2.0
#
# The conversion itself: make diff / report on KTREE and DIR.
# DEFINES holds extra spatch -D values, e.g.
#   DEFINES="kthread_fns=gfs2_logd fs_types=gfs2_fs_type"

DEFINES ?=

## diff: print the conversion of DIR in KTREE as a -p1 diff (tree untouched)
.PHONY: diff
diff:
	@$(TOP)/scripts/diff.sh "$(KTREE)" "$(DIR)" $(DEFINES)
