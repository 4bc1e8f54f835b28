#!/usr/bin/env python3
"""What writing the reports costs, old writers against new, in instructions
counted by callgrind (stable on a shared, noisy machine; wall time is not).

1. The inner loops (build/bench/writers_micro): instructions per number
   and per byte of escaped text, the stdio-era code against tc_numfmt and
   tc_json_escape into tc_wbuf, on the same inputs.
2. Whole runs of `tracecensus census -T 1` on bench/wide_corpus.py corpora
   of NAMES distinct event names (and as many argument paths): instructions
   in all and in the report writers, for the --before binary (e.g. one
   built from main) and the --after one; their outputs must be identical
   (run.json but its timing fields).

    python3 bench/writers_bench.py [--before OLD/tracecensus] [--names 10000,100000]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import wide_corpus  # noqa: E402

WRITERS = ('tc_write_census_json', 'tc_write_census_csv', 'tc_write_census_md',
           'tc_write_run_json', 'tc_metrics_write')
KERNELS = (('numbers as the reports hold them', 'num_old_report', 'num_new_report', 'number'),
           ('numbers of random bits', 'num_old_bits', 'num_new_bits', 'number'),
           ('escaping names and paths', 'escape_old', 'escape_new', 'byte'))
TIMING = ('seconds', 'peak_rss_kib', 'json_mb_per_s')


def callgrind(cmd, work, toggle=None):
    """Instructions of CMD (only inside function TOGGLE if given) and the
    inclusive instructions per function."""
    out = os.path.join(work, 'callgrind.out')
    vg = ['valgrind', '--tool=callgrind', f'--callgrind-out-file={out}']
    if toggle:
        vg += ['--collect-atstart=no', f'--toggle-collect={toggle}']
    p = subprocess.run(vg + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode not in (0, 1):
        sys.exit(f'bench: {" ".join(cmd)} failed:\n{p.stderr[-2000:]}')
    ann = subprocess.run(['callgrind_annotate', '--inclusive=yes', '--threshold=100', out],
                         capture_output=True, text=True, check=True).stdout
    total, funcs = None, {}
    for line in ann.splitlines():
        m = re.match(r'\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(\S.*)$', line)
        if not m:
            continue
        n = int(m.group(1).replace(',', ''))
        if m.group(2).startswith('PROGRAM TOTALS'):
            total = n
            continue
        f = re.sub(r'\s*\[.*\]$', '', m.group(2)).split(':')[-1]
        funcs[f] = max(funcs.get(f, 0), n)
    os.unlink(out)
    return total, funcs


def micro(binary, work):
    units = subprocess.run([binary, '--units'], capture_output=True, text=True, check=True).stdout.split()
    per = {'number': int(units[1]), 'byte': int(units[3])}
    print('inner loops (callgrind instructions per unit, same inputs):')
    for label, old, new, unit in KERNELS:
        o, _ = callgrind([binary, old], work, toggle=old)
        n, _ = callgrind([binary, new], work, toggle=new)
        print(f'  {label:34s} old {o / per[unit]:10.1f}  new {n / per[unit]:7.1f} per {unit}'
              f'   x{o / n:6.1f} fewer')


def strip_timing(path):
    with open(path) as f:
        run = json.load(f)
    for k in TIMING:
        run.pop(k, None)
    return run


def same_outputs(a, b):
    for f in sorted(os.listdir(a)):
        pa, pb = os.path.join(a, f), os.path.join(b, f)
        if f == 'run.json':
            if strip_timing(pa) != strip_timing(pb):
                return f
        else:
            with open(pa, 'rb') as x, open(pb, 'rb') as y:
                if x.read() != y.read():
                    return f
    return None


def whole_runs(binaries, names_list, work):
    print('\nwhole runs, census -T 1 (callgrind instructions):')
    for names in names_list:
        corpus = os.path.join(work, f'wide{names}')
        wide_corpus.write_corpus(corpus, names)
        outs = {}
        for label, binary in binaries:
            out = os.path.join(work, f'out-{label}-{names}')
            total, funcs = callgrind([binary, 'census', '-T', '1', '-o', out, corpus], work)
            writers = sum(funcs.get(w, 0) for w in WRITERS)
            outs[label] = (out, total, writers)
            print(f'  {names:7d} names  {label:6s}  {total / 1e9:7.3f} G in all, '
                  f'{writers / 1e9:7.3f} G writing ({100 * writers / total:4.1f} %), '
                  f'{writers / names:9.0f} per name writing')
        if len(outs) == 2:
            (bo, bt, bw), (ao, at, aw) = outs['before'], outs['after']
            diff = same_outputs(bo, ao)
            print(f'  {names:7d} names  after/before: x{bt / at:.2f} fewer in all, '
                  f'x{bw / aw:.2f} fewer writing; outputs '
                  + (f'DIFFER in {diff}' if diff else 'identical'))
            if diff:
                sys.exit(1)
        shutil.rmtree(corpus)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--before', help='tracecensus with the old writers (e.g. built from main)')
    ap.add_argument('--after', default=os.path.join(ROOT, 'build', 'tracecensus'))
    ap.add_argument('--micro', default=os.path.join(ROOT, 'build', 'bench', 'writers_micro'))
    ap.add_argument('--names', default='10000,100000')
    ap.add_argument('--no-micro', action='store_true')
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix='tc-writers-')
    try:
        if not args.no_micro:
            micro(args.micro, work)
        binaries = ([('before', args.before)] if args.before else []) + [('after', args.after)]
        whole_runs(binaries, [int(n) for n in args.names.split(',') if n], work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
