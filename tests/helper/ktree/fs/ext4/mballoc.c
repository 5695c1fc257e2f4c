// SPDX-License-Identifier: GPL-2.0
/* Trimmed from fs/ext4/mballoc.c (Linux 6.1): a user-context use. */
#include <linux/freezer.h>

static bool ext4_trim_interrupted(void)
{
	return fatal_signal_pending(current) || freezing(current);
}
