/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verdict.h - the verdict on a freezer use (verdict.c), which report.c
 * and check.c give, and the plan's judged lines for a use.
 */
#ifndef AF_VERDICT_H
#define AF_VERDICT_H

#include "planfile.h"

/*
 * The verdict on a use: converted, kept or manual, a reason code from
 * the list in README.md ("Reason codes"), and the reason in words.
 */
struct use_verdict {
	const char *status;
	const char *code;
	char *why;		/* malloc'ed */
	/*
	 * a conversion's evidence when it is not the use's own quiesced
	 * line (malloc'ed, or NULL): see twin_definition_verdict()
	 */
	char *evidence;
	/*
	 * use_verdict(): the reason without what the unit's own lines
	 * of the report say (malloc'ed), or NULL when it is WHY
	 */
	char *brief;
};

/*
 * What the verdicts read: the plan, the rules' report-mode messages,
 * the unparsed list and the scan.
 */
struct verdict_inputs {
	struct plan plan;
	locvec rules;		/* FILE:LINE:COLS: message */
	locvec unparsed;	/* FILE:LINE: API */
	usevec uses;
};

/*
 * Read IN from the files at PLAN, FLAGS (NULL: none), UNPARSED, RULES
 * and SCAN, the uses in the order the report gives them; free it with
 * verdict_inputs_free().
 */
void verdict_inputs_read(struct verdict_inputs *in, const char *plan,
			 const char *flags, const char *unparsed,
			 const char *rules, const char *scan);
void verdict_inputs_free(struct verdict_inputs *in);

/* The plan's keep line for use S of unit U, or NULL. */
const struct kept_use *unit_keeps(const struct plan_unit *u,
				  const struct scanned_use *s);
/* The plan's quiesced line for use S of unit U, or NULL. */
const struct kept_use *unit_quiesced(const struct plan_unit *u,
				     const struct scanned_use *s);
/* The plan's unreviewed line for use S of unit U, or NULL. */
const struct kept_use *unit_unreviewed(const struct plan_unit *u,
				       const struct scanned_use *s);

/* The verdict on one use, before a unit left whole is accounted for. */
void use_verdict_as_run(struct verdict_inputs *in, const struct plan_unit *u,
			const struct scanned_use *s, struct use_verdict *v);
/* The verdict on one use (see struct use_verdict). */
void use_verdict(struct verdict_inputs *in, const struct scanned_use *s,
		 struct use_verdict *v);

#endif /* AF_VERDICT_H */
