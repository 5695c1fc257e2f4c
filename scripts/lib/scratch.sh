# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# scratch.sh: the drivers' opener, sourced by diff.sh, apply.sh,
# report.sh, check-tree.sh and by-hand.sh.  scratch_open [CMD] makes
# the scratch directory $scratch that convert.sh fills, removed when
# the driver exits (after CMD, when given, runs); SIGINT and SIGTERM
# end the run with 130 and 143, so that it is removed then too.
# shellcheck disable=SC2120 # CMD is optional
scratch_open()
{
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/autofreeze.XXXXXX")
	# shellcheck disable=SC2064 # CMD now, $scratch at exit
	trap "${1:+$1; }"'rm -rf "$scratch"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}
