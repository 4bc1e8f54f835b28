#!/usr/bin/env python3
"""Which compiler builds the faster census: the same sources built with clang
(build/) and with gcc (build-gcc/), run single-threaded on the same plain
JSON corpus, interleaved, REPS times. Prints medians and the ratio.

    meson setup build-gcc && ninja -C build-gcc tracecensus
    python3 bench/compiler_compare.py [--reps 7]
"""
import argparse
import gzip
import os
import shutil
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
THIRD = os.path.join(ROOT, '..', 'shared', 'traces', 'third-party')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--reps', type=int, default=7)
    ap.add_argument('--copies', type=int, default=4)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix='tc-cc-')
    try:
        total = 0
        for c in range(args.copies):
            d = os.path.join(work, 'corpus', f's{c}')
            os.makedirs(d)
            for name in os.listdir(THIRD):
                with open(os.path.join(THIRD, name), 'rb') as f:
                    raw = f.read()
                if raw[:2] == b'\x1f\x8b':
                    raw = gzip.decompress(raw)
                with open(os.path.join(d, name.replace('.gz', '')), 'wb') as f:
                    f.write(raw)
                total += len(raw)
        bins = {'clang': os.path.join(ROOT, 'build', 'tracecensus'),
                'gcc': os.path.join(ROOT, 'build-gcc', 'tracecensus')}
        times = {k: [] for k in bins}
        for _ in range(args.reps):
            for k, b in bins.items():
                t0 = time.perf_counter()
                subprocess.run([b, 'census', '-T', '1', '-o', os.path.join(work, 'out'),
                                os.path.join(work, 'corpus')], check=True, capture_output=True)
                times[k].append(time.perf_counter() - t0)
        med = {k: statistics.median(v) for k, v in times.items()}
        for k in bins:
            print(f'{k:6s} median {total / 1e6 / med[k]:7.1f} MB/s over {args.reps} runs')
        print(f'clang / gcc throughput ratio: {med["gcc"] / med["clang"]:.2f}')
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
