// SPDX-License-Identifier: GPL-2.0
/* Trimmed from fs/nfs/callback.c (Linux 6.1): svc threads. */
#include <linux/freezer.h>

static int
nfs4_callback_svc(void *vrqstp)
{
	struct svc_rqst *rqstp = vrqstp;

	set_freezable();

	while (!kthread_freezable_should_stop(NULL))
		svc_recv(rqstp, MAX_SCHEDULE_TIMEOUT);
	return 0;
}

static int
nfs41_callback_svc(void *vrqstp)
{
	DEFINE_WAIT(wq);

	while (!kthread_freezable_should_stop(NULL)) {
		prepare_to_wait(&serv->sv_cb_waitq, &wq, TASK_IDLE);
		finish_wait(&serv->sv_cb_waitq, &wq);
	}
	return 0;
}

static struct svc_serv *nfs_callback_create_svc(int minorversion)
{
	int (*threadfn)(void *data);
	struct svc_serv *serv;

	threadfn = nfs4_callback_svc;
#if defined(CONFIG_NFS_V4_1)
	if (minorversion)
		threadfn = nfs41_callback_svc;
#else
	if (minorversion)
		return ERR_PTR(-ENOTSUPP);
#endif
	serv = svc_create(&nfs4_callback_program, NFS4_CALLBACK_BUFSIZE,
			  threadfn);
	return serv;
}
