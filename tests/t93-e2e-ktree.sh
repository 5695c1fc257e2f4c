#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make e2e KTREE=: what it refuses, before any copy or build.  A KTREE
# given on make's command line or in the environment is the tree to
# prove; the Makefile's default KTREE is not, and without one make e2e
# builds from the Debian tarball of KVER as ever.  A KTREE that is not
# there, not a kernel tree, of a version e2e has no expectations for, or
# of another version than the KVER given, is refused in one line naming
# e2e.sh, exit 2, the tree as it was and nothing written under BUILD.
# The real run on a tree is t92's (E2E=1).
# test-run: light

. "$(dirname "$0")/lib.sh"

# refused WHAT: make e2e's stderr (err) is one line naming e2e.sh that
# matches WHAT, besides make's own "make: *** [...] Error 2"; nothing
# was made under the scratch BUILD.
refused()
{
	grep -vE "^make(\[[0-9]+\])?: \*\*\* " err >err.script &&
	test_line_count err.script 1 &&
	grep -q "^e2e\.sh: $1" err.script || { cat err.script; return 1; }
	test ! -e "$TRASH/build" || { echo "BUILD written:"; find "$TRASH/build"; return 1; }
}

# e2e ARGS...: make e2e with the scratch BUILD, output in out and err;
# J=0, refused only after the tree and the version, so that a make e2e
# that took no KTREE ends there instead of building a kernel.
e2e()
{
	make -s -C "$TOP" e2e BUILD="$TRASH/build" J=0 "$@" >out 2>err </dev/null
}

# mini_ktree DIR VERSION PATCHLEVEL: the least the helper takes for a
# kernel tree
mini_ktree()
{
	mkdir -p "$1/fs" "$1/include/linux" &&
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = 0\n' "$2" "$3" >"$1/Makefile" &&
	: >"$1/Kconfig" && : >"$1/include/linux/fs.h"
}

test_expect_success "set up: trees of 5.4 and 7.3, a plain directory, a file" '
	make -s -C "$TOP" helper >/dev/null &&
	mini_ktree k54 5 4 && mini_ktree k73 7 3 &&
	mkdir plain && echo x >plain/file &&
	find k54 k73 plain -printf "%p %s %T@ %i\n" | sort >trees.before
'

test_expect_success "make e2e KTREE=<missing>: one line, exit 2" '
	test_exit_code 2 e2e KTREE="$TRASH/nope" &&
	refused "KTREE=.*/nope: no such directory"
'

test_expect_success "make e2e KTREE=<a file>, KTREE=<not a kernel tree>: one line, exit 2" '
	test_exit_code 2 e2e KTREE="$TRASH/plain/file" &&
	refused "KTREE=.*/plain/file: not a directory" &&
	test_exit_code 2 e2e KTREE="$TRASH/plain" &&
	refused "KTREE=.*/plain: not a kernel tree"
'

test_expect_success "make e2e KTREE=<a 5.4 tree>: a version e2e does not know, one line, exit 2" '
	test_exit_code 2 e2e KTREE="$TRASH/k54" &&
	refused ".*/k54: linux 5\.4, which make e2e has no guest config and expectations for (6\.1, 6\.12, 7\.3)"
'

test_expect_success "make e2e KTREE=<a 7.3 tree> KVER=6.1: not the tree's version, one line, exit 2" '
	test_exit_code 2 e2e KTREE="$TRASH/k73" KVER=6.1 &&
	refused "KVER=6\.1, but KTREE .*/k73 is linux 7\.3"
'

test_expect_success "KTREE in the environment is given too" '
	KTREE=$TRASH/k54 test_exit_code 2 e2e &&
	refused ".*/k54: linux 5\.4, which"
'

test_expect_success "no KTREE given (the Makefile default): KVER, from the tarball, as before" '
	test_exit_code 2 e2e KVER=5.10 &&
	refused "no /usr/src/linux-source-5\.10\.tar\.xz"
'

test_expect_success "make e2e KTREE=<a path with a backtick, a \$(...), quotes>: nothing runs" '
	pwn=$TRASH/PWNED &&
	for v in "\`touch $pwn\`" "\$\$(touch $pwn)" "\"; touch $pwn; \"" "'\''; touch $pwn; '\''"; do
		test_exit_code 2 e2e "KTREE=$v" &&
		refused "KTREE=" && test ! -e "$pwn" || return 1
	done
'

test_expect_success "the refused trees are as they were" '
	find k54 k73 plain -printf "%p %s %T@ %i\n" | sort >trees.after &&
	test_cmp trees.before trees.after
'

test_done
