#!/usr/bin/env python3
"""Memory and instructions against the number of traces (issue 10): a
corpus of N sites, each one hard link of the same small trace (the first
300 events of a bundled trace with its whole metadata block, as Chrome
writes it: about 60 KB of the ~100 KB), run at -T 2 for N = 10, 1,000 and
10,000. Prints peak RSS (run.json's peak_rss_kib, the kernel's high-water
mark) and run.json's size side by side, and instructions per trace from
callgrind at -T 1: (I(N2) - I(N1)) / (N2 - N1) for two small N, so the fixed
cost of starting, the schema and the writers' constant part cancel. It does
so for the small trace and for a tiny one (a handful of events, a few
hundred bytes), whose count is the fixed cost of a trace: opening, reading,
chunking, the kernels, its partial state and its rows in the outputs. N1 is
300 by default, past report.html's 200 timeline plots, so the figure is a
large crawl's (below that each trace also costs its plot).

    python3 bench/scale_traces.py [--counts 10,1000,10000] [--callgrind 300,400]
                                  [--vector-strings]

--vector-strings: callgrind counts a rep-string instruction once per byte
it moves (see VECTOR_STRINGS); with it glibc's memset and memcpy use their
vector loops, so the count follows what the CPU executes.

Needs build/tracecensus (or $TRACECENSUS), zstd, and valgrind for the
instruction counts. Same arguments, same corpus: nothing is random."""
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
BINARY = os.environ.get('TRACECENSUS', os.path.join(ROOT, 'build', 'tracecensus'))
SOURCE = os.path.join(ROOT, 'corpus', 'crawl', 'css-import', 'trace.json.zst')


def small_trace(path, events=300):
    raw = subprocess.run(['zstd', '-dc', SOURCE], capture_output=True, check=True).stdout
    doc = json.loads(raw)
    small = {'traceEvents': doc['traceEvents'][:events], 'metadata': doc.get('metadata', {})}
    with open(path, 'w', encoding='utf-8') as f:
        json.dump(small, f)
    return os.path.getsize(path), len(json.dumps(small['metadata']))


def tiny_trace(path):
    """Five events of one renderer: a thread name, a task, a layout, a mark."""
    ev = [{'name': 'thread_name', 'ph': 'M', 'pid': 2, 'tid': 3, 'ts': 0, 'cat': '__metadata',
           'args': {'name': 'CrRendererMain'}},
          {'name': 'RunTask', 'cat': 'toplevel', 'ph': 'X', 'pid': 2, 'tid': 3, 'ts': 1000,
           'dur': 70000, 'args': {}},
          {'name': 'Layout', 'cat': 'devtools.timeline', 'ph': 'X', 'pid': 2, 'tid': 3,
           'ts': 2000, 'dur': 500, 'args': {}},
          {'name': 'RunTask', 'cat': 'toplevel', 'ph': 'X', 'pid': 2, 'tid': 3, 'ts': 90000,
           'dur': 2000, 'args': {}},
          {'name': 'mark', 'cat': 'blink.user_timing', 'ph': 'R', 'pid': 2, 'tid': 3,
           'ts': 95000, 'args': {'data': {}}}]
    with open(path, 'w', encoding='utf-8') as f:
        json.dump({'traceEvents': ev}, f)
    return os.path.getsize(path)


def corpus(tmp, trace, n, kind='small'):
    root = os.path.join(tmp, '%s-corpus-%d' % (kind, n))
    if os.path.isdir(root):
        return root
    os.mkdir(root)
    for i in range(n):
        site = os.path.join(root, 'site-%05d' % i)
        os.mkdir(site)
        os.link(trace, os.path.join(site, 'trace.json'))
    return root


def run(root, outdir, extra=()):
    p = subprocess.run([BINARY, 'census', '-q', '-T', '2', '-o', outdir, *extra, root],
                       capture_output=True, text=True, timeout=3600)
    if p.returncode not in (0, 1):
        sys.exit('tracecensus failed: ' + p.stderr)
    with open(os.path.join(outdir, 'run.json'), encoding='utf-8') as f:
        facts = json.load(f)
    return facts['peak_rss_kib'], os.path.getsize(os.path.join(outdir, 'run.json'))


# callgrind counts every iteration of a rep-string instruction as one
# instruction (glibc's memset and memcpy use rep stosb / rep movsb above a
# few KB, so zeroing 100 KB counts 100 K), where the CPU retires it as one.
# These tunables make glibc use its vector loops at every size instead, so
# the count follows the stores the CPU makes (32 bytes each).
VECTOR_STRINGS = ('glibc.cpu.x86_rep_stosb_threshold=4294967295:'
                  'glibc.cpu.x86_rep_movsb_threshold=4294967295')


def instructions(root, outdir, vector_strings=False):
    out = os.path.join(outdir, 'callgrind.out')
    os.makedirs(outdir, exist_ok=True)
    env = dict(os.environ)
    if vector_strings:
        env['GLIBC_TUNABLES'] = ':'.join(filter(None, (env.get('GLIBC_TUNABLES'), VECTOR_STRINGS)))
    p = subprocess.run(['valgrind', '--tool=callgrind', '--callgrind-out-file=' + out,
                        BINARY, 'census', '-q', '-T', '1', '-o', os.path.join(outdir, 'o'), root],
                       capture_output=True, text=True, timeout=7200, env=env)
    m = re.search(r'Collected : (\d+)', p.stderr)
    if not m:
        sys.exit('callgrind gave no count: ' + p.stderr[-2000:])
    return int(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--counts', default='10,1000,10000')
    ap.add_argument('--callgrind', default='300,400')
    ap.add_argument('--vector-strings', action='store_true',
                    help='callgrind runs with glibc\'s vector memset/memcpy instead of rep strings')
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix='scale-traces-')
    trace = os.path.join(tmp, 'small.json')
    size, meta = small_trace(trace)
    print('small trace: %d bytes of JSON, %d of them metadata' % (size, meta))
    print('%8s  %14s  %14s' % ('traces', 'peak RSS MiB', 'run.json MiB'))
    for n in [int(x) for x in args.counts.split(',')]:
        rss, rj = run(corpus(tmp, trace, n), os.path.join(tmp, 'out-%d' % n))
        print('%8d  %14.1f  %14.2f' % (n, rss / 1024, rj / 2**20), flush=True)
    if shutil.which('valgrind') and args.callgrind:
        a, b = [int(x) for x in args.callgrind.split(',')]
        tiny = os.path.join(tmp, 'tiny.json')
        tiny_size = tiny_trace(tiny)
        for kind, path, nbytes in (('tiny', tiny, tiny_size), ('small', trace, size)):
            ia = instructions(corpus(tmp, path, a, kind), os.path.join(tmp, 'cg-%s-%d' % (kind, a)),
                              args.vector_strings)
            ib = instructions(corpus(tmp, path, b, kind), os.path.join(tmp, 'cg-%s-%d' % (kind, b)),
                              args.vector_strings)
            print('instructions, %s trace (%d bytes): %d traces %d, %d traces %d; per trace '
                  '%.2f M (%.1f per JSON byte)' % (kind, nbytes, a, ia, b, ib,
                                                   (ib - ia) / (b - a) / 1e6,
                                                   (ib - ia) / (b - a) / nbytes), flush=True)
    shutil.rmtree(tmp)


if __name__ == '__main__':
    main()
