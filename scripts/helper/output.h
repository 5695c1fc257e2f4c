/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.h - what "autofreeze units" and "autofreeze plan" print of a
 * survey (the formats are documented at the top of main.c): the units
 * as text or JSON, and the plan, the tab-separated lines the drivers
 * read.  Paths are printed relative to KTREE.
 */
#ifndef AF_OUTPUT_H
#define AF_OUTPUT_H

#include "units.h"

void print_units_text(const struct unit_survey *sv);
void print_units_json(const struct unit_survey *sv);
void print_plan(const struct unit_survey *sv);
/* Each judgment on a unit of the survey, and whether it holds. */
void print_judgments(const struct unit_survey *sv);
/* The plan's "optin" line: the tree's opt-in flag and its freeze. */
void print_optin(const struct freeze_path *fp);

#endif /* AF_OUTPUT_H */
