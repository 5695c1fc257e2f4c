#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-check.sh: compile the objects whose sources autofreeze changed in
# a kernel tree and report, per object, OK / FAIL / NEW WARNINGS, where a
# new warning is one the untouched source does not give.
#
#   KTREE=<tree> [O=<build dir>] [FILES="a.c b.h ..."] [KCONFIG=allmodconfig]
#   [BASE_REV=<rev>] [J=<jobs>] build-check.sh
#
# FILES defaults to the files make vfs and make apply changed, in the
# tree's bookkeeping (scripts/lib/journal.sh).  KCONFIG is a `make *config` target or the
# path to a .config; O is configured once per KCONFIG (with
# CONFIG_WERROR turned off, so that a new warning is not an error) and
# then `make prepare` is run.  Headers are not compiled by themselves, but the
# objects are compiled against them, and so is the baseline.
#
# The baseline is the untouched content of the touched files (all those
# recorded, also when FILES names only some): the copy in the
# bookkeeping's orig/ (saved by vfs and apply), else `git show HEAD:<file>`
# in a git tree; with BASE_REV=<rev> (a git tree: make series), the
# files of FILES as that revision has them.  The baseline is compiled in
# a copy of the tree (cp -al: hard links, the baseline files replaced in
# the copy, never written into) with a build directory of its own, O's
# prepared output copied and its paths moved to the copy (a second make
# prepare costs more than the rest); KTREE itself is never written, and
# a kill at any moment leaves it as it was.  The run holds the tree's
# lock (scripts/lib/journal.sh): an apply or vfs meanwhile refuses.
# The build is out of tree: O defaults to build/build-check-obj/<tree>;
# a tree configured in place (its own .config) is refused, as kbuild
# refuses O= there.  Warnings are compared with line and column numbers
# removed.
#
# Exit status: 0 everything compiled without new warnings, 1 a failure or
# a new warning, 2 bad input.

set -eu
prog=build-check.sh
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$TOP/scripts/lib/ktree.sh"
export LC_ALL=C
# Called from make, MAKEFLAGS would hand the kernel build our -s, V=, O=,
# FILES= and jobserver; the kernel build gets exactly what is given below.
unset MAKEFLAGS MFLAGS MAKEOVERRIDES MAKELEVEL KBUILD_VERBOSE

die()
{
	echo "$prog: $*" >&2
	exit 2
}

[ -n "${KTREE:-}" ] || die "no kernel tree given (set KTREE)"
# A reader of the tree: a killed run's pending journal is refused by
# ktree_check (recovers unset), its files being neither old nor new.
ktree_check "$KTREE" .
# its list and old contents name only paths inside the tree
state_check
ktree=$KTREE
# The tree's lock, for the whole run: what is compiled and its record
# (touched, orig/) stay as they are.  Under series.sh, which holds it,
# it is handed over (tree_lock).
tree_lock
[ -d "$ktree/scripts/kconfig" ] ||
	die "KTREE=$ktree: no scripts/kconfig, cannot configure a build"

kconfig=${KCONFIG:-allmodconfig}
jobs_check
jobs=$J
if [ -f "$kconfig" ]; then
	kconfig=$(cd "$(dirname "$kconfig")" && pwd)/$(basename "$kconfig")
	stamp="file $(md5sum <"$kconfig" | cut -d' ' -f1) -WERROR"
else
	case $kconfig in
	*config) stamp="target $kconfig -WERROR" ;;
	*) die "KCONFIG=$kconfig: neither a make *config target nor a file" ;;
	esac
fi
# Out of tree only: an O= build is all kbuild allows beside a tree
# configured in place, and that .config is the user's own.
[ ! -e "$ktree/.config" ] && [ ! -e "$ktree/include/config/auto.conf" ] ||
	die "$ktree is configured in place (.config): build-check compiles out of tree (O=), which kbuild refuses there; make mrproper first (KCONFIG=<a copy of your .config> keeps it)"

# --- what to compile -------------------------------------------------
if [ -n "${FILES:-}" ]; then
	files=$FILES
elif [ -f "$(state_path touched)" ]; then
	files=$(cat "$(state_path touched)")
else
	die "no FILES given and no record of a make vfs or make apply on $ktree (in $KSTATE: run one first)"
fi
# shellcheck disable=SC2086 # one path per word
files=$(printf '%s\n' $files | sed 's|^\./||' | awk 'NF && !seen[$0]++')
[ -n "$files" ] || die "no files to check"
while read -r f; do
	[ -f "$ktree/$f" ] || die "$f: no such file in $ktree"
done <<<"$files"

if [ -n "${O:-}" ]; then
	objdir=$O
else
	objdir=${BUILD:-$TOP/build}/build-check-obj/$(basename "$ktree")-$(printf '%s' "$ktree" | sha256sum | cut -c1-12)
fi
case $(realpath -m -- "$objdir")/ in
"$ktree"/*) die "O=$objdir: inside $ktree; build-check never writes the tree" ;;
esac
mkdir -p "$objdir" 2>/dev/null || die "O=$objdir: cannot create it"
obj=$(cd "$objdir" && pwd -P)

kmake=(make -C "$ktree" -s "O=$obj")

tmp=$(mktemp -d "${TMPDIR:-/tmp}/build-check.XXXXXX")
base=
cleanup()
{
	rm -rf "$tmp"
	[ -z "$base" ] || rm -rf "$base"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# --- configure once per KCONFIG, then prepare --------------------------
if [ ! -f "$obj/.config" ] ||
   [ "$(cat "$obj/.autofreeze-kconfig" 2>/dev/null)" != "$stamp" ]; then
	echo "$prog: configuring $obj ($kconfig)"
	rm -f "$obj/.autofreeze-kconfig"
	# CONFIG_WERROR (on in allmodconfig) would turn every new warning
	# into a failure; it is turned off so that the two can be told apart.
	{
		if [ -f "$kconfig" ]; then
			cp "$kconfig" "$obj/.config"
		else
			"${kmake[@]}" "$kconfig"
		fi &&
		"$ktree/scripts/config" --file "$obj/.config" --disable WERROR &&
		"${kmake[@]}" olddefconfig
	} >"$tmp/config.log" 2>&1 || {
		tail -n 5 "$tmp/config.log" >&2
		echo "$prog: make $kconfig failed in $ktree" >&2
		exit 1
	}
	echo "$stamp" >"$obj/.autofreeze-kconfig"
fi
echo "$prog: make prepare"
"${kmake[@]}" -j"$jobs" prepare >"$tmp/prepare.log" 2>&1 || {
	tail -n 10 "$tmp/prepare.log" >&2
	echo "$prog: make prepare failed in $ktree" >&2
	exit 1
}

# --- the objects -------------------------------------------------------
objects=()
headers=()
others=()
while read -r f; do
	case $f in
	*.c | *.S) objects+=("${f%.*}.o") ;;
	*.h) headers+=("$f") ;;
	*) others+=("$f") ;;
	esac
done <<<"$files"

# sed_quote STRING: STRING as a literal in a sed s|...|...| pattern
sed_quote() { printf '%s' "$1" | sed 's/[][\.*^$|/&]/\\&/g'; }

# compile_all TAG SRC OBJ: build every object afresh from tree SRC in
# OBJ in one parallel make (separate makes would race on kbuild's
# generated files), keep going past failures.
# Output is synchronised per target, so each object's warnings follow its
# "  CC  <object>" line; they go, normalised, to $tmp/TAG/<object>.warn.
# An object that is missing afterwards failed.
compile_all()
{
	local tag=$1 src=$2 dir=$3 o key
	mkdir -p "$tmp/$tag"
	for o in "${objects[@]}"; do
		rm -f "$dir/$o"
	done
	make -C "$src" V=0 "O=$dir" -k -j"$jobs" --output-sync=target "${objects[@]}" \
		>"$tmp/$tag.log" 2>&1 || true
	# "file:12:34: warning: ..." -> "file: warning: ...", and objtool's
	# "file.o: warning: objtool: func+0x1f: ..." -> "...func: ..."
	awk -v dir="$tmp/$tag" '
		/^  (CC|AS)( \[M\])? +[^ ]+\.o$/ {
			cur = $NF; gsub("/", "_", cur); next
		}
		/(warning|error):/ {
			print > (dir "/" (cur != "" ? cur : "unattributed") ".raw")
		}
	' "$tmp/$tag.log"
	objects_and_rest=("${objects[@]}" unattributed)
	for o in "${objects_and_rest[@]}"; do
		key=${o//\//_}
		touch "$tmp/$tag/$key.raw"
		sed -E -e "s|^$(sed_quote "$src")/||" \
			-e 's/:[0-9]+:[0-9]+:/:/; s/:[0-9]+:/:/; s/\+0x[0-9a-f]+//g' \
			"$tmp/$tag/$key.raw" | sort -u >"$tmp/$tag/$key.warn"
		if [ -f "$dir/$o" ]; then
			echo 0 >"$tmp/$tag/$key.rc"
		else
			echo 1 >"$tmp/$tag/$key.rc"
		fi
	done
}

# The untouched content of a touched file, into $2; false when unknown.
original()
{
	local f=$1 dest=$2
	mkdir -p "$(dirname "$dest")"
	if [ -n "${BASE_REV:-}" ]; then
		git -C "$ktree" cat-file -e "$BASE_REV:$f" 2>/dev/null || return 1
		git -C "$ktree" show "$BASE_REV:$f" >"$dest"
	elif [ -f "$(state_path orig)/$f" ]; then
		cp "$(state_path orig)/$f" "$dest"
	elif git -C "$ktree" rev-parse --show-toplevel >/dev/null 2>&1 &&
	     git -C "$ktree" cat-file -e "HEAD:$f" 2>/dev/null; then
		git -C "$ktree" show "HEAD:$f" >"$dest"
	else
		return 1
	fi
}

# base_dir: where the baseline's copy of the tree goes: beside O, or in
# TMPDIR, whichever is on the tree's file system (cp -al), else beside O
# (a full copy).
base_dir()
{
	local d dev
	dev=$(stat -c %d "$ktree")
	for d in "$(dirname "$obj")" "${TMPDIR:-/tmp}"; do
		if [ -d "$d" ] && [ -w "$d" ] && [ "$(stat -c %d "$d")" = "$dev" ]; then
			echo "$d"
			return
		fi
	done
	dirname "$obj"
}

# seed_base: the baseline's build directory, $base/obj, made from O as
# prepared (a copy, not links: kbuild writes into some of its files),
# without the objects outside the host tools, its recorded commands
# moved from the tree to the copy and from O to it: kbuild then finds
# prepare done, and rebuilds only what depends on a baseline file.
seed_base()
{
	(cd "$obj" && find . \( -path ./scripts -o -path ./tools -o -path './arch/*/tools' \) -prune -print0 -o \
		\( -type f \( -name '*.o' -o -name '*.ko' -o -name '*.a' -o -name '*.dwo' \
		   -o -name 'vmlinux*' -o -name '.tmp_vmlinux*' -o -name bzImage \) \) -o -print0) |
	(cd "$obj" && tar --null --no-recursion -T - -cf - 2>/dev/null) | tar -C "$base/obj" -xpf - 2>/dev/null &&
	# the pruned host tools' directories, whole
	(cd "$obj" && for d in scripts tools arch/*/tools; do
		[ ! -d "$d" ] || { mkdir -p "$base/obj/$d" && cp -a "$d/." "$base/obj/$d/"; } || exit 1
	 done) &&
	# a path ends where no path character follows
	find "$base/obj" -type f \( -name '.*.cmd' -o -path "$base/obj/include/config/auto.conf.cmd" \) -print0 |
		xargs -0 -r sed -i \
			-e "s|$(sed_quote "$ktree")\([^A-Za-z0-9._+-]\)|$(sed_quote "$base/src")\1|g" \
			-e "s|$(sed_quote "$ktree")\$|$(sed_quote "$base/src")|" \
			-e "s|$(sed_quote "$obj")\([^A-Za-z0-9._+-]\)|$(sed_quote "$base/obj")\1|g" \
			-e "s|$(sed_quote "$obj")\$|$(sed_quote "$base/obj")|"
}

nobase=
if [ ${#objects[@]} -gt 0 ]; then
	# Baseline: every touched file back to its untouched content, also
	# those recorded but not asked for, e.g. a header FILES leaves out.
	: >"$tmp/swap.list"
	basefiles=$files
	if [ -z "${BASE_REV:-}" ] && [ -f "$(state_path touched)" ]; then
		basefiles=$(printf '%s\n' "$files" |
			cat - "$(state_path touched)" | awk 'NF && !seen[$0]++')
	fi
	while read -r f; do
		[ -f "$ktree/$f" ] || continue
		if original "$f" "$tmp/orig/$f"; then
			if ! cmp -s "$tmp/orig/$f" "$ktree/$f"; then
				echo "$f" >>"$tmp/swap.list"
			fi
		else
			nobase="$nobase $f"
		fi
	done <<<"$basefiles"
	if [ -s "$tmp/swap.list" ]; then
		echo "$prog: baseline: compiling ${#objects[@]} objects with the untouched sources, in a copy of the tree"
		# named for this run's process: one whose process is gone was
		# killed, and what it left goes now
		bd=$(base_dir)
		for d in "$bd"/build-check-base.*; do
			p=${d##*/build-check-base.}
			p=${p%%.*}
			case $p in '' | *[!0-9]*) continue ;; esac
			[ ! -d "$d" ] || kill -0 "$p" 2>/dev/null || rm -rf "$d"
		done
		base=$(mktemp -d "$bd/build-check-base.$$.XXXXXX")
		ktree_link_copy "$ktree" "$base/src" ||
			{ echo "$prog: cannot copy $ktree to $base/src" >&2; exit 1; }
		# Replaced, never written into: the copy's files are the
		# tree's.  New times, so that what depends on them is rebuilt.
		while read -r f; do
			cp "$tmp/orig/$f" "$base/src/$f.autofreeze-tmp" &&
			chmod --reference="$ktree/$f" "$base/src/$f.autofreeze-tmp" &&
			mv -f "$base/src/$f.autofreeze-tmp" "$base/src/$f" ||
				{ echo "$prog: cannot write the baseline of $f in $base/src" >&2; exit 1; }
		done <"$tmp/swap.list"
		mkdir "$base/obj"
		seed_base ||
			{ echo "$prog: cannot copy $obj to $base/obj" >&2; exit 1; }
		compile_all base "$base/src" "$base/obj"
		rm -rf "$base"
		base=
	fi
	echo "$prog: compiling ${#objects[@]} objects (J=$jobs)"
	compile_all new "$ktree" "$obj"
	if [ ! -s "$tmp/swap.list" ]; then
		# Nothing differs from the untouched content: it is the baseline.
		cp -r "$tmp/new" "$tmp/base"
	fi
	# An object whose own source has no untouched copy has no baseline.
	for f in $nobase; do
		case $f in
		*.c | *.S) o=${f%.*}.o; rm -f "$tmp/base/${o//\//_}.warn" ;;
		esac
	done
fi

# --- report ------------------------------------------------------------
status=0
nobj=0
nwarn=0
for o in "${objects[@]}"; do
	nobj=$((nobj + 1))
	key=${o//\//_}
	rc=$(cat "$tmp/new/$key.rc")
	if [ -f "$tmp/base/$key.warn" ]; then
		comm -13 "$tmp/base/$key.warn" "$tmp/new/$key.warn" >"$tmp/$key.new"
	else
		cp "$tmp/new/$key.warn" "$tmp/$key.new"
	fi
	if [ "$rc" -ne 0 ]; then
		echo "FAIL          $o"
		{
			grep -E 'error:' "$tmp/new/$key.raw"
			grep -F "$o" "$tmp/new.log" | grep -E 'No rule|Error [0-9]'
		} | head -n 10 | sed 's/^/    /'
		status=1
	elif [ -s "$tmp/$key.new" ]; then
		echo "NEW WARNINGS  $o"
		sed 's/^/    /' "$tmp/$key.new"
		nwarn=$((nwarn + $(wc -l <"$tmp/$key.new")))
		status=1
	else
		old=$(wc -l <"$tmp/new/$key.warn")
		if [ "$old" -gt 0 ]; then
			echo "OK            $o ($old warnings, none new)"
		else
			echo "OK            $o"
		fi
	fi
done
# Warnings before any "CC" line: no object to blame, still not to be lost.
if [ ${#objects[@]} -gt 0 ]; then
	if [ -f "$tmp/base/unattributed.warn" ]; then
		comm -13 "$tmp/base/unattributed.warn" "$tmp/new/unattributed.warn"
	else
		cat "$tmp/new/unattributed.warn"
	fi >"$tmp/unattributed.new"
	if [ -s "$tmp/unattributed.new" ]; then
		echo "NEW WARNINGS  (not attributable to one object)"
		sed 's/^/    /' "$tmp/unattributed.new"
		nwarn=$((nwarn + $(wc -l <"$tmp/unattributed.new")))
		status=1
	fi
fi
for h in ${headers[@]+"${headers[@]}"}; do
	echo "HEADER        $h (not compiled by itself; the objects above include it)"
done
for x in ${others[@]+"${others[@]}"}; do
	echo "SKIPPED       $x (not a C source or header)"
done
[ -z "$nobase" ] || echo "$prog: no untouched copy of:$nobase; every warning of their objects counts as new"
echo "$prog: $nobj objects, $nwarn new warnings, $([ $status -eq 0 ] && echo passed || echo FAILED)"
exit $status
