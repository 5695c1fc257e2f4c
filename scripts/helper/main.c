// SPDX-License-Identifier: GPL-2.0
/*
 * autofreeze - the C helper of the autofreeze toolkit: it reads a kernel
 * tree fast and knows C lexically.  Built by "make helper" into
 * scripts/autofreeze; libc and pthreads only.
 *
 * Usage:
 *
 * autofreeze scan [--json] [-j N] PATH...
 *	Every freezer API use in PATH (files, or directories searched for
 *	*.c and *.h), in real code: not in comments, string or character
 *	literals.  One line per use, sorted by file, line, column:
 *
 *	  FILE:LINE:COL: API CONTEXT FUNCTION
 *
 *	FILE as reached from PATH; LINE and COL 1-based, COL in bytes (a
 *	tab is one); API one of the names in api.c; FUNCTION the enclosing
 *	function or "-"; CONTEXT one of
 *	  kthread  in a thread function of the unit (it calls
 *		   set_freezable(), or is started with kthread_run() and
 *		   friends or as a sunrpc svc thread anywhere in the unit,
 *		   or through a function of the unit that hands it on to
 *		   one of those) or in a function only those call
 *		   (callgraph.c; in a kernel tree, whose units are read
 *		   whole), and every
 *		   workqueue/worker name (WQ_FREEZABLE, ...) outside
 *		   #define;
 *	  user     in any other function;
 *	  macro    in a preprocessor line (a #define body);
 *	  unknown  at file scope (an initializer, a declaration).
 *	A call-like name (try_to_freeze, frozen, ...) is a use only when
 *	followed by "(", and no name is a use as a struct member (after
 *	"." or "->").  Code under #if 0 is code.
 *	--json prints an array of {"file", "line", "col", "api",
 *	"context", "function"} objects, function null for "-".
 *	-j N: N threads (default: the number of CPUs).
 *
 *	units and plan apply the reviewed judgments of --judgments FILE
 *	(default: policy/judgments.tsv beside the helper) that hold in the
 *	tree, whatever its version: those whose anchors and cited places
 *	are in its code (judgments.h, anchor.h).  A judged unit is "not
 *	eligible: CODE: EVIDENCE", a judged file_system_type is never
 *	flagged, a judged use keeps its freezer, and a use the conversion
 *	would take off the freezer needs a quiesced judgment; one that
 *	lapsed makes what it decided unreviewed.
 *
 * autofreeze units [--json] [--force] [--judgments FILE] [-j N] KTREE DIR
 *	The units of DIR (relative to KTREE: fs, fs/xfs, fs/smb, ...):
 *	directories with a Makefile with obj- lines and C files of their
 *	own; fs/smb-style parents are expanded to their children; the files
 *	at the top of fs/ are "fs (core)", kept.  A DIR inside a unit
 *	means that unit.  Text output, one unit per line then indented
 *	details:
 *
 *	  UNIT: REASON
 *	  <TAB>status: eligible|skip|library|unreviewed|core[, converted
 *		  with --force]
 *	  <TAB>uses: N (kthread N, user N, macro N, unknown N)
 *	  <TAB>fstype: NAME "fsname" FILE:LINE fs_flags: EXPR|-
 *		  [[FS_REQUIRES_DEV]] s_op: S,...|?(S,...)|- [[freeze-capable]]
 *	  <TAB>s_op: NAME FILE:LINE [.freeze_fs] [.freeze_super]
 *	  <TAB>kthread: FUNCTION...
 *	  <TAB>config: CONFIG_SYMBOL...		(libraries)
 *	  <TAB>users: UNIT (freeze-capable|not freeze-capable)... | -
 *						(libraries)
 *
 *	(one fstype line each, [[...]] printed as [...] when it applies;
 *	"fs (core)" for the files at the top of fs/).
 *	REASON is one line: "eligible: T is FS_REQUIRES_DEV and S has
 *	.freeze_fs", "not block-backed: no FS_REQUIRES_DEV
 *	file_system_type", "not freeze-capable: no .freeze_fs/.freeze_super
 *	(T: S)", "library: no file_system_type, used by U (eligible), ...",
 *	"not eligible: CODE: EVIDENCE" (a judgment), "unreviewed: CODE
 *	(FILE:LINE) no longer holds: WHY" (a judgment that held the unit
 *	back has lapsed) or, for fs (core),
 *	"the files at the top of fs/ are the VFS, ...".
 *	"s_op: ?(...)" means the type's super_operations could
 *	not be traced (from the type's initializer through the unit's
 *	functions to "sb->s_op = &S;"): the unit's are used as a whole.
 *	--json prints an array of objects with the same content (see
 *	output.c).  --force marks skip and library units as converted.
 *
 * autofreeze plan [--force] [--judgments FILE] [-j N] KTREE DIR
 *	For the drivers: tab-separated lines, "option force" first with
 *	--force, then in unit order, each unit's lines in this order, each
 *	kind sorted:
 *
 *	  unit	UNIT	eligible|skip|library|unreviewed	REASON
 *	  flagstate	UNIT	NAME	PATH	LINE:COL	STATE	WHY
 *	  file	UNIT	PATH		(relative to KTREE)
 *	  note	UNIT	CODE: EVIDENCE
 *	  keep	UNIT	PATH	LINE:COL	CODE: EVIDENCE
 *	  quiesced	UNIT	PATH	LINE:COL	quiesced: EVIDENCE
 *	  unreviewed	UNIT	PATH	LINE:COL	unreviewed: WHY
 *	  nofreeze	UNIT	PATH	LINE:COL	FUNCTION
 *	  kthread	UNIT	FUNCTION[	CALLER]
 *	  twin	UNIT	FROM	TO
 *	  unusedtwin	UNIT	FROM
 *	  fstype	UNIT	NAME	PATH
 *
 *	flagstate lines (flagstate.c:unit_flag_state()), for every unit: each
 *	file_system_type that carries the tree's opt-in flag or that the
 *	conversion flags, where its flag is (else its .fs_flags, else its
 *	line), and STATE: set (it carries it, rightly), missing (it gets
 *	it, not yet), misplaced (it carries it, and WHY it should not) or
 *	judged (a reviewed judgment accepts it: WHY is CODE: EVIDENCE);
 *	WHY "-" otherwise.
 *	keep lines: the uses a judgment keeps freezable (the rules are
 *	told, and the report gives the evidence); quiesced lines: the
 *	uses whose work, a judgment says, the unit's freeze quiesces
 *	(the report gives that evidence for the conversion); unreviewed
 *	lines: the uses in kernel-thread context that no judgment holding
 *	here covers, and what is missing (the flags leave the unit
 *	whole); the keep, quiesced, unreviewed and nofreeze lines come
 *	use by use.  note lines: the unit's note judgments that hold
 *	here, caveats of its conversion (the report prints each as
 *	"note: EVIDENCE" under the unit, JSON "notes").  nofreeze lines
 *	(analyze.c:freezer_use_dead()): the task freezer uses in
 *	FUNCTION, a kernel thread that never becomes freezable (it is
 *	started as one, and neither it nor a function of the unit it
 *	calls calls set_freezable()): dead code, which the report says
 *	of their conversion.  kthread lines: the
 *	thread functions, and with CALLER (a caller it is reached from)
 *	the functions only they reach.  twin lines: a freezable macro of
 *	the unit and its plain twin (twins.c:find_twins()), which the
 *	rules rename it to in kernel threads.  unusedtwin lines: a twin
 *	FROM of a twin line that the conversion leaves with no use
 *	(twins.c:twin_left_unused(): every use of it is in one of the
 *	unit's threads; never with --force), so that its definition goes
 *	(kthread_freezer.cocci's -D unused_twins), and the report calls
 *	the uses in that definition converted.
 *	file and kthread lines are given for the units to convert: the
 *	eligible ones, and with --force the skip and library ones too;
 *	fstype lines (the freeze-capable file_system_types, to flag) for
 *	eligible units only.  fs (core) is "unit fs skip kept: ...", and
 *	is never converted.  file lines: the unit's files with a freezer
 *	use in real code, or defining a file_system_type to flag.
 *
 * autofreeze judgments [--judgments FILE] [-j N] KTREE DIR
 *	Each judgment on a unit of DIR, in the file's order, and whether
 *	it holds in KTREE:
 *
 *	  FILE:LINE: UNIT: CODE[ on NAME[()][ (MATCH)]]: holds: EVIDENCE
 *	  FILE:LINE: UNIT: CODE...: other code, line N holds here: WHY
 *	  FILE:LINE: UNIT: CODE...: lapsed: WHY
 *
 *	EVIDENCE as rendered in KTREE; WHY the first anchor or citation
 *	not found.  "other code": another line on the same subject holds.
 *
 * autofreeze spatch [-j N] [-o OUTDIR] [-g|-G] -- SPATCH-ARGS... ::: FILE...
 *	Run "$SPATCH SPATCH-ARGS... FILE" (SPATCH defaults to spatch) for
 *	each FILE, N at a time (default: the number of CPUs).  With -g,
 *	each group of files between ":::" separators is one job
 *	("-- ARGS ::: a.c b.c ::: c.c" is two jobs).  With -G, the files
 *	are dealt largest first into N jobs, each one spatch over
 *	"--file-groups LIST" (a file a group), so each process parses the
 *	rule once.  Unless SPATCH-ARGS name one, every spatch is handed
 *	"--python P", P as "autofreeze python" prints it.  Each job's stdout
 *	and stderr go to their own files; they are printed in input order,
 *	whatever the scheduling.  With -o OUTDIR they are kept instead as
 *	OUTDIR/NNNN.out and OUTDIR/NNNN.err (NNNN from 0001, in input
 *	order) and OUTDIR/index lists "NNNN<TAB>STATUS<TAB>FILE...".  A
 *	job that fails is reported as "autofreeze: FILE: spatch exited
 *	with status N" and the exit status is 1.  SIGINT, SIGTERM and
 *	SIGHUP kill the running jobs; the helper then dies of the signal.
 *
 * autofreeze python
 *	The Python interpreter the spatch runner hands spatch: the value
 *	of $SPATCH_PYTHON when it is set ("" for none), else the real
 *	path of "python3" on PATH, asked once.  Exit 1 when there is none.
 *
 * autofreeze ktree KTREE DIR
 *	The one kernel-tree check the drivers use: KTREE must be a kernel
 *	tree (a top Makefile setting VERSION, Kconfig, fs/,
 *	include/linux/fs.h) and DIR a directory inside it, relative to it,
 *	symbolic links followed.  Prints "ROOT<TAB>DIR": KTREE's real
 *	path and DIR relative to it ("." for the tree).  Else one line,
 *	"autofreeze: KTREE=...: ..." or "autofreeze: DIR=...: ...", and
 *	exit 2.
 *
 * The decisions taken after the plan (verdict.c) read the drivers'
 * files: PLAN is "autofreeze plan" output, SCAN "autofreeze scan" output
 * on the files the plan names (as the plan names them).
 *
 * autofreeze runs PLAN SCAN
 *	Whether the units' thread functions can go to the rules in one
 *	run: prints the first function that is a thread in one unit and
 *	has freezer uses outside a thread in another (then each unit runs
 *	with its own), or nothing.
 *
 * autofreeze flags PLAN SCAN
 *	SCAN taken after the removal rules ran: for each unit with fstype
 *	lines, "flag<TAB>UNIT<TAB>TYPE,..." when no use is left in kernel
 *	thread context in its files and none is unreviewed, else
 *	"noflag<TAB>UNIT<TAB>unreviewed: ..." or "noflag<TAB>UNIT<TAB>kthread
 *	freezer uses left: FILE:LINE:COL API;..." (the first three).
 *
 * autofreeze optin KTREE
 *	The plan's first line alone: "optin STATE FLAG FUNC WHERE TEXT",
 *	the opt-in flag KTREE's suspend freeze honours, the function that
 *	freezes a type that carries it and the file or series it is in,
 *	then all that as a sentence; STATE is tree, series (the series of
 *	patches/ that applies to the tree's code, not applied yet: make
 *	vfs; it adds the tree's suspend freeze, or what the tree's own
 *	lacks), partial (the first patches of a core series in and the
 *	others not, or the tree's own freeze with only some of the
 *	prerequisites of policy/prerequisites.tsv) or none (FLAG, FUNC and
 *	WHERE "-", TEXT why: the freeze skips the flagged types, or the PM
 *	core never calls it).  In the plan, a seventh column AT follows
 *	when the tree's freeze falls short in its code: FILE:LINE:COL of
 *	that place (check-tree's finding).
 *
 * autofreeze prereqs KTREE
 *	The prerequisites of KTREE's own suspend freeze, one a line:
 *	"has<TAB>NAME<TAB>PATCH", or "lacks<TAB>NAME<TAB>PATCH<TAB>WHY:
 *	the anchor that is not there"; PATCH is the patch of patches/ that
 *	adds it, or "-" for code no patch of ours adds (the PM core's calls
 *	of the freeze, listed only when missing): a tree without it is
 *	refused.
 *
 * autofreeze series KTREE
 *	The core series of patches/ and KTREE: "applied<TAB>SERIES" when
 *	one comes out of the tree whole in reverse (it is in), else
 *	"partial<TAB>SERIES<TAB>WHY" when its first patches come out and
 *	the others apply ("patches/linux-6.12/ is only partly in: 0001 in,
 *	0002 missing"), else "applies<TAB>SERIES" when one applies whole,
 *	else "none<TAB>WHY" (for each series, the first hunk that does not
 *	apply).  SERIES is "patches/linux-6.1"; after it, its patches (full
 *	paths, the cover letter left out; for partial the missing ones),
 *	one a line.  make vfs asks it.
 *
 * autofreeze report [-f text|json|changelog] [-v] PLAN FLAGS UNPARSED RULES SCAN
 *	The report: every use of SCAN (scan of KTREE's DIR) converted,
 *	kept or manual with the reason, unit by unit with its decision.
 *	Text: a table of the units (verdict, uses converted/kept/manual,
 *	flag types), the flag's mechanism once, then lines of at most 100
 *	columns; -v every line whole; -f json has schema_version 2;
 *	-f changelog what series.sh writes its changelogs from, one
 *	"UNIT<TAB>KIND<TAB>TEXT" a line: each unit's "count" of uses, and
 *	for a unit the text shows its "note" lines, then its "converted"
 *	and "kept" uses, one line a reason ("- FILE:LINE,... (API, ...),
 *	REASON." and " Quiesced: EVIDENCE."; usegroups.h).
 *	FLAGS is the flags output, UNPARSED the "FILE:LINE: API" uses in
 *	code spatch could not parse, RULES the rules' report-mode lines.
 *	Under a unit: its flag line, then a "note: EVIDENCE" line for
 *	each of the plan's notes (unless it is left whole; JSON "notes"),
 *	then its uses.  A use in the #define of a twin the plan's
 *	unusedtwin line says goes is converted with it, code unused-twin
 *	(verdict.c:twin_definition_verdict()).
 *
 * autofreeze check --select [--touched FILE] PLAN
 *	The units check-tree looks at, one a line: those with a type that
 *	carries the opt-in flag (a flagstate line set or misplaced); with
 *	--touched, only those holding a path of FILE (one a line, relative
 *	to the tree).
 *
 * autofreeze check [-f text|json] PLAN UNPARSED RULES SCAN
 *	The gate, on the units of PLAN: "FILE:LINE:COL: error: MESSAGE"
 *	for a type that carries the flag and should not, a type of a
 *	flagged unit that lacks it, and each freezer use of a flagged unit
 *	that a rule would still convert or no rule converts.  -f json: an
 *	array of {"file", "line", "col", "severity", "unit", "code",
 *	"message"}.  Exit 1 when there is a finding.
 *
 * autofreeze unparsed PLAN SCAN [LOG...]
 *	The uses the rules never saw: LOG is spatch's --verbose-parsing
 *	stderr; each use of SCAN inside a region it could not parse, in a
 *	file of PLAN, as "FILE:LINE: API".
 *
 * autofreeze apis [--starters|--wq]
 *	The freezer API names, one per line, in the table's order (for
 *	"grep -wE" and for the rules' tests); --wq: the workqueue and
 *	worker ones only, which wq_freezable.cocci converts and
 *	kthread_freezer.cocci leaves alone.  --starters: the functions
 *	that start a kernel thread instead, as "NAME ARG", ARG the thread
 *	function's argument (0-based, -1 the last).
 *
 * autofreeze layout FILE LINE...
 *	FILE, whole, on stdout, with the statements that hold one of the
 *	LINEs (1-based: the lines a change added or modified, as
 *	"diff --new-line-format='%dn\n'" lists them) laid out so that
 *	checkpatch.pl --strict has nothing to say of them (layout.h): on
 *	a LINE, a binary '|' gets spaces ("A|B" -> "A | B"); a LINE past
 *	100 columns (a tab is 8) is broken after its last " | " that
 *	leaves the first part within them (else its last ", "), the rest
 *	under the expression's first operand, as often as needed; and the
 *	continuation lines under an open parenthesis of a LINE (and, in
 *	turn, under one of a line moved so) go just after it, tabs then
 *	spaces, unless a line of the statement would then pass 100
 *	columns (checkpatch looks at a continuation line only under a
 *	line the patch adds: those under a line left as it was stay,
 *	listed or not).  Every other byte stays; comments, literals and
 *	preprocessor lines are never touched.  A LINE out of range, an
 *	unreadable FILE or no LINE: one line on stderr, nothing on
 *	stdout, exit 2 (an unreadable FILE too, unlike other commands).
 *	Output errors: exit 1.
 *
 * autofreeze annotate --github|--codequality <FINDINGS
 *	check-tree's findings (FILE:LINE:COL: error: MESSAGE lines) on
 *	stdin as a CI system shows them: GitHub workflow commands
 *	(::error file=F,line=L,col=C::MESSAGE) or a GitLab code-quality
 *	report (a JSON array).  A line that is no finding: one line on
 *	stderr, exit 2, nothing on stdout.
 *
 * autofreeze convert [--force] [-j N] [--report=1|full] [--check [--touched
 *	FILE]] [--judgments FILE] [--prog NAME] [--cache DIR|none]
 *	[--spatch-id ID] [--rules DIR] KTREE DIR OUT
 *	The conversion of DIR in KTREE into the directory OUT, for the
 *	drivers (scripts/lib/convert.sh checks KTREE, DIR, J and spatch,
 *	and runs it): the plan, the copies, the rules, the flags; OUT's
 *	files are described in convert.sh, the steps in convert.c.
 *	Messages name --prog (default autofreeze); exit 2 with one line
 *	when a step breaks, 1 when spatch fails.
 *
 * autofreeze convert --defs kthread_freezer|wq_freezable PLAN [UNIT]
 *	The -D options convert gives the rule for UNIT (every unit), one
 *	word a line ("-D", then "name=value"), for by-hand and bench.
 *
 * autofreeze --version
 *	The release, from the VERSION file the helper was built with.
 *
 * Exit status: 0 success, 1 runtime failure (unreadable file, a failed
 * job), 2 bad input (usage, a path or tree that is not there).  Errors
 * are one line on stderr: "autofreeze: FILE: message".
 */
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "api.h"
#include "convert.h"
#include "ktree.h"
#include "layout.h"
#include "patchfit.h"
#include "prereq.h"
#include "scan.h"
#include "util.h"

/* the release, from the VERSION file (mk/helper.mk) */
#ifndef AF_VERSION
#define AF_VERSION "unknown"
#endif

static int cmd_apis(int argc, char **argv)
{
	size_t i;

	if (argc == 2 && !strcmp(argv[1], "--starters")) {
		for (i = 0; i < n_thread_starters; i++)
			printf("%s %d\n", thread_starters[i].name,
			       thread_starters[i].arg);
		return 0;
	}
	if (argc > 2 || (argc == 2 && strcmp(argv[1], "--wq"))) {
		af_warn(NULL, "apis: usage: apis [--starters|--wq]");
		return EXIT_BADINPUT;
	}
	for (i = 0; i < n_freezer_apis; i++)
		if (argc == 1 || freezer_apis[i].class == API_WQ)
			puts(freezer_apis[i].name);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s scan [--json] [-j N] PATH...\n"
		"       %s units [--json] [--force] [--judgments FILE] [-j N] "
		"KTREE DIR\n"
		"       %s plan [--force] [--judgments FILE] [-j N] KTREE DIR\n"
		"       %s judgments [--judgments FILE] [-j N] KTREE DIR\n"
		"       %s optin KTREE\n"
		"       %s series KTREE\n"
		"       %s prereqs KTREE\n"
		"       %s spatch [-j N] [-o OUTDIR] [-g|-G] -- SPATCH-ARGS... "
		"::: FILE...\n"
		"       %s python\n"
		"       %s ktree KTREE DIR\n"
		"       %s runs PLAN SCAN\n"
		"       %s flags PLAN SCAN\n"
		"       %s report [-f text|json|changelog] [-v] PLAN FLAGS "
		"UNPARSED RULES SCAN\n"
		"       %s check --select [--touched FILE] PLAN\n"
		"       %s check [-f text|json] PLAN UNPARSED RULES SCAN\n"
		"       %s unparsed PLAN SCAN [LOG...]\n"
		"       %s apis [--starters|--wq]\n"
		"       %s layout FILE LINE...\n"
		"       %s annotate --github|--codequality <FINDINGS\n"
		"       %s convert [--force] [-j N] [--report=1|full] "
		"[--check [--touched FILE]] [--judgments FILE] [--prog NAME] "
		"[--cache DIR|none] [--spatch-id ID] [--rules DIR] "
		"KTREE DIR OUT\n"
		"       %s convert --defs kthread_freezer|wq_freezable PLAN "
		"[UNIT]\n"
		"       %s --version\n"
		"(see the comment at the top of scripts/helper/main.c)\n",
		PROG, PROG, PROG, PROG, PROG, PROG, PROG, PROG, PROG, PROG,
		PROG, PROG, PROG, PROG, PROG, PROG, PROG, PROG, PROG, PROG,
		PROG, PROG);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "scan", cmd_scan },
		{ "units", cmd_units },
		{ "plan", cmd_plan },
		{ "judgments", cmd_judgments },
		{ "optin", cmd_optin },
		{ "series", cmd_series },
		{ "prereqs", cmd_prereqs },
		{ "spatch", cmd_spatch },
		{ "python", cmd_python },
		{ "ktree", cmd_ktree },
		{ "runs", cmd_runs },
		{ "flags", cmd_flags },
		{ "report", cmd_report },
		{ "check", cmd_check },
		{ "unparsed", cmd_unparsed },
		{ "apis", cmd_apis },
		{ "layout", cmd_layout },
		{ "annotate", cmd_annotate },
		{ "convert", cmd_convert },
	};
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return EXIT_BADINPUT;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("%s %s\n", PROG, AF_VERSION);
		return flush_stdout();
	}
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	af_warn(NULL, "unknown command '%s'", argv[1]);
	usage(stderr);
	return EXIT_BADINPUT;
}
