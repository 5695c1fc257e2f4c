// SPDX-License-Identifier: GPL-2.0
/*
 * prefilter.c - the cheap byte tests deciding whether a file is lexed.
 *
 * Most files of a tree use no freezer API and start no thread: these
 * tests look at the bytes alone, before any lexing, and answer "maybe"
 * or "no".  Entry points: may_use_freezer() and may_start_thread()
 * (declared in analyze.h).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>

#include "analyze.h"
#include "api.h"

/* true when a byte of V is zero (exact for "any", not for "which") */
static inline uint64_t has_zero(uint64_t v)
{
	return (v - 0x0101010101010101ull) & ~v & 0x8080808080808080ull;
}

static inline bool is_word(char ch)
{
	unsigned char c = (unsigned char)ch;

	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		(c >= '0' && c <= '9') || c == '_' || c == '$' || c >= 0x80;
}

/*
 * Is the word around BUF[J] (as the lexer cuts identifiers) a freezer
 * API name?  A word next to a backslash-newline may be spliced to more:
 * say yes, the lexer will tell.
 */
static bool api_word_at(const char *buf, size_t len, size_t j)
{
	size_t s = j, e = j + 1;

	while (s > 0 && is_word(buf[s - 1]))
		s--;
	while (e < len && is_word(buf[e]))
		e++;
	if (e < len && buf[e] == '\\')
		return true;
	if (s >= 2 && buf[s - 1] == '\n' &&
	    (buf[s - 2] == '\\' || (s >= 3 && buf[s - 2] == '\r' &&
				     buf[s - 3] == '\\')))
		return true;
	return api_lookup(buf + s, e - s, str_hash(buf + s, e - s)) >= 0;
}

/* Length of a backslash-newline ending at P (P is the newline), or 0. */
static size_t splice_before(const char *buf, size_t p)
{
	if (buf[p] != '\n')
		return 0;
	if (p >= 1 && buf[p - 1] == '\\')
		return 2;
	if (p >= 2 && buf[p - 1] == '\r' && buf[p - 2] == '\\')
		return 3;
	return 0;
}

/*
 * Around a 'z' at J with a backslash-newline nearby: do the bytes, with
 * the splices taken out, read "freez", "FREEZ" or "frozen"?
 */
static bool spliced_hit(const char *buf, size_t len, size_t j)
{
	char w[10];
	size_t p, n, k;

	if (!memchr(buf + (j >= 8 ? j - 8 : 0), '\\',
		    (j >= 8 ? 8 : j) + (j + 6 <= len ? 6 : len - j)))
		return false;
	/* up to four bytes before j, then z, then up to two after */
	memset(w, 0, sizeof(w));
	for (p = j, k = 4; k > 0 && p > 0; ) {
		p--;
		n = splice_before(buf, p);
		if (n) {
			p -= n - 1;	/* at the backslash */
			continue;
		}
		w[--k] = buf[p];
	}
	w[4] = buf[j];
	for (p = j + 1, k = 5; k < 7 && p < len; ) {
		if (buf[p] == '\\' && p + 1 < len && buf[p + 1] == '\n') {
			p += 2;
			continue;
		}
		if (buf[p] == '\\' && p + 2 < len && buf[p + 1] == '\r' &&
		    buf[p + 2] == '\n') {
			p += 3;
			continue;
		}
		w[k++] = buf[p++];
	}
	return !memcmp(w, "freez", 5) || !memcmp(w, "FREEZ", 5) ||
		!memcmp(w + 1, "frozen", 6);
}

/*
 * Whether BUF may use a freezer API: one pass, eight bytes at a time,
 * looking for 'z' or 'Z'; at "freez", "FREEZ" or "frozen", whether the
 * word there is an API name (so that register headers full of *_FREEZE
 * bits are not lexed).  Every API name has one of the three but
 * __refrigerator, only called by the freezer itself: a file with
 * "freez" in it is searched for that one too.  A backslash near a 'z' may
 * be a splice inside a name: such a file is lexed.  A file calling
 * __refrigerator() that never says "freez" is missed (there is none in
 * 6.1 or 6.12).
 */
bool may_use_freezer(const char *buf, size_t len)
{
	const uint64_t z = 0x7a7a7a7a7a7a7a7aull, lower = 0x2020202020202020ull;
	bool seen = false;
	size_t i = 0, j;

	for (;;) {
		uint64_t w;

		for (; i + 8 <= len; i += 8) {
			memcpy(&w, buf + i, 8);
			if (has_zero((w | lower) ^ z))
				break;
		}
		if (i >= len)
			break;
		for (j = i; j < i + 8 && j < len; j++) {
			bool hit;

			if ((buf[j] | 0x20) != 'z')
				continue;
			/* a backslash-newline may split a name: lex it */
			if (spliced_hit(buf, len, j))
				return true;
			hit = (j >= 4 && (!memcmp(buf + j - 4, "freez", 5) ||
					  !memcmp(buf + j - 4, "FREEZ", 5))) ||
				(j >= 3 && j + 3 <= len &&
				 !memcmp(buf + j - 3, "frozen", 6));
			if (!hit)
				continue;
			seen = true;
			if (api_word_at(buf, len, j))
				return true;
		}
		i += 8;
	}
	return seen && memmem(buf, len, "__refrigerator", 14);
}

bool may_start_thread(const char *buf, size_t len)
{
	return memmem(buf, len, "kthread_run", 11) ||
		memmem(buf, len, "kthread_create", 14) ||
		memmem(buf, len, "svc_create", 10) ||
		memmem(buf, len, "svo_function", 12);
}
