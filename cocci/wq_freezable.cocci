// SPDX-License-Identifier: GPL-2.0-only
/// Stop making a filesystem's workqueues and kthread workers freezable.
///
/// Work items of a filesystem whose type carries the opt-in flag its
/// tree's suspend freeze tests (FS_POWER_FREEZE on mainline,
/// FS_AUTOFREEZE with autofreeze's core series) are quiesced by the VFS
/// freeze on suspend where the filesystem's freeze waits them out, so
/// those workqueues need not be frozen with the tasks.  WQ_FREEZABLE
/// leaves the flags it is in (WQ_FREEZABLE alone becomes 0), as does
/// KTW_FREEZABLE; create_freezable_workqueue() becomes the ordered
/// workqueue it was without the flag, and the system freezable
/// workqueues become their plain counterparts.  Uses inside macro
/// definitions are never changed.
///
/// Which workqueues a filesystem's freeze quiesces is a reviewed
/// judgment about the whole filesystem (btrfs' discard workqueue, for
/// one, keeps freezing), and the unit is converted only with its flag.
/// So the rule edits only the units autofreeze's plan converts, keeping
/// the uses its judgments keep: named with -D units=fs/xfs,... and -D
/// keep_at=FILE:LINE,... as make diff and make apply run it, or, run
/// with no -D in patch mode, asked of the autofreeze command (on PATH,
/// or AUTOFREEZE=), and then only the units that carry their flag
/// already: run fs_autofreeze.cocci first.  With neither it edits
/// nothing, and report mode names each use in a function of fs/, for
/// autofreeze's make report to judge.
//
// Confidence: High (edits only the units autofreeze's plan converts, with their flag)
// Copyright: (C) 2026 The autofreeze authors.
// URL: https://lwn.net/Articles/935602/
// Options: --no-includes --include-headers
// Requires: 1.1.0
// Keywords: freezer, workqueue, WQ_FREEZABLE, FS_POWER_FREEZE, FS_AUTOFREEZE

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import os.path

# Uses that keep their flag, as (file, line), from -D keep_at; a path
# is relative to where spatch runs ("./fs/a.c" is "fs/a.c") or to the
# tree's top (make coccicheck M=dir runs spatch inside dir).
kept_at = set()
kept_lines = set()

# Where the rule acts: the units the helper's plan converts, -D
# units=fs/xfs,fs/ext4 ("driven"; a path named may also be a file), or
# by hand those the autofreeze command gives (ask_autofreeze).
# Without them the rule cannot know which
# workqueues the filesystem's freeze quiesces (the reviewed judgments)
# nor whether the unit gets its flag: it edits nothing, and report,
# context and org modes name only the uses in functions of fs/.
unit_dirs = []
driven = []
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
	"""Whether the rule acts on the file PATH (edits it: only driven)."""
	path = tree_path(path)
	if driven:
		return any(path == u or path.startswith(u + "/")
			   for u in unit_dirs)
	return path.startswith("fs/")

def in_scope(p):
	return bool(file_in_scope)

# Positions outside any function are macro bodies or file-scope
# initializers; Coccinelle names their element "something_else".
def in_function(p):
	return p[0].current_element != "something_else"

def is_kept(p):
	"""P is on a line -D keep_at names, by its text (kept_lines), which
	no rule changes: once a rule has changed a file, spatch may name a
	reparsed copy of it in later positions, its lines moved.  The same
	text on another line of the file keeps that one too."""
	line = read_line(p[0].file, int(p[0].line))
	return line is not None and line.strip() in kept_lines

def read_line(path, n):
	try:
		with open(path, errors="replace") as f:
			lines = f.read().split("\n")
	except OSError:
		return None
	return lines[n - 1] if 0 < n <= len(lines) else None

def note_file(path):
	"""The file at hand, by its own name (the first use's position,
	before any change): whether the rule acts on it, and the text of
	its lines -D keep_at names."""
	file_in_scope[:] = [True] if file_scope(path) else []
	names = (os.path.normpath(path), tree_path(path))
	kept_lines.clear()
	for f, n in kept_at:
		if f in names:
			line = read_line(path, n)
			if line is not None:
				kept_lines.add(line.strip())

def convertible(p):
	return bool(driven) and in_scope(p) and in_function(p) and not is_kept(p)

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

# The -D values, each taken by one function: from its -D block below,
# or from ask_autofreeze().
def take_units(us):
	unit_dirs.extend(os.path.normpath(u.strip()) for u in us.split(",") if u.strip())
	driven[:] = [True]

def take_keep_at(at):
	for a in at.split(","):
		f, _, line = a.strip().rpartition(":")
		if f and line.isdigit():
			kept_at.add((os.path.normpath(f), int(line)))

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
at << virtual.keep_at;
@@
take_keep_at(at)

@initialize:python@
@@
# last of the initializers: by hand, the values of the plan (ask_autofreeze)
if not driven:
	ask_autofreeze("wq_freezable",
		       {"units": take_units, "keep_at": take_keep_at})

// The freezable workqueue API this rule knows, spelled out: spatch's
// file prefilter needs the names (an identifier set gives it none), so
// every rule below depends on this one.
@wq_token@
symbol WQ_FREEZABLE, KTW_FREEZABLE, create_freezable_workqueue,
	system_freezable_wq, system_freezable_power_efficient_wq;
position t;
@@
(
WQ_FREEZABLE@t
|
KTW_FREEZABLE@t
|
create_freezable_workqueue@t(...)
|
system_freezable_wq@t
|
system_freezable_power_efficient_wq@t
)

// Runs first on each file (once per use, the same each time).
@script:python wq_file@
p << wq_token.t;
@@
note_file(p[0].file)

// Flags split over two lines that fit on one once WQ_FREEZABLE is gone
// are joined (xfs_log.c).
@wq_flag_join depends on patch && wq_token@
position p : script:python() { convertible(p) and joins(p) };
expression E1, E2;
@@
- WQ_FREEZABLE@p | E1 | E2
+ E1 | E2

@wq_flag depends on patch && wq_token@
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

@ktw_flag depends on patch && wq_token@
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

@freezable_wq depends on patch && wq_token@
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

@freezable_use depends on !patch && wq_token@
identifier I;
position wq_token.t;
position p : script:python() { in_scope(p) };
@@
* I@t@p

@script:python depends on report@
p << freezable_use.p;
@@
if not driven:
	if in_function(p):
		coccilib.report.print_report(p[0], "WARNING: freezable"
			" workqueue or worker in %s(): whether the filesystem's"
			" freeze quiesces its work, autofreeze's make report tells"
			% p[0].current_element)
elif is_kept(p):
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
