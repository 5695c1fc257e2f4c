#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh: install what autofreeze needs with apt when it is missing, and
# unpack the Debian kernel sources under build/ (the embedded default
# trees).  Extra Debian packages can be named in AF_EXTRA_PACKAGES.
# DEPS=tools installs only what the drivers need on a kernel tree of
# one's own (spatch, and the helper's compiler): what a CI job running
# make check-tree needs, no kernel sources.

set -eu
prog=deps.sh
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
BUILD=${BUILD:-$TOP/build}

# Mainline comes from Debian's trixie-backports: add that suite when apt
# lacks it, pinned so that it gives linux-source-7.3 and nothing else.
backports_list=/etc/apt/sources.list.d/autofreeze-trixie-backports.sources
backports_pin=/etc/apt/preferences.d/autofreeze-trixie-backports
add_backports()
{
	apt-cache policy 2>/dev/null | grep -q 'n=trixie-backports' && return 0
	cat >"$backports_list" <<-EOF
	Types: deb
	URIs: http://deb.debian.org/debian
	Suites: trixie-backports
	Components: main
	Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOF
	cat >"$backports_pin" <<-EOF
	Package: *
	Pin: release n=trixie-backports
	Pin-Priority: 1

	Package: linux-source-7.3
	Pin: release n=trixie-backports
	Pin-Priority: 500
	EOF
}

case ${DEPS:-all} in
all|tools) ;;
*)	echo "$prog: DEPS=$DEPS: not all or tools" >&2; exit 2 ;;
esac

# package → a file it installs, to tell whether it is there: the tools
# the drivers need, then what the tests, builds and guests need
tools="coccinelle:/usr/bin/spatch
gcc:/usr/bin/gcc
libc6-dev:/usr/include/stdio.h
make:/usr/bin/make
python3:/usr/bin/python3
git:/usr/bin/git
patch:/usr/bin/patch"
want="$tools
linux-source-6.1:/usr/src/linux-source-6.1.tar.xz
linux-source-6.12:/usr/src/linux-source-6.12.tar.xz
linux-source-7.3:/usr/src/linux-source-7.3.tar.xz
bc:/usr/bin/bc
bison:/usr/bin/bison
flex:/usr/bin/flex
libelf-dev:/usr/include/libelf.h
libssl-dev:/usr/include/openssl/ssl.h
xz-utils:/usr/bin/xz
time:/usr/bin/time
clang:/usr/bin/clang
libclang-rt-14-dev
qemu-system-x86:/usr/bin/qemu-system-x86_64
busybox-static
ccache:/usr/bin/ccache
e2fsprogs:/usr/sbin/mkfs.ext4
xfsprogs:/usr/sbin/mkfs.xfs
btrfs-progs:/usr/sbin/mkfs.btrfs
f2fs-tools:/usr/sbin/mkfs.f2fs
jfsutils:/usr/sbin/mkfs.jfs
nilfs-tools:/usr/sbin/mkfs.nilfs2
reiserfsprogs:/usr/sbin/mkfs.reiserfs
binutils:/usr/bin/readelf
b4:/usr/bin/b4
python3-yaml:/usr/lib/python3/dist-packages/yaml/__init__.py
yamllint:/usr/bin/yamllint"

[ "${DEPS:-all}" = all ] || want=$tools
missing=
for pair in $want ${AF_EXTRA_PACKAGES:-}; do
	pkg=${pair%%:*}
	file=${pair#*:}
	if [ "$file" = "$pair" ]; then
		dpkg -s "$pkg" >/dev/null 2>&1 || missing="$missing $pkg"
	elif [ ! -e "$file" ]; then
		missing="$missing $pkg"
	fi
done

if [ -n "$missing" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "$prog: missing packages:$missing (run as root, or install them)" >&2
		exit 2
	fi
	echo "$prog: installing$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	case " $missing " in
	*" linux-source-7.3 "*) add_backports ;;
	esac
	apt-get update -qq >&2
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >&2
fi

[ "${DEPS:-all}" = all ] || exit 0
mkdir -p "$BUILD"
for v in 6.1 6.12 7.3; do
	tree=$BUILD/linux-source-$v
	[ -f "$tree/Makefile" ] && continue
	echo "$prog: unpacking linux-source-$v into ${tree#"$TOP"/}" >&2
	rm -rf "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -C "$tree.tmp" -xJf "/usr/src/linux-source-$v.tar.xz"
	mv "$tree.tmp/linux-source-$v" "$tree"
	rmdir "$tree.tmp"
done

# The default KTREE: Debian's 7.3 with what its suspend freeze lacks
# (make vfs: patches/linux-mainline/), a hardlinked copy, so that
# linux-source-7.3 stays as Debian ships it for the controls.  Made
# again when the series changed.
ready=$BUILD/linux-7.3-vfs
stamp=$(cat "$TOP"/patches/linux-mainline/*.patch | sha256sum | cut -c1-16)
if [ "$(cat "$ready/.autofreeze-vfs" 2>/dev/null)" != "$stamp" ]; then
	echo "$prog: preparing ${ready#"$TOP"/}: linux-source-7.3 and make vfs" >&2
	rm -rf "$ready"
	cp -al "$BUILD/linux-source-7.3" "$ready"
	make -s -C "$TOP" helper >&2
	"$TOP/scripts/vfs.sh" "$ready" >&2
	# last: a tree without it is made again
	echo "$stamp" >"$ready/.autofreeze-vfs"
fi
