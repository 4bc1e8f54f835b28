#!/usr/bin/env python3
"""End-to-end throughput of a census, beside `zstd -dc` and the built-in
simdjson walks (keys only, and every args value read: the fair anchor).

Builds a corpus from the real traces in ../shared/traces/third-party
(decompressed, replicated into SITES sites, recompressed with zstd), then
runs, interleaved REPS times: `zstd -dc` over every file, and at each thread
count asked for `tracecensus bench -T N --runs 1 --warmup 0 --baseline`,
which runs the whole census (reports written to a temporary folder) and,
right after it in the same process, the value walk (every args scalar
read, as the census's value profiles need), the key-only On-Demand walk and
decompression alone over the same files. Prints the median MB/s of
decompressed JSON of each, tracecensus's ratio to the value walk (the
headline), to the key-only walk and to
`zstd -dc` (medians of the per-rep ratios: each pair ran back to back), the
two-thread speed-up, and peak RSS, and beside the speed-up what two cores
give without threads: two whole `census -T 1` processes started together
(as two shards on one machine would run) against one, as work done per
second. Then, for --big, the same over one
trace of that many MB (a real trace's events repeated): the speed-up on a
single big trace, where the workers share one trace's chunks rather than
whole files. Then, for --grow, single traces of growing size to show that
peak RSS stays flat as a trace grows.

With --proto the same runs over Perfetto protobuf traces (Chrome's default
format): the bundled recordings of corpus/proto/crawl replicated into
SITES sites, the big and grown traces one recording repeated; the anchor is
then the plain decode, protobuf-c unpacking every packet
(proto/tc_proto_unpack.h; `bench --baseline` walks a protobuf trace so),
and MB/s are of decompressed protobuf.

    python3 bench/census_throughput.py [--sites 8] [--reps 5] [--threads 1,2]
                                       [--big 400] [--grow 64,256,1024] [--extra ARGS]
                                       [--proto]
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
PROTO = os.path.join(ROOT, 'corpus', 'proto', 'crawl')

# What the bytes are and what the census is held against, per format.
JSON_KIND = {'unit': 'JSON', 'anchor': 'value walk', 'files': 'zstd traces'}
PROTO_KIND = {'unit': 'protobuf', 'anchor': 'plain decode', 'files': 'zstd protobuf traces'}


def read_trace(path):
    with open(path, 'rb') as f:
        raw = f.read()
    return gzip.decompress(raw) if raw[:2] == b'\x1f\x8b' else raw


def zstd_file(raw, dst):
    subprocess.run(['zstd', '-q', '-3', '-f', '-o', dst], input=raw, check=True)


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


def unzstd(path):
    return subprocess.run(['zstd', '-dc', path], stdout=subprocess.PIPE, check=True).stdout


def proto_recordings():
    return [os.path.join(PROTO, n, 'trace.pftrace.zst') for n in sorted(os.listdir(PROTO))
            if os.path.isfile(os.path.join(PROTO, n, 'trace.pftrace.zst'))]


def build_proto_corpus(dir_, sites):
    """Each protobuf recording in SITES sites of one trace each; returns the
    bytes of protobuf."""
    total = 0
    for s in range(sites):
        for src in proto_recordings():
            d = os.path.join(dir_, f'site{s:03d}-{os.path.basename(os.path.dirname(src))}')
            os.makedirs(d)
            shutil.copy(src, d)
            total += len(unzstd(src))
    return total


def grown_proto(dst, target_mb):
    """One protobuf trace of about TARGET_MB MB: the largest recording's
    packets, repeated (a Trace is its packets, so copies concatenate)."""
    raw = max((unzstd(p) for p in proto_recordings()), key=len)
    reps = max(1, target_mb * 1_000_000 // len(raw))
    proc = subprocess.Popen(['zstd', '-q', '-3', '-f', '-o', dst], stdin=subprocess.PIPE)
    for _ in range(reps):
        proc.stdin.write(raw)
    proc.stdin.close()
    proc.wait()
    return reps * len(raw)


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


def bench_once(binary, threads, extra, corpus, work):
    """One in-process bench run: census wall and CPU seconds, the walk's
    and decompression's, and peak RSS (KiB)."""
    out = os.path.join(work, 'bench.json')
    cmd = [binary, 'bench', '-T', threads, '--runs', '1', '--warmup', '0', '--baseline',
           '--export-json', out, *extra, corpus]
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       env=dict(os.environ, TMPDIR=work))
    if p.returncode != 0:
        sys.exit(f'bench: {binary} bench failed: {p.stderr.decode(errors="replace")}')
    with open(out) as f:
        d = json.load(f)
    b = d['baseline']
    return {'census': d['whole']['times'][0], 'census_cpu': d['whole']['cpu']['times'][0],
            'walk': b['plain_walk']['times'][0], 'walk_cpu': b['plain_walk']['cpu']['times'][0],
            'vwalk': b['value_walk']['times'][0], 'vwalk_cpu': b['value_walk']['cpu']['times'][0],
            'decomp': b['decompress']['times'][0],
            'rss': d['whole']['peak_rss_kib']['median'] / 1024}


def two_processes(binary, extra, corpus, work):
    """Wall seconds of two whole `census -T 1` processes over CORPUS started
    together, as two shards on one machine would run: they share nothing, so
    twice one's time over this is what two cores give this work without
    threads, to read the -T 2 speed-up beside."""
    t0 = time.perf_counter()
    procs = [subprocess.Popen([binary, 'census', '-T', '1', '-o', os.path.join(work, f'out-pair{h}'),
                               *extra, corpus], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
             for h in range(2)]
    for p in procs:
        _, err = p.communicate()
        if p.returncode != 0:
            sys.exit(f'bench: {binary} census failed: {err.decode(errors="replace")}')
    return time.perf_counter() - t0


def med(xs):
    return statistics.median(xs)


def report(args, corpus, mb, files, threads, work, kind):
    """REPS interleaved reps of zstd -dc over FILES and tracecensus bench at each
    thread count over CORPUS (MB of KIND's unit), printed as medians and
    ratios; for two thread counts or more, also one `census -T 1` beside two
    at once."""
    zstd_t, runs, pair = [], {t: [] for t in threads}, []
    for _ in range(args.reps):
        zstd_t.append(timed(['zstd', '-dc', *files])[0])
        for t in threads:
            runs[t].append(bench_once(args.binary, t, args.extra.split(), corpus, work))
        if len(threads) > 1:
            one = timed([args.binary, 'census', '-T', '1', '-o', os.path.join(work, 'out-one'),
                         *args.extra.split(), corpus])[0]
            pair.append(2 * one / two_processes(args.binary, args.extra.split(), corpus, work))
    walk = [r['walk'] for t in threads for r in runs[t]]
    walk_cpu = [r['walk_cpu'] for t in threads for r in runs[t]]
    vwalk = [r['vwalk'] for t in threads for r in runs[t]]
    vwalk_cpu = [r['vwalk_cpu'] for t in threads for r in runs[t]]
    decomp = [r['decomp'] for t in threads for r in runs[t]]
    print(f'\nmedian of {args.reps} interleaved reps (MB/s of decompressed {kind["unit"]}; ratios'
          f' are medians of per-rep ratios):')
    print(f'  {"zstd -dc":34s} {mb / med(zstd_t):8.1f} MB/s')
    print(f'  {"decompression alone, in-process":34s} {mb / med(decomp):8.1f} MB/s')
    print(f'  {kind["anchor"] + ", 1 thread":34s} {mb / med(vwalk):8.1f} MB/s'
          f'  ({mb / med(vwalk_cpu):.1f} MB/s per CPU-second)')
    if kind is JSON_KIND:
        print(f'  {"key-only On-Demand walk, 1 thread":34s} {mb / med(walk):8.1f} MB/s'
              f'  ({mb / med(walk_cpu):.1f} MB/s per CPU-second)')
    for t in threads:
        rs = runs[t]
        c = med([r['census'] for r in rs])
        to_vwalk = med([r['vwalk'] / r['census'] for r in rs])
        to_vwalk_cpu = med([r['vwalk_cpu'] / r['census_cpu'] for r in rs])
        to_walk = med([r['walk'] / r['census'] for r in rs])
        to_zstd = med([z / r['census'] for z, r in zip(zstd_t, rs)])
        also = f', key-only x{to_walk:5.2f}' if kind is JSON_KIND else ''
        print(f'  {"tracecensus -T " + t + " " + args.extra:34s} {mb / c:8.1f} MB/s'
              f'  x{to_vwalk:5.2f} of the {kind["anchor"]} (CPU time x{to_vwalk_cpu:5.2f}{also})'
              f'  x{to_zstd:5.2f} of zstd -dc  peak RSS {max(r["rss"] for r in rs):6.1f} MiB')
    if len(threads) > 1:
        t1, tn = threads[0], threads[-1]
        sp = med([a['census'] / b['census'] for a, b in zip(runs[t1], runs[tn])])
        print(f'  speed-up -T {tn} over -T {t1}: x{sp:.2f}')
    if pair:
        print(f'  two census -T 1 processes at once against one, work done per second:'
              f' x{med(pair):.2f} (range {min(pair):.2f}-{max(pair):.2f})')


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--binary', default=os.path.join(ROOT, 'build', 'tracecensus'))
    ap.add_argument('--sites', type=int, default=8)
    ap.add_argument('--reps', type=int, default=5)
    ap.add_argument('--threads', default='1,2')
    ap.add_argument('--big', type=int, default=400, help='MB (of JSON, or protobuf) of one big trace; 0 to skip')
    ap.add_argument('--grow', default='64,256,1024', help='MB per grown trace; empty to skip')
    ap.add_argument('--extra', default='', help='extra census arguments, e.g. "--no-metrics"')
    ap.add_argument('--proto', action='store_true', help='Perfetto protobuf traces instead of JSON')
    args = ap.parse_args()
    kind = PROTO_KIND if args.proto else JSON_KIND
    build, grow, ext = ((build_proto_corpus, grown_proto, 'pftrace') if args.proto else
                        (build_corpus, grown_trace, 'json'))
    unit = kind['unit']
    work = tempfile.mkdtemp(prefix='tc-bench-')
    try:
        corpus = os.path.join(work, 'corpus')
        raw_bytes = build(corpus, args.sites)
        files = files_under(corpus)
        comp = sum(os.path.getsize(f) for f in files)
        mb = raw_bytes / 1e6
        print(f'corpus: {args.sites} sites, {len(files)} {kind["files"]}, {comp / 1e6:.1f} MB compressed, '
              f'{mb:.1f} MB of {unit}')
        threads = args.threads.split(',')
        report(args, corpus, mb, files, threads, work, kind)
        if args.big:
            path = os.path.join(work, f'big-{args.big}.{ext}.zst')
            n = grow(path, args.big)
            print(f'\none trace: {os.path.getsize(path) / 1e6:.1f} MB compressed, {n / 1e6:.1f} MB of {unit}')
            report(args, path, n / 1e6, [path], threads, work, kind)
            os.unlink(path)
        if args.grow:
            print('\npeak RSS as one trace grows (-T 2):')
            out = os.path.join(work, 'out')
            for mbg in (int(x) for x in args.grow.split(',')):
                path = os.path.join(work, f'grown-{mbg}.{ext}.zst')
                n = grow(path, mbg)
                t, rss = timed([args.binary, 'census', '-T', '2', '-o', out, *args.extra.split(), path], out)
                print(f'  {n / 1e6:8.1f} MB of {unit}  {n / 1e6 / t:8.1f} MB/s  peak RSS {rss:7.1f} MiB')
                os.unlink(path)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
