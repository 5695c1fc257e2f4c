#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t50-vfs: the core VFS series (make vfs) and the compile check (make
# build-check) on copies of the Debian linux-source-6.1 and 6.12 trees;
# with KTREE_COMPILE=1 (or a list of versions) also the rules by hand
# over all of fs/.
#
# Expensive part: one allmodconfig + prepare per version, then only the
# objects the series touches, twice (baseline and patched).  The trees
# are hard-linked copies where the file system allows it; vfs.sh,
# build-check.sh and git replace files rather than write into them, and
# a test checks that the Debian trees stay untouched.

. "$(dirname "$0")/lib.sh"

# copy_tree SRC DEST: a cheap copy of a kernel tree.
copy_tree()
{
	ktree_link_copy "$1" "$2"
}

# git_tree SRC V DEST: the files of SRC the series for V touches, with
# the top Makefile and Kconfig (what makes it a kernel tree to vfs.sh)
# and .gitignore (whose ".*" ignores .autofreeze-*), as a fresh git
# repository with one commit: git am needs no more, and committing a
# whole kernel tree costs a minute.  That .gitignore ignores more at the
# top, so the files are added with -f.
git_tree()
{
	rm -rf "$3" && mkdir -p "$3" &&
	(cd "$1" && cp --parents .gitignore Makefile Kconfig $(series_files "$2") "$3/") &&
	git -C "$3" init -q &&
	# no background gc: it races the checks and the clean-up
	git -C "$3" config gc.auto 0 &&
	git -C "$3" add -f -A &&
	git -C "$3" -c user.name=t50 -c user.email=t50@localhost \
		commit -q -m "Debian tree"
}

# series_files V: the files the series for V touches, sorted.
series_files()
{
	sed -n 's|^+++ b/||p' "$TOP"/patches/linux-"$1"/0*.patch | sort -u
}

# subject PATCH: the subject of a format-patch file, unfolded, without
# its [PATCH n/m] prefix.
subject()
{
	awk '/^Subject: / { s = $0; while ((getline l) > 0 && l ~ /^[ \t]/) s = s l
		sub(/^Subject: \[PATCH[^]]*\] */, "", s); gsub(/[ \t]+/, " ", s)
		print s; exit }' "$1"
}

# sums DIR FILE...: checksums of the given files of DIR.
sums()
{
	local d=$1
	shift
	(cd "$d" && md5sum "$@")
}

vmake()
{
	make -s --no-print-directory -C "$TOP" "$@"
}

# edit_new FILE SED-SCRIPT: edit FILE into a new inode (it may be
# hard-linked to the Debian tree).
edit_new()
{
	sed "$2" "$1" >"$1.t50" && mv -f "$1.t50" "$1"
}

# The snippets run in a subshell of this script: they see $v, $src,
# $plain and $gitt.  Each is one && chain, so that any step can fail it
# (set -e does not work inside test_expect_success).
# shellcheck disable=SC2034 # used by the snippets
# apply_compiles TREE O RESULT: make build-check of what vfs and apply
# touched in TREE compiles every object with no new warning; its summary
# line goes to RESULT.  For a test body.
apply_compiles()
{
	local nobj
	nobj=$(sort -u "$(ktree_state "$1")/touched" | grep -c "\.c$") &&
	vmake build-check KTREE="$1" O="$2" >out 2>&1 &&
	cat out &&
	test "$(grep -c "^OK " out)" -eq "$nobj" &&
	! grep -E "^(FAIL|NEW WARNINGS) " out &&
	grep -q "^build-check.sh: $nobj objects, 0 new warnings, passed$" out &&
	grep "^build-check.sh: .* objects, " out >"$3"
}

# test_rules_by_hand V TREE O: the rules by hand over all of fs/ of
# TREE, on top of what is applied: every unit, also those the default
# policy leaves.  KTREE_COMPILE=1 runs it for every version, a list
# ("6.12 7.3", as CI sets it) for those.  TREE is configured and
# prepared in O already.
test_rules_by_hand()
{
	local v=$1 plain=$2 o=$3
	test_lazy_prereq KTREE_COMPILE_${v/./_} "case \" \${KTREE_COMPILE:-} \" in \" 1 \" | *\" $v \"*) true ;; *) false ;; esac"
	test_expect_success KTREE_COMPILE_${v/./_},KTREE_${1/./_} "$v: and every rule by hand over all of fs/: every touched object compiles, no new warning" '
		O="$o" "$TESTS"/tools/real-kernel-compile.sh "$plain" >compile.log 2>&1;
		rc=$?; grep -v "^OK " compile.log; test $rc -eq 0 &&
		grep -q "^real-kernel-compile.sh: .* files, .* hunks by hand" compile.log &&
		grep -q "objects, 0 new warnings, passed$" compile.log
	'
}

run_version()
{
	local v=$1 src=$TOP/build/linux-source-$1
	local plain=$TOP/build/t50-$1 gitt=$TOP/build/t50-$1-git
	local o=$TRASH/o-$1 prereq=KTREE_${1/./_}

	test_expect_success $prereq "$v: make vfs applies the series to a copy of the Debian tree (patch -p1)" '
		copy_tree "$src" "$plain" &&
		vmake vfs KTREE="$plain" >out 2>err &&
		cat out err &&
		grep -q "applied the VFS series patches/linux-$v to" out &&
		test ! -s err &&
		grep -q "\bFS_AUTOFREEZE\b" "$plain/include/linux/fs.h" &&
		grep -q "fs_suspend_freeze()" "$plain/kernel/power/process.c" &&
		grep -q "fs_suspend_thaw()" "$plain/kernel/power/process.c" &&
		series_files "$v" >want &&
		st=$(ktree_state "$plain") &&
		sort "$st/touched" >have &&
		test_cmp want have &&
		for f in $(cat want); do
			cmp "$src/$f" "$st/orig/$f" || exit 1
		done
	'

	test_expect_success $prereq "$v: the Debian tree itself is left untouched" '
		! grep -q "\bFS_AUTOFREEZE\b" "$src/include/linux/fs.h" &&
		! grep -q fs_suspend "$src/kernel/power/process.c" &&
		test ! -e "$(ktree_state "$src")/touched"
	'

	test_expect_success $prereq "$v: every touched object compiles with no new warning (make build-check)" '
		nobj=$(series_files "$v" | grep -c "\.c$") &&
		vmake build-check KTREE="$plain" O="$o" >out 2>&1 &&
		cat out &&
		test "$(grep -c "^OK " out)" -eq "$nobj" &&
		! grep -E "^(FAIL|NEW WARNINGS) " out &&
		grep -q "^build-check.sh: $nobj objects, 0 new warnings, passed$" out &&
		for h in $(series_files "$v" | grep "\.h$"); do
			grep -q "^HEADER  *$h " out || exit 1
		done
	'

	# build-check's own verdicts, once: they depend on no version.
	if [ -z "${build_check_tested:-}" ]; then
		build_check_tested=1
		test_expect_success $prereq "$v: build-check reports a new warning, a failed compile, and passes again" '
			t=$plain/fs/super.c &&
			cp -p "$t" super.c.patched &&
			edit_new "$t" "/^int freeze_super(/,/^{/s/^{/{\n\tint t50_unused;/" &&
			grep -q t50_unused "$t" &&
			test_must_fail vmake build-check KTREE="$plain" O="$o" \
				FILES=fs/super.c >out 2>&1 &&
			cat out &&
			grep -q "^NEW WARNINGS  fs/super.o$" out &&
			grep -q "^    fs/super.c: warning: unused variable .t50_unused." out &&
			grep -q "^build-check.sh: 1 objects, 1 new warnings, FAILED$" out &&
			edit_new "$t" "s/int t50_unused;/int t50_unused = ;/" &&
			test_must_fail vmake build-check KTREE="$plain" O="$o" \
				FILES=fs/super.c >out 2>&1 &&
			cat out &&
			grep -q "^FAIL          fs/super.o$" out &&
			cp -p super.c.patched super.c.new && mv -f super.c.new "$t" &&
			vmake build-check KTREE="$plain" O="$o" FILES=fs/super.c >out 2>&1 &&
			cat out &&
			grep -q "^OK            fs/super.o" out &&
			cmp super.c.patched "$t" &&
			test_exit_code 2 env KTREE="$plain" KCONFIG=no-such-thing \
				"$TOP"/scripts/build-check.sh 2>err &&
			test "$(wc -l <err)" -eq 1 &&
			grep -q "^build-check.sh: KCONFIG=no-such-thing" err
		'
	fi

	test_expect_success $prereq "$v: make vfs on the patched tree is a no-op" '
		files=$(series_files "$v") &&
		{ sums "$plain" $files; cat "$(ktree_state "$plain")/touched"; } >before &&
		vmake vfs KTREE="$plain" >out 2>err &&
		cat out err &&
		grep -q "already has the VFS series patches/linux-$v, nothing to do" out &&
		test ! -s err &&
		{ sums "$plain" $files; cat "$(ktree_state "$plain")/touched"; } >after &&
		test_cmp before after
	'

	test_expect_success $prereq "$v: make vfs applies the series with git am to a git copy" '
		git_tree "$src" "$v" "$gitt" &&
		base=$(git -C "$gitt" rev-parse HEAD) &&
		vmake vfs KTREE="$gitt" >out 2>err &&
		cat out err &&
		grep -q "(git am, " out &&
		for p in "$TOP"/patches/linux-"$v"/000[1-9]-*.patch; do
			subject "$p" || exit 1
		done >want &&
		git -C "$gitt" log --reverse --format=%s "$base..HEAD" >have &&
		test_cmp want have &&
		test -z "$(git -C "$gitt" status --porcelain)" &&
		for f in $(series_files "$v"); do
			cmp "$plain/$f" "$gitt/$f" || exit 1
		done
	'

	test_expect_success $prereq "$v: make vfs on the patched git tree is a no-op" '
		head=$(git -C "$gitt" rev-parse HEAD) &&
		vmake vfs KTREE="$gitt" >out &&
		grep -q "nothing to do" out &&
		test "$(git -C "$gitt" rev-parse HEAD)" = "$head"
	'

	# A local change where the series hooks in: no series fits the
	# code any more, and vfs says so before it writes anything.
	test_expect_success $prereq "$v: a tree the series does not apply to is refused, naming the hunk, and left as it was" '
		m=mini-$v &&
		mkdir "$m" &&
		(cd "$src" && cp --parents Makefile Kconfig $(series_files "$v") "$TRASH/$m/") &&
		edit_new "$m/kernel/power/process.c" \
			"s/__usermodehelper_set_disable_depth(UMH_DISABLED);/& \/* local *\//" &&
		grep -q "/\* local \*/" "$m/kernel/power/process.c" &&
		cp -a "$m" "$m-git" &&
		git -C "$m-git" init -q &&
		git -C "$m-git" add -f -A &&
		git -C "$m-git" -c user.name=t50 -c user.email=t50@localhost \
			commit -q -m base &&
		(cd "$m" && find . -type f | sort | xargs md5sum) >before &&
		test_exit_code 2 "$TOP"/scripts/vfs.sh "$m" 2>err &&
		cat err &&
		test "$(wc -l <err)" -eq 1 &&
		grep -Eq "^vfs.sh: .*: no VFS series for this tree: .*patches/linux-$v/: 000(2|7)-[^:]*: kernel/power/process.c: hunk [0-9]* \(line [0-9]*\) does not apply" err &&
		(cd "$m" && find . -type f | sort | xargs md5sum) >after &&
		test_cmp before after &&
		head=$(git -C "$m-git" rev-parse HEAD) &&
		test_exit_code 2 "$TOP"/scripts/vfs.sh "$m-git" 2>err &&
		cat err &&
		test "$(wc -l <err)" -eq 1 &&
		test "$(git -C "$m-git" rev-parse HEAD)" = "$head" &&
		test -z "$(git -C "$m-git" status --porcelain)" &&
		test ! -d "$(git -C "$m-git" rev-parse --git-path rebase-apply)"
	'

	test_expect_success $prereq "$v: series + make apply DIR=fs: every touched object compiles, no new warning" '
		vmake apply KTREE="$plain" DIR=fs >out 2>&1 &&
		cat out &&
		grep -q "converted" out &&
		apply_compiles "$plain" "$o" "$TRASH/series-apply-$v"
	'
	[ -f "$TRASH/series-apply-$v" ] &&
		say "# $v series + apply DIR=fs: $(cat "$TRASH/series-apply-$v")"

	test_rules_by_hand "$v" "$plain" "$o"

	test_expect_success $prereq "$v: clean up the scratch trees" '
		rm -rf "$plain" "$gitt" "$o"
	'
}

# Mainline (7.3): its own suspend freeze honours FS_POWER_FREEZE, but
# lacks what a conversion needs (policy/prerequisites.tsv): make diff
# refuses, naming make vfs, which applies patches/linux-mainline/; a
# tree with part of it gets the rest.  Then make vfs has nothing to do;
# make apply DIR=fs writes the flag, and every object it touches
# compiles with no new warning.  With KTREE_COMPILE, also every rule by
# hand over all of fs/.
run_mainline()
{
	local v=$1 src=$TOP/build/linux-source-$1
	local plain=$TOP/build/t50-$1 o=$TRASH/o-$1 prereq=KTREE_${1/./_}

	test_expect_success $prereq "$v: as Debian ships it, diff refuses in one line naming make vfs; make vfs applies patches/linux-mainline/" '
		copy_tree "$src" "$plain" &&
		test_exit_code 2 vmake diff KTREE="$plain" DIR=fs/xfs >out 2>err &&
		test ! -s out && test "$(grep -c "^diff.sh: " err)" -eq 1 &&
		grep -q "its suspend freeze lacks what a conversion needs: run make vfs KTREE=.* first, which applies patches/linux-mainline/ (nothing changed" err &&
		vmake vfs KTREE="$plain" >out 2>err &&
		cat out err &&
		grep -q "applied the VFS series patches/linux-mainline to .* (patch -p1, 4 patches)" out &&
		test ! -s err &&
		"$TOP"/scripts/autofreeze prereqs "$plain" | cut -f1 | sort -u >got &&
		echo has >want && test_cmp want got &&
		vmake vfs KTREE="$plain" >out 2>err &&
		grep -q "needs no VFS series: its own suspend freeze, filesystems_freeze_callback() (fs/super.c), freezes the types that carry FS_POWER_FREEZE" out
	'

	test_expect_success $prereq "$v: a tree with part of the prerequisites: optin partial; make vfs applies only the missing one" '
		copy_tree "$plain" part-$v && rm part-$v/kernel/power/user.c &&
		cp "$src/kernel/power/user.c" part-$v/kernel/power/user.c &&
		"$TOP"/scripts/autofreeze optin part-$v | cut -f2 >got &&
		echo partial >want && test_cmp want got &&
		vmake vfs KTREE="$TRASH/part-$v" >out 2>err &&
		grep -q "applied the VFS series patches/linux-mainline (only what the tree lacked) to .* (patch -p1, 1 patches)" out &&
		cmp "$plain/kernel/power/user.c" part-$v/kernel/power/user.c &&
		rm -rf part-$v
	'

	test_expect_success $prereq "$v: make apply DIR=fs adds FS_POWER_FREEZE: every touched object compiles, no new warning" '
		vmake apply KTREE="$plain" DIR=fs >out 2>&1 &&
		cat out &&
		grep -q "converted .*; FS_POWER_FREEZE on " out &&
		! grep -rq FS_AUTOFREEZE $(sed "s|^|$plain/|" "$(ktree_state "$plain")/touched") &&
		apply_compiles "$plain" "$o" "$TRASH/apply-$v"
	'
	[ -f "$TRASH/apply-$v" ] && say "# $v apply DIR=fs: $(cat "$TRASH/apply-$v")"

	test_rules_by_hand "$v" "$plain" "$o"

	test_expect_success $prereq "$v: clean up the scratch trees" '
		rm -rf "$plain" "$o"
	'
}

# T50_VERSIONS="6.1" runs one version only (while working on it).
for v in ${T50_VERSIONS:-6.1 6.12 7.3}; do
	# our core series where the tree's freeze is to come from it
	if [ "$("$TOP"/scripts/autofreeze optin "$TOP/build/linux-source-$v" 2>/dev/null | cut -f3)" = FS_AUTOFREEZE ]; then
		run_version "$v"
	else
		run_mainline "$v"
	fi
done

# Each series of patches/ as the list reads it: the checkpatch.pl
# --strict of the kernel it is for reports nothing but the sign-off it
# leaves to whoever sends it (patches/README).
for d in linux-6.1:6.1 linux-6.12:6.12 linux-mainline:7.3; do
	v=${d#*:}
	test_expect_success "KTREE_${v/./_}" \
		"patches/${d%:*}/: checkpatch.pl --strict of linux-${d#*:} reports nothing but the missing sign-off" '
		(cd "$TOP/build/linux-source-${d#*:}" &&
		 perl scripts/checkpatch.pl --strict --show-types -q \
			"$TOP"/patches/${d%:*}/000[1-9]*.patch) >cp.out 2>&1;
		grep -E "^(ERROR|WARNING|CHECK):" cp.out | grep -v "^ERROR:MISSING_SIGN_OFF:" >cp.bad;
		test_line_count cp.bad 0 && grep -q "^ERROR:MISSING_SIGN_OFF:" cp.out
	'
done

test_expect_success "make vfs refuses a tree no series fits: exit 2, one line" '
	mkdir -p fake-4.9/include/linux fake-4.9/kernel/power fake-4.9/fs &&
	printf "VERSION = 4\nPATCHLEVEL = 9\nSUBLEVEL = 0\n" >fake-4.9/Makefile &&
	: >fake-4.9/Kconfig &&
	: >fake-4.9/include/linux/fs.h &&
	: >fake-4.9/kernel/power/process.c &&
	test_exit_code 2 "$TOP"/scripts/vfs.sh fake-4.9 >out 2>err &&
	cat err &&
	test "$(wc -l <err)" -eq 1 &&
	test ! -s out &&
	grep -q "^vfs.sh: .*fake-4.9: no VFS series for this tree: .*no core series autofreeze ships applies to it (patches/linux-6.1/: 0001-.*; patches/linux-6.12/: 0001-" err &&
	test_exit_code 2 vmake vfs KTREE="$TRASH/fake-4.9" 2>err &&
	test "$(grep -c "^vfs.sh: " err)" -eq 1
'

test_expect_success "make vfs refuses a missing KTREE and a non-kernel directory: exit 2, one line" '
	test_exit_code 2 "$TOP"/scripts/vfs.sh "$TRASH/no-such-tree" 2>err &&
	cat err &&
	test "$(wc -l <err)" -eq 1 &&
	grep -q "^vfs.sh: .*no-such-tree: no such directory" err &&
	test_exit_code 2 vmake vfs KTREE="$TRASH/no-such-tree" 2>err &&
	test "$(grep -c "^vfs.sh: " err)" -eq 1 &&
	mkdir not-a-kernel &&
	echo "all:" >not-a-kernel/Makefile &&
	test_exit_code 2 "$TOP"/scripts/vfs.sh not-a-kernel 2>err &&
	cat err &&
	test "$(wc -l <err)" -eq 1 &&
	grep -q "^vfs.sh: .*not a kernel tree" err &&
	test_exit_code 2 env KTREE= "$TOP"/scripts/vfs.sh 2>err &&
	test "$(wc -l <err)" -eq 1 &&
	grep -q "^vfs.sh: no kernel tree given" err
'

test_expect_success "make build-check refuses bad input: exit 2, one line" '
	test_exit_code 2 env KTREE="$TRASH/no-such-tree" "$TOP"/scripts/build-check.sh 2>err &&
	cat err &&
	test "$(wc -l <err)" -eq 1 &&
	grep -q "^build-check.sh: " err &&
	test_exit_code 2 env KTREE="$TRASH" "$TOP"/scripts/build-check.sh 2>err &&
	test "$(wc -l <err)" -eq 1 &&
	grep -q "not a kernel tree" err
'

test_done
