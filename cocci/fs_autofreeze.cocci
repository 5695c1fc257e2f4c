// SPDX-License-Identifier: GPL-2.0-only
/// Let the VFS freeze a filesystem on suspend and hibernation: add the
/// opt-in flag its suspend freeze tests, FS_POWER_FREEZE on mainline
/// (FS_AUTOFREEZE with autofreeze's core series on 6.1 and 6.12), to
/// the file_system_types named:
///   -D fs_types=xfs_fs_type,ext4_fs_type -D flag=FS_POWER_FREEZE
///
/// A type qualifies once its filesystem's kernel threads and workqueues
/// no longer freeze themselves, and only where its freeze quiesces
/// them: a fact about the whole filesystem and the tree's suspend
/// freeze, which autofreeze's helper decides ("make diff" gives both
/// -D, with the conversion they belong to).  Without them the rule
/// adds nothing and reports nothing.
//
// Confidence: High (with the helper's -D fs_types and flag; without them it does nothing)
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
wanted = set()
with_flags = {}
# The tree's flag: no default, a flag the tree lacks would not compile.
flag_name = []

def named(t):
	return bool(flag_name) and str(t) in wanted

@initialize:python@
names << virtual.fs_types;
@@
wanted.update(n.strip() for n in names.split(",") if n.strip())

@initialize:python@
f << virtual.flag;
@@
if f.strip():
	flag_name[:] = [f.strip()]

// A file with no file_system_type has nothing for this rule: every
// rule below depends on this one (spatch's keyword prefilter).
@fs_type_token@
identifier t;
@@
struct file_system_type t = { ... };

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
