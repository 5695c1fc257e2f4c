// SPDX-License-Identifier: GPL-2.0
/*
 * flagstate.c - which file_system_types get the opt-in flag, and where
 * each stands with it in the tree.
 *
 * unit_flags_fstype() decides the candidates for the flag: the capable
 * types of an eligible unit.  unit_flag_state() compares that with the
 * type's .fs_flags (set, missing, misplaced, judged), and
 * unit_flag_position() finds where to point at it.  All three are
 * declared in units.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

bool unit_flags_fstype(const struct unit *u, const struct unit_fstype *t)
{
	return u->status == UNIT_ELIGIBLE && t->capable;
}

const char *const flag_state_names[] = {
	[FLAG_NONE] = "none", [FLAG_SET] = "set", [FLAG_MISSING] = "missing",
	[FLAG_MISPLACED] = "misplaced", [FLAG_JUDGED] = "judged",
};

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* NAME is a whole identifier in expression text S. */
static bool has_word(const char *s, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = s; (p = strstr(p, name)); p += n)
		if ((p == s || !ident_char(p[-1])) && !ident_char(p[n]))
			return true;
	return false;
}

enum flag_state unit_flag_state(const struct unit_survey *sv,
				const struct unit *u,
				const struct unit_fstype *t,
				const struct judgment **j)
{
	const char *flag = sv->freeze.flag;
	bool carries = flag && t->ft->flags && has_word(t->ft->flags, flag);

	*j = NULL;
	if (unit_flags_fstype(u, t))
		return carries ? FLAG_SET : FLAG_MISSING;
	if (!carries)
		return FLAG_NONE;
	*j = judged_flagged(&sv->judgments, u->rel, t->ft->name);
	return *j ? FLAG_JUDGED : FLAG_MISPLACED;
}

/*
 * WANT, a whole word, in BUF[FROM..END) before the first "};" (the
 * initializer that starts at line FROM_LINE): its line and column.
 */
static bool find_in_initializer(const char *buf, const char *from,
				const char *end, unsigned int from_line,
				const char *want, unsigned int *line,
				unsigned int *col)
{
	size_t n = strlen(want);
	const char *p, *bol = from;
	unsigned int l = from_line;

	for (p = from; p < end && !(*p == '}' && p + 1 < end && p[1] == ';');
	     p++) {
		if (*p == '\n') {
			l++;
			bol = p + 1;
			continue;
		}
		if ((size_t)(end - p) >= n && !memcmp(p, want, n) &&
		    (p == buf || !ident_char(p[-1]) || *want == '.') &&
		    (p + n == end || !ident_char(p[n]))) {
			*line = l;
			*col = (unsigned int)(p - bol) + 1;
			return true;
		}
	}
	return false;
}

void unit_flag_position(const struct unit_survey *sv,
			const struct unit_fstype *t, unsigned int *line,
			unsigned int *col)
{
	const char *flag = sv->freeze.flag;
	char *buf = NULL, *p, *end;
	size_t len = 0, cap = 0;
	unsigned int l = 1;

	*line = t->ft->line;
	*col = 1;
	if (read_file(t->fi->path, &buf, &len, &cap, NULL, NULL) < 0)
		af_die(EXIT_RUNTIME, t->fi->path, "%s", strerror(errno));
	end = buf + len;
	for (p = buf; p < end && l < t->ft->line; p++)
		l += *p == '\n';
	if (l == t->ft->line &&
	    !(flag && find_in_initializer(buf, p, end, l, flag, line, col)))
		find_in_initializer(buf, p, end, l, ".fs_flags", line, col);
	free(buf);
}
