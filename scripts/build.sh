#!/usr/bin/env bash
# Configures (once) and builds the release build in build/ with clang, the
# default compiler (see README, "Compiler"). Quiet when all goes well; on a
# failure it shows what meson or ninja said, then fails.
#
#   scripts/build.sh [DIR [--for 'SELECTORS'] [MESON OPTIONS...]]
#
# --for builds only what the tests SELECTORS pick need (scripts/
# suite_targets.py's arguments, e.g. '--suite pool --also tests/fuzz'): the
# sanitizer builds of scripts/test.sh, whose suites then run --no-rebuild.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
selectors=
if [[ ${1:-} == --for ]]; then
  selectors=$2
  shift 2
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
quiet() { # runs "$@" with its output kept in $log, shown only if it fails
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    echo "scripts/build.sh: failed: $*" >&2
    exit 1
  fi
}
if [[ ! -f "$dir/build.ninja" ]]; then
  quiet meson setup "$dir" --native-file clang.ini "$@"
fi
targets=()
if [[ -n $selectors ]]; then
  # shellcheck disable=SC2086 # the selectors are words on purpose
  mapfile -t targets < <(python3 scripts/suite_targets.py "$dir" $selectors)
  [[ ${#targets[@]} -gt 0 ]] || { echo "scripts/build.sh: no target for $selectors" >&2; exit 1; }
fi
quiet ninja -C "$dir" "${targets[@]}"
