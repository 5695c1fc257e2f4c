/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbuild.h - what a kernel tree's Makefiles and Kconfig files say about
 * its units: which unit owns each CONFIG_ symbol, and so which units
 * use a library unit (select or depend on one of its symbols).
 *
 * A symbol belongs to the unit that builds on it (obj-$(CONFIG_X) +=
 * x.o), else to the unit whose parent Makefile enters it
 * (obj-$(CONFIG_X) += dir/), else to the unit of the Kconfig file
 * defining it.  A library's users are the units owning a symbol that
 * selects or depends on one of the library's symbols.
 */
#ifndef AF_KBUILD_H
#define AF_KBUILD_H

#include "util.h"

/* A config or menuconfig entry of a Kconfig file. */
struct kconfig_sym {
	char *name;		/* without CONFIG_ */
	char *dir;		/* relative dir of its Kconfig file */
	strvec needs;		/* selected or depended on */
};

struct kbuild {
	VEC(struct kconfig_sym) syms;	/* those of fs/, in file order */
	struct hmap owner;		/* symbol -> its struct unit */
};

struct unit_survey;

/*
 * Read the Kconfig files under fs/ and the Makefile of every unit of SV;
 * fill each unit's configs (sorted) and users (sorted by directory).
 */
void kbuild_read(struct unit_survey *sv);

void kbuild_free(struct kbuild *kb);

#endif /* AF_KBUILD_H */
