// SPDX-License-Identifier: GPL-2.0-only
/// Remove the kthread freezer from kernel threads.
///
/// A filesystem that sets FS_AUTOFREEZE is frozen by the VFS on suspend,
/// through the same freeze_super() path fsfreeze uses, so its threads
/// need not freeze themselves. In a kernel thread only (a function that
/// calls set_freezable(), or one passed to kthread_run(), kthread_create()
/// and friends or to a sunrpc svc pool): set_freezable() and
/// try_to_freeze() go, so do freezing(current) tests, freezable sleeps
/// become plain ones and TASK_FREEZABLE leaves the thread's own sleeps.
/// A .c file left with no freezer use drops <linux/freezer.h>.
/// Freezer calls in user context (ioctls, trim loops, waits that user
/// tasks make) are reported as kept, never rewritten.
///
/// Thread functions started from another file can be named with
/// -D kthread_fns=fn1,fn2.
//
// Confidence: High
// Copyright: (C) 2026 The autofreeze authors.
// URL: https://lwn.net/Articles/935602/
// Options: --no-includes --include-headers
// Keywords: freezer, kthread, FS_AUTOFREEZE

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
# Thread functions of the file being processed, and those named by the
# caller; current_element is the function a position is in.
kthreads = set()
named = set()

def in_kthread(p):
	fn = p[0].current_element
	return fn in kthreads or fn in named

def add_kthread(fn):
	kthreads.add(str(fn))

# report and org: the uses the patch converts, as (file, line, column),
# printed as they are found; every other use is reported as kept.
convertible = set()
mode = "org"

def where(p):
	return (p[0].file, p[0].line, p[0].column)

def note_convertible(p):
	if where(p) in convertible:
		return
	convertible.add(where(p))
	msg = ("kthread freezer use in kernel thread %s(): convert, the VFS"
	       " freezes the filesystem" % p[0].current_element)
	if mode == "report":
		coccilib.report.print_report(p[0], msg)
	else:
		coccilib.org.print_todo(p[0], msg)

def freezer_h_removable(path):
	"""A .c file whose <linux/freezer.h> line Coccinelle can remove
	cleanly: it follows another #include line, or stands between
	blank lines after one."""
	if not path.endswith(".c"):
		return False
	try:
		with open(path, errors="replace") as f:
			lines = f.read().split("\n")
	except OSError:
		return False
	seen_include = False
	for i, line in enumerate(lines):
		t = line.replace(" ", "").replace("\t", "")
		if t == "#include<linux/freezer.h>":
			prev = lines[i - 1].strip() if i else ""
			nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
			# Coccinelle takes a blank line above along when
			# none follows, merging two groups of includes.
			return seen_include and (prev.startswith("#include") or
						 (prev == "" and nxt == ""))
		if t.startswith("#include"):
			seen_include = True
	return False

# Branches removed whole: the freezer calls inside go with them.
removed_branches = []

def is_convertible(p):
	if where(p) in convertible:
		return True
	line = int(p[0].line)
	return any(f == p[0].file and int(a) <= line <= int(b)
		   for f, a, b in removed_branches)

def kept_reason(p, api):
	fn = p[0].current_element
	if fn == "something_else":
		return "kept: %s outside a function (macro or initializer)" % api
	if api == "TASK_FREEZABLE_UNSAFE":
		return "kept: %s in %s() is not the kthread freezer" % (api, fn)
	if in_kthread(p):
		return ("manual: %s in kernel thread %s() has no mechanical"
			" conversion" % (api, fn))
	return ("kept: %s in %s(): not a kernel thread here"
		" (-D kthread_fns=%s if it is one)" % (api, fn, fn))

@initialize:python@
fns << virtual.kthread_fns;
@@
named.update(f.strip() for f in fns.split(",") if f.strip())

// Runs once per file: thread functions are a per-file fact.
@script:python forget_kthreads@
@@
kthreads.clear()
convertible.clear()
del removed_branches[:]

@script:python depends on report@
@@
mode = "report"

// ---------------------------------------------------------------------
// Which functions are kernel threads

@calls_set_freezable@
position p;
@@
set_freezable@p();

@script:python@
p << calls_set_freezable.p;
@@
add_kthread(p[0].current_element)

@started_as_kthread@
identifier fn;
expression list es;
@@
(
kthread_run(fn, es)
|
kthread_create(fn, es)
|
kthread_create_on_node(fn, es)
|
kthread_run_on_cpu(fn, es)
|
kthread_create_on_cpu(fn, es)
|
svc_create(es, fn)
|
svc_create_pooled(es, fn)
)

@script:python@
fn << started_as_kthread.fn;
@@
add_kthread(fn)

// Headers keep <linux/freezer.h>: other files may lean on it.  And
// Coccinelle takes the comments above a removed first #include with it
// (the file's header), so there, and where a comment sits right above
// the line, the include is left for a human: report mode says so.
@freezer_h_removable depends on patch@
identifier I = {set_freezable, try_to_freeze, freezing,
		wait_event_freezable, TASK_FREEZABLE};
position p : script:python() { freezer_h_removable(p[0].file) };
@@
I@p

// ---------------------------------------------------------------------
// if (freezing(current)) A else B  ->  B

// B declares variables: keep it a block.
@freezing_else_declares depends on patch@
position p : script:python() { in_kthread(p) };
symbol current;
statement S1;
declaration D;
@@
- if@p (freezing(current)) S1 else
  {
  ... when any
  D
  ... when any
  }

@freezing_else_block depends on patch@
position p : script:python() { in_kthread(p) };
statement S1;
statement list SL;
@@
- if@p (freezing(current)) S1 else {
  SL
- }

@freezing_else depends on patch@
position p : script:python() { in_kthread(p) };
statement S1, S2;
@@
- if@p (freezing(current)) S1 else
  S2

// if (freezing(current)) A  ->  nothing
@freezing_if depends on patch@
position p : script:python() { in_kthread(p) };
statement S1;
@@
(
- if@p (freezing(current)) S1
|
- if@p (unlikely(freezing(current))) S1
|
- if@p (likely(freezing(current))) S1
)

// The freezing(current) term of a condition goes, the rest stays.
@freezing_term depends on patch@
position p : script:python() { in_kthread(p) };
expression E;
@@
(
  E
- || freezing@p(current)
|
- freezing@p(current) ||
  E
|
  E
- && !freezing@p(current)
|
- !freezing@p(current) &&
  E
)

// ---------------------------------------------------------------------
// set_freezable() and try_to_freeze()

@freeze_points depends on patch@
position p : script:python() { in_kthread(p) };
statement S;
@@
(
- set_freezable@p();
|
- if (try_to_freeze@p()) S
|
- try_to_freeze@p();
)

// ---------------------------------------------------------------------
// Freezable sleeps become plain ones.

@freezable_sleep depends on patch@
position p : script:python() { in_kthread(p) };
@@
(
- freezable_schedule@p
+ schedule
|
- freezable_schedule_unsafe@p
+ schedule
|
- freezable_schedule_timeout@p
+ schedule_timeout
|
- freezable_schedule_timeout_interruptible@p
+ schedule_timeout_interruptible
|
- freezable_schedule_timeout_interruptible_unsafe@p
+ schedule_timeout_interruptible
|
- freezable_schedule_timeout_killable@p
+ schedule_timeout_killable
|
- freezable_schedule_timeout_killable_unsafe@p
+ schedule_timeout_killable
|
- freezable_schedule_hrtimeout_range@p
+ schedule_hrtimeout_range
|
- wait_event_freezable@p
+ wait_event_interruptible
|
- wait_event_freezable_timeout@p
+ wait_event_interruptible_timeout
|
- wait_event_freezable_exclusive@p
+ wait_event_interruptible_exclusive
)
  (...)

@freezable_should_stop depends on patch@
position p : script:python() { in_kthread(p) };
@@
- kthread_freezable_should_stop@p(NULL)
+ kthread_should_stop()

@task_freezable depends on patch@
position p : script:python() { in_kthread(p) };
expression E;
@@
(
  E
- | TASK_FREEZABLE@p
|
- TASK_FREEZABLE@p |
  E
)

// ---------------------------------------------------------------------
// A .c file with no freezer use left needs no <linux/freezer.h>.

@still_uses_freezer depends on patch@
identifier I = {set_freezable, try_to_freeze, freezing, frozen,
		freezing_slow_path, __refrigerator, freeze_task,
		freezer_active, pm_freezing, pm_nosig_freezing,
		freeze_processes, thaw_processes, freeze_kernel_threads,
		thaw_kernel_threads, set_freezable_with_signal,
		freezable_schedule, freezable_schedule_unsafe,
		freezable_schedule_timeout,
		freezable_schedule_timeout_interruptible,
		freezable_schedule_timeout_interruptible_unsafe,
		freezable_schedule_timeout_killable,
		freezable_schedule_timeout_killable_unsafe,
		freezable_schedule_hrtimeout_range, freezer_do_not_count,
		freezer_count, freezer_should_skip, wait_event_freezable,
		wait_event_freezable_timeout, wait_event_freezable_exclusive,
		wait_event_freezekillable_unsafe};
@@
I

@drop_freezer_h depends on patch && freezer_h_removable && !still_uses_freezer &&
	(freezing_else_declares || freezing_else_block || freezing_else ||
	 freezing_if || freezing_term || freeze_points || freezable_sleep)@
@@
- #include <linux/freezer.h>

// ---------------------------------------------------------------------
// report, context and org: what the patch does, what it keeps, and
// what needs a human.

// q spans the branch that goes with the test.
@convertible_stmt depends on !patch@
position p : script:python() { in_kthread(p) };
position q;
symbol current;
statement S1, S2;
@@
(
* if (freezing@p(current)) S1@q else S2
|
* if (freezing@p(current)) S1@q
|
* if (unlikely(freezing@p(current))) S1@q
|
* if (likely(freezing@p(current))) S1@q
|
* if (try_to_freeze@p()) S1@q
)

@convertible_expr depends on !patch@
position p : script:python() { in_kthread(p) };
identifier I = {set_freezable, try_to_freeze, freezable_schedule,
		freezable_schedule_unsafe, freezable_schedule_timeout,
		freezable_schedule_timeout_interruptible,
		freezable_schedule_timeout_interruptible_unsafe,
		freezable_schedule_timeout_killable,
		freezable_schedule_timeout_killable_unsafe,
		freezable_schedule_hrtimeout_range, wait_event_freezable,
		wait_event_freezable_timeout, wait_event_freezable_exclusive};
expression E;
@@
(
* I@p(...)
|
* kthread_freezable_should_stop@p(NULL)
|
  E
* || freezing@p(current)
|
* freezing@p(current) ||
  E
|
  E
* && !freezing@p(current)
|
* !freezing@p(current) &&
  E
|
  E
* | TASK_FREEZABLE@p
|
* TASK_FREEZABLE@p |
  E
)

@script:python depends on report || org@
p << convertible_stmt.p;
q << convertible_stmt.q;
@@
note_convertible(p)
removed_branches.append((q[0].file, q[0].line, q[0].line_end))

@script:python depends on report || org@
p << convertible_expr.p;
@@
note_convertible(p)

// Every other use of the kthread freezer API: in a kernel thread it
// needs a human; elsewhere it is kept.
@freezer_use depends on report || org@
identifier I = {set_freezable, try_to_freeze, freezing, __refrigerator,
		freezable_schedule, freezable_schedule_unsafe,
		freezable_schedule_timeout,
		freezable_schedule_timeout_interruptible,
		freezable_schedule_timeout_interruptible_unsafe,
		freezable_schedule_timeout_killable,
		freezable_schedule_timeout_killable_unsafe,
		freezable_schedule_hrtimeout_range, wait_event_freezable,
		wait_event_freezable_timeout, wait_event_freezable_exclusive,
		wait_event_freezekillable_unsafe, kthread_freezable_should_stop,
		kthread_wait_freezable, TASK_FREEZABLE, TASK_FREEZABLE_UNSAFE};
position p;
@@
I@p

@script:python depends on report@
p << freezer_use.p;
I << freezer_use.I;
@@
if not is_convertible(p):
	coccilib.report.print_report(p[0], kept_reason(p, I))

@script:python depends on org@
p << freezer_use.p;
I << freezer_use.I;
@@
if not is_convertible(p):
	coccilib.org.print_todo(p[0], kept_reason(p, I))
