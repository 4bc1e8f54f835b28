# shellcheck shell=bash
# Sourced by scripts/test.sh (CI's short fuzz runs) and scripts/fuzz.sh (the
# long ones): how the ASan build that holds the fuzz targets is made, and how
# every target is run.

# meson options of build-asan, on its first configuration.
export asan_options="-Db_sanitize=address,undefined -Db_lundef=false -Db_lto=false
  -Dbuildtype=debugoptimized -Dfuzz=true"

# One target -> 0 when it ran clean; its log's tail on failure. Runs as
# tests/fuzz/NAME.options says (else 30 s), or $FUZZ_SECONDS when set; the
# input that broke it is kept in $FUZZ_ARTIFACTS when set.
fuzz_one() {
  local t=$1 name work opts=() dirs seeds more=()
  name=$(basename "$t")
  work=$(mktemp -d)
  dirs=("$work")
  [[ -d tests/fuzz/seeds/${name#fuzz_} ]] && dirs+=("tests/fuzz/seeds/${name#fuzz_}")
  # Seeds made from the real traces at run time (what a seed script says goes
  # to stderr: the results file holds one line a target), and the target's
  # own flags.
  seeds=tests/fuzz/seeds_${name#fuzz_}.py
  [[ -f $seeds ]] && python3 "$seeds" "$work" >&2
  [[ -f tests/fuzz/$name.options ]] && read -ra opts <"tests/fuzz/$name.options"
  # libFuzzer takes the last of a repeated flag.
  [[ -n ${FUZZ_SECONDS:-} ]] && more+=("-max_total_time=$FUZZ_SECONDS")
  [[ -n ${FUZZ_ARTIFACTS:-} ]] && more+=("-artifact_prefix=$FUZZ_ARTIFACTS/$name-")
  if UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$t" -max_total_time=30 "${opts[@]}" "${more[@]}" "${dirs[@]}" >"$work.log" 2>&1; then
    echo "$name: ok ($(grep -o 'Done [0-9]* runs in [0-9]* second' "$work.log"))"
    rm -rf "$work" "$work.log"
    return 0
  fi
  echo "$name: FAILED"; tail -40 "$work.log"
  rm -rf "$work" "$work.log"
  return 1
}
export -f fuzz_one

# Every target of build-asan, two at a time, longest first (so that the
# longest does not run alone at the end); the results go to file $1.
fuzz_all() {
  local t secs
  for t in $(find build-asan/tests/fuzz -maxdepth 1 -name 'fuzz_*' -type f -perm -u+x | sort); do
    secs=$(grep -o 'max_total_time=[0-9]*' "tests/fuzz/$(basename "$t").options" 2>/dev/null)
    secs=${secs#max_total_time=}
    echo "${secs:-30} $t"
  done | sort -s -k1,1nr | cut -d' ' -f2 |
    xargs -P 2 -I{} bash -c 'fuzz_one "$1"' _ {} >"$1"
}
