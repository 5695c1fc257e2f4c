// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot-client: a hibernation through /dev/snapshot, as a uswsusp
 * tool (s2disk) drives it, for the e2e guest (tests/e2e/guest-init.sh):
 * SNAPSHOT_FREEZE, SNAPSHOT_CREATE_IMAGE, read the image out, then
 * SNAPSHOT_FREE and SNAPSHOT_UNFREEZE, as s2disk does when it cannot
 * power off, where it would have written the image to swap and powered
 * off.  The image is read and dropped: the machine goes on,
 * and the trace of the window between the image and the unfreeze stays
 * in the running kernel for the host to read.  Each step is marked in
 * the trace ("e2e-mark: snapshot ...") so that the host can cut that
 * window out; HOLD seconds pass in it, for what s2disk's write of the
 * image would take.
 *
 *   snapshot-client [HOLD]
 *
 * Prints "snapshot: image N bytes, in_suspend I" on success.  Exit
 * status: 0 done, 1 an ioctl or read failed (named on stderr).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/suspend_ioctls.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static const char *prog = "snapshot-client";

static void mark(const char *what)
{
	int fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY);
	char line[128];
	int n;

	if (fd < 0)
		return;
	n = snprintf(line, sizeof(line), "e2e-mark: snapshot %s\n", what);
	if (write(fd, line, (size_t)n) < 0)
		fprintf(stderr, "%s: trace_marker: %s\n", prog, strerror(errno));
	close(fd);
}

static int fail(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	unsigned int hold = argc > 1 ? (unsigned int)atoi(argv[1]) : 3;
	long long total = 0;
	int in_suspend = 0, fd, rc = 0;
	static char buf[1 << 16];
	ssize_t n;

	fd = open("/dev/snapshot", O_RDONLY);
	if (fd < 0)
		return fail("/dev/snapshot");
	mark("freeze");
	if (ioctl(fd, SNAPSHOT_FREEZE, 0)) {
		rc = fail("SNAPSHOT_FREEZE");
		goto out;
	}
	if (ioctl(fd, SNAPSHOT_CREATE_IMAGE, &in_suspend)) {
		rc = fail("SNAPSHOT_CREATE_IMAGE");
		goto unfreeze;
	}
	mark("created");
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	if (n < 0)
		rc = fail("read");
	sleep(hold);
	/* SNAPSHOT_UNFREEZE does nothing while an image is ready */
	mark("free");
	if (ioctl(fd, SNAPSHOT_FREE, 0) && !rc)
		rc = fail("SNAPSHOT_FREE");
	sleep(1);
unfreeze:
	mark("unfreeze");
	if (ioctl(fd, SNAPSHOT_UNFREEZE, 0) && !rc)
		rc = fail("SNAPSHOT_UNFREEZE");
	mark("thawed");
out:
	close(fd);
	if (!rc)
		printf("snapshot: image %lld bytes, in_suspend %d\n", total,
		       in_suspend);
	return rc;
}
