// SPDX-License-Identifier: GPL-2.0-or-later
/* Trimmed from fs/smb/server/connection.c (Linux 6.1). */
int ksmbd_conn_handler_loop(void *p)
{
	set_freezable();
	while (ksmbd_conn_alive(conn)) {
		if (try_to_freeze())
			continue;

		if (default_conn_ops.process_fn(conn))
			break;
	}
	return 0;
}
