#!/usr/bin/env python3
"""End-to-end throughput of a census, side by side with `zstd -d`.

Builds a corpus from the real traces in ../shared/traces/third-party
(decompressed, replicated into SITES sites, recompressed with zstd), then
runs, interleaved REPS times: `zstd -dc` over every file, and `tracecensus
census` at each thread count asked for. Prints the median MB/s of
decompressed JSON and the peak RSS of each, and the ratios measured in the
same run. Then, for --grow, single traces of growing size (the events of a
real trace repeated) to show that peak RSS stays flat as a trace grows.

    python3 bench/census_throughput.py [--sites 8] [--reps 5] [--threads 1,2]
                                       [--grow 64,256,1024] [--extra ARGS]
                                       [--before OLD_BINARY]

--before runs an older build side by side at each thread count (and its
peak RSS), to measure what a change costs.
"""
import argparse
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
THIRD = os.path.join(ROOT, '..', 'shared', 'traces', 'third-party')
CRAWL = os.path.join(ROOT, 'corpus', 'crawl')


def read_trace(path):
    with open(path, 'rb') as f:
        raw = f.read()
    return gzip.decompress(raw) if raw[:2] == b'\x1f\x8b' else raw


def zstd_file(raw, dst):
    subprocess.run(['zstd', '-q', '-3', '-f', '-o', dst], input=raw, check=True)


def add_crawl(dir_):
    """Copies the bundled crawl's sites (zstd already) in; returns their JSON bytes."""
    total = 0
    for site in sorted(os.listdir(CRAWL)):
        src = os.path.join(CRAWL, site)
        if not os.path.isdir(src):
            continue
        files = [f for f in sorted(os.listdir(src)) if f.endswith('.zst')]
        if not files:
            continue
        os.makedirs(os.path.join(dir_, 'crawl-' + site))
        for f in files:
            shutil.copy(os.path.join(src, f), os.path.join(dir_, 'crawl-' + site, f))
            p = subprocess.run(['zstd', '-dc', os.path.join(src, f)], capture_output=True, check=True)
            total += len(p.stdout)
    return total


def build_corpus(dir_, sites):
    total = 0
    for s in range(sites):
        d = os.path.join(dir_, f'site{s:03d}')
        os.makedirs(d)
        for name in sorted(os.listdir(THIRD)):
            raw = read_trace(os.path.join(THIRD, name))
            zstd_file(raw, os.path.join(d, name.replace('.gz', '') + '.zst'))
            total += len(raw)
    return total


def grown_trace(dst, target_mb):
    """One trace of about TARGET_MB MB: a real trace's events, repeated."""
    raw = read_trace(os.path.join(THIRD, 'traces__amp-m86.trace.json'))
    doc = json.loads(raw)
    events = doc['traceEvents'] if isinstance(doc, dict) else doc
    body = ',\n'.join(json.dumps(e, separators=(',', ':')) for e in events).encode()
    reps = max(1, target_mb * 1_000_000 // len(body))
    proc = subprocess.Popen(['zstd', '-q', '-3', '-f', '-o', dst], stdin=subprocess.PIPE)
    proc.stdin.write(b'{"traceEvents":[\n')
    for i in range(reps):
        proc.stdin.write(body)
        proc.stdin.write(b',\n' if i + 1 < reps else b'\n')
    proc.stdin.write(b']}\n')
    proc.stdin.close()
    proc.wait()
    return reps * len(body)


def timed(cmd, outdir=None):
    """Wall seconds and, for a census writing to OUTDIR, its peak RSS in MiB
    as it reports it in run.json (VmHWM of its own address space: a child's
    rusage would include the pages of this Python process it was forked
    from)."""
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f'bench: {cmd[0]} failed: {p.stderr.decode(errors="replace")}')
    rss = None
    if outdir:
        with open(os.path.join(outdir, 'run.json')) as f:
            rss = json.load(f)['peak_rss_kib'] / 1024
    return dt, rss


def files_under(d):
    out = []
    for r, _, fs in os.walk(d):
        out += [os.path.join(r, f) for f in fs]
    return sorted(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--binary', default=os.path.join(ROOT, 'build', 'tracecensus'))
    ap.add_argument('--sites', type=int, default=8)
    ap.add_argument('--reps', type=int, default=5)
    ap.add_argument('--threads', default='1,2')
    ap.add_argument('--grow', default='64,256,1024', help='MB of JSON per grown trace; empty to skip')
    ap.add_argument('--extra', default='', help='extra census arguments, e.g. "--no-metrics"')
    ap.add_argument('--before', default=None, help='an older tracecensus binary, run side by side')
    ap.add_argument('--crawl', action='store_true', help='add the bundled crawl (corpus/crawl) to the corpus')
    ap.add_argument('--compare-extra', default=None,
                    help='also run each thread count with these arguments instead, side by side')
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix='tc-bench-')
    try:
        corpus = os.path.join(work, 'corpus')
        json_bytes = build_corpus(corpus, args.sites)
        if args.crawl:
            json_bytes += add_crawl(corpus)
        files = files_under(corpus)
        comp = sum(os.path.getsize(f) for f in files)
        print(f'corpus: {args.sites} sites, {len(files)} zstd traces, {comp / 1e6:.1f} MB compressed, '
              f'{json_bytes / 1e6:.1f} MB of JSON')
        variants = [('zstd -dc', ['zstd', '-dc', *files], None)]
        out = os.path.join(work, 'out')
        for t in args.threads.split(','):
            base = [args.binary, 'census', '-T', t, '-o', out, *args.extra.split()]
            variants.append((f'tracecensus -T {t}', base + [corpus], out))
            if args.before:
                variants.append((f'before -T {t}', [args.before] + base[1:] + [corpus], out))
            if args.compare_extra is not None:
                variants.append((f'tracecensus -T {t} {args.compare_extra}',
                                 base + args.compare_extra.split() + [corpus], out))
        results = {name: [] for name, _, _ in variants}
        for _ in range(args.reps):
            for name, cmd, o in variants:
                results[name].append(timed(cmd, o))
        print(f'\nmedian of {args.reps} interleaved runs (MB/s of decompressed JSON):')
        base = statistics.median(t for t, _ in results['zstd -dc'])
        for name, rs in results.items():
            t = statistics.median(x for x, _ in rs)
            rss = max((r for _, r in rs if r is not None), default=None)
            print(f'  {name:34s} {json_bytes / 1e6 / t:8.1f} MB/s  x{base / t:5.2f} of zstd -dc'
                  + (f'  peak RSS {rss:7.1f} MiB' if rss is not None else ''))
        if args.grow:
            print('\npeak RSS as one trace grows (-T 2):')
            extras = [args.extra.split()]
            if args.compare_extra is not None:
                extras.append(args.extra.split() + args.compare_extra.split())
            for mb in (int(x) for x in args.grow.split(',')):
                path = os.path.join(work, f'grown-{mb}.json.zst')
                n = grown_trace(path, mb)
                for extra in extras:
                    t, rss = timed([args.binary, 'census', '-T', '2', '-o', out, *extra, path], out)
                    label = ' '.join(extra) or 'census + metrics'
                    print(f'  {n / 1e6:8.1f} MB of JSON  {label:22s} {n / 1e6 / t:8.1f} MB/s'
                          f'  peak RSS {rss:7.1f} MiB')
                os.unlink(path)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
