# SPDX-License-Identifier: GPL-2.0
#
# make install [PREFIX=/usr/local] [DESTDIR=]: the autofreeze command,
# the copy of this toolkit it runs and its man page:
#   PREFIX/bin/autofreeze                the command (bin/autofreeze)
#   PREFIX/share/autofreeze/             Makefile, mk/, cocci/, policy/,
#                                        patches/, scripts/ (the drivers,
#                                        the helper's sources), tests/e2e/
#                                        (make e2e's guest), VERSION, and
#                                        INSTALLED, which makes the copy
#                                        read-only (Makefile)
#   PREFIX/libexec/autofreeze/autofreeze the prebuilt helper
#   PREFIX/share/man/man1/autofreeze.1   made from make help's text
# The helper finds policy/ and patches/ beside itself (util.c:
# beside_helper()): links in libexec/autofreeze/ lead it to them, and
# share/autofreeze/scripts/autofreeze is a link to it.  All links are
# relative, so that a DESTDIR staging copy works once moved.
# make uninstall [PREFIX=] [DESTDIR=] removes exactly those.

PREFIX     ?= /usr/local
DESTDIR    ?=
BINDIR     ?= $(PREFIX)/bin
DATADIR    ?= $(PREFIX)/share/autofreeze
LIBEXECDIR ?= $(PREFIX)/libexec/autofreeze
MANDIR     ?= $(PREFIX)/share/man/man1
export PREFIX DESTDIR BINDIR DATADIR LIBEXECDIR MANDIR

# An installed copy installs nothing: make install is a checkout's.
ifneq ($(INSTALLED),)
.PHONY: install uninstall
install uninstall:
	@echo "$@: $$TOP is an installed copy: run make $@ in a checkout" >&2; exit 2
else

## install: install the autofreeze command, this toolkit, its prebuilt helper and man page autofreeze(1) (PREFIX=/usr/local DESTDIR=)
.PHONY: install
install: helper
	@set -eu; \
	for d in "$$BINDIR" "$$DATADIR" "$$LIBEXECDIR" "$$MANDIR" $${DESTDIR:+"$$DESTDIR"}; do \
		case $$d in /*) ;; *) echo "install: $$d: not an absolute path" >&2; exit 2 ;; esac; \
	done; \
	data=$$DESTDIR$$DATADIR libexec=$$DESTDIR$$LIBEXECDIR; \
	if [ -e "$$data" ] && [ ! -f "$$data/INSTALLED" ]; then \
		echo "install: $$data is there and is no autofreeze install: not replacing it" >&2; exit 2; fi; \
	if [ -e "$$libexec" ] && [ ! -f "$$libexec/autofreeze" ]; then \
		echo "install: $$libexec is there and is no autofreeze install: not replacing it" >&2; exit 2; fi; \
	rm -rf "$$data" "$$libexec"; \
	mkdir -p "$$data/scripts/lib" "$$data/scripts/helper" "$$data/mk" \
		"$$data/tests/e2e" "$$libexec" "$$DESTDIR$$BINDIR" "$$DESTDIR$$MANDIR"; \
	cd "$$TOP"; \
	cp -R Makefile cocci policy patches "$$data/"; \
	cp mk/*.mk "$$data/mk/"; \
	cp scripts/*.sh "$$data/scripts/"; \
	cp scripts/lib/* "$$data/scripts/lib/"; \
	cp scripts/helper/*.[ch] "$$data/scripts/helper/"; \
	find tests/e2e -maxdepth 1 -type f -exec cp {} "$$data/tests/e2e/" \; ; \
	TOP=$$TOP bash -c '. "$$TOP/scripts/lib/ktree.sh" && af_version' >"$$data/VERSION"; \
	echo "installed by make install: read-only, its helper prebuilt" >"$$data/INSTALLED"; \
	install -m 755 scripts/autofreeze "$$libexec/autofreeze"; \
	ln -s "$$(realpath -m --relative-to="$$LIBEXECDIR" "$$DATADIR/policy")" "$$libexec/policy"; \
	ln -s "$$(realpath -m --relative-to="$$LIBEXECDIR" "$$DATADIR/patches")" "$$libexec/patches"; \
	ln -s "$$(realpath -m --relative-to="$$DATADIR/scripts" "$$LIBEXECDIR/autofreeze")" "$$data/scripts/autofreeze"; \
	sed "s|@AUTOFREEZE_TOP@|$$(realpath -m --relative-to="$$BINDIR" "$$DATADIR")|" bin/autofreeze >"$$DESTDIR$$BINDIR/autofreeze.tmp"; \
	chmod 755 "$$DESTDIR$$BINDIR/autofreeze.tmp"; \
	mv -f "$$DESTDIR$$BINDIR/autofreeze.tmp" "$$DESTDIR$$BINDIR/autofreeze"; \
	env -u XDG_CACHE_HOME HOME='~' make -s --no-print-directory -C "$$data" help | \
		scripts/lib/help2man.sh "$$(cat "$$data/VERSION")" >"$$DESTDIR$$MANDIR/autofreeze.1"; \
	chmod -R a+rX,go-w "$$data" "$$libexec"; \
	echo "install: autofreeze $$(cat "$$data/VERSION") in $${DESTDIR}$$PREFIX" >&2

## uninstall: remove what make install put in PREFIX (the same PREFIX= DESTDIR=)
.PHONY: uninstall
uninstall:
	@set -eu; \
	data=$$DESTDIR$$DATADIR libexec=$$DESTDIR$$LIBEXECDIR; \
	[ ! -e "$$data" ] || [ -f "$$data/INSTALLED" ] || \
		{ echo "uninstall: $$data is no autofreeze install: left as it is" >&2; exit 2; }; \
	[ ! -e "$$libexec" ] || [ -f "$$libexec/autofreeze" ] || \
		{ echo "uninstall: $$libexec is no autofreeze install: left as it is" >&2; exit 2; }; \
	rm -rf "$$data" "$$libexec"; \
	rm -f "$$DESTDIR$$BINDIR/autofreeze" "$$DESTDIR$$MANDIR/autofreeze.1"
endif

## man: the man page autofreeze(1), made from make help's text, on standard output (man -l - shows it)
.PHONY: man
man:
	@make -s --no-print-directory -C "$$TOP" help | \
		"$$TOP/scripts/lib/help2man.sh" "$$(TOP=$$TOP bash -c '. "$$TOP/scripts/lib/ktree.sh" && af_version')"
