// SPDX-License-Identifier: GPL-2.0-only
/// Let the VFS freeze a filesystem on suspend and hibernation: add the
/// opt-in flag its suspend freeze tests, FS_POWER_FREEZE on mainline
/// (FS_AUTOFREEZE with autofreeze's core series on 6.1 and 6.12), to
/// the file_system_types named:
///   -D fs_types=xfs_fs_type,fs/ext4:ext4_fs_type -D flag=FS_POWER_FREEZE
///
/// A type qualifies once its filesystem's kernel threads and workqueues
/// no longer freeze themselves, and only where its freeze quiesces
/// them: a fact about the whole filesystem and the tree's suspend
/// freeze, which autofreeze's helper decides: make diff gives both -D,
/// with the conversion they belong to; run with no -D in patch mode,
/// the rule asks the autofreeze command (on PATH, or AUTOFREEZE=) for
/// the types make diff flags, as UNIT:TYPE.  By hand this rule goes
/// first: the removal rules convert only a unit that carries its flag.
/// Without either the rule adds nothing and reports nothing.
//
// Confidence: High (flags only what autofreeze's plan flags; without it, nothing)
// Copyright: (C) 2026 The autofreeze authors.
// URL: https://lwn.net/Articles/935602/
// Options: --no-includes --include-headers
// Requires: 1.1.0
// Keywords: freezer, FS_POWER_FREEZE, FS_AUTOFREEZE, file_system_type

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import os.path

# The types to flag: a bare name wherever it is (the helper's runs, one
# unit at a time), UNIT:NAME only in a file of UNIT (by hand over many
# units: ext4 has an ext2_fs_type too); those of the file at hand.
wanted = set()
wanted_in = set()
here = set()
with_flags = {}
# The tree's flag: no default, a flag the tree lacks would not compile.
flag_name = []
# -D fs_types or flag given: the helper's run, or a user's own values
given = []
tops = {}

def named(t):
	return bool(flag_name) and str(t) in here

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

def note_file(path):
	"""The types to flag in the file at hand, by its own name."""
	path = tree_path(path)
	here.clear()
	here.update(wanted)
	with_flags.clear()
	here.update(n for u, n in wanted_in if path.startswith(u + "/"))

# The -D values, each taken by one function: from its -D block below,
# or from ask_autofreeze().
def take_fs_types(names):
	for n in names.split(","):
		u, _, n = n.strip().rpartition(":")
		if n and u:
			wanted_in.add((os.path.normpath(u), n))
		elif n:
			wanted.add(n)

def take_flag(f):
	if f.strip():
		flag_name[:] = [f.strip()]

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
names << virtual.fs_types;
@@
take_fs_types(names)
given.append(True)

@initialize:python@
f << virtual.flag;
@@
take_flag(f)
given.append(True)

@initialize:python@
@@
# last of the initializers: by hand, the values of the plan (ask_autofreeze)
if not given:
	ask_autofreeze("fs_autofreeze",
		       {"fs_types": take_fs_types, "flag": take_flag})

// A file with no file_system_type has nothing for this rule: every
// rule below depends on this one (spatch's keyword prefilter).
@fs_type_token@
identifier t;
position p;
@@
struct file_system_type t@p = { ... };

// Runs first on each file, before any change (positions may name a
// temporary copy after one).
@script:python fs_file@
p << fs_type_token.p;
@@
note_file(p[0].file)

// The flag, as an identifier the rules below can add.
@script:python opt_in depends on fs_type_token@
flag;
@@
coccinelle.flag = cocci.make_ident(flag_name[0] if flag_name else "FS_POWER_FREEZE")

// Types that have a .fs_flags initializer, and whether it has the flag.
@flags_field depends on fs_type_token@
identifier t;
expression E;
@@
struct file_system_type t = {
	.fs_flags = E,
};

@script:python@
t << flags_field.t;
E << flags_field.E;
@@
with_flags[str(t)] = bool(flag_name) and flag_name[0] in E

// "| flag" after E, not E replaced: E keeps its own line breaks.
@add_to_flags depends on patch && fs_type_token@
identifier opt_in.flag;
identifier t : script:python() { named(t) and not with_flags.get(t, True) };
expression E;
@@
struct file_system_type t = {
	.fs_flags = E
+	| flag
	,
};

@add_flags_field depends on patch && fs_type_token@
identifier opt_in.flag;
identifier t : script:python() { named(t) and t not in with_flags };
@@
struct file_system_type t = {
	...,
+	.fs_flags = flag,
};

// report, context and org

@flag_wanted depends on !patch && fs_type_token@
identifier t;
expression E;
position p;
@@
struct file_system_type t@p = {
	.fs_flags = E,
};

@script:python depends on report@
t << flag_wanted.t;
E << flag_wanted.E;
p << flag_wanted.p;
@@
if named(t) and flag_name[0] not in E:
	coccilib.report.print_report(p[0], "%s: add %s" % (t, flag_name[0]))
