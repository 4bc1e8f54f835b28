#!/usr/bin/env python3
"""`tracecensus bench --baseline`: the table and the exports hold every
stage, the ratios and the metadata; the counts in them (bytes, traces,
events) agree with a census run and with independent Python counts. No
timing value is ever compared: only that each is a positive number and that
median, min and max are ordered."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from e2e_common import BINARY, ROOT, SANITIZED, THIRD_PARTY, load, read_trace, run_census

sys.path.insert(0, os.path.join(ROOT, 'tests', 'corpus'))
import tracekit  # noqa: E402  (the tests' trace library: Perfetto framing)

STAGES = [('read_decompress', 'read + decompress'), ('chunk', 'chunk'), ('parse', 'parse'),
          ('census_tables', 'census tables'), ('kernels', 'kernels'), ('site_fold', 'site fold'),
          ('write', 'write')]
CRAWL = os.path.join(ROOT, 'corpus', 'crawl')
MANIFEST = os.path.join(CRAWL, 'manifest.tsv')

failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)


def positive(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and x > 0


def check_stat(st, runs, where):
    """A {median, min, max} of positive numbers, min <= median <= max."""
    check(isinstance(st, dict) and set(st) == {'median', 'min', 'max'}, f'{where}: {st!r}')
    if isinstance(st, dict) and all(positive(st.get(k)) for k in ('median', 'min', 'max')):
        check(st['min'] <= st['median'] <= st['max'], f'{where}: not ordered {st!r}')
    else:
        check(False, f'{where}: not positive numbers {st!r}')


def check_line(line, runs, where):
    check_stat(line.get('seconds'), runs, where + '.seconds')
    check_stat(line.get('mb_per_s'), runs, where + '.mb_per_s')
    times = line.get('times')
    check(isinstance(times, list) and len(times) == runs and all(map(positive, times)),
          f'{where}.times: {times!r}')


def run_bench(inputs, runs, extra=()):
    work = tempfile.mkdtemp(prefix='tc-bench-e2e-')
    js, md = os.path.join(work, 'b.json'), os.path.join(work, 'b.md')
    cmd = [BINARY, 'bench', '-T', '1', '--runs', str(runs), '--warmup', '0', '--baseline',
           '--export-json', js, '--export-markdown', md, *extra, *inputs]
    env = dict(os.environ, TMPDIR=work)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
    check(p.returncode == 0, f'bench exit {p.returncode}: {p.stderr}')
    with open(js) as f:
        data = json.load(f)
    with open(md) as f:
        markdown = f.read()
    left = sorted(os.listdir(work))
    shutil.rmtree(work)
    return p.stdout, data, markdown, left


def check_structure(table, data, markdown, left, runs):
    check(left == ['b.json', 'b.md'], f'the temporary folder was not removed: {left}')
    check(data['runs'] == runs and data['warmup'] == 0 and data['threads'] == 1,
          f'runs/warmup/threads: {data["runs"]}, {data["warmup"]}, {data["threads"]}')
    check(isinstance(data['simdjson_kernel'], str) and data['simdjson_kernel'],
          'simdjson_kernel')
    check(isinstance(data['cpu_model'], str) and isinstance(data['cpu_flags'], list), 'cpu')
    check([s['stage'] for s in data['stages']] == [k for k, _ in STAGES], 'stage keys and order')
    check([s['label'] for s in data['stages']] == [l for _, l in STAGES], 'stage labels')
    shares = 0
    for s in data['stages']:
        check_line(s, runs, 'stages.' + s['stage'])
        check(0 < s['share'] < 1, f'{s["stage"]}: share {s["share"]}')
        shares += s['share']
    check(0.5 < shares < 1.5, f'shares add up to {shares}')
    check_line(data['whole'], runs, 'whole')
    check_line(data['whole']['cpu'], runs, 'whole.cpu')
    check_stat(data['whole']['events_per_s'], runs, 'whole.events_per_s')
    check_stat(data['whole']['peak_rss_kib'], runs, 'whole.peak_rss_kib')
    b = data['baseline']
    for k in ('plain_walk', 'value_walk', 'decompress'):
        check_line(b[k], runs, 'baseline.' + k)
        check_line(b[k]['cpu'], runs, f'baseline.{k}.cpu')
    for k in ('plain_walk', 'value_walk'):
        check(b[k]['error'] is None, f'{k} error: {b[k]["error"]}')
    check(set(b['ratios']) == {'to_plain_walk', 'to_decompress', 'to_plain_walk_cpu',
                               'to_decompress_cpu', 'to_value_walk', 'to_value_walk_cpu'},
          f'ratios: {b["ratios"]}')
    check(all(positive(v) for v in b['ratios'].values()), f'ratios: {b["ratios"]}')
    for _, label in STAGES:
        check(re.search(r'^  ' + re.escape(label) + r' +\d', table, re.M), f'table: {label}')
        check(f'| {label} |' in markdown, f'markdown: {label}')
    for line in ('tracecensus / value walk', 'tracecensus / plain walk',
                 'tracecensus / decompression'):
        check(re.search(re.escape(line) + r' +\d+\.\d\dx +\d+\.\d\dx', table), f'table: {line}')
        check(f'| {line} | ' in markdown, f'markdown: {line}')
    m = re.search(r'reports written under (\S+),', table)
    check(m and not os.path.exists(m.group(1)), 'the table names the removed temporary folder')


def check_census_settings(table, data, markdown, scope, no_metrics, whole_urls, value_sites,
                          chunk_bytes):
    """The census measured, as bench was asked for it (defaults resolved), in
    the export (run.json's key for the scope), the table and the Markdown."""
    got = {k: data.get(k) for k in ('scope', 'no_metrics', 'whole_urls', 'value_sites',
                                    'chunk_bytes')}
    want = {'scope': scope, 'no_metrics': no_metrics, 'whole_urls': whole_urls,
            'value_sites': value_sites, 'chunk_bytes': chunk_bytes}
    check(got == want, f'census settings {got}, asked {want}')
    words = (scope, 'off' if no_metrics else 'on', 'whole' if whole_urls else 'cut')
    check(f'  census: scope {words[0]}, metrics {words[1]}, {words[2]} URLs, value sites '
          f'{value_sites}, chunks of {chunk_bytes} B\n' in table, 'table: the census line')
    check(f'Census: scope {words[0]}, metrics {words[1]}, {words[2]} URLs, value sites '
          f'{value_sites}, chunks of {chunk_bytes} bytes.' in markdown, 'markdown: the census line')


def scalars(v):
    """Scalars (strings, numbers, booleans, nulls) inside V, at any depth."""
    if isinstance(v, dict):
        return sum(scalars(x) for x in v.values())
    if isinstance(v, list):
        return sum(scalars(x) for x in v)
    return 1


def python_events(path):
    """JSON bytes, event objects and scalars under their args of a trace, by
    Python's json (the walks' counts)."""
    raw, events = read_trace(path)
    objects = [e for e in events if isinstance(e, dict)]
    values = sum(scalars(e['args']) for e in objects if isinstance(e.get('args'), dict))
    return len(raw), len(objects), values


def small_crawl(tmp):
    """The bundled crawl's four smallest sites, linked into TMP: under a
    sanitizer the bench's code paths are the same on them, at a twentieth of
    the 800 MB of JSON (the manifest still makes S the crawl's 35)."""
    def size(site):
        d = os.path.join(CRAWL, site)
        return sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d))
    sites = sorted((s for s in os.listdir(CRAWL) if os.path.isdir(os.path.join(CRAWL, s))
                    and os.listdir(os.path.join(CRAWL, s))), key=lambda s: (size(s), s))[:4]
    for s in sites:
        os.symlink(os.path.join(CRAWL, s), os.path.join(tmp, s))
    return tmp


def main():
    # The bundled corpus: structure, and its counts against a census run
    # (once, on four of its sites, under a sanitizer).
    runs = 1 if SANITIZED else 2
    tmp = tempfile.mkdtemp(prefix='tc-bench-crawl-')
    try:
        bench_crawl(small_crawl(tmp) if SANITIZED else CRAWL, runs)
    finally:
        shutil.rmtree(tmp)
    bench_third_party()
    bench_proto()
    if failures:
        for f in failures:
            print('FAIL:', f)
        sys.exit(1)
    print('bench: ok')


def bench_crawl(crawl, runs):
    table, data, markdown, left = run_bench([crawl], runs, ['--manifest', MANIFEST])
    check_structure(table, data, markdown, left, runs)
    rc, err, out = run_census([crawl], threads=2, extra=['--manifest', MANIFEST, '-q'])
    run = load(out, 'run.json')
    shutil.rmtree(out)
    for key, want in (('sites', run['sites_total']), ('traces', run['traces']),
                      ('file_bytes', run['file_bytes']), ('json_bytes', run['json_bytes']),
                      ('events', run['events'])):
        check(data[key] == want, f'bundled {key}: bench {data[key]}, census {want}')
    b = data['baseline']
    check(b['plain_walk']['json_bytes'] == run['json_bytes'], 'walk bytes')
    check(b['value_walk']['json_bytes'] == run['json_bytes'], 'value walk bytes')
    check(b['decompress']['json_bytes'] == run['json_bytes'], 'decompressed bytes')
    # The bundled crawl is clean: the walk's events are the census's.
    check(run['skipped_events'] == 0 and b['plain_walk']['events'] == run['events'],
          f'walk events {b["plain_walk"]["events"]}, census {run["events"]}')
    check(b['value_walk']['events'] == run['events'],
          f'value walk events {b["value_walk"]["events"]}, census {run["events"]}')


def bench_third_party():
    """The third-party traces: bytes and the walk's events against Python."""
    files = sorted(os.path.join(THIRD_PARTY, f) for f in os.listdir(THIRD_PARTY))
    counts = [python_events(f) for f in files]
    table, data, markdown, _ = run_bench([THIRD_PARTY], 1)
    check_census_settings(table, data, markdown, 'no-chrome-ui', False, False, 3, 1 << 20)
    check(data['traces'] == len(files), f'third-party traces {data["traces"]}')
    check(data['file_bytes'] == sum(os.path.getsize(f) for f in files), 'third-party file bytes')
    check(data['json_bytes'] == sum(n for n, _, _ in counts), 'third-party json bytes')
    for k in ('plain_walk', 'value_walk'):
        check(data['baseline'][k]['events'] == sum(e for _, e, _ in counts),
              f'third-party {k} events {data["baseline"][k]["events"]}, '
              f'Python {sum(e for _, e, _ in counts)}')
    values = sum(v for _, _, v in counts)
    check(data['baseline']['value_walk']['values'] == values,
          f'third-party values read {data["baseline"]["value_walk"]["values"]}, Python {values}')
    print(f'bench: value walk read {values} args values of {len(files)} third-party traces, '
          'as Python counts them')


def bench_proto():
    """The bundled protobuf recordings: the walks are protobuf-c's plain
    decode there, which unpacks every packet the framing holds. Under a
    sanitizer the first megabyte's packets of one of them (a census of the
    26 MB of protobuf takes minutes there; the code paths are the same)."""
    crawl = os.path.join(ROOT, 'corpus', 'proto', 'crawl')
    files = sorted(os.path.join(crawl, d, 'trace.pftrace.zst') for d in os.listdir(crawl)
                   if os.path.isdir(os.path.join(crawl, d)))
    raws = [subprocess.run(['zstd', '-dc', f], capture_output=True, check=True).stdout for f in files]
    tmp = tempfile.mkdtemp(prefix='tc-bench-proto-')
    try:
        if SANITIZED:
            cut = max(end for end in tracekit.packet_ends(raws[0]) if end <= 1 << 20)
            raws = [raws[0][:cut]]
            os.mkdir(os.path.join(tmp, 'site'))
            with open(os.path.join(tmp, 'site', 'trace.pftrace'), 'wb') as f:
                f.write(raws[0])
            crawl = tmp
        packets = sum(tracekit.packets(r) for r in raws)
        # Every option that shapes the census, none of them the default.
        table, data, markdown, _ = run_bench([crawl], 1, [
            '--no-metrics', '--whole-urls', '--value-sites', '5', '--scope', 'all',
            '--chunk-bytes', '65536'])
        check_census_settings(table, data, markdown, 'all', True, True, 5, 65536)
    finally:
        shutil.rmtree(tmp)
    check(data['traces'] == len(raws), f'protobuf traces {data["traces"]}')
    for k in ('plain_walk', 'value_walk', 'decompress'):
        check(data['baseline'][k]['json_bytes'] == sum(map(len, raws)),
              f'protobuf {k} bytes {data["baseline"][k]["json_bytes"]}')
    for k in ('plain_walk', 'value_walk'):
        check(data['baseline'][k]['events'] == packets,
              f'protobuf {k} packets {data["baseline"][k]["events"]}, Python {packets}')
        check(data['baseline'][k].get('error') is None,
              f'protobuf {k} error {data["baseline"][k].get("error")}')
    print(f'bench: the plain decode unpacked the {packets} packets of {len(raws)} protobuf '
          'traces, as their framing holds')

if __name__ == '__main__':
    main()
