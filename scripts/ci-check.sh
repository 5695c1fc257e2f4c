#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ci-check.sh: check-tree as a CI job runs it (the templates of ci/).
# The findings are printed as check-tree prints them
# (FILE:LINE:COL: error: MESSAGE), and handed to the CI system:
# --github as workflow commands (::error file=F,line=L,col=C::MESSAGE)
# on stdout, which GitHub shows on the lines of the change;
# --codequality FILE as a GitLab code-quality report (a JSON array),
# which GitLab shows in the merge request.  Both come from
# "autofreeze annotate".
#
# usage: ci-check.sh [--github] [--codequality FILE] KTREE DIR
#	(environment as check-tree.sh's: BASE=REV, J=N)
#
# Exit status: check-tree's, 0 clean, 1 findings, 2 broken (bad input,
# a step that failed, an annotation that could not be written): the
# job tells a finding from a broken setup, which make (Error 2 for
# both) cannot.

set -eu
prog=ci-check.sh
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$TOP/scripts/lib/ktree.sh"

github=
codequality=
while [ $# -gt 0 ]; do
	case $1 in
	--github) github=1; shift ;;
	--codequality)
		if [ $# -lt 2 ] || [ -z "$2" ]; then
			echo "$prog: --codequality needs a FILE" >&2
			exit 2
		fi
		codequality=$2
		shift 2 ;;
	--) shift; break ;;
	-*)	echo "$prog: $(shown "$1"): unknown option" >&2; exit 2 ;;
	*)	break ;;
	esac
done
[ $# -eq 2 ] ||
	{ echo "usage: $prog [--github] [--codequality FILE] KTREE DIR" >&2; exit 2; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/autofreeze.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
# Exit 1 means findings: a step of ours that breaks must not read as one.
trap 'echo "$prog: a step failed (above)" >&2; exit 2' ERR

rc=0
FORMAT=text "$TOP/scripts/check-tree.sh" "$1" "$2" >"$scratch/findings" || rc=$?
cat "$scratch/findings"
# broken: nothing checked for certain, so no report that says otherwise
[ $rc -le 1 ] || exit "$rc"

if [ -n "$github" ]; then
	"$AF" annotate --github <"$scratch/findings" ||
		{ echo "$prog: the GitHub annotations failed (above)" >&2; exit 2; }
fi
if [ -n "$codequality" ]; then
	# whole or not at all: GitLab must not read half a report
	if ! "$AF" annotate --codequality <"$scratch/findings" >"$scratch/cq" ||
		! cp "$scratch/cq" "$codequality.tmp" 2>/dev/null ||
		! mv -f "$codequality.tmp" "$codequality" 2>/dev/null; then
		rm -f "$codequality.tmp"
		echo "$prog: --codequality $(shown "$codequality"): cannot write the report" >&2
		exit 2
	fi
fi
exit "$rc"
