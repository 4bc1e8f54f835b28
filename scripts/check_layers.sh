#!/usr/bin/env bash
# The folders of src/ are stages in the data's order, and a stage includes
# only stages below it (and itself):
#
#   util -> io, pool -> proto -> json -> census, kernels -> reduce -> report -> pipeline, diff -> cli
#
# proto (Perfetto protobuf traces read as JSON events) sits under json,
# whose chunker hands its events on. io and pool are siblings, so are census
# and kernels, and pipeline (the census run) and diff (two runs' outputs
# compared): neither of a pair includes the other. Every
# `#include "FOLDER/..."` in src/ is checked against this order; each one
# that breaks it is named with its file and line, and the script fails. Run from anywhere: bash scripts/check_layers.sh
set -euo pipefail
cd "$(dirname "$0")/.."

grep -rnE --include='*.c' --include='*.h' --include='*.cpp' --include='*.hpp' \
  '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' src |
awk '
BEGIN {
  order = "util -> io, pool -> proto -> json -> census, kernels -> reduce -> report -> pipeline, diff -> cli"
  rank["util"] = 0
  rank["io"] = 1; rank["pool"] = 1
  rank["proto"] = 2
  rank["json"] = 3
  rank["census"] = 4; rank["kernels"] = 4
  rank["reduce"] = 5
  rank["report"] = 6
  rank["pipeline"] = 7; rank["diff"] = 7
  rank["cli"] = 8
}
{
  # src/FROM/file:LINE:#include "TO/..."
  file = $0; sub(/:[0-9]+:.*/, "", file)
  rest = substr($0, length(file) + 2)
  line = rest; sub(/:.*/, "", line)
  inc = rest; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
  split(file, f, "/"); from = f[2]
  if (!(from in rank)) {
    if (!(from in unknown)) {
      print "check_layers: src/" from "/ has no place in the order " order > "/dev/stderr"
      unknown[from] = 1; bad++
    }
    next
  }
  if (inc !~ /\//) next
  to = inc; sub(/\/.*/, "", to)
  checked++
  if (!(to in rank)) next        # a third-party header spelt with a folder
  if (to != from && rank[to] >= rank[from]) {
    print "check_layers: " file ":" line ": includes \"" inc "\": " to "/ is not below " from "/" > "/dev/stderr"
    bad++
  }
}
END {
  if (bad) {
    print "check_layers: " bad " include(s) against the order " order > "/dev/stderr"
    exit 1
  }
  print "check_layers: " checked " includes of src/ with a folder checked, all in order"
}'
