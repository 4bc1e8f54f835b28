#!/usr/bin/env bash
# Configures (once) and builds the release build in build/ with clang, the
# default compiler (see README, "Compiler"). Quiet when all goes well; on a
# failure it shows what meson or ninja said, then fails.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
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
quiet ninja -C "$dir"
