/* SPDX-License-Identifier: GPL-2.0 */
/* fixture: a kernel tree has include/linux/fs.h */
