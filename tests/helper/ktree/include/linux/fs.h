/* SPDX-License-Identifier: GPL-2.0 */
/* fixture: a kernel tree has include/linux/fs.h */
/* the core series is applied: the opt-in flag of fs_suspend_freeze_sb() */
#define FS_AUTOFREEZE		0x10000000
