"""Writes fuzz_diff's seeds into OUTDIR: the bundled crawl's census.json,
run.json and metrics.json (reports/bundled) joined as the target reads
them, whole and without metrics.json, smaller variants with the event and
site lists cut to a few items (with and without metrics.json), so
mutations reach every key, and one without census.json's site_records,
the events' and the paths' (an older output)."""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '..', '..'))
OUT = os.path.join(ROOT, 'reports', 'bundled')
SEP = b'\n--8<--\n'


def main(outdir):
    files = [open(os.path.join(OUT, n), 'rb').read()
             for n in ('census.json', 'run.json', 'metrics.json')]
    with open(os.path.join(outdir, 'whole'), 'wb') as f:
        f.write(SEP.join(files))
    with open(os.path.join(outdir, 'no-metrics'), 'wb') as f:
        f.write(SEP.join(files[:2]))
    census, run, metrics = (json.loads(b) for b in files)
    # An output from before site_records: diff compares whole crawls.
    old = dict(census, events=[dict({k: v for k, v in e.items() if k != 'site_records'},
                                    args=[{k: v for k, v in a.items() if k != 'site_records'}
                                          for a in e['args']])
                               for e in census['events'][:3]])
    with open(os.path.join(outdir, 'no-site-records'), 'wb') as f:
        f.write(SEP.join(json.dumps(d, indent=1).encode() for d in (old, run, metrics)))
    for keep in (1, 3):
        # site_records name sites by index into run.json's sites: only the kept ones.
        def cut(rows):
            return [r for r in rows if r[0] < keep]
        c = dict(census, events=[dict(e, site_records=cut(e['site_records']),
                                      args=[dict(a, site_records=cut(a['site_records'])) for a in e['args']])
                                 for e in census['events'][:keep]])
        sites = {s['site'] for s in run['sites'][:keep]}
        r = dict(run, sites=run['sites'][:keep], files=[t for t in run['files'] if t['site'] in sites])
        m = dict(metrics, sites=[s for s in metrics['sites'] if s['site'] in sites],
                 traces=[t for t in metrics['traces'] if t.get('site') in sites])
        for name, files in (('cut-%d' % keep, (c, r, m)), ('cut-%d-no-metrics' % keep, (c, r))):
            with open(os.path.join(outdir, name), 'wb') as f:
                f.write(SEP.join(json.dumps(d, indent=1).encode() for d in files))


if __name__ == '__main__':
    main(sys.argv[1])
