#!/usr/bin/env python3
"""A synthetic corpus for report.html at scale: SITES sites (default 500) and
NAMES distinct event names (default 3,000), one plain-JSON trace per site.

Name i is recorded on the sites s with (i + s) % 10 == 0 (so every name is
on a tenth of the sites, and each site holds a tenth of the names), 1 + i % 3
times, as complete events on the renderer's main thread. Each trace has a
CrRendererMain thread, a main-frame commit (navigationStart with its
documentLoaderURL) and 40 top-level RunTask slices over 4 s, one in five of
them a long task, so the metrics, the sites table and the timelines are
populated. Deterministic: same arguments, same bytes.

    python3 bench/report_corpus.py OUTDIR [--sites 500] [--names 3000]
"""
import argparse
import json
import os

PID, TID = 100, 1


def events(site, sites, names):
    url = f'https://site{site:04d}.example/'
    yield {'ph': 'M', 'name': 'process_name', 'pid': PID, 'tid': TID, 'ts': 0, 'args': {'name': 'Renderer'}}
    yield {'ph': 'M', 'name': 'thread_name', 'pid': PID, 'tid': TID, 'ts': 0, 'args': {'name': 'CrRendererMain'}}
    yield {'ph': 'R', 'name': 'navigationStart', 'cat': 'blink.user_timing', 'pid': PID, 'tid': TID, 'ts': 1000,
           's': 't', 'args': {'frame': 'F1', 'data': {'documentLoaderURL': url, 'isLoadingMainFrame': True,
                                                    'navigationId': 'N1'}}}
    ts = 2000
    for k in range(40):
        dur = 60000 + (site * 7 + k) % 50 * 1000 if k % 5 == 0 else 2000 + (site + k) % 9 * 500
        yield {'ph': 'X', 'name': 'RunTask', 'cat': 'toplevel', 'pid': PID, 'tid': TID, 'ts': ts, 'dur': dur}
        ts += 100000
    t = 3000
    for i in range(names):
        if (i + site) % 10:
            continue
        for r in range(1 + i % 3):
            yield {'ph': 'X', 'name': f'Synthetic.Event.{i:05d}', 'cat': f'cat{i % 7}', 'pid': PID, 'tid': TID,
                   'ts': t, 'dur': 1 + (i + r) % 40, 'args': {'data': {'n': i % 5}}}
            t += 50


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('outdir')
    ap.add_argument('--sites', type=int, default=500)
    ap.add_argument('--names', type=int, default=3000)
    a = ap.parse_args()
    for s in range(a.sites):
        d = os.path.join(a.outdir, f'site{s:04d}')
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, 'trace.json'), 'w', encoding='utf-8') as f:
            json.dump({'traceEvents': list(events(s, a.sites, a.names))}, f, separators=(',', ':'))


if __name__ == '__main__':
    main()
