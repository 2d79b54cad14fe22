# The shell commands of the GitHub Actions recipe (docs/ci/README.md):
# github-fuzz.yml runs exactly these lines, and cmd/gfz-run's
# TestCIRecipeGitHub runs this file. GFZ_TIME is the total fuzzing budget.
go run github.com/gfz-dev/gfz/cmd/gfz-run@"${GFZ_VERSION:-latest}" -ci -time "${GFZ_TIME:-5m}" -regress ./...
