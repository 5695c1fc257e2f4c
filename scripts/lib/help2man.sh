#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# help2man.sh VERSION: the man page autofreeze(1) from make help's text
# on standard input (its first line the name line, then Targets: and
# Variables:), so that the page and make help never say two things:
# each target a COMMANDS entry, the variables as help prints them.  What
# the page adds is only what the command line around make is
# (bin/autofreeze).  make install and make man run it.

set -eu
[ $# -eq 1 ] || { echo "usage: help2man.sh VERSION <help-text" >&2; exit 2; }

awk -v version="$1" '
# roff-safe text: a backslash printed as one, a line never a request
function esc(s) {
	gsub(/\\/, "\\e", s)
	gsub(/-/, "\\-", s)
	sub(/^[.'\'']/, "\\\\&&", s)
	return s
}
NR == 1 {
	name = $0; sub(/^[^:]*: */, "", name)
	printf ".TH AUTOFREEZE 1 \"\" \"autofreeze %s\" \"User Commands\"\n", version
	print ".SH NAME"
	print "autofreeze \\- " esc(name)
	print ".SH SYNOPSIS"
	print ".B autofreeze"
	print ".I command"
	print ".RI [ dir ]"
	print ".RI [ VAR = value \" ...]\""
	print ".br"
	print ".B autofreeze help"
	print "|"
	print ".B \\-\\-version"
	print ".br"
	print ".B autofreeze helper"
	print ".I subcommand"
	print ".RI [ arg \" ...]\""
	print ".SH DESCRIPTION"
	print "Each"
	print ".I command"
	print "is the make target of that name of the autofreeze toolkit, run from where"
	print "you stand: with no KTREE= the kernel tree the current directory is in is"
	print "the one worked on, and a relative KTREE= is relative to the current"
	print "directory."
	print ".I dir"
	print "is DIR=, relative to KTREE.  Bad input is one line on standard error and"
	print "exit status 2; a failed command exits with its own status (check\\-tree: 1"
	print "for findings)."
	print ".B autofreeze helper"
	print "runs the C helper (scan, plan, units, ...:"
	print ".B autofreeze helper \\-\\-help"
	print "lists them)."
	print ".B autofreeze \\-\\-version"
	print "names the release."
	next
}
/^Targets:/ { print ".SH COMMANDS"; part = "t"; next }
/^Variables:/ {
	print ".SH VARIABLES"
	print ".nf"
	part = "v"
	sub(/^Variables: */, "")
	print esc($0)
	next
}
part == "t" && /^    [^ ]/ {
	t = $1; sub(/^ *[^ ]+ +/, "")
	print ".TP"
	print ".B " esc(t)
	print esc($0)
	next
}
part == "v" && NF { sub(/^ +/, ""); print esc($0) }
END {
	if (part == "v")
		print ".fi"
	print ".SH FILES"
	print ".TP"
	print ".I ~/.cache/autofreeze/"
	print "the spatch result cache (AUTOFREEZE_CACHE=) and, for an installed copy,"
	print "build/: what make deps unpacks and the compile checks write"
	print ".TP"
	print ".I ~/.local/state/autofreeze/"
	print "the bookkeeping of a tree that is not a git work tree (AUTOFREEZE_STATE=)"
	print ".SH SEE ALSO"
	print ".BR spatch (1)"
}'
