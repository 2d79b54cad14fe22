#!/bin/bash
# Runs OSS-Fuzz's own base-runner scripts (run_fuzzer, reproduce,
# bad_build_check through test_all.py, coverage) and, given a ClusterFuzz
# checkout, ClusterFuzzLite's run_fuzzers entry point, locally and without
# Docker, against gfz fuzz binaries that docs/clusterfuzz/build.sh builds
# from testdata/examples/bst and testdata/libfuzzer. Prints one PASS/FAIL
# line per check; docs/CLUSTERFUZZ.md, "Run against OSS-Fuzz's own
# scripts", records a run. Not part of go test.
#
#   docs/clusterfuzz/oss-fuzz-scripts.sh OSS_FUZZ [CLUSTERFUZZ]
#
# OSS_FUZZ and CLUSTERFUZZ are checkouts (work trees or bare git
# directories: files are read from HEAD) of github.com/google/oss-fuzz and
# github.com/google/clusterfuzz. Nothing is written into this repository:
# the scripts, the builds and the logs go to $WORK (default: a new
# directory under /tmp), which is kept.
#
# Needs: go, a C compiler with AddressSanitizer (gcc or clang), objdump,
# file, zip, unzip, jq, python3; the Go module proxy (OSS-Fuzz's coverage
# tools gocovsum, gocovmerge and pprof-merge are built from OSS_FUZZ's
# sources). The ClusterFuzz part needs /usr/bin/python3 with protobuf,
# psutil, yaml, requests and six (Debian: apt-get install python3-protobuf
# python3-psutil python3-yaml python3-requests python3-six).
#
# Stand-ins (all under $WORK): a sysctl that prints what run_fuzzer would
# set in its privileged container; the copy of the sources into $OUT that
# OSS-Fuzz's compile step makes for coverage builds; for ClusterFuzz, empty
# modules in place of the cloud client libraries it imports (google.cloud,
# grpc, kubernetes...; nothing on the paths run here calls them), its
# configs/test as lib-config (as its src/build.sh does for local use), no
# ClusterFuzz deployment (no corpus download or upload) and no filestore.
set -u

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  sed -n '2,/^set -u/p' "$0" | sed 's/^# \{0,1\}//; /^set -u/d' >&2
  exit 2
fi
OSS=$(cd "$1" && pwd) || exit 2
CF=
if [ $# -eq 2 ]; then
  CF=$(cd "$2" && pwd) || exit 2
fi
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${WORK:-$(mktemp -d /tmp/gfz-ossfuzz.XXXXXX)}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
case "$WORK/" in
"$ROOT"/*)
  echo "oss-fuzz-scripts.sh: WORK ($WORK) must be outside the repository" >&2
  exit 2
  ;;
esac
ARCH=$(uname -m)
LOGS=$WORK/logs
mkdir -p "$LOGS" "$WORK/scripts" "$WORK/stubs"
failed=0

say() { printf '%s\n' "$*"; }
pass() { printf 'PASS  %s\n' "$*"; }
fail() {
  printf 'FAIL  %s\n' "$*"
  failed=$((failed + 1))
}

# ossf_file REPO PATH DEST: a file of a checkout, from its work tree or HEAD.
ossf_file() {
  if [ -f "$1/$2" ]; then
    cp "$1/$2" "$3"
  else
    git -C "$1" show "HEAD:$2" >"$3"
  fi
}

# ossf_tree REPO DIR DEST: the files under DIR (skipping tests and files the
# snapshot lacks) copied to DEST/DIR.
ossf_tree() {
  if [ -d "$1/$2" ]; then
    mkdir -p "$3/$(dirname "$2")"
    cp -r "$1/$2" "$3/$(dirname "$2")/"
    return
  fi
  git -C "$1" ls-tree -r --name-only HEAD "$2" | grep -v -e '_test\.py$' -e '/tests/' -e '/test_data/' |
    while read -r f; do
      mkdir -p "$3/$(dirname "$f")"
      git -C "$1" show "HEAD:$f" >"$3/$f" 2>/dev/null || rm -f "$3/$f"
    done
}

say "gfz: $(git -C "$ROOT" rev-parse HEAD 2>/dev/null) ($ROOT)"
say "OSS-Fuzz: $(git -C "$OSS" rev-parse HEAD 2>/dev/null) $(git -C "$OSS" log -1 --format=%cs 2>/dev/null)"
[ -n "$CF" ] && say "ClusterFuzz: $(git -C "$CF" rev-parse HEAD 2>/dev/null) $(git -C "$CF" log -1 --format=%cs 2>/dev/null)"
say "work directory: $WORK"

# --- OSS-Fuzz's scripts and stand-ins --------------------------------------
BR=infra/base-images/base-runner
for f in run_fuzzer reproduce bad_build_check coverage parse_options.py test_all.py test_one.py targets_list; do
  ossf_file "$OSS" "$BR/$f" "$WORK/scripts/$f" || exit 2
  chmod +x "$WORK/scripts/$f"
done
cat >"$WORK/stubs/sysctl" <<'EOF'
#!/bin/sh
# Stand-in: run_fuzzer sets vm.mmap_rnd_bits in its privileged container.
echo "stub: sysctl $*" >&2
EOF
chmod +x "$WORK/stubs/sysctl"
export PATH="$WORK/stubs:$WORK/scripts:$WORK/gopath/bin:$PATH"

# --- builds ----------------------------------------------------------------
cd "$ROOT" || exit 2
if ! go build -o "$WORK/gfz-build" ./cmd/gfz-build 2>"$LOGS/gfz-build.log"; then
  cat "$LOGS/gfz-build.log"
  exit 2
fi
build() { # build NAME SANITIZER [env...] -- packages
  local name=$1 san=$2
  shift 2
  local envs=()
  while [ "$1" != -- ]; do
    envs+=("$1")
    shift
  done
  shift
  rm -rf "${WORK:?}/$name"
  if env "${envs[@]+"${envs[@]}"}" SANITIZER="$san" OUT="$WORK/$name" GFZ_BUILD="$WORK/gfz-build" \
    bash docs/clusterfuzz/build.sh "$@" >"$LOGS/build-$name.log" 2>&1; then
    pass "build.sh SANITIZER=$san ${envs[*]+"${envs[*]}"} $*: $(ls "$WORK/$name" | tr '\n' ' ')"
  else
    fail "build.sh SANITIZER=$san $*: see $LOGS/build-$name.log"
    tail -5 "$LOGS/build-$name.log"
  fi
}
build out address -- ./testdata/examples/bst ./testdata/libfuzzer
build out-noasan address GFZ_ASAN=0 -- ./testdata/examples/bst
build out-cov coverage -- ./testdata/examples/bst ./testdata/libfuzzer

export FUZZING_ENGINE=libfuzzer FUZZING_LANGUAGE=go ARCHITECTURE=$ARCH
export FUZZER_ARGS="-rss_limit_mb=2560 -timeout=25" # the base-runner image's default

# expect NAME WANT_STATUS LOG REGEX...: the status of the last command and
# the lines its log must hold.
expect() {
  local name=$1 want=$2 got=$3 log=$4
  shift 4
  local missing=
  for re in "$@"; do
    grep -E -q -- "$re" "$log" || missing="$missing [$re]"
  done
  if [ "$got" = "$want" ] && [ -z "$missing" ]; then
    pass "$name: exit $got"
  else
    fail "$name: exit $got (want $want); missing:$missing; log $log"
  fi
}

# --- run_fuzzer and reproduce ----------------------------------------------
(
  cd "$WORK" || exit 2
  export OUT=$WORK/out SANITIZER=address RUN_FUZZER_MODE=interactive HELPER=True
  rm -f "$OUT"/crash-* "$OUT"/timeout-* "$OUT"/oom-*

  # A new seed per run (no -seed, as ClusterFuzz runs it): the recorded runs
  # found the bug in 3 s and 43 s; 300 s leaves room on a loaded machine.
  timeout 900 run_fuzzer bst_FuzzDelete -max_total_time=300 >"$LOGS/run_fuzzer-bst.log" 2>&1
  expect "run_fuzzer bst_FuzzDelete -max_total_time=300 (finds the example's bug)" 77 $? "$LOGS/run_fuzzer-bst.log" \
    '^/.*/bst_FuzzDelete -- -rss_limit_mb=2560 -timeout=25 -max_total_time=300 /tmp/bst_FuzzDelete_corpus' \
    '^t\.Fatal: bst_test\.go:[0-9]+: after deleting' '^==[0-9]+== ERROR: libFuzzer: deadly signal$' \
    "^artifact_prefix=''; Test unit written to crash-[0-9a-f]{40}$"
  crash=$(ls "$OUT" | grep -E '^crash-[0-9a-f]{40}$' | head -1)
  if [ -n "$crash" ] && [ "$(sha1sum <"$OUT/$crash" | cut -d' ' -f1)" = "${crash#crash-}" ]; then
    pass "crash file \$OUT/$crash, named by the SHA-1 of its content (run_fuzzer runs in \$OUT)"
  else
    fail "no crash-<sha1> file in $OUT"
  fi
  if [ -n "$crash" ]; then
    cp "$OUT/$crash" "$WORK/testcase"
    rm -f "$OUT/$crash"
    TESTCASE=$WORK/testcase timeout 300 reproduce bst_FuzzDelete -runs=100 >"$LOGS/reproduce-bst.log" 2>&1
    expect "reproduce bst_FuzzDelete -runs=100 (TESTCASE=the crash file)" 77 $? "$LOGS/reproduce-bst.log" \
      '-- -rss_limit_mb=2560 -timeout=25 -runs=100 .*/testcase' '^Running: .*/testcase$' \
      '^==[0-9]+== ERROR: libFuzzer: deadly signal$' '^t\.Fatal: bst_test\.go:'
    printf 'not a failing input' >"$WORK/testcase-ok"
    TESTCASE=$WORK/testcase-ok timeout 300 reproduce bst_FuzzDelete -runs=100 >"$LOGS/reproduce-ok.log" 2>&1
    expect "reproduce bst_FuzzDelete -runs=100 (an input that does not fail)" 0 $? "$LOGS/reproduce-ok.log" '^Running: '
  fi

  timeout 300 run_fuzzer lfz_FuzzDict -max_total_time=60 >"$LOGS/run_fuzzer-dict.log" 2>&1
  expect "run_fuzzer lfz_FuzzDict (options file: -dict after the corpus directory)" 77 $? "$LOGS/run_fuzzer-dict.log" \
    '/tmp/lfz_FuzzDict_corpus -dict=lfz_FuzzDict\.dict' '^panic: lfz: dictionary token'

  timeout 300 run_fuzzer lfz_FuzzCover -runs=2000 >"$LOGS/run_fuzzer-cover.log" 2>&1
  expect "run_fuzzer lfz_FuzzCover -runs=2000 (seed corpus zip)" 0 $? "$LOGS/run_fuzzer-cover.log" \
    '^Using seed corpus: lfz_FuzzCover_seed_corpus\.zip$' 'inputs from 1 corpus directories' '^Done 2000 runs in [0-9]+ second\(s\)$'
  n=$(ls /tmp/lfz_FuzzCover_corpus | wc -l)
  if [ "$n" -gt 1 ]; then pass "new units written to /tmp/lfz_FuzzCover_corpus ($n files)"; else fail "no unit in /tmp/lfz_FuzzCover_corpus"; fi

  timeout 600 run_fuzzer lfz_FuzzHang -timeout=3 -max_total_time=120 >"$LOGS/run_fuzzer-hang.log" 2>&1
  expect "run_fuzzer lfz_FuzzHang -timeout=3" 70 $? "$LOGS/run_fuzzer-hang.log" \
    '^==[0-9]+== ERROR: libFuzzer: timeout after 3 seconds$' "Test unit written to timeout-[0-9a-f]{40}$"

  timeout 600 run_fuzzer lfz_FuzzAlloc -rss_limit_mb=512 -max_total_time=120 >"$LOGS/run_fuzzer-oom.log" 2>&1
  expect "run_fuzzer lfz_FuzzAlloc -rss_limit_mb=512" 71 $? "$LOGS/run_fuzzer-oom.log" \
    '^==[0-9]+== ERROR: libFuzzer: out-of-memory \(used: [0-9]+Mb; exceeds: 512Mb\)$' "Test unit written to oom-[0-9a-f]{40}$"
  rm -f "$OUT"/crash-* "$OUT"/timeout-* "$OUT"/oom-*
)

# --- bad_build_check (test_all.py, as OSS-Fuzz's build and ClusterFuzzLite
# run it) -------------------------------------------------------------------
for out in out out-noasan; do
  (
    cd "$WORK" || exit 2
    export OUT=$WORK/$out SANITIZER=address
    unset RUN_FUZZER_MODE HELPER
    timeout 1200 python3 "$WORK/scripts/test_all.py" >"$LOGS/test_all-$out.log" 2>&1
    st=$?
    if [ $out = out ]; then
      expect "test_all.py (bad_build_check of every fuzzer, -asan build)" 0 $st "$LOGS/test_all-$out.log" '^INFO: performing bad build checks for'
    else
      # Expected to fail: a build without ASan fails check_mixed_sanitizers.
      expect "test_all.py on the GFZ_ASAN=0 build fails, as it should" 1 $st "$LOGS/test_all-$out.log" \
        'BAD BUILD: .*/bst_FuzzDelete does not seem to be compiled with ASan\.'
    fi
  )
done

# --- coverage ----------------------------------------------------------------
(
  tools=$WORK/gopath/bin
  mkdir -p "$tools" "$WORK/gocoverage-src"
  ossf_tree "$OSS" "$BR/gocoverage" "$WORK/gocoverage-src"
  if (cd "$WORK/gocoverage-src/$BR/gocoverage" && GOBIN=$tools GOFLAGS=-mod=mod go install ./... &&
    go build -o "$tools/gotoolcover" cmd/cover) >"$LOGS/gocoverage-build.log" 2>&1; then
    pass "OSS-Fuzz's Go coverage tools built from $BR/gocoverage: $(ls "$tools" | tr '\n' ' ')"
  else
    fail "building OSS-Fuzz's Go coverage tools: see $LOGS/gocoverage-build.log"
  fi
  cd "$WORK" || exit 2
  export OUT=$WORK/out-cov SANITIZER=coverage HELPER=True COVERAGE_EXTRA_ARGS=' ' CORPUS_DIR=$WORK/corpus GOPATH=$WORK/gopath
  # OSS-Fuzz's compile step copies the sources into $OUT for coverage builds.
  cp -r --parents "$ROOT/testdata/examples/bst" "$ROOT/testdata/libfuzzer" "$OUT/"
  rm -rf "$CORPUS_DIR" && mkdir -p "$CORPUS_DIR/bst_FuzzDelete"
  "$OUT/bst_FuzzDelete" -seed=5 -runs=20000 -timeout=25 "$CORPUS_DIR/bst_FuzzDelete" >"$LOGS/coverage-corpus.log" 2>&1
  timeout 1200 coverage >"$LOGS/coverage.log" 2>&1
  st=$?
  summary=$OUT/report/linux/summary.json
  if [ $st = 0 ] && [ -s "$summary" ] && [ "$(jq '.data[0].totals.lines.covered' "$summary")" -gt 0 ]; then
    pass "coverage: $(jq -c '.data[0].totals.lines' "$summary") lines; per file: $(jq -r '.data[0].files[] | "\(.filename | sub(".*/"; "")) \(.summary.lines.percent | floor)%"' "$summary" | tr '\n' ' ')"
  else
    fail "coverage: exit $st, summary $summary; see $LOGS/coverage.log"
  fi
  if grep -q 'Error occured while running' "$LOGS/coverage.log"; then
    fail "coverage: a fuzzer's run failed (see $LOGS/coverage.log)"
  fi
)

# --- ClusterFuzzLite's run_fuzzers and ClusterFuzz's crash parser ---------
if [ -z "$CF" ]; then
  say "SKIP  ClusterFuzzLite's run_fuzzers: no ClusterFuzz checkout given"
elif ! /usr/bin/python3 -c 'import google.protobuf, psutil, yaml, requests, six' 2>/dev/null; then
  say "SKIP  ClusterFuzzLite's run_fuzzers: /usr/bin/python3 lacks protobuf, psutil, yaml, requests or six"
else
  PY=$WORK/py
  mkdir -p "$PY/stubs"
  ossf_tree "$CF" src/clusterfuzz "$PY/cf"
  ossf_tree "$CF" configs/test "$PY/cfg"
  rm -rf "$PY/cf/src/clusterfuzz/lib-config"
  cp -r "$PY/cfg/configs/test" "$PY/cf/src/clusterfuzz/lib-config"
  for d in infra/cifuzz infra/chronos; do ossf_tree "$OSS" "$d" "$PY/oss"; done
  for f in $(git -C "$OSS" ls-tree --name-only HEAD infra/ 2>/dev/null | grep '\.py$') $(ls "$OSS"/infra/*.py 2>/dev/null | sed "s|^$OSS/||"); do
    ossf_file "$OSS" "$f" "$PY/oss/$f"
  done
  cat >"$PY/stubs/sitecustomize.py" <<'EOF'
# Stand-ins for the client libraries of ClusterFuzz's cloud services, which
# the code paths run here import but never call: every attribute of these
# modules is a permissive placeholder.
import importlib.abc, importlib.machinery, sys, types

ROOTS = {'aiohttp', 'apiclient', 'dateutil', 'googleapiclient', 'google_auth_httplib2', 'grpc',
         'grpc_status', 'httplib2', 'jira', 'kubernetes', 'mozprocess', 'oauth2client', 'proto', 'pytz'}
PREFIXES = ('google.cloud', 'google.auth', 'google.oauth2', 'google.api_core', 'google.rpc',
            'google.api', 'google.type', 'google.longrunning', 'google.iam')


class Placeholder:
    def __init__(self, *a, **k): pass
    def __call__(self, *a, **k): return Placeholder()
    def __getattr__(self, name):
        if name.startswith('__'): raise AttributeError(name)
        return Placeholder()
    def __mro_entries__(self, bases): return (object,)
    def __iter__(self): return iter(())
    def __bool__(self): return False
    def __or__(self, other): return self
    def __ror__(self, other): return self
    def __getitem__(self, key): return Placeholder()


class PlaceholderModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith('__'): raise AttributeError(name)
        return Placeholder()


class Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        if name.split('.')[0] in ROOTS or any(name == p or name.startswith(p + '.') for p in PREFIXES):
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None
    def create_module(self, spec):
        m = PlaceholderModule(spec.name)
        m.__path__ = []
        return m
    def exec_module(self, module): pass


sys.meta_path.insert(0, Finder())
EOF
  cat >"$PY/parse_stack.py" <<'EOF'
# ClusterFuzz's crash parser on a fuzzer's output: the crash type and the
# crash state by which ClusterFuzz tells one bug from another.
import sys
from clusterfuzz._internal.crash_analysis.stack_parsing import stack_analyzer
for path in sys.argv[1:]:
    info = stack_analyzer.get_crash_data(open(path, errors='replace').read(), symbolize_flag=False,
                                         already_symbolized=True, detect_ooms_and_hangs=True)
    print('%s\t%s\t%s' % (path.rsplit('/', 1)[-1], info.crash_type, info.crash_state.replace('\n', ' | ')))
EOF
  export PYTHONPATH="$PY/stubs:$PY/cf/src:$PY/oss/infra/cifuzz:$PY/oss/infra"
  /usr/bin/python3 "$PY/parse_stack.py" "$LOGS"/run_fuzzer-bst.log "$LOGS"/run_fuzzer-dict.log \
    "$LOGS"/run_fuzzer-hang.log "$LOGS"/run_fuzzer-oom.log >"$LOGS/crash-states.txt" 2>"$LOGS/crash-states.err"
  if grep -q $'run_fuzzer-bst.log\tFatal-signal\tbst.FuzzDelete.func1' "$LOGS/crash-states.txt" &&
    grep -q $'run_fuzzer-hang.log\tTimeout\tlibfuzzer.Spin' "$LOGS/crash-states.txt"; then
    pass "ClusterFuzz's crash parser: $(tr '\t\n' ' ;' <"$LOGS/crash-states.txt")"
  else
    fail "ClusterFuzz's crash parser: $(cat "$LOGS/crash-states.txt" "$LOGS/crash-states.err")"
  fi

  # One fuzzer in $WORKSPACE/build-out, wrapped (but for the coverage run,
  # whose command lines the coverage script makes) in a script that logs
  # the command lines ClusterFuzz's libFuzzer engine runs.
  runcfl() { # runcfl NAME MODE BUILD FUZZER WANT_STATUS REGEX...
    local name=$1 mode=$2 build=$3 fuzzer=$4 want=$5 ws=$WORK/cfl-$1
    shift
    rm -rf "$ws" && mkdir -p "$ws/build-out"
    cp -r "$WORK/$build/." "$ws/build-out/"
    for f in "$ws"/build-out/*; do
      if [ -f "$f" ] && [ -x "$f" ] && [ "$(basename "$f")" != "$fuzzer" ]; then rm -f "$f"; fi
    done
    if [ "$mode" != coverage ]; then
      mv "$ws/build-out/$fuzzer" "$ws/build-out/$fuzzer.bin"
      printf '#!/bin/bash\n# LLVMFuzzerTestOneInput (so that CIFuzz takes this for a fuzz target)\necho "CMD: $(basename "$0") $*" >>%q\nexec -a "$0" "$0.bin" "$@"\n' \
        "$LOGS/cfl-commands.log" >"$ws/build-out/$fuzzer"
      chmod +x "$ws/build-out/$fuzzer"
    fi
    if [ "$mode" = prune ] || [ "$mode" = coverage ]; then
      mkdir -p "$ws/cifuzz-corpus/$fuzzer"
      cp "$WORK/corpus/bst_FuzzDelete/"* "$ws/cifuzz-corpus/$fuzzer/"
    fi
    (
      cd "$PY/oss/infra/cifuzz" || exit 2
      export CFL_PLATFORM=standalone FILESTORE=no_filestore NO_CLUSTERFUZZ_DEPLOYMENT=True WORKSPACE=$ws
      export REPOSITORY=gfz LANGUAGE=go MODE=$mode FUZZ_SECONDS=60 LOW_DISK_SPACE=False PROJECT_SRC_PATH=$ROOT
      export SANITIZER=address GOPATH=$WORK/gopath
      [ "$mode" = coverage ] && export SANITIZER=coverage
      timeout 1200 /usr/bin/python3 run_fuzzers_entrypoint.py >"$LOGS/cfl-$name.log" 2>&1
    )
    local st=$?
    shift 4
    expect "ClusterFuzzLite run_fuzzers MODE=$mode ($fuzzer)" "$want" $st "$LOGS/cfl-$name.log" "$@"
  }
  : >"$LOGS/cfl-commands.log"
  runcfl code-change code-change out bst_FuzzDelete 2 'Detected bug' 'Reproduce command returned: 77\. Reproducible' 'Bug found\.'
  runcfl code-change-nocrash code-change out lfz_FuzzCover 0 '^Done [0-9]+ runs in [0-9]+ second' 'finished with no crashes discovered'
  runcfl batch batch out bst_FuzzDelete 2 'Detected bug' 'Bug found\.'
  runcfl prune prune out bst_FuzzDelete 0 '^MERGE-OUTER: [0-9]+ new files with [0-9]+ new features added' 'finished running without reportable crashes'
  runcfl coverage coverage out-cov bst_FuzzDelete 0 'run fuzzers MODE is: coverage'
  summary=$WORK/cfl-coverage/cifuzz-coverage/report/linux/summary.json
  if [ -s "$summary" ] && [ "$(jq '.data[0].totals.lines.covered' "$summary")" -gt 0 ]; then
    pass "ClusterFuzzLite coverage report: $(jq -c '.data[0].totals.lines' "$summary") lines"
  else
    fail "ClusterFuzzLite coverage report: no $summary"
  fi
  say "ClusterFuzz's libFuzzer engine ran:"
  sed 's/^/      /' "$LOGS/cfl-commands.log"
fi

if [ $failed -gt 0 ]; then
  say "$failed check(s) failed; logs in $LOGS"
  exit 1
fi
say "all checks passed; logs in $LOGS"
