#!/usr/bin/env python3
"""Runs the census's metric kernels on every real trace and checks them
independently.

    run_real_traces.py TRACECENSUS TRACE_DIR WORK_DIR (reference | lighthouse)

`tracecensus census -o WORK_DIR TRACE_DIR` writes WORK_DIR/metrics.json (each
file of TRACE_DIR its own site, or each site folder of a crawl such as
corpus/truth/crawl). Then:
  reference   metrics_reference.py recomputes every figure from the traces;
  lighthouse  lighthouse_oracle.mjs runs Lighthouse's tracehouse code and
              compare_oracle.py compares main threads, long tasks and TBT.
              Skipped (exit 77) when node or tests/kernels/node_modules is
              missing: run `npm ci --prefix tests/kernels` first. With
              TC_REQUIRE_ORACLES=1 (as scripts/test.sh sets) that is a failure.
"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    binary, trace_dir, work, mode = sys.argv[1:5]
    if mode == 'lighthouse' and (not shutil.which('node') or
                                 not os.path.isdir(os.path.join(HERE, 'node_modules', 'lighthouse'))):
        print('needs node and `npm ci --prefix tests/kernels`')
        return 1 if os.environ.get('TC_REQUIRE_ORACLES') == '1' else 77
    os.makedirs(work, exist_ok=True)
    p = subprocess.run([binary, 'census', '-o', work, trace_dir], capture_output=True, text=True)
    if p.returncode != 0:
        print(p.stderr)
        return 1
    metrics = os.path.join(work, 'metrics.json')
    if mode == 'reference':
        return subprocess.run([sys.executable, os.path.join(HERE, 'metrics_reference.py'),
                               metrics, trace_dir]).returncode
    oracle = os.path.join(work, 'lighthouse.json')
    with open(oracle, 'w') as out:
        subprocess.run(['node', os.path.join(HERE, 'lighthouse_oracle.mjs'), trace_dir],
                       check=True, stdout=out)
    return subprocess.run([sys.executable, os.path.join(HERE, 'compare_oracle.py'), oracle,
                           metrics]).returncode


if __name__ == '__main__':
    sys.exit(main())
