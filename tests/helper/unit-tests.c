// SPDX-License-Identifier: GPL-2.0
/*
 * unit-tests.c - C unit tests of the autofreeze helper: the lexer, the
 * per-file analysis (uses, enclosing functions, thread functions,
 * file_system_types), the cheap prefilter, the suspend freeze, the
 * judgments' anchors and citations, a series applied in memory, and (in
 * layout-tests.c) autofreeze layout.  Built by "make helper-unit" (and,
 * with sanitizers, by "make helper-san"); run by tests/t30-helper.sh.
 * Prints TAP-like "ok N - what" lines and exits non-zero when a check
 * failed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "anchor.h"
#include "api.h"
#include "freezepath.h"
#include "lex.h"
#include "patchfit.h"
#include "scan.h"
#include "unit.h"
#include "util.h"

static int checks, failed;

void check(int ok, const char *what, ...)
{
	va_list ap;

	checks++;
	if (!ok)
		failed++;
	printf("%s %d - ", ok ? "ok" : "not ok", checks);
	va_start(ap, what);
	vprintf(what, ap);
	va_end(ap);
	putchar('\n');
}

void check_str(const char *got, const char *want, const char *what)
{
	check(!strcmp(got, want), "%s", what);
	if (strcmp(got, want))
		printf("#   got:  \"%s\"\n#   want: \"%s\"\n", got, want);
}

/*
 * The identifiers of SRC as "name@line:col[flags]" separated by spaces;
 * flags: d directive, D #define, s spliced.
 */
static char *idents(const char *src)
{
	static char out[4096];
	struct lexer lx;
	struct token t;
	size_t n = 0;
	int guard = 0;

	out[0] = '\0';
	lex_init(&lx, src, strlen(src));
	for (;;) {
		char text[256], fl[4] = "", *f = fl;

		lex_next(&lx, &t);
		if (t.kind == TK_EOF || ++guard > 1000)
			break;
		if (t.kind != TK_IDENT)
			continue;
		tok_text(src, &t, text, sizeof(text));
		if (t.flags & TF_DEFINE)
			*f++ = 'D';
		else if (t.flags & TF_DIRECTIVE)
			*f++ = 'd';
		if (t.flags & TF_SPLICED)
			*f++ = 's';
		*f = '\0';
		n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%s@%u:%u%s",
				      n ? " " : "", text, t.line, t.col, fl);
	}
	check(guard <= 1000, "lexer ends (no endless loop)");
	return out;
}

/* The kinds of all tokens: i ident, n number, s string, c char, p punct */
static char *kinds(const char *src)
{
	static char out[1024];
	static const char k[] = "Einscp";
	struct lexer lx;
	struct token t;
	size_t n = 0;

	lex_init(&lx, src, strlen(src));
	for (;;) {
		lex_next(&lx, &t);
		if (t.kind == TK_EOF || n + 2 >= sizeof(out))
			break;
		out[n++] = k[t.kind];
	}
	out[n] = '\0';
	return out;
}

/* a source, what a function of it must give, and the check's name */
struct str_case {
	const char *src, *want, *what;
};

static void check_cases(char *(*fn)(const char *),
			const struct str_case *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		check_str(fn(c[i].src), c[i].want, c[i].what);
}

static void test_lexer(void)
{
	/* the identifiers of each source, see idents() */
	static const struct str_case cases[] = {
		{ "a /* set_freezable() */ b",
		  "a@1:1 b@1:25",
		  "block comment" },
		{ "a /* x\n * try_to_freeze();\n */ b",
		  "a@1:1 b@3:5",
		  "block comment over lines keeps line numbers" },
		{ "a // try_to_freeze();\nb",
		  "a@1:1 b@2:1",
		  "line comment" },
		{ "a // x \\\n try_to_freeze();\nb",
		  "a@1:1 b@3:1",
		  "line comment continued by backslash-newline" },
		{ "a // x \\\r\n try_to_freeze();\nb",
		  "a@1:1 b@3:1",
		  "line comment continued by backslash-CR-LF" },
		{ "x = \"a\\\"try_to_freeze()\\\\\" y;",
		  "x@1:1 y@1:28",
		  "string with escaped quote and backslash" },
		{ "\"abc\\\ntry_to_freeze\" z",
		  "z@2:16",
		  "string continued by backslash-newline" },
		{ "c = '\\''; set_freezable(); d = '\"'; e;",
		  "c@1:1 set_freezable@1:11 d@1:28 e@1:37",
		  "char literals '\\'' and '\"' do not open a string" },
		{ "L\"set_freezable\" u8\"x\" U'y' u\"z\" v",
		  "v@1:34",
		  "string and char prefixes L u8 U u" },
		{ "#define F(x) \\\n\ttry_to_freeze(); \\\n\tx\nint z;",
		  "define@1:2d F@1:9D x@1:11D try_to_freeze@2:2D x@3:2D "
		  "int@4:1 z@4:5",
		  "#define body with line continuations" },
		{ "#define A /* c\n */ try_to_freeze()\nb",
		  "define@1:2d A@1:9D try_to_freeze@2:5D b@3:1",
		  "a block comment over lines does not end a #define" },
		{ "/* c */ #define X set_freezable()\ny",
		  "define@1:10d X@1:17D set_freezable@1:19D y@2:1",
		  "a directive after a comment" },
		{ "a # b\n",
		  "a@1:1 b@1:5",
		  "'#' inside a line is no directive" },
		{ "#if 0\nset_freezable();\n#endif\n",
		  "if@1:2d set_freezable@2:1 endif@3:2d",
		  "#if 0 blocks are still code (not evaluated)" },
		{ "#include <linux/freezer.h>\nx",
		  "include@1:2d linux@1:11d freezer@1:17d h@1:25d x@2:1",
		  "#include line" },
		{ "set_free\\\nzable();",
		  "set_freezable@1:1s",
		  "identifier split across a backslash-newline" },
		{ "\tx\t y",
		  "x@1:2 y@1:5",
		  "columns count bytes, a tab is one" },
		{ "a /* unterminated",
		  "a@1:1",
		  "unterminated comment at EOF" },
		{ "a \"unterminated\nb",
		  "a@1:1 b@2:1",
		  "unterminated string ends at end of line" },
		{ "a '\nb",
		  "a@1:1 b@2:1",
		  "unterminated char literal ends at end of line" },
		{ "#error don't do it\nb",
		  "error@1:2d don@1:8d b@2:1",
		  "apostrophe in #error ends with the line" },
		{ "a \"x\\",
		  "a@1:1",
		  "string ending in backslash at EOF" },
		{ "a \\",
		  "a@1:1",
		  "lone backslash at EOF" },
		{ "a\\\n",
		  "a@1:1",
		  "splice at EOF" },
		{ "'",
		  "",
		  "lone quote at EOF" },
		{ "/",
		  "",
		  "lone slash at EOF" },
	};
	struct lexer lx;
	struct token t;

	check_cases(idents, cases, ARRAY_SIZE(cases));
	check_str(kinds("a->b <<= 1e+5 .5 0x1fULL ... ## x"), "ipipnnnppi",
		  "punctuators and preprocessing numbers");
	check_str(kinds("p-->q"), "ippi", "'-->' is '--' '>'");

	lex_init(&lx, "x", 1);
	lex_next(&lx, &t);
	lex_next(&lx, &t);
	lex_next(&lx, &t);
	check(t.kind == TK_EOF, "EOF stays EOF");

	lex_init(&lx, "\"abc", 4);
	lex_next(&lx, &t);
	check(t.kind == TK_STRING && (t.flags & TF_UNTERM) && t.end == 4,
	      "unterminated string flagged, ends at EOF");
}

static struct file_info *run(const char *src, bool full)
{
	static struct arena arena;
	static struct token *toks;
	static size_t cap;
	struct file_info *fi = xcalloc(1, sizeof(*fi));

	fi->path = xstrdup("t.c");
	analyze(fi, src, strlen(src), full, &arena, &toks, &cap);
	return fi;
}

/* "api:context:function" of every use, given the files of a unit */
static char *contexts(struct file_info **files, size_t n)
{
	static char out[4096];
	struct strset kt = { 0 };
	size_t i, k, len = 0;

	unit_kthreads(files, n, &kt, NULL);
	out[0] = '\0';
	for (i = 0; i < n; i++) {
		for (k = 0; k < files[i]->uses.n; k++) {
			const struct use *u = &files[i]->uses.v[k];

			len += (size_t)snprintf(out + len, sizeof(out) - len,
				"%s%s:%s:%s@%u", len ? " " : "",
				freezer_apis[u->api].name,
				context_names[use_context(u, &kt)],
				u->func ? u->func : "-", u->line);
		}
	}
	strset_free(&kt);
	return out;
}

static char *ctx1(const char *src)
{
	struct file_info *fi = run(src, false);
	char *r = contexts(&fi, 1);

	file_info_free(fi);
	return r;
}

static void test_contexts(void)
{
	/* the uses of each one-file unit, see contexts() */
	static const struct str_case cases[] = {
		{ "static int t(void *d)\n{\n\tset_freezable();\n"
		  "\twhile (!kthread_should_stop())\n"
		  "\t\ttry_to_freeze();\n\treturn 0;\n}\n",
		  "set_freezable:kthread:t@3 try_to_freeze:kthread:t@5",
		  "set_freezable() makes a kthread" },
		{ "static bool ext4_trim_interrupted(void)\n{\n"
		  "\treturn fatal_signal_pending(current) || "
		  "freezing(current);\n}\n",
		  "freezing:user:ext4_trim_interrupted@3",
		  "freezing() elsewhere is user context" },
		{ "static int f(void *p)\n{\n\ttry_to_freeze();\n}\n"
		  "void g(void) { kthread_run(f, NULL, \"f\"); }\n",
		  "try_to_freeze:kthread:f@3",
		  "kthread_run(f, ...) in the file" },
		{ "static int f(void *p)\n{\n\ttry_to_freeze();\n}\n"
		  "void g(void) { t = kthread_create_on_node(&f, p, n, "
		  "\"x\"); }\n",
		  "try_to_freeze:kthread:f@3",
		  "kthread_create_on_node(&f, ...)" },
		{ "static int a(void *v) { try_to_freeze(); }\n"
		  "static int b(void *v) { try_to_freeze(); }\n"
		  "void s(int m) {\n\tint (*threadfn)(void *data);\n"
		  "\tthreadfn = a;\n\tif (m)\n\t\tthreadfn = b;\n"
		  "\tserv = svc_create(&p, SZ, threadfn);\n}\n",
		  "try_to_freeze:kthread:a@1 try_to_freeze:kthread:b@2",
		  "svc_create() thread function through a variable" },
		{ "static int n(void *v) { try_to_freeze(); }\n"
		  "void s(void) { svc_create_pooled(&p, &st, SZ, n); }\n",
		  "try_to_freeze:kthread:n@1",
		  "svc_create_pooled() last argument" },
		{ "static const struct svc_serv_ops o = {\n"
		  "\t.svo_function = nfsd,\n};\n"
		  "int nfsd(void *v) { set_freezable(); try_to_freeze(); }\n",
		  "set_freezable:kthread:nfsd@4 try_to_freeze:kthread:nfsd@4",
		  ".svo_function = (struct svc_serv_ops, before 6.2)" },
		{ "void f(void)\n{\n\tx = alloc_workqueue(\"x\", "
		  "WQ_FREEZABLE | WQ_MEM_RECLAIM, 0);\n"
		  "\tqueue_work(system_freezable_wq, &w);\n}\n",
		  "WQ_FREEZABLE:kthread:f@3 system_freezable_wq:kthread:f@4",
		  "workqueue names are kthread context" },
		{ "#define W(x) wait_event_freezable(q, x)\n"
		  "#define F(f) ((f) | WQ_FREEZABLE)\n",
		  "wait_event_freezable:macro:-@1 WQ_FREEZABLE:macro:-@2",
		  "uses in #define bodies are macro context" },
		{ "static struct foo x = {\n\t.state = TASK_FREEZABLE,\n"
		  "};\n",
		  "TASK_FREEZABLE:unknown:-@2",
		  "file scope is unknown" },
		{ "void f(struct super_block *sb)\n{\n\tint frozen = 0;\n"
		  "\tif (sb->s_writers.frozen == 1)\n\t\tfrozen = 1;\n"
		  "\tp.try_to_freeze = 1;\n\tfreezing = x;\n}\n",
		  "",
		  "members and variables named like a call are no use" },
		{ "void f(void)\n{\n\t/* try_to_freeze(); */\n"
		  "\tpr_info(\"try_to_freeze()\");\n"
		  "\tc = '\"'; // set_freezable();\n}\n",
		  "",
		  "comments, strings and char literals are no use" },
		{ "static int\nfoo(void *d) __acquires(l)\n{\n"
		  "\ttry_to_freeze();\n}\n",
		  "try_to_freeze:user:foo@4",
		  "attribute macro between parameters and body" },
		{ "static int foo(void)\n#ifdef A\n{\n\tif (a) {\n#else\n"
		  "{\n\tif (b) {\n#endif\n\t\tx();\n\t}\n\ttry_to_freeze();\n"
		  "}\nint bar(void) { return freezing(current); }\n",
		  "try_to_freeze:user:foo@11 freezing:user:bar@13",
		  "#ifdef/#else branches each opening a brace" },
		{ "void f(void)\n{\n#if 0\n\ttry_to_freeze();\n#endif\n}\n",
		  "try_to_freeze:user:f@4",
		  "#if 0 is still code" },
		{ "void f(void)\n{\n\ttry_to_\\\nfreeze();\n}\n",
		  "try_to_freeze:user:f@3",
		  "a spliced identifier is a use" },
		{ "void f(void)\n{\n\tfreezable_schedule();\n"
		  "\tfreezable_schedule_timeout_killable_unsafe(HZ);\n}\n",
		  "freezable_schedule:user:f@3 "
		  "freezable_schedule_timeout_killable_unsafe:user:f@4",
		  "pre-6.1 freezable_schedule*()" },
	};
	struct file_info *f[2];

	check_cases(ctx1, cases, ARRAY_SIZE(cases));

	/* the thread is started in another file of the unit (jfs) */
	f[0] = run("int jfs_lazycommit(void *arg)\n{\n"
		   "\tif (freezing(current))\n\t\ttry_to_freeze();\n}\n", false);
	f[1] = run("static int __init init_jfs_fs(void)\n{\n"
		   "\tt = kthread_run(jfs_lazycommit, NULL, \"jfsCommit\");\n}\n",
		   false);
	check_str(contexts(f, 1),
		  "freezing:user:jfs_lazycommit@3 try_to_freeze:user:"
		  "jfs_lazycommit@4", "alone, jfs_txnmgr.c has no kthread");
	check_str(contexts(f, 2),
		  "freezing:kthread:jfs_lazycommit@3 try_to_freeze:kthread:"
		  "jfs_lazycommit@4", "with super.c of the same unit, it has");
	file_info_free(f[0]);
	file_info_free(f[1]);
}

static void test_objects(void)
{
	struct file_info *fi;

	fi = run("static const struct super_operations s_ops = {\n"
		 "\t.freeze_fs = x_freeze,\n\t.unfreeze_fs = x_unfreeze,\n};\n"
		 "static const struct super_operations t_ops = {\n"
		 "\t.freeze_super = NULL,\n};\n"
		 "static int fill(struct super_block *sb)\n{\n"
		 "\tsb->s_op = &s_ops;\n}\n"
		 "static struct file_system_type x_type = {\n"
		 "\t.name = \"x\",\n\t.mount = x_mount,\n"
		 "\t.fs_flags = FS_REQUIRES_DEV |\n\t\t    FS_ALLOW_IDMAP, /* c */\n"
		 "};\n"
		 "struct file_system_type y_type __read_mostly = {\n"
		 "\t.name = \"y\",\n};\n", true);
	check(fi->sops.n == 2, "two super_operations");
	check(fi->sops.n == 2 && fi->sops.v[0].freeze_fs &&
	      !fi->sops.v[0].freeze_super, ".freeze_fs found");
	check(fi->sops.n == 2 && !fi->sops.v[1].freeze_super,
	      ".freeze_super = NULL does not count");
	check(fi->fstypes.n == 2, "two file_system_types");
	if (fi->fstypes.n == 2) {
		check_str(fi->fstypes.v[0].name, "x_type", "type name");
		check_str(fi->fstypes.v[0].fsname ? fi->fstypes.v[0].fsname : "",
			  "x", ".name string");
		check_str(fi->fstypes.v[0].flags ? fi->fstypes.v[0].flags : "",
			  "FS_REQUIRES_DEV | FS_ALLOW_IDMAP",
			  ".fs_flags text, spaces normalized");
		check(fi->fstypes.v[0].requires_dev, "FS_REQUIRES_DEV seen");
		check_str(fi->fstypes.v[1].name, "y_type",
			  "name before __read_mostly");
		check(!fi->fstypes.v[1].flags && !fi->fstypes.v[1].requires_dev,
		      "no .fs_flags");
	}
	check(fi->funcs.n == 1 && fi->funcs.v[0].sops.n == 1 &&
	      !strcmp(fi->funcs.v[0].sops.v[0], "s_ops"),
	      "sb->s_op = &s_ops; in fill()");
	file_info_free(fi);
}

/* S with newlines shown as \n, for a test name */
static const char *esc(const char *s)
{
	static char out[128];
	size_t n = 0;

	for (; *s && n + 3 < sizeof(out); s++) {
		if (*s == '\n') {
			out[n++] = '\\';
			out[n++] = 'n';
		} else {
			out[n++] = *s;
		}
	}
	out[n] = '\0';
	return out;
}

static void test_prefilter(void)
{
	static const char *const yes[] = {
		"WQ_FREEZABLE", "x try_to_freeze();", "frozen(p)",
		"set_free\\\nzable()", "a\\\nset_freezable", "__refrigerator(); freeze",
		"KTW_FREEZABLE", "fr\\\neezing(x)", "fro\\\r\nzen(p)",
	};
	static const char *const no[] = {
		"", "z", "CP_FREEZE_MASK 0x1", "s_writers_frozen_x", "fre ez",
		"__refrigerator();", "freezer", "frozenx",
		"#define S(x) sizeof(x) \\\n\t+ 1",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(yes); i++)
		check(may_use_freezer(yes[i], strlen(yes[i])),
		      "prefilter keeps \"%s\"", esc(yes[i]));
	for (i = 0; i < ARRAY_SIZE(no); i++)
		check(!may_use_freezer(no[i], strlen(no[i])),
		      "prefilter skips \"%s\"", esc(no[i]));
	check(may_start_thread("t = kthread_run(f", 17) &&
	      !may_start_thread("kthread_stop(t)", 15), "thread prefilter");
	check(api_index("kthread_wait_freezable") >= 0 &&
	      api_index("freezer") < 0, "API table lookup");
}

static char *ctx_full(const char *src)
{
	struct file_info *fi = run(src, true);
	char *r = contexts(&fi, 1);

	file_info_free(fi);
	return r;
}

/* A thread t() for the call graph cases below: it calls h(). */
#define THREAD "static int t(void *d)\n{\n\tset_freezable();\n\th();\n}\n"

static void test_call_graph(void)
{
	/* the uses of each one-file unit read in full: callgraph.c */
	static const struct str_case cases[] = {
		{ THREAD "static void h(void) { g(); }\n"
		  "static void g(void) { try_to_freeze(); }\n",
		  "set_freezable:kthread:t@3 try_to_freeze:kthread:g@7",
		  "called only from a thread, two levels down" },
		{ THREAD "static void h(void) { try_to_freeze(); }\n"
		  "long ioctl(void) { h(); }\n",
		  "set_freezable:kthread:t@3 try_to_freeze:user:h@6",
		  "also called from a function no thread reaches" },
		{ THREAD "static void h(void) { INIT_WORK(&w, g); }\n"
		  "static void g(struct work_struct *w) { try_to_freeze(); }\n",
		  "set_freezable:kthread:t@3 try_to_freeze:user:g@7",
		  "a work function named in a thread runs in a worker" },
		{ THREAD "static void h(void) { try_to_freeze(); }\n"
		  "static const struct ops o = { .fn = h };\n",
		  "set_freezable:kthread:t@3 try_to_freeze:user:h@6",
		  "in an initializer: other callers" },
		{ THREAD "void h(void) { try_to_freeze(); }\nEXPORT_SYMBOL(h);\n",
		  "set_freezable:kthread:t@3 try_to_freeze:user:h@6",
		  "exported: callers in other units" },
		{ THREAD "#define H() h()\n"
		  "static void h(void) { try_to_freeze(); }\n",
		  "set_freezable:kthread:t@3 try_to_freeze:user:h@7",
		  "in a macro body: its callers are not known" },
		{ "static void h(void);\n" THREAD
		  "static void h(void) { g(); try_to_freeze(); }\n"
		  "static void g(void) { h(); }\n",
		  "set_freezable:kthread:t@4 try_to_freeze:kthread:h@7",
		  "a prototype is no use; mutual recursion below a thread" },
		{ "static void h(void) { try_to_freeze(); }\n"
		  "static void g(void) { h(); }\n",
		  "try_to_freeze:user:h@1",
		  "no thread, no kthread context" },
		{ THREAD "static void h(void) { p->g(); o.g(); }\n"
		  "static void g(void) { try_to_freeze(); }\n",
		  "set_freezable:kthread:t@3 try_to_freeze:user:g@7",
		  "a member call is not a call of the function" },
	};

	struct file_info *f[2];

	check_cases(ctx_full, cases, ARRAY_SIZE(cases));

	/* a starter of the unit's own (bcachefs thread_with_file.c) */
	f[0] = run("int run_with_file(struct twf *thr, const struct "
		   "file_operations *fops,\n\t\tint (*fn)(void *))\n{\n"
		   "\tthr->task = kthread_create(fn, thr, \"%s\", name);\n}\n",
		   true);
	f[1] = run("static int data_thread(void *arg)\n{\n\tjob();\n}\n"
		   "static void job(void) { try_to_freeze(); }\n"
		   "long ioctl_data(void) { return run_with_file(&t, &ops, "
		   "data_thread); }\n", true);
	check_str(contexts(f + 1, 1), "try_to_freeze:user:job@5",
		  "alone, data_thread() is handed to an unknown function");
	check_str(contexts(f, 2), "try_to_freeze:kthread:job@5",
		  "with the function that hands its fn to kthread_create()");
	file_info_free(f[0]);
	file_info_free(f[1]);
}

/*
 * The suspend freeze and its opt-in, from trimmed copies of the real
 * functions: 7.3's fs/super.c, 6.18's (the test reversed, fixed in
 * 6.19), our 6.1 series' (the test in a predicate).
 */
static void test_freeze_path(void)
{
	static const char up[] =
		"static void filesystems_freeze_callback(struct super_block *sb, void *freeze_all_ptr)\n"
		"{\n"
		"\tif (!sb->s_op->freeze_fs && !sb->s_op->freeze_super)\n"
		"\t\treturn;\n"
		"\tif (%sfreeze_all_ptr && !(sb->s_type->fs_flags & FS_POWER_FREEZE))\n"
		"\t\treturn;\n"
		"\tif (sb->s_op->freeze_super)\n"
		"\t\tsb->s_op->freeze_super(sb, FREEZE_EXCL | FREEZE_HOLDER_KERNEL, p);\n"
		"\telse\n"
		"\t\tfreeze_super(sb, FREEZE_EXCL | FREEZE_HOLDER_KERNEL, p);\n"
		"}\n";
	static const char series61[] =
		"static bool super_should_freeze(struct super_block *sb)\n"
		"{\n"
		"\tif (!(sb->s_type->fs_flags & FS_AUTOFREEZE))\n"
		"\t\treturn false;\n"
		"\tif (sb->s_bdi == &noop_backing_dev_info)\n"
		"\t\treturn false;\n"
		"\treturn true;\n"
		"}\n"
		"static int fs_suspend_freeze_sb(struct super_block *sb, void *unused)\n"
		"{\n"
		"\tif (!super_should_freeze(sb))\n"
		"\t\treturn 0;\n"
		"\treturn freeze_super(sb, false);\n"
		"}\n";
	char src[1024];

	snprintf(src, sizeof(src), up, "!");
	check_str(freeze_parsed(src),
		  "filesystems_freeze_callback FS_POWER_FREEZE 5 super_op",
		  "7.3: FS_POWER_FREEZE decides, with the knob at 0");
	snprintf(src, sizeof(src), up, "");
	check_str(freeze_parsed(src),
		  "filesystems_freeze_callback - 5 filesystems_freeze_callback() tests FS_POWER_FREEZE, but freezes every type, whether it carries it or not",
		  "6.18: the reversed test decides nothing");
	snprintf(src, sizeof(src), up, "freeze_all_ptr == ");
	check(!strncmp(freeze_parsed(src), "filesystems_freeze_callback - ", 30) &&
	      strstr(freeze_parsed(src), "cannot read"),
	      "a condition beyond !, &&, || is not guessed at");
	check_str(freeze_parsed(series61), "fs_suspend_freeze_sb FS_AUTOFREEZE 11",
		  "6.1 series: the test in a predicate it calls");
	check_str(freeze_parsed("static int fs_suspend_freeze_sb(struct super_block *sb)\n{\n\treturn freeze_super(sb);\n}\n"),
		  "fs_suspend_freeze_sb - 1 fs_suspend_freeze_sb() tests no flag in s_type->fs_flags",
		  "a freeze that tests no flag has no opt-in");
	check_str(freeze_parsed("void filesystems_freeze_callback(struct super_block *sb);\n"),
		  "none", "a declaration is not the function");
}

/* anchor_parse() of S: "op fn what file", or "bad". */
static const char *anchor_of(const char *s)
{
	static const char *const ops[] = {
		[ANCHOR_DEFINED] = "defined", [ANCHOR_CALLS] = "calls",
		[ANCHOR_REACHES] = "reaches", [ANCHOR_NOT_CALLS] = "!calls",
		[ANCHOR_HAS] = "has", [ANCHOR_NOT_HAS] = "!has",
	};
	static char out[256];
	struct anchor a;
	char *why = anchor_parse(s, strlen(s), &a);

	if (why) {
		free(why);
		return "bad";
	}
	snprintf(out, sizeof(out), "%s %s %s %s", ops[a.op], a.fn,
		 a.what ? a.what : "-", a.file ? a.file : "-");
	anchor_free(&a);
	return out;
}

static void test_anchors(void)
{
	static const char *const bad[] = {
		"", "*", "f", "f() calls g()", "f() -> ", "f() -> g",
		"f() => \"x\"", "f() -> \"\"", "f() -> g*x()", ":f()",
		"a b() -> c()", "1f()",
	};
	static const char *const bad_evidence[] = {
		"e {f()", "e }", "e {f() !-> g()}", "e {f() .. }", "e {}",
	};
	char *why;
	size_t i;

	check_str(anchor_of("f()"), "defined f - -", "anchor: F()");
	check_str(anchor_of("  f() -> g()  "), "calls f g -", "anchor: F() -> G()");
	check_str(anchor_of("f() => g()"), "reaches f g -", "anchor: F() => G()");
	check_str(anchor_of("f() !-> g_*()"), "!calls f g_* -",
		  "anchor: F() !-> G*()");
	check_str(anchor_of("f() -> \"a->b = c;\""), "has f a->b = c; -",
		  "anchor: F() -> \"C TEXT\"");
	check_str(anchor_of("f() !-> \"x\""), "!has f x -", "anchor: F() !-> \"C TEXT\"");
	check_str(anchor_of("fs/super.c:freeze_super() -> sb_wait_write()"),
		  "calls freeze_super sb_wait_write fs/super.c",
		  "anchor: PATH:F()");
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		check_str(anchor_of(bad[i]), "bad", bad[i]);
	why = evidence_parse("a {f()}, {:f() -> g()} and {f() -> g() .. f() -> \"h\"}");
	check(!why, "evidence: citations parse");
	free(why);
	for (i = 0; i < ARRAY_SIZE(bad_evidence); i++) {
		why = evidence_parse(bad_evidence[i]);
		check(why != NULL, "evidence refused: %s", bad_evidence[i]);
		free(why);
	}
}

/* Write TEXT to DIR/NAME. */
static void put(const char *dir, const char *name, const char *text)
{
	char *path = path_join(dir, name);
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(path);
}

/*
 * patch_series_fits() in a tree of one file, a.c, case after case: a
 * series, forward or in reverse, and what it says ("": it fits).
 */
static const struct patch_fit_case {
	const char *a_c;	/* a.c from this case on, or NULL */
	const char *series[2];	/* one patch or two, in order */
	bool reverse;
	const char *why, *what;
} patch_fit_cases[] = {
	{ "0\n1\n2\n3\n4\n5\n6\n", { "p1.patch", "p2.patch" }, false, "",
	  "patch: hunks at their line and at an offset, in order, a new file" },
	{ NULL, { "p2.patch" }, false,
	  "p2.patch: a.c: hunk 1 (line 1) does not apply",
	  "patch: a hunk whose context is not there, named" },
	{ NULL, { "p1.patch", "p3.patch" }, false,
	  "p3.patch: a.c: hunk 1 (line 5) does not apply",
	  "patch: a line the series before it removed" },
	{ NULL, { "p1.patch" }, true,
	  "p1.patch: a.c: hunk 1 (line 1) does not apply",
	  "patch: a series that is not in does not come out" },
	{ "0\nx\n1\n2\n3\ny\n5\n6\n", { "p1.patch" }, true, "",
	  "patch: a series that is in comes out in reverse" },
};

static void test_patch_fit(void)
{
	static const char *const files[] = {
		"a.c", "p1.patch", "p2.patch", "p3.patch"
	};
	char dir[] = "/tmp/af-unit.XXXXXX", *path;
	size_t i;

	if (!mkdtemp(dir)) {
		check(0, "mkdtemp");
		return;
	}
	/* at its line, then 2 lines off; the second patch sees the first */
	put(dir, "p1.patch", "From x\n---\n"
	    "--- a/a.c\n+++ b/a.c\n@@ -1,2 +1,3 @@\n 0\n+x\n 1\n"
	    "@@ -2,2 +3,2 @@\n 3\n-4\n+y\n-- \n2.39\n");
	put(dir, "p2.patch", "--- a/a.c\n+++ b/a.c\n@@ -1,3 +1,3 @@\n 0\n-x\n+z\n 1\n"
	    "--- /dev/null\n+++ b/new.c\n@@ -0,0 +1 @@\n+n\n");
	put(dir, "p3.patch", "--- a/a.c\n+++ b/a.c\n@@ -5,2 +5,2 @@\n 4\n-5\n+w\n");
	for (i = 0; i < ARRAY_SIZE(patch_fit_cases); i++) {
		const struct patch_fit_case *c = &patch_fit_cases[i];
		char *series[2], *why;
		size_t n;

		if (c->a_c)
			put(dir, "a.c", c->a_c);
		for (n = 0; n < ARRAY_SIZE(c->series) && c->series[n]; n++)
			series[n] = path_join(dir, c->series[n]);
		why = patch_series_fits(dir, series, n, c->reverse);
		check_str(why ? why : "", c->why, c->what);
		free(why);
		while (n--)
			free(series[n]);
	}
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		path = path_join(dir, files[i]);
		unlink(path);
		free(path);
	}
	rmdir(dir);
}

void test_nofreeze(void);	/* nofreeze-tests.c */

int main(void)
{
	test_lexer();
	test_contexts();
	test_call_graph();
	test_objects();
	test_prefilter();
	test_freeze_path();
	test_anchors();
	test_patch_fit();
	test_layout();
	test_nofreeze();
	test_freezepath();
	test_inside();
	test_annotate();
	test_sha256();
	printf("# %d checks, %d failed\n", checks, failed);
	return failed ? 1 : 0;
}
