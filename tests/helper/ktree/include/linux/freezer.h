/* SPDX-License-Identifier: GPL-2.0 */
/* Trimmed from include/linux/freezer.h (Linux 6.1). */
#ifndef FREEZER_H_INCLUDED
#define FREEZER_H_INCLUDED

extern bool freezing_slow_path(struct task_struct *p);

static inline bool freezing(struct task_struct *p)
{
	if (static_branch_unlikely(&freezer_active))
		return freezing_slow_path(p);
	return false;
}

#endif	/* FREEZER_H_INCLUDED */
