#!/usr/bin/env bash
# The folders of src/ are stages in the data's order, and a stage includes
# only stages below it (and itself):
#
#   util -> io, pool -> proto -> json -> procs -> census, kernels -> reduce -> report -> pipeline, diff -> cli
#
# proto (Perfetto protobuf traces read as JSON events) sits under json,
# whose chunker hands its events on; procs (each trace's process map) over
# it, under census and kernels, which both scope by it. io and pool are
# siblings, so are census and kernels, and pipeline (the census run) and
# diff (two runs' outputs compared): neither of a pair includes the other. Every `#include "FOLDER/..."` in src/ is checked
# against this order; each one that breaks it is named with its file and
# line, and the script fails; so does an include circle between two files
# (a .c file and its header counted as one). Run from anywhere:
# bash scripts/check_layers.sh
set -euo pipefail
cd "$(dirname "$0")/.."

grep -rnE --include='*.c' --include='*.h' --include='*.cpp' --include='*.hpp' \
  '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' src |
awk '
BEGIN {
  order = "util -> io, pool -> proto -> json -> procs -> census, kernels -> reduce -> report -> pipeline, diff -> cli"
  rank["util"] = 0
  rank["io"] = 1; rank["pool"] = 1
  rank["proto"] = 2
  rank["json"] = 3
  rank["procs"] = 4
  rank["census"] = 5; rank["kernels"] = 5
  rank["reduce"] = 6
  rank["report"] = 7
  rank["pipeline"] = 8; rank["diff"] = 8
  rank["cli"] = 9
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

# No include circle between files either: a header that includes, through
# any chain, a file that includes it back ties two rooms into one. Each
# circle is named with its files.
python3 - <<'PY'
import os, re, sys
inc = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
graph = {}
for root, _, files in os.walk('src'):
    for f in files:
        if f.endswith(('.c', '.h', '.cpp', '.hpp')):
            path = os.path.join(root, f)
            with open(path, encoding='utf-8', errors='replace') as fh:
                text = fh.read()
            deps = set()
            for name in inc.findall(text):
                cand = os.path.join('src', name) if '/' in name else os.path.join(root, name)
                if os.path.exists(cand):
                    deps.add(os.path.normpath(cand))
            graph[os.path.normpath(path)] = deps
# A .c file and its header are one unit. A header without a .c file (an
# internal header of shared types) is no unit of its own: an include of it
# stands for what it includes, so a .c file including its folder's
# internal header, which includes the .c file's own header, is no circle.
def unit(p):
    return re.sub(r'\.(c|cpp|h|hpp)$', '', p)
compiled = {unit(p) for p in graph if p.endswith(('.c', '.cpp'))}
def reach(p, seen):
    out = set()
    for d in graph.get(p, ()):
        if unit(d) in compiled:
            out.add(unit(d))
        elif d not in seen:
            seen.add(d)
            out |= reach(d, seen)
    return out
units = {}
for p in graph:
    if unit(p) in compiled:
        units.setdefault(unit(p), set()).update(u for u in reach(p, {p}) if u != unit(p))
index, low, stack, on, circles, n = {}, {}, [], set(), [], [0]
def strong(v):
    index[v] = low[v] = n[0]; n[0] += 1
    stack.append(v); on.add(v)
    for w in sorted(units.get(v, ())):
        if w not in index:
            strong(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            circles.append(sorted(comp))
sys.setrecursionlimit(10000)
for v in sorted(units):
    if v not in index:
        strong(v)
for c in circles:
    print('check_layers: include circle between ' + ', '.join(c), file=sys.stderr)
if circles:
    sys.exit(1)
print('check_layers: %d files of src/, no include circle between them' % len(graph))
PY
