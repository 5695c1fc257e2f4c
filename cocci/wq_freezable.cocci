// SPDX-License-Identifier: GPL-2.0-only
/// Stop making a filesystem's workqueues and kthread workers freezable.
///
/// Work items of a filesystem that sets FS_AUTOFREEZE are quiesced by the
/// VFS freeze on suspend (freeze_super() waits for writers and syncs), so
/// its workqueues need not be frozen with the tasks. WQ_FREEZABLE leaves
/// the flags it is in (WQ_FREEZABLE alone becomes 0), as does
/// KTW_FREEZABLE; create_freezable_workqueue() becomes the ordered
/// workqueue it was without the flag, and the system freezable
/// workqueues become their plain counterparts.
///
/// Uses inside macro definitions are reported, not changed: the macro
/// may serve users outside the filesystem. A workqueue whose work the
/// filesystem's freeze does not quiesce keeps its flag: name the use
/// with -D keep_at=FILE:LINE,... (the helper does, from its reviewed
/// judgments).
//
// Confidence: High
// Copyright: (C) 2026 The autofreeze authors.
// URL: https://lwn.net/Articles/935602/
// Options: --no-includes --include-headers
// Keywords: freezer, workqueue, WQ_FREEZABLE, FS_AUTOFREEZE

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import os.path

# Uses that keep their flag, as (file, line), from -D keep_at; a path
# is relative to where spatch runs ("./fs/a.c" is "fs/a.c").
kept_at = set()

# Positions outside any function are macro bodies or file-scope
# initializers; Coccinelle names their element "something_else".
def in_function(p):
	return p[0].current_element != "something_else"

def is_kept(p):
	return (os.path.normpath(p[0].file), int(p[0].line)) in kept_at

def convertible(p):
	return in_function(p) and not is_kept(p)

def joins(p):
	"""WQ_FREEZABLE opens flags that go on, after a "|", on the next
	line: without it, the two lines fit in one of 80 columns."""
	try:
		with open(p[0].file, errors="replace") as f:
			lines = f.read().split("\n")
		line, nxt = lines[int(p[0].line) - 1], lines[int(p[0].line)]
	except (OSError, IndexError):
		return False
	if not line.rstrip().endswith("|") or "/*" in line + nxt or "//" in line + nxt:
		return False
	col = int(p[0].column)
	rest = line[col:].replace("WQ_FREEZABLE", "", 1).lstrip(" |")
	if rest.count("|") != 1:
		return False
	joined = line[:col] + rest.rstrip() + " " + nxt.strip()
	return len(joined.expandtabs(8)) <= 80

@initialize:python@
at << virtual.keep_at;
@@
for a in at.split(","):
	f, _, line = a.strip().rpartition(":")
	if f and line.isdigit():
		kept_at.add((os.path.normpath(f), int(line)))

// Flags split over two lines that fit on one once WQ_FREEZABLE is gone
// are joined (xfs_log.c).
@wq_flag_join depends on patch@
position p : script:python() { convertible(p) and joins(p) };
expression E1, E2;
@@
- WQ_FREEZABLE@p | E1 | E2
+ E1 | E2

@wq_flag depends on patch@
position p : script:python() { convertible(p) };
expression E;
@@
(
- WQ_FREEZABLE@p |
  E
|
  E
- | WQ_FREEZABLE@p
|
- WQ_FREEZABLE@p
+ 0
)

@ktw_flag depends on patch@
position p : script:python() { convertible(p) };
expression E;
@@
(
- KTW_FREEZABLE@p |
  E
|
  E
- | KTW_FREEZABLE@p
|
- KTW_FREEZABLE@p
+ 0
)

@freezable_wq depends on patch@
position p : script:python() { convertible(p) };
symbol system_freezable_wq, system_freezable_power_efficient_wq;
expression N;
@@
(
- create_freezable_workqueue@p(N)
+ alloc_ordered_workqueue("%s", WQ_MEM_RECLAIM, N)
|
- system_freezable_wq@p
+ system_wq
|
- system_freezable_power_efficient_wq@p
+ system_power_efficient_wq
)

// report, context and org

@freezable_use depends on !patch@
identifier I = {WQ_FREEZABLE, KTW_FREEZABLE, system_freezable_wq,
		system_freezable_power_efficient_wq};
position p;
@@
(
* I@p
|
* create_freezable_workqueue@p(...)
)

@script:python depends on report@
p << freezable_use.p;
@@
if is_kept(p):
	msg = "kept: freezable workqueue or worker in %s(): kept by -D keep_at" % p[0].current_element
elif in_function(p):
	msg = "freezable workqueue or worker in %s(): drop the freezable flag" % p[0].current_element
else:
	msg = "kept: freezable workqueue flag in a macro or initializer"
coccilib.report.print_report(p[0], msg)

@script:python depends on org@
p << freezable_use.p;
@@
coccilib.org.print_todo(p[0], "freezable workqueue or worker")
