#!/usr/bin/env python3
"""A synthetic corpus whose report is large: NAMES distinct event names and as
many distinct argument paths, so that writing census.json, census.csv and
census.md outweighs reading the traces (issue 12 measured 100k names taking
2.96 s where a plain walk of the same bytes took 0.31 s).

Three sites, one plain-JSON trace each. Name i is recorded on 1 + i % 3 of
them, 1 + i % 4 times per site, as complete events with a fractional
duration; each carries one argument path of its own ("a<i>.v") and two shared
ones, so the census has one number per duration statistic and records per
site that are real fractions. One name in 16 has bytes that JSON escapes
(quote, backslash, tab) and one in 16 non-ASCII text, so the escaper's slow
paths are exercised as well as its runs.

    python3 bench/wide_corpus.py OUTDIR [--names 100000]

Same arguments, same bytes: the generator is deterministic.
"""
import argparse
import json
import os


def name_of(i):
    base = f'Synthetic.Wide.EventName.{i:06d}'
    if i % 16 == 3:
        return base + '."quoted"\\back\tslash'
    if i % 16 == 7:
        return base + '.r\u00e9sum\u00e9.\u65e5\u672c'
    return base


def write_site(path, site, names):
    with open(path, 'w', encoding='utf-8') as f:
        f.write('[\n')
        ts = 1000
        first = True
        for i in range(names):
            if site >= 1 + i % 3:
                continue
            name = name_of(i)
            for k in range(1 + i % 4):
                ts += 7
                ev = {
                    'name': name, 'cat': f'cat{i % 5},shared', 'ph': 'X', 'ts': ts,
                    'dur': (i * 37 + k * 11) % 9973 + (i % 1000) / 1000, 'pid': 1, 'tid': 1 + i % 3,
                    'args': {f'a{i}': {'v': i * 0.25}, 'data': {'frame': 'F1', 'n': k}},
                }
                f.write(('' if first else ',\n') + json.dumps(ev, ensure_ascii=False,
                                                              separators=(',', ':')))
                first = False
        f.write('\n]\n')


def write_corpus(outdir, names):
    for s in range(3):
        d = os.path.join(outdir, f'site{s}')
        os.makedirs(d, exist_ok=True)
        write_site(os.path.join(d, 'trace.json'), s, names)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('outdir')
    ap.add_argument('--names', type=int, default=100000)
    args = ap.parse_args()
    write_corpus(args.outdir, args.names)


if __name__ == '__main__':
    main()
