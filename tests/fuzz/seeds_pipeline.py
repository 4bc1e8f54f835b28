"""Writes the seeds of fuzz_pipeline into OUTDIR: the small real traces of
../shared/traces/third-party as they are, and from three traces of the
bundled crawl (corpus/crawl) a sample of their events in the object form
with the crawl's metadata, plain, gzip and zstd. Each seed starts with the
byte that picks the second run's chunk size."""
import gzip
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '..', '..'))
SHARED = os.environ.get('TC_SHARED', os.path.abspath(os.path.join(ROOT, '..', 'shared')))
THIRD_PARTY = os.path.join(SHARED, 'traces', 'third-party')
CRAWL = os.path.join(ROOT, 'corpus', 'crawl')
SMALL = 16 << 10


def crawl_sample(path, n=40):
    """The trace's first small events and its longest RunTasks, with the
    short members of its metadata."""
    raw = subprocess.run(['zstd', '-dc', path], capture_output=True, check=True).stdout
    doc = json.loads(raw)
    events = doc['traceEvents'] if isinstance(doc, dict) else doc
    small = [e for e in events if len(json.dumps(e)) < 400]
    tasks = sorted((e for e in small if e.get('ph') == 'X' and e.get('name') == 'RunTask'),
                   key=lambda e: -e.get('dur', 0))[: n // 2]
    sample = small[: n // 2] + tasks
    meta = doc.get('metadata', {}) if isinstance(doc, dict) else {}
    meta = {k: v for k, v in meta.items() if len(json.dumps(v)) < 200}
    return json.dumps({'traceEvents': sample, 'metadata': meta}, separators=(',', ':')).encode()


def main(out):
    os.makedirs(out, exist_ok=True)
    seeds = {}
    for name in sorted(os.listdir(THIRD_PARTY)):
        p = os.path.join(THIRD_PARTY, name)
        if os.path.getsize(p) <= SMALL:
            with open(p, 'rb') as f:
                seeds[name] = f.read()
    for site in ('long-tasks', 'user-timing', 'raf-loop'):
        p = os.path.join(CRAWL, site, 'trace.json.zst')
        if os.path.exists(p):
            text = crawl_sample(p)
            seeds['crawl-' + site + '.json'] = text
            seeds['crawl-' + site + '.json.gz'] = gzip.compress(text, mtime=0)
            seeds['crawl-' + site + '.json.zst'] = subprocess.run(
                ['zstd', '-q', '-c'], input=text, capture_output=True, check=True).stdout
    for i, (name, data) in enumerate(sorted(seeds.items())):
        with open(os.path.join(out, 'seed-' + name), 'wb') as f:
            f.write(bytes([i * 37 % 256]) + data)
    print(f'{len(seeds)} seeds, largest {max(len(d) for d in seeds.values())} bytes')


if __name__ == '__main__':
    main(sys.argv[1])
