#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The ready-made CI jobs of ci/: both files as a CI system reads them (a
# YAML parser, every run:/script: entry a string; yamllint), and their
# steps, taken from the parsed YAML, run the way the runner runs them
# (GitHub: each run: step in "bash -e"; GitLab: the script entries in one
# "bash -eo pipefail"), with the CI system's variables pointing at a
# copy of this checkout, pinned, and a small kernel tree checked out as
# shallow as the job asks: clean, with a finding (exit 1, an annotation),
# broken (exit 2).
# test-run: light

. "$(dirname "$0")/lib.sh"

# the fixtures' threads and workqueues, judged for these tests
JUDGMENTS=$TESTS/helper/judgments.tsv
export JUDGMENTS

GH=$TOP/ci/github-workflow.yml
GL=$TOP/ci/gitlab-ci.yml

# what a kernel project would lint its CI files with: yamllint's
# defaults, but GitHub's "on:" key and lines up to 100 columns
YAMLLINT_CONF='{extends: default, rules: {document-start: disable,
  truthy: {check-keys: false}, line-length: {max: 100}}}'

# ci_yaml WHAT FILE: FILE (a workflow if it has jobs:, else a GitLab
# file) read with a YAML parser.  WHAT: check (every run:/script: entry
# a string), shape (shallow, pinned, cached, annotated), steps (what
# the runner runs, each NUL-terminated: GitHub's run: steps; GitLab's
# before_script and script as one), vars (the job's own variables as
# NAME=VALUE, NUL-terminated, GitLab's expanded from the environment as
# the runner does; GitHub's ${{ }} expressions are the caller's)
ci_yaml()
{
	python3 - "$@" <<-\EOF
	import os, re, sys, yaml
	what, path = sys.argv[1:3]
	doc = yaml.safe_load(open(path))
	github = "jobs" in doc
	reserved = {"workflow", "variables", "stages", "include", "default",
		    "image", "services", "cache", "before_script", "after_script"}
	if github:
	    jobs = list(doc["jobs"].values())
	else:
	    jobs = [v for k, v in doc.items() if k not in reserved and
		    not k.startswith(".") and isinstance(v, dict)]
	if len(jobs) != 1:
	    sys.exit(f"{path}: {len(jobs)} jobs, not 1")
	job = jobs[0]
	bad = []
	if what == "check":
	    if github:
	        for i, s in enumerate(job["steps"]):
	            if ("run" in s) == ("uses" in s):
	                bad.append(f"step {i}: not one of run, uses")
	            elif "run" in s and not isinstance(s["run"], str):
	                bad.append(f"step {i}: run is {s['run']!r}")
	    else:
	        for key in ("before_script", "script", "after_script"):
	            v = job.get(key, [])
	            for e in v if isinstance(v, list) else [v]:
	                if not isinstance(e, str):
	                    bad.append(f"{key}: an entry is {e!r}")
	elif what == "shape":
	    if github:
	        env = job["env"]
	        steps = job["steps"]
	        uses = {s["uses"].split("@")[0]: s.get("with", {})
		        for s in steps if "uses" in s}
	        runs = [s["run"] for s in steps if "run" in s]
	        checks = [
	            ("fetch-depth 2", uses["actions/checkout"].get("fetch-depth") == 2),
	            ("BASE HEAD^1 on a pull request", "'HEAD^1'" in env["BASE"]),
	            ("a cache keyed on the ref", "env.AUTOFREEZE_REF" in
		     uses["actions/cache"]["key"]),
	            ("the result cache cached", "~/.cache/autofreeze" in
		     uses["actions/cache"]["path"].split()),
	            ("annotations", "ci-check.sh --github" in runs[-1]),
	        ]
	    else:
	        env = job["variables"]
	        script = "\n".join(job["script"])
	        checks = [
	            ("GIT_DEPTH 1", env.get("GIT_DEPTH") == "1"),
	            ("merge request pipelines", "merge_request_event" in
		     str(doc["workflow"]["rules"]) and "merge_request_event" in
		     str(job["rules"])),
	            ("the base fetched alone", "git fetch -q --depth 1 origin "
		     '"$CI_MERGE_REQUEST_DIFF_BASE_SHA"' in script),
	            ("a cache keyed on the ref", "$AUTOFREEZE_REF" in
		     job["cache"]["key"]),
	            ("the result cache cached", env["AUTOFREEZE_CACHE"].startswith(
		     "$CI_PROJECT_DIR/" + job["cache"]["paths"][0])),
	            ("the code-quality report", "--codequality " +
		     job["artifacts"]["reports"]["codequality"] in script),
	        ]
	    checks.append(("pinned to a tag or commit", re.fullmatch(
		r"v[0-9][0-9.]*|[0-9a-f]{40}", env["AUTOFREEZE_REF"]) is not None))
	    bad = [d for d, ok in checks if not ok]
	elif what == "steps":
	    if github:
	        out = [s["run"] for s in job["steps"] if "run" in s]
	    else:
	        out = ["\n".join(job.get("before_script", []) + job["script"])]
	    sys.stdout.write("".join(s + "\0" for s in out))
	elif what == "vars":
	    env = job["env"] if github else job["variables"]
	    for k, v in env.items():
	        v = str(v)
	        if "${{" not in v:
	            sys.stdout.write(f"{k}={v if github else os.path.expandvars(v)}\0")
	for b in bad:
	    print(f"{path}: {b}", file=sys.stderr)
	sys.exit(1 if bad else 0)
	EOF
}

test_expect_success YAML "both CI files load as YAML, every run: and script: entry a string" '
	ci_yaml check "$GH" && ci_yaml check "$GL"
'

test_expect_success YAML "both CI files pass yamllint" '
	yamllint -s -d "$YAMLLINT_CONF" "$GH" "$GL"
'

test_expect_success YAML "the jobs fetch shallow, pin the tool, cache it, annotate" '
	ci_yaml shape "$GH" && ci_yaml shape "$GL" &&
	! grep -n "fetch-depth: *0\|GIT_DEPTH: *\"*0" "$GH" "$GL"
'

# ref FILE: the AUTOFREEZE_REF the job pins
ref()
{
	ci_yaml vars "$1" | tr "\0" "\n" | sed -n "s/^AUTOFREEZE_REF=//p"
}

# commit DIR MESSAGE: all of DIR's changes committed
commit()
{
	git -C "$1" add -A &&
	git -C "$1" -c user.name=t -c user.email=t@t commit -qm "$2"
}

test_expect_success SPATCH,YAML "a copy of this checkout at the pinned ref, a converted kernel tree in git" '
	mkdir af &&
	(cd "$TOP" && git ls-files -z --cached --others --exclude-standard |
		tar --null -T - -cf -) | tar -C af -xf - &&
	git -C af init -q -b main && commit af snapshot &&
	for r in $(ref "$GH") $(ref "$GL"); do
		git -C af rev-parse -q --verify "refs/tags/$r" >/dev/null ||
			git -C af tag "$r" || return 1
	done &&
	# what a job that follows main instead would run
	echo "exit 3" >>af/scripts/ci-check.sh && commit af "after the release" &&
	ck_tree kt && $TOP/scripts/apply.sh "$TRASH"/kt fs 2>/dev/null &&
	git -C kt init -q && commit kt converted
'

# checkout DEPTH: the kernel tree cloned as the CI system clones it, in
# ws, with origin to fetch more from
checkout()
{
	rm -rf ws && git clone -q --depth "$1" "file://$TRASH/kt" ws
}

# run_job FILE SHELL...: the job's steps, each in SHELL of its own, in
# the checkout, in the environment the caller set; the first that
# fails fails the job with its status
run_job()
{
	local f=$1 step
	shift
	ci_yaml steps "$f" >steps || return 1
	while IFS= read -r -d "" step; do
		(cd ws && "$@" -c "$step") </dev/null || return
	done <steps
}

# gitlab [BASE]: the GitLab job, in a branch pipeline or with BASE a
# merge request pipeline, its cache (.autofreeze/) kept in glcache
# between pipelines as GitLab keeps it, its exit status; the tool
# pinned to the commit of its AUTOFREEZE_REF
gitlab()
{
	local rc=0
	(
		export AUTOFREEZE_REPO=$TRASH/af CI_PROJECT_DIR=$TRASH/ws
		unset AUTOFREEZE_CACHE CI_MERGE_REQUEST_DIFF_BASE_SHA
		[ -z "${1:-}" ] || export CI_MERGE_REQUEST_DIFF_BASE_SHA=$1
		while IFS= read -r -d "" kv; do
			export "${kv?}"
		done < <(ci_yaml vars "$GL")
		AUTOFREEZE_REF=$(git -C af rev-parse "$AUTOFREEZE_REF^{commit}") &&
		run_job "$GL" bash -eo pipefail
	) >out 2>err || rc=$?
	return $rc
}

# github [BASE]: the GitHub workflow, on a push or with BASE (HEAD^1,
# as the workflow sets it) on a pull request, ~/.cache (what
# actions/cache keeps) in ghhome; its exit status
github()
{
	local rc=0
	(
		export AUTOFREEZE_REPO=$TRASH/af GITHUB_WORKSPACE=$TRASH/ws \
			HOME=$TRASH/ghhome BASE=${1:-} RUNNER_TEMP=$TRASH/ghtemp
		unset AUTOFREEZE_CACHE XDG_CACHE_HOME
		while IFS= read -r -d "" kv; do
			export "${kv?}"
		done < <(ci_yaml vars "$GH")
		rm -rf ghtemp && mkdir -p ghtemp ghhome &&
		run_job "$GH" bash -e
	) >out 2>err || rc=$?
	return $rc
}

test_expect_success SPATCH,YAML "GitLab, branch pipeline: passes on the converted tree, an empty report" '
	checkout 1 && gitlab &&
	test_cmp /dev/null out &&
	grep -q "^check-tree.sh: fs: 1 unit with FS_AUTOFREEZE checked: 0 errors" err &&
	echo "[]" >expect && test_cmp expect ws/gl-code-quality-report.json &&
	mv ws/.autofreeze glcache
'

test_expect_success SPATCH,YAML "GitLab, a reused builds directory: passes, the build kept" '
	mv glcache ws/.autofreeze &&
	before=$(stat -c %y ws/.autofreeze/src/scripts/autofreeze) &&
	gitlab && test_cmp /dev/null out &&
	test "$(stat -c %y ws/.autofreeze/src/scripts/autofreeze)" = "$before" &&
	mv ws/.autofreeze glcache
'

test_expect_success SPATCH,YAML "GitHub, push: passes on the converted tree, with a build the cache restored" '
	# the same commit as the GitLab job built: one build less
	mkdir -p ghhome/.cache && cp -a glcache/src ghhome/.cache/autofreeze-src &&
	before=$(stat -c %y ghhome/.cache/autofreeze-src/scripts/autofreeze) &&
	checkout 2 && github &&
	test "$(stat -c %y ghhome/.cache/autofreeze-src/scripts/autofreeze)" = "$before" &&
	test_cmp /dev/null out &&
	grep -q "^check-tree.sh: fs: 1 unit with FS_AUTOFREEZE checked: 0 errors" err &&
	test -x ghhome/.cache/autofreeze-src/scripts/autofreeze
'

test_expect_success SPATCH,YAML "a try_to_freeze() put back into xfsaild(): exit 1, annotations" '
	# as t42 puts it back: where 6.1 has it
	sed -i "s/^\(\t*\)tout = xfsaild_push(ailp);/\1try_to_freeze();\n&/" \
		kt/fs/xfs/xfs_trans_ail.c &&
	commit kt "xfs: regress" &&
	f=fs/xfs/xfs_trans_ail.c &&
	at=$(awk "i = index(\$0, \"try_to_freeze();\") { print NR \":\" i; exit }" kt/$f) &&
	checkout 2 &&
	test_exit_code 1 github HEAD^1 &&
	grep -q "^$f:$at: error: try_to_freeze in kernel thread xfsaild(): " out &&
	grep -q "^::error file=$f,line=${at%:*},col=${at#*:}::try_to_freeze in kernel thread xfsaild(): " out &&
	grep -q "1 unit with FS_AUTOFREEZE checked (of those BASE=HEAD^1 touches): 1 error" err &&
	# the spatch results, where actions/cache keeps them
	test -n "$(ls ghhome/.cache/autofreeze/spatch)" &&
	checkout 1 && mv glcache ws/.autofreeze &&
	test_exit_code 1 gitlab "$(git -C kt rev-parse HEAD~1)" &&
	grep -q "^$f:$at: error: try_to_freeze in kernel thread xfsaild(): " out &&
	python3 -c "
import json, sys
r = json.load(open(\"ws/gl-code-quality-report.json\"))
assert len(r) == 1, r
e = r[0]
assert e[\"location\"] == {\"path\": \"$f\", \"lines\": {\"begin\": ${at%:*}}}, e
assert e[\"description\"].startswith(\"try_to_freeze in kernel thread xfsaild(): \"), e
assert e[\"severity\"] == \"major\" and e[\"check_name\"] and e[\"fingerprint\"], e
" &&
	test -n "$(ls ws/.autofreeze/cache/spatch)" &&
	mv ws/.autofreeze glcache
'

test_expect_success SPATCH,YAML "a merge request that does not touch the finding passes" '
	echo "/* a comment */" >>kt/fs/ramfs/inode.c && commit kt "ramfs: a comment" &&
	checkout 1 && mv glcache ws/.autofreeze &&
	gitlab "$(git -C kt rev-parse HEAD~1)" &&
	test_cmp /dev/null out &&
	echo "[]" >expect && test_cmp expect ws/gl-code-quality-report.json &&
	mv ws/.autofreeze glcache &&
	checkout 2 && github HEAD^1 && test_cmp /dev/null out
'

test_expect_success SPATCH,YAML "a BASE that is no commit: exit 2, no annotation, no report" '
	checkout 2 && test_exit_code 2 github no-such-rev &&
	test_cmp /dev/null out &&
	grep -q "^check-tree.sh: BASE=no-such-rev: not a commit of " err &&
	checkout 1 &&
	test_exit_code 2 gitlab 0123456789abcdef0123456789abcdef01234567 &&
	grep -qx "autofreeze: cannot fetch the merge request.s base (above)" err &&
	test ! -e ws/gl-code-quality-report.json
'

test_expect_success SPATCH,YAML "without AUTOFREEZE_REPO: one line saying what to set" '
	checkout 1 && export AUTOFREEZE_REPO= &&
	test_exit_code 2 run_job "$GL" bash -eo pipefail 2>err &&
	grep -qx "autofreeze: set the CI/CD variable AUTOFREEZE_REPO" err &&
	test_exit_code 2 run_job "$GH" bash -e 2>err &&
	grep -qx "autofreeze: set the repository variable AUTOFREEZE_REPO" err
'

CC=$TOP/scripts/ci-check.sh

test_expect_success SPATCH "ci-check.sh: bad arguments, one line, exit 2" '
	test_exit_code 2 "$CC" --nope kt fs 2>err &&
	test_line_count err 1 && grep -q "^ci-check.sh: --nope: unknown option" err &&
	test_exit_code 2 "$CC" --codequality 2>err &&
	test_line_count err 1 && grep -q "^ci-check.sh: --codequality needs a FILE" err &&
	test_exit_code 2 "$CC" kt 2>err &&
	test_line_count err 1 && grep -q "^usage: ci-check.sh " err &&
	test_exit_code 2 "$CC" --codequality nodir/r.json "$TRASH"/kt fs >out 2>err &&
	grep -qx "ci-check.sh: --codequality nodir/r.json: cannot write the report" err &&
	test ! -e nodir
'

test_done
