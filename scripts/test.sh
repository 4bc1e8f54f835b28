#!/usr/bin/env bash
# README's second command (and CI's): every test.
#   1. release build, every suite (unit, end-to-end on real traces, oracles,
#      jobs/slurm on a single-node Slurm cluster started for the test, the
#      HTML layer's demo page in headless Chromium: build/tests/report/
#      report.png is its screenshot)
#   2. ASan+UBSan build, every C suite and the end-to-end suite (not the
#      browser test: test_html runs the demo page's writer under them)
#   3. TSan build, the pool, pipeline and end-to-end suites (threads)
#   4. fuzz targets, a short run each over their seeds
#   5. the DevTools schema regenerated from pinned npm packages equals the
#      committed data file
# Ends with one line "tests: N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
# An oracle that cannot run is a failure here, not a skip.
export TC_REQUIRE_ORACLES=1
fail=0
pass=0
# A step that cannot even start still ends with the summary line.
give_up() {
  echo "scripts/test.sh: $*" >&2
  echo "tests: $pass passed, $((fail + 1)) failed"
  exit 2
}
bash scripts/deps.sh --test || give_up "installing dependencies failed"

count() { # build dir -> adds its meson results to pass/fail
  local log="$1/meson-logs/testlog.json"
  [[ -f $log ]] || return 0
  read -r p f < <(python3 - "$log" <<'PY'
import json, sys
p = f = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r['result'] in ('OK', 'EXPECTEDFAIL'):
        p += 1
    else:
        f += 1
print(p, f)
PY
)
  pass=$((pass + p)); fail=$((fail + f))
}

step() { echo; echo "=== $*"; }

# Node packages the oracles, the browser test and the recorder's CDP mode
# need, from the npm registry at pinned versions.
step "npm packages for the oracles, the browser test and corpus/record --mode cdp"
for dir in tests/kernels tests/report corpus/recorder; do
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) || fail=$((fail + 1))
done

step "release build"
bash scripts/build.sh build || give_up "release build failed"
meson test -C build --print-errorlogs --num-processes 2
count build

step "ASan + UBSan"
bash scripts/build.sh build-asan -Db_sanitize=address,undefined -Db_lundef=false -Db_lto=false \
  -Dbuildtype=debugoptimized || give_up "ASan build failed"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  meson test -C build-asan --print-errorlogs --num-processes 2 --no-suite oracle --no-suite corpus \
  --no-suite slurm --no-suite browser
count build-asan

step "TSan"
bash scripts/build.sh build-tsan -Db_sanitize=thread -Db_lundef=false -Db_lto=false \
  -Dbuildtype=debugoptimized || give_up "TSan build failed"
TSAN_OPTIONS=halt_on_error=1 meson test -C build-tsan --print-errorlogs --num-processes 1 \
  --suite pool --suite pipeline --suite e2e
count build-tsan

step "fuzz targets (30 s each, or as tests/fuzz/NAME.options says)"
bash scripts/build.sh build-fuzz -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false \
  -Db_lto=false -Dbuildtype=debugoptimized || give_up "fuzz build failed"
for t in build-fuzz/tests/fuzz/fuzz_*; do
  [[ -f $t && -x $t ]] || continue
  name=$(basename "$t")
  work=$(mktemp -d)
  dirs=("$work")
  [[ -d tests/fuzz/seeds/${name#fuzz_} ]] && dirs+=("tests/fuzz/seeds/${name#fuzz_}")
  # Seeds made from the real traces at run time, and the target's own flags.
  seeds=tests/fuzz/seeds_${name#fuzz_}.py
  [[ -f $seeds ]] && python3 "$seeds" "$work"
  opts=()
  [[ -f tests/fuzz/$name.options ]] && read -ra opts <"tests/fuzz/$name.options"
  if UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$t" -max_total_time=30 "${opts[@]}" "${dirs[@]}" >"$work.log" 2>&1; then
    echo "$name: ok ($(grep -o 'Done [0-9]* runs in [0-9]* second' "$work.log"))"; pass=$((pass + 1))
  else
    echo "$name: FAILED"; tail -40 "$work.log"; fail=$((fail + 1))
  fi
  rm -rf "$work" "$work.log"
done

step "DevTools schema"
if sh tools/schema/check.sh; then pass=$((pass + 1)); else fail=$((fail + 1)); fi

echo
echo "tests: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
