"""End-to-end checks of the census on real traces, against the independent
Python oracle (tests/oracle/census_oracle.py) and against itself under a
different thread count and input order."""
import filecmp
import json
import os
import subprocess
import sys
import tempfile
import unittest

from e2e_common import ROOT, THIRD_PARTY, load, run_census, third_party_files

ORACLE = os.path.join(ROOT, 'tests', 'oracle')


class CensusAgainstOracle(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rc, cls.err, cls.out = run_census([THIRD_PARTY], threads=2)
        cls.oracle = os.path.join(tempfile.mkdtemp(prefix='tc-oracle-'), 'oracle.json')
        subprocess.run([sys.executable, os.path.join(ORACLE, 'census_oracle.py'), THIRD_PARTY,
                        '-o', cls.oracle], check=True)

    def test_clean_run(self):
        self.assertEqual(self.rc, 0, self.err)

    def test_equal_to_oracle(self):
        p = subprocess.run([sys.executable, os.path.join(ORACLE, 'compare_census.py'),
                            self.oracle, os.path.join(self.out, 'census.json')],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        last = p.stdout.strip().splitlines()[-1]
        self.assertRegex(last, r'^compare: [1-9]\d* events, [1-9]\d* arg paths, [1-9]\d* phase counts checked, 0 differences$')

    def test_totals(self):
        census = load(self.out)
        with open(self.oracle) as f:
            oracle = json.load(f)
        self.assertEqual(census['sites_total'], oracle['sites_total'])
        self.assertEqual(census['records'], sum(e['records'] for e in oracle['events']))
        run = load(self.out, 'run.json')
        self.assertEqual(run['events'], census['records'])
        self.assertEqual(run['skipped_events'], 0)

    def test_usage_follows_records_per_site(self):
        census = load(self.out)
        S = census['sites_total']
        for e in census['events']:
            r = e['records'] / S
            want = ('rare' if r < 2 else 'low' if r < 5 else 'moderate' if r < 300
                    else 'high' if r < 3000 else 'very high')
            self.assertEqual(e['usage'], want, e['name'])

    def test_duration_quantiles_within_sketch_error(self):
        # Exact nearest-rank quantiles of dur per name, recomputed here.
        durs = {}
        for path in third_party_files():
            for ev in _events(path):
                if isinstance(ev, dict) and isinstance(ev.get('dur'), (int, float)) \
                        and not isinstance(ev.get('dur'), bool):
                    durs.setdefault(ev.get('name') if isinstance(ev.get('name'), str) else '', []).append(ev['dur'])
        census = {e['name']: e for e in load(self.out)['events']}
        checked = 0
        for name, vals in durs.items():
            vals.sort()
            d = census[name]['duration']
            self.assertEqual(d['records'], len(vals), name)
            self.assertEqual(d['min_us'], vals[0])
            self.assertEqual(d['max_us'], vals[-1])
            for q, key in ((0.5, 'median_us'), (0.95, 'p95_us')):
                import math
                exact = vals[max(1, math.ceil(q * len(vals))) - 1]
                if exact < 1e-4:
                    self.assertEqual(d[key], 0 if exact >= 0 else exact)
                else:
                    self.assertLessEqual(abs(d[key] - exact), 0.005 * exact + 1e-9, (name, key))
                checked += 1
        self.assertGreater(checked, 100)


def _events(path):
    import gzip
    with open(path, 'rb') as f:
        raw = f.read()
    if raw[:2] == b'\x1f\x8b':
        raw = gzip.decompress(raw)
    doc = json.loads(raw)
    return doc['traceEvents'] if isinstance(doc, dict) else doc


class Determinism(unittest.TestCase):
    def test_threads_and_order(self):
        files = third_party_files()
        rc1, err1, out1 = run_census(files, threads=1)
        rc2, err2, out2 = run_census(list(reversed(files)), threads=2)
        rc3, err3, out3 = run_census(files[::2] + files[1::2], threads=2,
                                     extra=('--chunk-bytes', '4096'))
        for rc, err in ((rc1, err1), (rc2, err2), (rc3, err3)):
            self.assertEqual(rc, 0, err)
        for name in ('census.json', 'census.csv', 'census.md', 'metrics.json', 'metrics.csv', 'metrics.md'):
            self.assertTrue(filecmp.cmp(os.path.join(out1, name), os.path.join(out2, name), shallow=False), name)
            self.assertTrue(filecmp.cmp(os.path.join(out1, name), os.path.join(out3, name), shallow=False), name)
        # 4 KiB chunks really did split the traces.
        run = load(out3, 'run.json')
        self.assertGreater(max(f['chunks'] for f in run['files']), 100)


if __name__ == '__main__':
    unittest.main()
