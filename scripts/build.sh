#!/usr/bin/env bash
# Configures (once) and builds the release build in build/ with clang, the
# default compiler (see README, "Compiler").
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
if [[ ! -f "$dir/build.ninja" ]]; then
  meson setup "$dir" --native-file clang.ini "$@" >/dev/null
fi
ninja -C "$dir" >/dev/null
