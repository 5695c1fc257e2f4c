// SPDX-License-Identifier: GPL-2.0-only
/* Trimmed from fs/open.c (Linux 6.1): no freezer use. */
int vfs_truncate(const struct path *path, loff_t length)
{
	return 0;
}
