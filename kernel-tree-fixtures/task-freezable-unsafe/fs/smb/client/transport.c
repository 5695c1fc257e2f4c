// SPDX-License-Identifier: LGPL-2.1
/* Trimmed from linux-6.1 fs/smb/client/transport.c: wait_for_response(). */
#include <linux/fs.h>
#include <linux/wait.h>
#include <linux/freezer.h>
#include <linux/sched/signal.h>
#include "cifsglob.h"
#include "cifsproto.h"

static int
wait_for_response(struct TCP_Server_Info *server, struct mid_q_entry *midQ)
{
	int error;

	error = wait_event_state(server->response_q,
				 midQ->mid_state != MID_REQUEST_SUBMITTED &&
				 midQ->mid_state != MID_RESPONSE_RECEIVED,
				 (TASK_KILLABLE|TASK_FREEZABLE_UNSAFE));
	if (error < 0)
		return -ERESTARTSYS;

	return 0;
}
