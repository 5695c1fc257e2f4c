// SPDX-License-Identifier: GPL-2.0-only
/// Remove the kthread freezer from a filesystem's kernel threads.
///
/// A filesystem whose type carries the opt-in flag its tree's suspend
/// freeze tests (FS_POWER_FREEZE on mainline, FS_AUTOFREEZE with
/// autofreeze's core series) is frozen by the VFS on suspend and
/// hibernation, through freeze_super() as fsfreeze does, so its threads
/// need not freeze themselves.  In a kernel thread only (a function
/// that calls set_freezable(), or one passed to kthread_run(),
/// kthread_create() and friends or to a sunrpc svc pool):
/// set_freezable() and try_to_freeze() go, so do freezing(current)
/// tests, freezable sleeps become plain ones and TASK_FREEZABLE leaves
/// the thread's own sleeps.  A label left with no goto, and an unused
/// <linux/freezer.h> in a .c file, go too.  A thread with a use that
/// has no mechanical conversion (a non-NULL was_frozen, a
/// try_to_freeze() whose value is used) is left whole; freezer calls
/// in user context are never rewritten.
///
/// Whether a thread may stop freezing is a fact about the whole
/// filesystem and the tree: that its own freeze quiesces the thread,
/// that the same change flags the filesystem.  spatch sees one file,
/// so the rule edits only the units autofreeze's plan converts: named
/// with -D units=fs/xfs,... as make diff and make apply run it (with
/// -D kthread_fns= for threads started from another file, -D twins= and
/// -D unused_twins= for a filesystem's own freezable wait macros), or,
/// run with no -D in patch mode, asked of the autofreeze command (on
/// PATH, or AUTOFREEZE=), and then only the units that carry their flag
/// already: run fs_autofreeze.cocci first.  With neither it edits
/// nothing, and report mode names each use in a kernel thread of fs/,
/// for autofreeze's make report to judge.
//
// Confidence: High (edits only the units autofreeze's plan converts, with their flag)
// Copyright: (C) 2026 The autofreeze authors.
// URL: https://lwn.net/Articles/935602/
// Options: --no-includes --include-headers
// Requires: 1.1.0
// Keywords: freezer, kthread, FS_POWER_FREEZE, FS_AUTOFREEZE

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import os.path

# Where the rule acts: the units the helper's plan converts, -D
# units=fs/xfs,fs/ext4 ("driven"; a path named may also be a file), or
# by hand those the autofreeze command gives (ask_autofreeze).  Without
# them the rule cannot see the whole unit: whether it is eligible, the
# judgments, threads started from another file, the flag.  So it edits
# nothing, and report, context and org modes name only the uses in
# kernel threads of fs/.
unit_dirs = []
driven = []
patching = []
tops = {}
# Whether the file at hand is in scope (file_scope below, from its
# name: once a rule has changed it, positions name a temporary copy).
file_in_scope = []

def tree_path(path):
	"""PATH from the top of its kernel tree (the nearest directory above
	it with fs/super.c and include/linux/fs.h: make coccicheck M=dir
	runs spatch inside dir since 6.13), or as given where there is none."""
	start = d = os.path.dirname(os.path.abspath(path))
	while d not in tops:
		if (os.path.isfile(os.path.join(d, "fs", "super.c")) and
		    os.path.isfile(os.path.join(d, "include", "linux", "fs.h"))):
			tops[d] = d
		elif os.path.dirname(d) == d:
			tops[d] = None
		else:
			d = os.path.dirname(d)
	tops[start] = top = tops[d]
	if top is None:
		return os.path.normpath(path)
	return os.path.relpath(os.path.abspath(path), top)

def file_scope(path):
	"""Whether the rule acts on the file PATH at all."""
	path = tree_path(path)
	if driven:
		return any(path == u or path.startswith(u + "/")
			   for u in unit_dirs)
	return not patching and path.startswith("fs/")

def in_scope(p):
	return bool(file_in_scope)

# All state is per file, reset by forget_file below.  current_element
# is the function a position is in ("something_else" outside any).

# Thread functions of this file, and those named with -D kthread_fns.
kthreads = set()
named = set()
# Thread functions left alone, with the use that stops them.
blocked = {}
# Uses the patch converts, as (file, line, column), and the line spans
# of branches it removes whole.
convertible = set()
removed_branches = []
# (function, label) of the gotos in threads, before and after the patch.
labels_before = set()
labels_after = set()
freezer_h_noted = set()
mode = "org"

# The freezable macros -D twins names, and those of them -D unused_twins
# says the conversion leaves without a use.
twin_names = set()
twins_unused = set()

# Freezable sleeps and their plain counterparts.
PLAIN_SLEEP = {
	"freezable_schedule": "schedule",
	"freezable_schedule_unsafe": "schedule",
	"freezable_schedule_timeout": "schedule_timeout",
	"freezable_schedule_timeout_interruptible":
		"schedule_timeout_interruptible",
	"freezable_schedule_timeout_interruptible_unsafe":
		"schedule_timeout_interruptible",
	"freezable_schedule_timeout_killable": "schedule_timeout_killable",
	"freezable_schedule_timeout_killable_unsafe":
		"schedule_timeout_killable",
	"freezable_schedule_hrtimeout_range": "schedule_hrtimeout_range",
	"wait_event_freezable": "wait_event_interruptible",
	"wait_event_freezable_timeout": "wait_event_interruptible_timeout",
	"wait_event_freezable_exclusive": "wait_event_interruptible_exclusive",
}

def paren_aligned(p):
	"""A call whose continuation lines line up with its open paren: a
	rename must re-align them.  Read before any change to the file."""
	try:
		with open(p[0].file, errors="replace") as f:
			lines = f.read().split("\n")
		line = lines[int(p[0].line) - 1]
		nxt = lines[int(p[0].line)]
	except (OSError, IndexError):
		return False
	paren = line.find("(", int(p[0].column))
	if paren < 0 or line.count("(") <= line.count(")"):
		return False
	width = len(line[:paren + 1].expandtabs(8))
	indent = len(nxt) - len(nxt.lstrip(" \t"))
	return len(nxt[:indent].expandtabs(8)) == width

def is_thread(p):
	fn = p[0].current_element
	return (fn in kthreads or fn in named) and in_scope(p)

def in_kthread(p):
	"""A thread whose freezer uses all convert."""
	return is_thread(p) and p[0].current_element not in blocked

def where(p):
	return (p[0].file, int(p[0].line), int(p[0].column))

def note_convertible(p):
	convertible.add(where(p))

def note_removed_branch(q):
	removed_branches.append((q[0].file, int(q[0].line), int(q[0].line_end)))

def is_convertible(p):
	if where(p) in convertible:
		return True
	line = int(p[0].line)
	return any(f == p[0].file and a <= line <= b
		   for f, a, b in removed_branches)

def note_freezer_use(p, api):
	if is_thread(p) and not is_convertible(p):
		blocked.setdefault(p[0].current_element,
				   "%s at line %s" % (api, p[0].line))

def bare_above(q):
	"""No comment between the line that opens the block and Q's line:
	Coccinelle would drop a comment with the declaration it moves."""
	try:
		with open(q[0].file, errors="replace") as f:
			lines = f.read().split("\n")
	except OSError:
		return False
	i = int(q[0].line) - 2
	while i >= 0 and not lines[i].rstrip().endswith("{"):
		t = lines[i].strip()
		if t and not t.startswith("#"):
			return False
		i -= 1
	return i >= 0 and "/*" not in lines[i] and "//" not in lines[i]

def label_orphaned(p, label):
	k = (p[0].current_element, str(label))
	return k in labels_before and k not in labels_after

def freezer_h_alone(path):
	"""A file whose <linux/freezer.h> line Coccinelle removes cleanly
	by itself (freezer_h_state())."""
	return freezer_h_state(path)[0] == "removable"

def freezer_h_removable(path):
	"""The same, in a .c file: headers keep theirs (but see
	drop_freezer_h_twin)."""
	return path.endswith(".c") and freezer_h_alone(path)

def freezer_h_state(path):
	"""Where <linux/freezer.h> stands in PATH, and so how it can go:
	("removable", line) when it follows another #include line, or
	stands between blank lines after one: Coccinelle removes the line
	alone.  ("blank", line) when it follows a blank line that follows
	an #include "..." line, and precedes an #include: Coccinelle would
	take the blank line with it, so freezer_h_blank puts one back after
	that #include "..." (Coccinelle adds after the file's last one
	only: freezer_h_after_blank checks it is that one).  ("line N",
	N) when it goes only by hand: the first #include, where Coccinelle
	would take the comments above it (the file's header) along, or any
	other place.  ("absent", 0)."""
	try:
		with open(path, errors="replace") as f:
			lines = f.read().split("\n")
	except OSError:
		return ("absent", 0)
	seen_include = False
	for i, line in enumerate(lines):
		t = line.replace(" ", "").replace("\t", "")
		if t == "#include<linux/freezer.h>":
			prev = lines[i - 1].strip() if i else ""
			nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
			above = lines[i - 2].strip() if i > 1 else ""
			if seen_include and (prev.startswith("#include") or
					     (prev == "" and nxt == "")):
				return ("removable", i + 1)
			if (seen_include and prev == "" and
			    above.startswith('#include "') and
			    nxt.startswith("#include") and
			    last_local_include(lines) == i - 1):
				return ("blank", i + 1)
			return ("line %d" % (i + 1), i + 1)
		if t.startswith("#include"):
			seen_include = True
	return ("absent", 0)

def last_local_include(lines):
	"""The line number of the last #include "..." of LINES outside any
	#if, where Coccinelle adds what goes after an #include "...", or 0
	when there is none."""
	last = depth = 0
	for i, line in enumerate(lines):
		t = line.replace(" ", "").replace("\t", "")
		if t.startswith("#if"):
			depth += 1
		elif t.startswith("#endif"):
			depth -= 1
		elif t.startswith('#include"') and depth == 0:
			last = i + 1
	return last

def freezer_h_blank_anchor(p):
	"""P, the #include "..." Coccinelle adds after, is the line above
	the blank line above <linux/freezer.h>, in a .c file."""
	state, line = freezer_h_state(p[0].file)
	return (p[0].file.endswith(".c") and state == "blank" and
		int(p[0].line) == line - 2)

def say(p, msg):
	if mode == "report":
		coccilib.report.print_report(p[0], msg)
	else:
		coccilib.org.print_todo(p[0], msg)

def report_use(p, api):
	fn = p[0].current_element
	if not driven:
		if is_thread(p):
			say(p, "WARNING: %s in kernel thread %s(): whether the"
			    " filesystem's freeze can replace it, autofreeze's"
			    " make report tells" % (api, fn))
		return
	if is_convertible(p) and in_kthread(p):
		say(p, "%s in kernel thread %s(): convert, the VFS freezes the"
		    " filesystem" % (api, fn))
		note_freezer_h(p[0].file)
	elif is_thread(p):
		if fn in blocked and not is_convertible(p):
			say(p, "manual: %s in kernel thread %s() has no"
			    " mechanical conversion; the thread is left whole"
			    % (api, fn))
		else:
			say(p, "manual: %s in kernel thread %s() is kept with"
			    " its %s" % (api, fn, blocked[fn]))
	elif fn == "something_else":
		say(p, "kept: %s outside a function (macro or initializer)"
		    % api)
	elif api == "TASK_FREEZABLE_UNSAFE":
		say(p, "kept: %s in %s() is not the kthread freezer" % (api, fn))
	else:
		say(p, "kept: %s in %s(): not a kernel thread here"
		    " (-D kthread_fns=%s if it is one)" % (api, fn, fn))

def note_freezer_h(path):
	if path in freezer_h_noted or not path.endswith(".c"):
		return
	freezer_h_noted.add(path)
	state = freezer_h_state(path)[0]
	if state.startswith("line ") and mode == "report":
		print("%s:%s: manual: drop #include <linux/freezer.h> by hand"
		      " if the file no longer uses it" % (path, state[5:]))

# The -D values, each taken by one function: from its -D block below,
# or from ask_autofreeze().
def take_units(us):
	unit_dirs.extend(os.path.normpath(u.strip()) for u in us.split(",") if u.strip())
	driven[:] = [True]

def take_kthread_fns(fns):
	named.update(f.strip() for f in fns.split(",") if f.strip())

# A twin is the same wait as the freezable macro but for its
# try_to_freeze(): the helper checks that token for token ("autofreeze
# plan", twin lines).
def take_twins(tw):
	for pair in tw.split(","):
		old, _, new = pair.strip().partition(":")
		if old and new:
			PLAIN_SLEEP[old] = new
			twin_names.add(old)

# A twin the conversion leaves without a use in the whole unit: the
# helper says which ("autofreeze plan", unusedtwin lines), for only it
# sees every file; by hand, without the -D, no definition goes.  A name
# counts only if -D twins gives it too: never one of the kernel's own
# freezable sleeps.
def take_unused_twins(ut):
	twins_unused.update(n.strip() for n in ut.split(",") if n.strip())

# By hand, with no -D values (spatch as a user runs it, make
# coccicheck), patch mode: the values the plan of make diff gives this rule
# on the tree the --dir of spatch is in, from the autofreeze command
# ($AUTOFREEZE, else autofreeze on PATH; AUTOFREEZE=none: never asked),
# through "autofreeze by-hand RULE=" (scripts/by-hand.sh).  TAKE maps a
# value name to what takes it, as the -D blocks below do.  No answer,
# no edit.  Each rule stands alone, so each has this function, the same
# (t30 checks).
def ask_autofreeze(rule, take):
	import os, shutil, subprocess, sys
	def no_edits(why):
		sys.stderr.write("%s.cocci: no edits: %s\n" % (rule, why))
	try:
		with open("/proc/self/cmdline", "rb") as f:
			argv = f.read().decode(errors="replace").split("\0")
	except OSError:
		return
	pairs = list(zip(argv, argv[1:]))
	if ("-D", "patch") not in pairs:
		return
	dirs = [b for a, b in pairs if a == "--dir"]
	cmd = os.environ.get("AUTOFREEZE") or shutil.which("autofreeze")
	if cmd == "none":
		return
	if not cmd or not dirs:
		no_edits("they need autofreeze's plan: %s" %
			 ("give spatch --dir" if cmd else
			  "install autofreeze, or set AUTOFREEZE=.../bin/autofreeze"))
		return
	# where to find things and the judgments file, no more: make
	# coccicheck leaves the kernel make variables (SPATCH, M, O,
	# MAKEFLAGS...) in the environment, a user may have FORCE or KTREE
	env = dict((k, v) for k, v in os.environ.items()
		   if k in ("PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "USER",
			    "XDG_CACHE_HOME", "AUTOFREEZE_CACHE", "JUDGMENTS"))
	env["AUTOFREEZE"] = "none"
	try:
		r = subprocess.run([cmd, "by-hand", "RULE=" + rule,
				    "SPATCH_DIR=" + os.path.abspath(dirs[-1])],
				   env=env, stdin=subprocess.DEVNULL,
				   stdout=subprocess.PIPE, stderr=subprocess.PIPE,
				   universal_newlines=True)
	except OSError as e:
		no_edits("%s: %s" % (cmd, e.strerror))
		return
	if r.returncode:
		for line in r.stderr.splitlines() or ["%s failed" % cmd]:
			no_edits(line)
		return
	for line in r.stdout.splitlines():
		name, eq, value = line.partition("=")
		if eq and name in take:
			take[name](value)

@initialize:python@
us << virtual.units;
@@
take_units(us)

@initialize:python@
fns << virtual.kthread_fns;
@@
take_kthread_fns(fns)

@initialize:python@
tw << virtual.twins;
@@
take_twins(tw)

@initialize:python@
ut << virtual.unused_twins;
@@
take_unused_twins(ut)

@initialize:python@
@@
# last of the initializers: by hand, the values of the plan (ask_autofreeze)
if not driven:
	ask_autofreeze("kthread_freezer", {
		"units": take_units, "kthread_fns": take_kthread_fns,
		"twins": take_twins, "unused_twins": take_unused_twins})

// ---------------------------------------------------------------------
// The kthread freezer API this rule knows, spelled out: spatch's file
// prefilter needs the names (an identifier set gives it none), so every
// rule below depends on this one, and freezer_use takes its uses.
@freezer_token@
symbol set_freezable, try_to_freeze, freezing, current, __refrigerator,
	freezable_schedule, freezable_schedule_unsafe,
	freezable_schedule_timeout, freezable_schedule_timeout_interruptible,
	freezable_schedule_timeout_interruptible_unsafe,
	freezable_schedule_timeout_killable,
	freezable_schedule_timeout_killable_unsafe,
	freezable_schedule_hrtimeout_range, wait_event_freezable,
	wait_event_freezable_timeout, wait_event_freezable_exclusive,
	wait_event_freezekillable_unsafe, kthread_freezable_should_stop,
	kthread_wait_freezable, TASK_FREEZABLE, TASK_FREEZABLE_UNSAFE;
position t;
@@
(
set_freezable@t
|
try_to_freeze@t
|
freezing@t(...)
|
__refrigerator@t
|
freezable_schedule@t
|
freezable_schedule_unsafe@t
|
freezable_schedule_timeout@t
|
freezable_schedule_timeout_interruptible@t
|
freezable_schedule_timeout_interruptible_unsafe@t
|
freezable_schedule_timeout_killable@t
|
freezable_schedule_timeout_killable_unsafe@t
|
freezable_schedule_hrtimeout_range@t
|
wait_event_freezable@t
|
wait_event_freezable_timeout@t
|
wait_event_freezable_exclusive@t
|
wait_event_freezekillable_unsafe@t
|
kthread_freezable_should_stop@t
|
kthread_wait_freezable@t
|
TASK_FREEZABLE@t
|
TASK_FREEZABLE_UNSAFE@t
)

@script:python depends on patch && freezer_token@
@@
patching[:] = [True]

// Runs first on each file (once per use, the same each time): every
// fact above is a per-file fact.
@script:python forget_file@
p << freezer_token.t;
@@
file_in_scope[:] = [True] if file_scope(p[0].file) else []
kthreads.clear()
blocked.clear()
convertible.clear()
del removed_branches[:]
labels_before.clear()
labels_after.clear()
freezer_h_noted.clear()

@script:python depends on report && freezer_token@
@@
mode = "report"

// ---------------------------------------------------------------------
// Which functions are kernel threads: those calling set_freezable(), and
// those the helper's thread starters start (api.c, "autofreeze apis
// --starters"; t30 checks).

@calls_set_freezable depends on freezer_token@
position p;
@@
set_freezable@p();

@script:python@
p << calls_set_freezable.p;
@@
kthreads.add(p[0].current_element)

@started_as_kthread depends on freezer_token@
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
kthreads.add(str(fn))

// ---------------------------------------------------------------------
// Which uses the patch converts: the forms of the patch rules below.
// A thread with any other use is left whole.

// q spans the branch removed with the test.
@convertible_stmt depends on freezer_token@
position p : script:python() { is_thread(p) };
position q;
identifier cur =~ "^current$";
statement S1, S2;
@@
(
if (freezing@p(cur)) S1@q else S2
|
if (freezing@p(cur)) S1@q
|
if (unlikely(freezing@p(cur))) S1@q
|
if (likely(freezing@p(cur))) S1@q
|
if (try_to_freeze@p()) S1@q
)

@script:python@
p << convertible_stmt.p;
q << convertible_stmt.q;
@@
note_convertible(p)
note_removed_branch(q)

@convertible_expr depends on freezer_token@
position p : script:python() { is_thread(p) };
identifier sleep : script:python() { sleep in PLAIN_SLEEP };
expression E;
@@
(
set_freezable@p();
|
try_to_freeze@p();
|
sleep@p(...)
|
kthread_freezable_should_stop@p(NULL)
|
E || freezing@p(current)
|
freezing@p(current) || E
|
E && !freezing@p(current)
|
!freezing@p(current) && E
|
E | TASK_FREEZABLE@p
|
TASK_FREEZABLE@p | E
)

@script:python@
p << convertible_expr.p;
@@
note_convertible(p)

// Each use of the kthread freezer API this rule knows (freezer_token's
// names, each in the helper's api.c, "autofreeze apis"; t30 checks):
// every later rule on the uses inherits I and p from here.
@freezer_use depends on freezer_token@
identifier I;
position freezer_token.t;
position p;
@@
I@t@p

@script:python@
p << freezer_use.p;
I << freezer_use.I;
@@
note_freezer_use(p, I)

// ---------------------------------------------------------------------
// patch: labels the threads jump to now; one whose last goto goes with
// a freezer test (jffs2: if (try_to_freeze()) goto again;) goes too.

@goto_before depends on patch && freezer_token@
identifier L;
position p : script:python() { in_kthread(p) };
@@
goto@p L;

@script:python@
L << goto_before.L;
p << goto_before.p;
@@
labels_before.add((p[0].current_element, str(L)))

// Where <linux/freezer.h> can go by itself (freezer_h_state()): in a
// .c file.  Headers keep theirs, other files may lean on it; all but
// the one that loses an unused twin's definition (drop_freezer_h_twin),
// which the include was there for.
@freezer_h_removable depends on patch && freezer_token@
identifier freezer_use.I;
position freezer_use.p : script:python() { freezer_h_removable(p[0].file) };
@@
I@p

@freezer_h_alone depends on patch && freezer_token@
identifier freezer_use.I;
position freezer_use.p : script:python() { freezer_h_alone(p[0].file) };
@@
I@p

// <linux/freezer.h> after a blank line, under the file's last
// #include "...": the blank line goes with it, and comes back after
// that #include (freezer_h_blank).  Coccinelle binds p once, on the
// #include "..." it adds after.
@freezer_h_after_blank depends on patch && freezer_token@
position p : script:python() { freezer_h_blank_anchor(p) };
@@
#include "..."@p

// ---------------------------------------------------------------------
// Freezable sleeps become plain ones.  These rules come first: whether
// the arguments line up with the paren is read from the unchanged file.

@freezable_sleep_aligned depends on patch && freezer_token@
identifier old : script:python() { old in PLAIN_SLEEP };
position p : script:python() { in_kthread(p) and paren_aligned(p) };
fresh identifier new = script:python(old) { PLAIN_SLEEP[old] };
expression list es;
@@
- old@p(es)
+ new(es)

@freezable_sleep depends on patch && freezer_token@
identifier old : script:python() { old in PLAIN_SLEEP };
position p : script:python() { in_kthread(p) };
fresh identifier new = script:python(old) { PLAIN_SLEEP[old] };
@@
- old@p
+ new
  (...)

// ---------------------------------------------------------------------
// if (freezing(current)) A else B  ->  B

// B opens with declarations (and no comment): they move to the top of
// the function and B loses its braces, as a maintainer would write it.  A declaration
// with an initializer leaves an assignment where it was, so that it is
// set again on every pass of the thread's loop.  A wait queue entry
// declared once serves every pass: add/remove and prepare/finish leave
// it as they found it.

// a declarer macro: DECLARE_WAITQUEUE(wq, current);
@freezing_else_hoist_declarer depends on patch && freezer_token exists@
position p : script:python() { in_kthread(p) };
position q : script:python() { bare_above(q) };
identifier fn;
statement S1;
declarer d;
expression list es;
@@
fn(...) {
+ d(es);
  ... when any
- if@p (freezing(current)) S1 else {
- d@q(es);
  ...
- }
  ... when any
}

// a macro Coccinelle reads as a call, then one initialized variable:
// DEFINE_WAIT(wait); int should_sleep = 1;
@freezing_else_hoist_macro_init depends on patch && freezer_token exists@
position p : script:python() { in_kthread(p) };
position q : script:python() { bare_above(q) };
identifier fn, mac, x;
statement S1;
expression list es;
type T;
expression E;
@@
fn(...) {
+ mac(es);
+ T x;
  ... when any
- if@p (freezing(current)) S1 else {
- mac@q(es);
- T x = E;
+ x = E;
  ...
- }
  ... when any
}

// Anything else B declares: keep it a block.
@freezing_else_declares depends on patch && freezer_token@
position p : script:python() { in_kthread(p) };
statement S1;
declaration D;
@@
- if@p (freezing(current)) S1 else
  {
  ... when any
  D
  ... when any
  }

@freezing_else_block depends on patch && freezer_token@
position p : script:python() { in_kthread(p) };
statement S1;
statement list SL;
@@
- if@p (freezing(current)) S1 else {
  SL
- }

@freezing_else depends on patch && freezer_token@
position p : script:python() { in_kthread(p) };
statement S1, S2;
@@
- if@p (freezing(current)) S1 else
  S2

// if (freezing(current)) A  ->  nothing
@freezing_if depends on patch && freezer_token@
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
@freezing_term depends on patch && freezer_token@
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

// A block that try_to_freeze() leaves with one statement loses its
// braces, as kernel style has it (7.3's xfs_zoned_gcd():
// "if (...) { try_to_freeze(); continue; }").  Only where that
// statement is one line, right after the call: S is printed anew, and
// a comment between them would be lost.
@freeze_point_alone depends on patch && freezer_token@
position p : script:python() { in_kthread(p) };
position ps;
expression E;
statement S;
@@
if (E) {
try_to_freeze@p();
S@ps
}

@script:python depends on patch@
p << freeze_point_alone.p;
ps << freeze_point_alone.ps;
@@
if int(ps[0].line) != int(p[0].line) + 1 or ps[0].line != ps[0].line_end:
	cocci.include_match(False)

@freeze_point_braces depends on patch && freezer_token@
position freeze_point_alone.p, freeze_point_alone.ps;
expression E;
statement S;
@@
- if (E) {
- try_to_freeze@p();
- S@ps
- }
+ if (E)
+	S

@freeze_points depends on patch && freezer_token@
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

@freezable_should_stop depends on patch && freezer_token@
position p : script:python() { in_kthread(p) };
@@
- kthread_freezable_should_stop@p(NULL)
+ kthread_should_stop()

@task_freezable depends on patch && freezer_token@
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
// Labels left without a goto.

@goto_after depends on patch && freezer_token@
identifier L;
position p : script:python() { in_kthread(p) };
@@
goto@p L;

@script:python@
L << goto_after.L;
p << goto_after.p;
@@
labels_after.add((p[0].current_element, str(L)))

@unused_label depends on patch && freezer_token@
identifier L;
position p : script:python(L) { label_orphaned(p, L) };
@@
- L@p:

// ---------------------------------------------------------------------
// A freezable twin that the conversion leaves without a use (-D
// unused_twins, from the helper) loses its definition.  Before
// still_uses_freezer: the try_to_freeze() of its body goes with it.
// A wait macro is an expression; a do { } while (0) body is left.

@drop_unused_twin depends on patch && freezer_token@
identifier F : script:python() { bool(driven) and F in twins_unused and F in twin_names };
identifier list ps;
expression E;
@@
- #define F(ps) E

// ---------------------------------------------------------------------
// A .c file with no freezer use left needs no <linux/freezer.h>.

// Everything <linux/freezer.h> declares, not only the API above.  The
// functions and function-like macros count only as calls: a variable
// or field of the same name (gfs2's "bool frozen") is not a use.
@still_uses_freezer depends on patch && freezer_token@
identifier F = {set_freezable, try_to_freeze, freezing, frozen,
		freezing_slow_path, __refrigerator, freeze_task,
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
identifier V = {freezer_active, pm_freezing, pm_nosig_freezing};
@@
(
F(...)
|
V
)

@drop_freezer_h depends on patch && !still_uses_freezer &&
	(freezer_h_removable || freezer_h_after_blank) &&
	(freezing_else_hoist_declarer || freezing_else_hoist_macro_init ||
	 freezing_else_declares || freezing_else_block || freezing_else ||
	 freezing_if || freezing_term || freeze_points ||
	 freezable_sleep_aligned || freezable_sleep)@
@@
- #include <linux/freezer.h>

// The file that defined the unused twin, header or .c: that use of the
// freezer is gone from the unit, and nothing else in the file needs it.
@drop_freezer_h_twin depends on patch && drop_unused_twin &&
	!drop_freezer_h && !still_uses_freezer &&
	(freezer_h_alone || freezer_h_after_blank)@
@@
- #include <linux/freezer.h>

@freezer_h_blank depends on patch && freezer_h_after_blank &&
	(drop_freezer_h || drop_freezer_h_twin)@
position p : script:python() { freezer_h_blank_anchor(p) };
@@
  #include "..."@p
+

// ---------------------------------------------------------------------
// context: the lines the patch changes; report and org: every use,
// converted, kept (and why) or manual.

@depends on context && freezer_token@
identifier freezer_use.I;
position freezer_use.p : script:python() { in_kthread(p) and is_convertible(p) };
@@
* I@p

@script:python depends on report || org@
p << freezer_use.p;
I << freezer_use.I;
@@
report_use(p, I)
