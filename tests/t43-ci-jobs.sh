#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The ready-made CI jobs of ci/: the command lines of the GitLab job
# (script:) and of the GitHub workflow (run:), exactly as they are
# written there, run one after the other in a shell of their own as the
# CI system would, with its variables pointing at a copy of this
# checkout and a small kernel tree: clean, then with a finding, then a
# merge request (BASE=) that does not touch the finding.
# test-run: light

. "$(dirname "$0")/lib.sh"

# the fixtures' threads and workqueues, judged for these tests
JUDGMENTS=$TESTS/helper/judgments.tsv
export JUDGMENTS

# job_lines FILE: the GitLab job's script lines, or the workflow's run
# lines, one a line, as written
job_lines()
{
	case $1 in
	*gitlab*) sed -n 's/^    - //p' "$1" ;;
	*) awk '
		# a block scalar (run: |): its lines, indented past "run:"
		blk && match($0, /^ */) && RLENGTH >= ind && NF { sub(/^ */, ""); print; next }
		{ blk = 0 }
		/^ *run: \|$/ { blk = 1; ind = index($0, "run:"); next }
		/^ *run: / { sub(/^ *run: /, ""); print }' "$1" ;;
	esac
}

test_lazy_prereq PYYAML 'python3 -c "import yaml"'

test_expect_success PYYAML "both CI files load as YAML" '
	for f in "$TOP"/ci/github-workflow.yml "$TOP"/ci/gitlab-ci.yml; do
		python3 -c "import sys, yaml; yaml.safe_load(open(sys.argv[1]))" "$f" || return 1
	done
'

# job_var FILE NAME: the value the job sets for NAME (variables:, env:)
job_var()
{
	sed -n "s/^ *$2: *\"\\{0,1\\}\\([^\"]*\\)\"\\{0,1\\}\$/\\1/p" "$1" | head -n 1
}

# run_job FILE: each line in order, in a bash -e of its own, in the
# job's environment (set by the caller); the first that fails fails it
run_job()
{
	local line
	while IFS= read -r line; do
		(cd "$TRASH/kt" && bash -e -c "$line") </dev/null || return
	done < <(job_lines "$1")
}

test_expect_success SPATCH "a copy of this checkout to clone from, a converted kernel tree in git" '
	mkdir af &&
	(cd "$TOP" && git ls-files -z --cached --others --exclude-standard |
		tar --null -T - -cf -) | tar -C af -xf - &&
	git -C af init -q -b main && git -C af add -A &&
	git -C af -c user.name=t -c user.email=t@t commit -qm snapshot &&
	ck_tree kt && $TOP/scripts/apply.sh "$TRASH"/kt fs 2>/dev/null &&
	git -C kt init -q && git -C kt add -A &&
	git -C kt -c user.name=t -c user.email=t@t commit -qm converted
'

test_expect_success "the jobs have their lines where this test reads them" '
	test "$(job_lines "$TOP"/ci/gitlab-ci.yml | wc -l)" = 5 &&
	test "$(job_lines "$TOP"/ci/github-workflow.yml | wc -l)" = 5 &&
	job_lines "$TOP"/ci/gitlab-ci.yml | grep -q "make .* check-tree " &&
	job_lines "$TOP"/ci/github-workflow.yml | grep -q "make .* check-tree "
'

# job_env FILE WORKSPACE TEMP: the job's own variables (AUTOFREEZE_REF,
# AUTOFREEZE_DIR) read from FILE, and what the CI system sets: the
# checked-out tree in WORKSPACE, an empty scratch directory in TEMP
job_env()
{
	export AUTOFREEZE_REPO="$TRASH/af" "$2=$TRASH/kt" "$3=$TRASH/$3" \
		AUTOFREEZE_REF="$(job_var "$1" AUTOFREEZE_REF)" \
		AUTOFREEZE_DIR="$(job_var "$1" AUTOFREEZE_DIR)"
	rm -rf "${TRASH:?}/$3" && mkdir -p "$TRASH/$3"
}

gitlab_env() { job_env "$TOP"/ci/gitlab-ci.yml CI_PROJECT_DIR CI_BUILDS_DIR; }
github_env() { job_env "$TOP"/ci/github-workflow.yml GITHUB_WORKSPACE RUNNER_TEMP; }

test_expect_success SPATCH "GitLab job: passes on the converted tree" '
	gitlab_env && unset CI_MERGE_REQUEST_DIFF_BASE_SHA &&
	run_job "$TOP"/ci/gitlab-ci.yml >out 2>err &&
	test_cmp /dev/null out &&
	grep -q "^check-tree.sh: fs: 1 unit with FS_AUTOFREEZE checked: 0 errors" err
'

test_expect_success SPATCH "GitHub workflow: passes on the converted tree" '
	github_env && export BASE= &&
	run_job "$TOP"/ci/github-workflow.yml >out 2>err &&
	test_cmp /dev/null out &&
	grep -q "^check-tree.sh: fs: 1 unit with FS_AUTOFREEZE checked: 0 errors" err
'

test_expect_success SPATCH "both fail on a tree with a finding, naming it file:line:col" '
	sed -i "s/FS_USERNS_MOUNT,/FS_USERNS_MOUNT | FS_AUTOFREEZE,/" kt/fs/ramfs/inode.c &&
	git -C kt -c user.name=t -c user.email=t@t commit -qam "ramfs: flag" &&
	gitlab_env && unset CI_MERGE_REQUEST_DIFF_BASE_SHA &&
	test_must_fail run_job "$TOP"/ci/gitlab-ci.yml >out 2>err &&
	grep -q "^fs/ramfs/inode.c:8:[0-9]*: error: ramfs_fs_type carries FS_AUTOFREEZE" out &&
	github_env && export BASE= &&
	test_must_fail run_job "$TOP"/ci/github-workflow.yml >out 2>err &&
	grep -q "^fs/ramfs/inode.c:8:[0-9]*: error: ramfs_fs_type carries FS_AUTOFREEZE" out
'

test_expect_success SPATCH "a merge request that does not touch the finding passes" '
	echo "/* a comment */" >>kt/fs/xfs/xfs_super.c &&
	git -C kt -c user.name=t -c user.email=t@t commit -qam "xfs: a comment" &&
	gitlab_env && export CI_MERGE_REQUEST_DIFF_BASE_SHA=$(git -C kt rev-parse HEAD~1) &&
	run_job "$TOP"/ci/gitlab-ci.yml >out 2>err &&
	test_cmp /dev/null out &&
	grep -q "1 unit with FS_AUTOFREEZE checked (of those BASE=$CI_MERGE_REQUEST_DIFF_BASE_SHA touches): 0 errors" err &&
	github_env && export BASE=$(git -C kt rev-parse HEAD~1) &&
	run_job "$TOP"/ci/github-workflow.yml >out 2>err &&
	test_cmp /dev/null out
'

test_expect_success "without AUTOFREEZE_REPO: one line saying what to set" '
	gitlab_env && unset AUTOFREEZE_REPO &&
	test_exit_code 2 run_job "$TOP"/ci/gitlab-ci.yml >out 2>err &&
	grep -qx "autofreeze: set the CI/CD variable AUTOFREEZE_REPO" err
'

test_done
