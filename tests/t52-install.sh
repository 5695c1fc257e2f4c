#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make install, and the autofreeze command run where the kernel
# developer stands: installed with DESTDIR into a scratch prefix, made
# read-only, a source of it newer than its helper, and run from inside
# a kernel tree with no path given, it converts as make diff in the
# checkout does, never rebuilds the helper and writes nothing in the
# install; --version names the release; the man page holds every target
# of make help.  And in the checkout, make -C with KTREE=. (or none)
# from inside a kernel tree means that tree.  Bad input: one line, exit 2.
# test-run: light

. "$(dirname "$0")/lib.sh"

# every install below names its PREFIX or DESTDIR: none from the
# environment (an outer make exports its defaults, /usr/local's)
unset PREFIX DESTDIR BINDIR DATADIR LIBEXECDIR MANDIR

# the fixtures' threads and workqueues, judged for these tests
JUDGMENTS=$TESTS/helper/judgments.tsv
export JUDGMENTS

# the installed copy, staged in DESTDIR as a package build would
P=/usr/local
D=$TRASH/dest
AFC=$D$P/bin/autofreeze
DATA=$D$P/share/autofreeze

test_lazy_prereq NOBODY 'test "$(id -u)" = 0 && command -v setpriv && id nobody'
test_lazy_prereq MAN 'command -v man'

# as_user CMD...: CMD as nobody where root can switch to it (the install
# another user's), else as ourselves; HOME a scratch one either way
as_user()
{
	if test_have_prereq NOBODY; then
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			env -u SPATCH_PYTHON -u XDG_CACHE_HOME HOME="$TRASH/home" "$@"
	else
		env -u XDG_CACHE_HOME HOME="$TRASH/home" "$@"
	fi
}

# one_line PROG: stderr (err) is one line naming PROG
one_line()
{
	test_line_count err 1 && grep -q "^$1: " err
}

test_expect_success SPATCH "make install DESTDIR= PREFIX=: the command, the toolkit, the helper, the man page" '
	make -s -C "$TOP" helper >/dev/null &&
	make -s -C "$TOP" install PREFIX="$P" DESTDIR="$D" 2>err &&
	grep -q "^install: autofreeze $(cat "$TOP"/VERSION)" err &&
	test -x "$AFC" && test -x "$D$P/libexec/autofreeze/autofreeze" &&
	test -f "$D$P/share/man/man1/autofreeze.1" &&
	for f in Makefile mk/rules.mk mk/helper.mk cocci/kthread_freezer.cocci \
		policy/judgments.tsv policy/prerequisites.tsv scripts/diff.sh \
		scripts/lib/ktree.sh scripts/lib/convert.sh VERSION INSTALLED; do
		test -f "$DATA/$f" || { echo "no $f"; return 1; }
	done &&
	test -d "$DATA/patches/linux-mainline" &&
	test -x "$DATA/scripts/autofreeze"
'

test_expect_success SPATCH "the install made read-only, a source newer than its helper; a kernel tree" '
	mkdir -p home && chmod 777 home &&
	touch "$DATA"/scripts/helper/main.c "$DATA"/VERSION &&
	test "$DATA"/scripts/helper/main.c -nt "$D$P"/libexec/autofreeze/autofreeze &&
	touch stamp &&
	chmod -R a-w "$D" &&
	ck_tree kt && chmod -R a+rX "$TRASH" &&
	cp -a kt kt.orig &&
	make -s -C "$TOP" diff KTREE="$TRASH"/kt DIR=fs/xfs >checkout.diff &&
	grep -q "^+++ b/fs/xfs/xfs_trans_ail.c" checkout.diff
'

test_expect_success SPATCH "installed, in the kernel tree, no path given: the same diff as make diff in the checkout" '
	(cd kt && as_user "$AFC" diff DIR=fs/xfs) >inst.diff 2>err &&
	test_cmp checkout.diff inst.diff &&
	(cd kt/fs/xfs && as_user "$AFC" diff fs/xfs) >inst2.diff 2>err &&
	test_cmp checkout.diff inst2.diff &&
	diff -r kt.orig kt
'

test_expect_success SPATCH "installed, the rules by hand in the kernel tree, no -D: they ask the command on PATH, and give make diff" '
	cp -a kt.orig kh && chmod -R a+rwX kh && touch stamph &&
	for r in fs_autofreeze kthread_freezer wq_freezable; do
		(cd kh && as_user env -u AUTOFREEZE PATH="$D$P/bin:$PATH" \
			$SPATCH --sp-file "$DATA"/cocci/$r.cocci -D patch --very-quiet \
			--use-coccigrep --in-place --dir fs/xfs) >/dev/null 2>err || { cat err; return 1; }
	done &&
	"$TOP"/scripts/lib/tree-diff.sh kt.orig kh $( { (cd kh && find fs -type f -newer ../stamph);
		sed -n "s|^+++ b/||p" checkout.diff; } | LC_ALL=C sort -u) >hand.diff &&
	test_cmp checkout.diff hand.diff
'

test_expect_success SPATCH "installed: never rebuilt, nothing written in it; BUILD is the user cache" '
	(cd kt && as_user "$AFC" report fs/xfs) >report 2>err &&
	grep -q "^fs/xfs" report &&
	! grep -E "^(cc|gcc) |/ld: |Permission denied|^helper: " err &&
	test -z "$(find "$D" -newer stamp)" &&
	as_user "$AFC" help >help &&
	grep -qF "(default KTREE: the kernel tree the current directory is in, else $TRASH/home/.cache/autofreeze/build/linux-7.3-vfs)" help
'

test_expect_success SPATCH "installed, outside a kernel tree, no KTREE: the default in the cache, one line, exit 2" '
	mkdir -p notk && (cd notk && test_exit_code 2 as_user "$AFC" diff fs/xfs) >out 2>err &&
	one_line diff.sh && grep -qF "KTREE=$TRASH/home/.cache/autofreeze/build/linux-7.3-vfs: no such directory" err &&
	test_cmp /dev/null out
'

test_expect_success SPATCH "--version names the release, installed and in the checkout; the helper too" '
	v=$(cat "$TOP"/VERSION) &&
	as_user "$AFC" --version >out && grep -qx "autofreeze $v\([-+].*\)\{0,1\}" out &&
	test "$(cat out)" = "autofreeze $(cat "$DATA"/VERSION)" &&
	"$TOP"/bin/autofreeze --version >out && grep -qx "autofreeze $v\([-+].*\)\{0,1\}" out &&
	test "$(cat out)" = "autofreeze $(af_version)" &&
	as_user "$AFC" helper --version >out && grep -qx "autofreeze $v" out
'

test_expect_success SPATCH "help is make help, installed and in the checkout" '
	as_user "$AFC" help >a && (cd "$DATA" && as_user make -s help) >b && test_cmp b a &&
	as_user "$AFC" --help >a && test_cmp b a &&
	"$TOP"/bin/autofreeze help >a && make -s -C "$TOP" help >b && test_cmp b a
'

test_expect_success SPATCH "the man page holds every target of make help" '
	make -s -C "$TOP" help | sed -n "s/^    \([^ ][^ ]*\) .*/\1/p" >targets &&
	test "$(wc -l <targets)" -gt 10 &&
	man=$D$P/share/man/man1/autofreeze.1 &&
	while read -r t; do
		grep -qxF ".B ${t//-/\\-}" "$man" || { echo "no $t"; return 1; }
	done <targets &&
	if test_have_prereq MAN; then
		MANWIDTH=100 man -l "$man" >man.txt 2>man.err && test_cmp /dev/null man.err &&
		grep -q "^COMMANDS" man.txt && grep -q "check-tree" man.txt &&
		grep -q "autofreeze $(cat "$TOP"/VERSION)" man.txt
	fi
'

test_expect_success SPATCH "installed: the helper's own commands, and check-tree's exit 1 for findings" '
	(cd kt && as_user "$AFC" helper scan fs/xfs) >scan &&
	grep -q "^fs/xfs/xfs_trans_ail.c:[0-9]*:[0-9]*: set_freezable kthread xfsaild" scan &&
	ck_tree kf && chmod -R a+rX kf &&
	sed -i "s/\(\.fs_flags.*=.*\)FS_REQUIRES_DEV/\1FS_REQUIRES_DEV | FS_AUTOFREEZE/" kf/fs/xfs/xfs_super.c &&
	(cd kf && test_exit_code 1 as_user "$AFC" check-tree fs) >out 2>err &&
	grep -q "error:" out &&
	! grep -q "^make" err
'

test_expect_success SPATCH "make -C the checkout from inside a tree: KTREE=. and no KTREE are that tree; a relative KTREE is the caller's" '
	(cd kt && make -s -C "$TOP" diff KTREE=. DIR=fs/xfs) >out &&
	test_cmp checkout.diff out &&
	(cd kt/fs && make -s -C "$TOP" diff DIR=fs/xfs) >out &&
	test_cmp checkout.diff out &&
	make -s -C "$TOP" diff KTREE=kt DIR=fs/xfs >out &&
	test_cmp checkout.diff out &&
	(cd kt && "$TOP"/bin/autofreeze diff fs/xfs) >out &&
	test_cmp checkout.diff out
'

test_expect_success SPATCH "make -C from a directory that is no kernel tree, KTREE=.: one line saying what . was relative to, exit 2" '
	(cd notk && test_exit_code 2 make -s -C "$TOP" diff KTREE=. DIR=fs/xfs) >out 2>err &&
	grep -vE "^make(\[[0-9]+\])?: \*\*\* " err >err.script && mv err.script err &&
	one_line diff.sh && grep -qF "diff.sh: KTREE=. (relative to $TRASH/notk): not a kernel tree" err &&
	(cd notk && test_exit_code 2 "$AFC" check-tree KTREE=. fs) >out 2>err &&
	one_line check-tree.sh && grep -qF "KTREE=. (relative to $TRASH/notk): not a kernel tree" err
'

test_expect_success SPATCH "bad input to the command: one line naming it, exit 2, the tree as it was" '
	cd kt &&
	for args in "frobnicate" "--frob" "diff -j2" "diff fs/xfs fs/ext4" "diff fs/xfs DIR=fs" "diff 9x=1" "diff a-b=1" ""; do
		# shellcheck disable=SC2086 # the words of args are the arguments
		test_exit_code 2 "$AFC" $args >../out 2>../err &&
		(cd .. && one_line autofreeze && test_cmp /dev/null out) || { echo "args: $args"; return 1; }
	done &&
	cd .. && diff -r kt.orig kt
'

test_expect_success SPATCH "make uninstall removes what make install put there" '
	chmod -R u+w "$D" &&
	make -s -C "$TOP" uninstall PREFIX="$P" DESTDIR="$D" &&
	test -z "$(find "$D" -type f -o -type l)"
'

test_expect_success SPATCH "make install refuses to replace a directory that is no autofreeze install" '
	mkdir -p other/share/autofreeze && echo mine >other/share/autofreeze/file &&
	test_exit_code 2 make -s -C "$TOP" install PREFIX="$TRASH"/other 2>err &&
	grep -q "is no autofreeze install: not replacing it" err &&
	test "$(cat other/share/autofreeze/file)" = mine
'

# the read-only install goes with the scratch directory
chmod -R u+w "$TRASH" 2>/dev/null
test_done
