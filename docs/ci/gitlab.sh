# The shell commands of the GitLab CI recipe (docs/ci/README.md):
# gitlab-ci.yml runs exactly these lines, and cmd/gfz-run's
# TestCIRecipeGitLab runs this file. GFZ_TIME is the total fuzzing budget.
go run github.com/gfz-dev/gfz/cmd/gfz-run@"${GFZ_VERSION:-latest}" -ci -time "${GFZ_TIME:-5m}" -regress ./...
