#!/usr/bin/env bash
# README's second command (and CI's): every test. Ends with one line
# "tests: N passed, M failed".
#
#   scripts/test.sh           everything, as CI runs it:
#     1. release build, every suite (unit, end-to-end on real traces, oracles,
#        jobs/slurm on a single-node Slurm cluster started for the test, the
#        recorder and the HTML pages in headless Chromium: build/tests/report/
#        report.png is the demo page's screenshot), three tests at a time
#        (most of the Chromium and Slurm tests wait; the recordings that
#        measure wall-clock figures run alone)
#     2. one ASan+UBSan build that also holds the libFuzzer targets (they
#        link one coverage-instrumented copy of the core): every C suite and
#        the end-to-end tests, each code path once (TC_SANITIZED: the release
#        run already repeats them; suites 'docs' and 'tools' only re-run the
#        census's paths and are left out); then every fuzz target, two at a
#        time, longest first, 30 s each (or as tests/fuzz/NAME.options says)
#     3. TSan build: the suites whose runs share data between threads (pool,
#        pipeline, and the end-to-end tests of suite 'threads', which under
#        TC_TSAN keep their runs at -T 2)
#   Both sanitizer builds compile only what their suites run
#   (scripts/suite_targets.py), which then run with --no-rebuild; they start
#   during the release suites in the idle scheduling class and are finished
#   in their own steps.
#     4. the DevTools schema regenerated from pinned npm packages equals the
#        committed data file
#   The npm installs and the schema check (network, disk) run beside the
#   release build; their output and times are printed in their places.
#   scripts/test.sh --quick   the inner loop: the release build's unit and
#                             end-to-end suites only (no Chromium, Slurm,
#                             oracles or sanitizers), a few minutes
#
# Each step prints how long it took, so where the time goes is in the log.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/fuzz_run.sh
quick=0
case ${1:-} in
  --quick) quick=1 ;;
  "") ;;
  *) echo "usage: scripts/test.sh [--quick]" >&2; exit 2 ;;
esac
# An oracle that cannot run is a failure here, not a skip (but --quick
# installs no npm packages, so there it skips).
((quick)) || export TC_REQUIRE_ORACLES=1
fail=0
pass=0
# A step that cannot even start still ends with the summary line.
give_up() {
  echo "scripts/test.sh: $*" >&2
  echo "tests: $pass passed, $((fail + 1)) failed"
  exit 2
}

count() { # build dir -> adds its meson results to pass/fail
  local log="$1/meson-logs/testlog.json"
  [[ -f $log ]] || return 0
  # A skip is a failure in the full suite, never in --quick (which installs
  # no npm packages, so the oracles that need them skip).
  read -r p f < <(python3 - "$log" "$quick" <<'PY'
import json, sys
p = f = 0
ok = ('OK', 'EXPECTEDFAIL') + (('SKIP',) if sys.argv[2] == '1' else ())
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r['result'] in ok:
        p += 1
    else:
        f += 1
print(p, f)
PY
)
  pass=$((pass + p)); fail=$((fail + f))
}

t0=$SECONDS
mark=
step() {
  [[ -n $mark ]] && echo "--- $((SECONDS - mark)) s"
  mark=$SECONDS
  echo; echo "=== $*"
}

# Work that waits on the network and the disk rather than the CPU runs
# beside the release build: `beside NAME CMD...` starts it, `collect NAME`
# waits for it, prints its output and how long it took, and returns its status.
beside_dir=$(mktemp -d)
# Every test's temporary files (tempfile.mkdtemp, testdir_new, Chromium's
# profiles) go under one scratch dir that leaves with the run: a test that
# fails before its own clean-up, or a run stopped midway, would otherwise
# leave outputs of 9 MB each in /tmp at every run. TC_KEEP_TMP=1 keeps it.
# Readable by all, as munged wants every folder above its socket (the Slurm
# test's cluster lives in it).
scratch=$(mktemp -d "${TMPDIR:-/tmp}/tc-run.XXXXXX") && chmod 0755 "$scratch" ||
  { echo "scripts/test.sh: no scratch dir" >&2; exit 2; }
export TMPDIR=$scratch
idle_builds=
cleanup() {
  kill "${beside_pid[@]}" 2>/dev/null
  [[ -z $idle_builds ]] || kill -CONT -- -"$idle_builds" 2>/dev/null
  [[ -z $idle_builds ]] || kill -TERM -- -"$idle_builds" 2>/dev/null
  rm -rf "$beside_dir"
  if [[ ${TC_KEEP_TMP:-0} == 1 ]]; then
    echo "scripts/test.sh: the tests' temporary files are kept in $scratch" >&2
  else
    rm -rf "$scratch"
  fi
}
trap cleanup EXIT
declare -A beside_pid
beside() {
  local name=$1
  shift
  (
    start=$SECONDS
    "$@" >"$beside_dir/$name.log" 2>&1
    echo "$? $((SECONDS - start))" >"$beside_dir/$name.status"
  ) &
  beside_pid[$name]=$!
}
collect() {
  local rc secs
  wait "${beside_pid[$1]}"
  unset "beside_pid[$1]"
  cat "$beside_dir/$1.log"
  read -r rc secs <"$beside_dir/$1.status" || { rc=1; secs="?"; }
  echo "(ran beside the release build: $secs s)"
  return "$rc"
}
# Node packages the oracles, the browser tests and the recorder's CDP mode
# need, from the npm registry at pinned versions.
npm_packages() {
  local dir status=0
  for dir in tests/kernels tests/report corpus/recorder; do
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) || { echo "npm ci failed in $dir"; status=1; }
  done
  return $status
}

step "dependencies (Debian packages, when missing)"
if ((quick)); then
  bash scripts/deps.sh || give_up "installing dependencies failed"
else
  bash scripts/deps.sh --test || give_up "installing dependencies failed"
  beside npm npm_packages
  # The DevTools schema regenerated from pinned npm packages equals the
  # committed data files (its own npm install, node only).
  beside schema sh tools/schema/check.sh
fi

step "release build"
bash scripts/build.sh build || give_up "release build failed"
if ((quick)); then
  meson test -C build --print-errorlogs --num-processes 2 --no-suite corpus --no-suite slurm \
    --no-suite browser --no-suite oracle --no-suite tools
  count build
  echo "--- $((SECONDS - mark)) s"
  echo; echo "tests: $pass passed, $fail failed ($((SECONDS - t0)) s)"
  [[ $fail -eq 0 ]]
  exit
fi
step "npm packages for the oracles, the browser tests and corpus/record --mode cdp"
collect npm || fail=$((fail + 1))
# The sanitizer builds compile only what their suites run (and the fuzz
# targets), then run them without meson's rebuild of everything.
asan_suites="--no-suite oracle --no-suite corpus --no-suite slurm --no-suite browser --no-suite tools
  --no-suite docs"
tsan_suites="--suite pool --suite pipeline --suite threads"
asan_build() {
  # shellcheck disable=SC2086 # the options are words on purpose
  bash scripts/build.sh build-asan --for "$asan_suites --also tests/fuzz" $asan_options
}
tsan_build() {
  bash scripts/build.sh build-tsan --for "$tsan_suites" -Db_sanitize=thread -Db_lundef=false \
    -Db_lto=false -Dbuildtype=debugoptimized
}
export asan_suites tsan_suites
export -f asan_build tsan_build
# A build stopped before meson had configured it is started afresh.
finish_build() { # dir build-function
  [[ -f $1/build.ninja ]] || rm -rf "$1"
  "$2"
}

step "release suites"
# The sanitizer builds start now in the idle scheduling class (chrt --idle):
# they get only CPU time that no test wants, mostly the second core while the
# recordings run alone (a Chromium thread that wakes takes its core back at
# once; the recordings also run at nice -15). When the suites end they are
# stopped, and their steps below finish what is left at normal priority.
setsid chrt --idle 0 bash -c 'asan_build && tsan_build' >/dev/null 2>&1 &
idle_builds=$!
# Three at a time on two cores: the Chromium crawls, the Slurm cluster and the
# crawler's stand-in browser wait more than they compute (the two recordings
# that measure wall-clock figures still run alone, is_parallel: false, and
# stop the builds' group, TC_PAUSE_PGID, while they record: the idle class
# yields the CPU, not the caches and memory bandwidth; the startup recording
# only in each browser's trace window, not in Chromium's 6 s wait after it).
TC_PAUSE_PGID=$idle_builds meson test -C build --print-errorlogs --num-processes 3
count build
# A test killed while it had the builds stopped leaves them so; a stopped
# process would hold its TERM until continued.
kill -CONT -- -"$idle_builds" 2>/dev/null
kill -TERM -- -"$idle_builds" 2>/dev/null
wait "$idle_builds"
# ninja's compilers may outlive the shell that started them by a moment.
while pgrep -g "$idle_builds" >/dev/null; do sleep 0.2; done
idle_builds=

step "ASan + UBSan build, with the fuzz targets (the rest of it)"
finish_build build-asan asan_build || give_up "ASan build failed"
step "ASan + UBSan suites"
# shellcheck disable=SC2086 # the selectors are words on purpose
TC_SANITIZED=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  meson test -C build-asan --no-rebuild --print-errorlogs --num-processes 2 $asan_suites
count build-asan

step "fuzz targets, two at a time (30 s each, or as tests/fuzz/NAME.options says)"
results=$(mktemp)
# An input that breaks a target is kept in the build folder, not the checkout.
mkdir -p build-asan/fuzz-artifacts
FUZZ_ARTIFACTS=$PWD/build-asan/fuzz-artifacts fuzz_all "$results"
cat "$results"
pass=$((pass + $(grep -c ': ok (' "$results")))
fail=$((fail + $(grep -c ': FAILED$' "$results")))
rm -f "$results"

step "TSan build (the rest of it)"
finish_build build-tsan tsan_build || give_up "TSan build failed"
step "TSan suites"
# shellcheck disable=SC2086
TC_SANITIZED=1 TC_TSAN=1 TSAN_OPTIONS=halt_on_error=1 meson test -C build-tsan --no-rebuild \
  --print-errorlogs --num-processes 2 $tsan_suites
count build-tsan

step "DevTools schema"
if collect schema; then pass=$((pass + 1)); else fail=$((fail + 1)); fi

echo "--- $((SECONDS - mark)) s"
echo
echo "tests: $pass passed, $fail failed ($((SECONDS - t0)) s)"
[[ $fail -eq 0 ]]
