// SPDX-License-Identifier: GPL-2.0-only
/// Let the VFS freeze a filesystem on suspend: add the opt-in flag,
/// FS_AUTOFREEZE (our core series) or, on mainline, FS_POWER_FREEZE:
///   -D flag=FS_POWER_FREEZE
/// (default FS_AUTOFREEZE); use the one the tree's suspend freeze tests.
///
/// Only for a filesystem whose kthread freezer calls are gone, that is
/// block-device backed (FS_REQUIRES_DEV) and whose super_operations
/// provide freeze_fs or freeze_super. Which file_system_types qualify
/// is decided from the whole filesystem, so they are named:
///   -D fs_types=xfs_fs_type,ext4_fs_type
/// Without the list, report mode names the FS_REQUIRES_DEV types that
/// lack the flag, as candidates to check.
//
// Confidence: High
// Copyright: (C) 2026 The autofreeze authors.
// URL: https://lwn.net/Articles/935602/
// Options: --no-includes --include-headers
// Keywords: freezer, FS_AUTOFREEZE, FS_POWER_FREEZE, file_system_type

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
wanted = set()
with_flags = {}
flag_name = "FS_AUTOFREEZE"

def named(t):
	return str(t) in wanted

@initialize:python@
names << virtual.fs_types;
@@
wanted.update(n.strip() for n in names.split(",") if n.strip())

@initialize:python@
f << virtual.flag;
@@
flag_name = f.strip() or flag_name

// The flag, as an identifier the rules below can add.
@script:python opt_in@
flag;
@@
coccinelle.flag = cocci.make_ident(flag_name)

// Types that have a .fs_flags initializer, and whether it has the flag.
@flags_field@
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
with_flags[str(t)] = flag_name in E

// "| flag" after E, not E replaced: E keeps its own line breaks.
@add_to_flags depends on patch@
identifier opt_in.flag;
identifier t : script:python() { named(t) and not with_flags.get(t, True) };
expression E;
@@
struct file_system_type t = {
	.fs_flags = E
+	| flag
	,
};

@add_flags_field depends on patch@
identifier opt_in.flag;
identifier t : script:python() { named(t) and t not in with_flags };
@@
struct file_system_type t = {
	...,
+	.fs_flags = flag,
};

// report, context and org

@autofreeze_candidate depends on !patch@
identifier t;
expression E;
position p;
@@
struct file_system_type t@p = {
	.fs_flags = E,
};

@script:python depends on report@
t << autofreeze_candidate.t;
E << autofreeze_candidate.E;
p << autofreeze_candidate.p;
@@
if flag_name in E:
	pass
elif named(t):
	coccilib.report.print_report(p[0], "%s: add %s" % (t, flag_name))
elif not wanted and "FS_REQUIRES_DEV" in E:
	coccilib.report.print_report(p[0],
		"%s: %s candidate once its kthread freezer calls are gone" % (t, flag_name))
