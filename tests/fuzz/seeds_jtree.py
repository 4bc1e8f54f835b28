"""Seeds for fuzz_jtree: small pieces of the committed outputs
(reports/bundled: census.json events, metrics.json sites, run.json files),
each re-serialised as the writers indent it, so the fuzzer starts from the
documents diff really reads."""
import json
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
BUNDLED = os.path.join(ROOT, 'reports', 'bundled')


def main(out):
    pieces = []
    with open(os.path.join(BUNDLED, 'census.json'), encoding='utf-8') as f:
        census = json.load(f)
    for e in census['events'][:40:4]:
        pieces.append({'tool': 'tracecensus', 'sites_total': census['sites_total'], 'events': [e]})
    with open(os.path.join(BUNDLED, 'metrics.json'), encoding='utf-8') as f:
        metrics = json.load(f)
    for s in metrics['sites'][:5]:
        pieces.append({'schema': metrics['schema'], 'sites': [s]})
    with open(os.path.join(BUNDLED, 'run.json'), encoding='utf-8') as f:
        run = json.load(f)
    for s in run['files'][:3]:
        s = dict(s, metadata={k: v for k, v in (s.get('metadata') or {}).items()
                              if isinstance(v, str)})
        pieces.append({'sites': run['sites'][:2], 'files': [s]})
    for i, p in enumerate(pieces):
        with open(os.path.join(out, 'seed%02d.json' % i), 'w', encoding='utf-8') as f:
            json.dump(p, f, indent=1, ensure_ascii=False)


if __name__ == '__main__':
    main(sys.argv[1])
