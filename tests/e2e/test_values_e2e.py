"""Argument value profiles (issue 14) against the independent oracle
(tests/oracle/value_oracle.py) on the real third-party traces: exact counts,
constants, sentinels, extremes, quantiles within their stated error, top
values within the sketch's bounds; the outputs' shapes (census.md line and
sentence, census_args.csv); determinism is in test_census_e2e's Determinism
test, which compares census_args.csv too."""
import csv
import json
import math
import os
import subprocess
import sys
import unittest

from e2e_common import ROOT, THIRD_PARTY, load, run_census, scratch

sys.path.insert(0, os.path.join(ROOT, 'tests', 'oracle'))
from value_oracle import top_key  # noqa: E402

ORACLE = os.path.join(ROOT, 'tests', 'oracle', 'value_oracle.py')
TOPK_K = 32
HLL_EXACT = 256
HLL_SE = 1.04 / 64


def run_oracle(corpus):
    out = os.path.join(scratch('tc-voracle-'), 'values.json')
    subprocess.run([sys.executable, ORACLE, corpus, '-o', out], check=True)
    with open(out, encoding='utf-8') as f:
        return {(p['name'], p['path']): p for p in json.load(f)['paths']}


def nearest_rank(sorted_values, q):
    r = max(1, min(len(sorted_values), math.ceil(q * len(sorted_values))))
    return sorted_values[r - 1]


class ValuesAgainstOracle(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        rc, err, cls.out = run_census([THIRD_PARTY], threads=2,
                                      extra=('--whole-urls', '--value-sites', '0'))
        assert rc == 0, err
        cls.census = load(cls.out)
        cls.oracle = run_oracle(THIRD_PARTY)
        cls.ours = {(e['name'], a['path']): a['values']
                    for e in cls.census['events'] for a in e['args']}

    def test_same_paths(self):
        self.assertEqual(set(self.ours), set(self.oracle))
        self.assertGreater(len(self.oracle), 500)

    def test_counts_sentinels_extremes(self):
        for key, o in self.oracle.items():
            v = self.ours[key]
            with self.subTest(key=key):
                self.assertEqual(v['values'], o['values'])
                self.assertEqual(v['types'], o['types'])
                self.assertEqual(v['sentinels'], o['sentinels'])
                if o['numbers'] is None:
                    self.assertIsNone(v['numbers'])
                else:
                    for k in ('min', 'max', 'integer', 'fractional', 'negative'):
                        self.assertEqual(v['numbers'][k], o['numbers'][k], k)
                if o['strings'] is None:
                    self.assertIsNone(v['strings'])
                else:
                    for k in ('length_min', 'length_max'):
                        self.assertEqual(v['strings'][k], o['strings'][k], k)
                    self.assertEqual(v['strings']['classes'].get('empty', 0),
                                     o['sentinels']['empty_string'])
                    self.assertEqual(sum(v['strings']['classes'].values()), o['types']['string'])

    def test_constants(self):
        constants = 0
        for key, o in self.oracle.items():
            v = self.ours[key]
            with self.subTest(key=key):
                if o['constant'] is None:
                    self.assertIsNone(v['constant'])
                    continue
                constants += 1
                self.assertEqual(v['constant']['type'], o['constant']['type'])
                want = o['constant']['value']
                if v['constant'].get('truncated'):
                    # Kept as the top values keep it: cut at 64 bytes.
                    want = top_key(want.encode('utf-8')).decode('utf-8')
                    self.assertLess(len(want), len(o['constant']['value']))
                self.assertEqual(v['constant']['value'], want)
                self.assertEqual(v['constant']['sites'], o['constant']['sites'])
                self.assertTrue(v['profile'].startswith('always '), v['profile'])
        self.assertGreater(constants, 50)

    def test_quantiles(self):
        checked = 0
        for key, o in self.oracle.items():
            if o['numbers'] is None:
                continue
            nums, v = o['numbers']['sorted'], self.ours[key]['numbers']
            exact = len(set(nums)) <= 16
            self.assertEqual(v['quantiles_exact'], exact, key)
            for name, q in (('p05', .05), ('p25', .25), ('p50', .5), ('p75', .75),
                            ('p95', .95), ('p99', .99)):
                want, got = nearest_rank(nums, q), v['quantiles'][name]
                with self.subTest(key=key, q=name):
                    if exact:
                        self.assertEqual(got, want)
                    else:
                        # 0.5 % relative; magnitudes below 1e-4 count as 0.
                        self.assertLessEqual(abs(got - want), 0.005 * abs(want) + 1e-4)
                checked += 1
        self.assertGreater(checked, 1000)

    def test_distinct(self):
        for key, o in self.oracle.items():
            if o['strings'] is None:
                continue
            v, d = self.ours[key]['strings'], o['strings']['distinct']
            with self.subTest(key=key):
                self.assertEqual(v['distinct_exact'], d <= HLL_EXACT)
                if d <= HLL_EXACT:
                    self.assertEqual(v['distinct'], d)
                else:
                    self.assertLessEqual(abs(v['distinct'] - d), 4 * HLL_SE * d)

    def test_top_values_within_bounds(self):
        listed_exact_top = 0
        for key, o in self.oracle.items():
            if o['strings'] is None:
                continue
            v = self.ours[key]['strings']
            truth = {k: (c, s) for k, c, s in o['strings']['top']}
            floor = v['top_error_bound']
            self.assertLessEqual(floor, o['types']['string'] // TOPK_K, key)
            listed = {}
            for item in v['top']:
                with self.subTest(key=key, value=item['value']):
                    self.assertIn(item['value'], truth)
                    count, sites = truth[item['value']]
                    self.assertLessEqual(item['count'] - item['error'], count)
                    self.assertGreaterEqual(item['count'], count)
                    self.assertLessEqual(item['error'], floor)
                    self.assertLessEqual(item['sites'], sites)
                    if item['error'] == 0:
                        self.assertEqual(item['sites'], sites)
                listed[item['value']] = item
            # The exact top 5 are all listed wherever the bound allows it.
            for k, c, _ in o['strings']['top'][:5]:
                if c > floor:
                    self.assertIn(k, listed, (key, k, c, floor))
                    listed_exact_top += 1
            # Every value more frequent than the bound is listed.
            for k, c, _ in o['strings']['top']:
                if c <= floor:
                    break
                self.assertIn(k, listed, (key, k, c, floor))
        self.assertGreater(listed_exact_top, 500)


class ValueOutputs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        rc, err, cls.out = run_census([THIRD_PARTY], threads=2)
        assert rc == 0, err
        cls.census = load(cls.out)

    def test_urls_cut_and_privacy_by_default(self):
        shown = hidden = 0
        for e in self.census['events']:
            for a in e['args']:
                s = a['values']['strings']
                if not s:
                    continue
                self.assertFalse(s['top_urls_whole'])
                for item in s['top']:
                    if item['value'] is None:
                        hidden += 1
                        self.assertLess(item['sites'], 3)
                        self.assertIn('fewer than --value-sites 3', item['value_na'])
                        continue
                    shown += 1
                    val = item['value']
                    if val.startswith(('http://', 'https://')):
                        rest = val.split('://', 1)[1]
                        self.assertNotIn('/', rest, val)
                        self.assertNotIn('?', rest, val)
        self.assertGreater(shown, 100)
        self.assertGreater(hidden, 10)

    def test_args_csv_matches_json(self):
        with open(os.path.join(self.out, 'census_args.csv'), newline='', encoding='utf-8') as f:
            rows = list(csv.DictReader(f))
        by_key = {(r['event'], r['path']): r for r in rows}
        n = 0
        for e in self.census['events']:
            for a in e['args']:
                r = by_key[(e['name'], a['path'])]
                v = a['values']
                self.assertEqual(int(r['values']), v['values'])
                self.assertEqual(int(r['zeros']), v['sentinels']['zero'])
                self.assertEqual(int(r['empty_strings']), v['sentinels']['empty_string'])
                # A CSV text cell that would start a formula has a ' before it.
                guarded = ("'" + v['profile']) if v['profile'][:1] in ('=', '+', '-', '@') else v['profile']
                self.assertEqual(r['profile'], guarded)
                if v['numbers']:
                    self.assertEqual(float(r['num_max']), v['numbers']['max'])
                    self.assertEqual(float(r['num_p50']), v['numbers']['quantiles']['p50'])
                    self.assertEqual(r['numbers_na'], '')
                else:
                    self.assertEqual(r['num_max'], '')
                    self.assertEqual(r['numbers_na'], 'no number values')
                if v['constant'] and 'value_na' in v['constant']:
                    self.assertEqual((r['constant'], r['constant_na']),
                                     ('', 'seen on fewer sites than --value-sites'))
                elif v['constant']:
                    self.assertEqual(r['constant_na'], '')
                else:
                    self.assertEqual((r['constant'], r['constant_na']), ('', 'values differ'))
                n += 1
        self.assertEqual(n, len(rows))

    def test_args_csv_loads_in_pandas(self):
        """pandas with default options: every row, typed columns."""
        python = next((p for p in (sys.executable, '/usr/bin/python3')
                       if os.path.exists(p) and subprocess.run(
                           [p, '-c', 'import pandas'], capture_output=True).returncode == 0), None)
        if python is None:
            self.skipTest('no python3 with pandas (scripts/deps.sh --test installs python3-pandas)')
        path = os.path.join(self.out, 'census_args.csv')
        with open(path, newline='', encoding='utf-8') as f:
            rows = sum(1 for _ in csv.reader(f)) - 1
        code = ('import pandas, sys; d = pandas.read_csv(sys.argv[1]); '
                'print(len(d), d["values"].dtype, d["num_max"].dtype, d["zeros"].sum(), '
                'd["event"].nunique())')
        p = subprocess.run([python, '-c', code, path], capture_output=True, text=True, check=True)
        n, values_dtype, max_dtype, zeros, events = p.stdout.split()
        self.assertEqual(int(n), rows)
        self.assertEqual(values_dtype, 'int64')
        self.assertEqual(max_dtype, 'float64')
        want = [a for e in self.census['events'] for a in e['args']]
        self.assertEqual(int(zeros), sum(a['values']['sentinels']['zero'] for a in want))
        self.assertEqual(int(events), len({e['name'] for e in self.census['events'] if e['args']}))

    def test_md_has_profiles_and_sentences(self):
        with open(os.path.join(self.out, 'census.md'), encoding='utf-8') as f:
            md = f.read()
        self.assertIn('| argument | records | sites | types | values |', md)
        # Each constant path's sentence, with the exact figures of census.json.
        sentences = 0
        for e in self.census['events']:
            for a in e['args']:
                c = a['values']['constant']
                if not c or c['type'] != 'number':
                    continue
                leaf = a['path'].rsplit('.', 1)[-1]
                want = '%s is always %s on %s of %s records on %d site%s.' % (
                    leaf, a['values']['profile'][len('always '):], f"{a['records']:,}",
                    f"{e['records']:,}", a['sites'], '' if a['sites'] == 1 else 's')
                self.assertIn(want, md)
                sentences += 1
        self.assertGreater(sentences, 20)


class ValueMemory(unittest.TestCase):
    """Memory never follows values: a trace of 1 M distinct strings on one
    path peaks within a few MiB of the same trace with two values taking
    turns. Two, not one: a value equal to the one before it in its profile
    is counted on the entry before it in the chunk's hand-off
    (tc_seq_val_again), so a trace of one value would hand on almost
    nothing and the difference would measure the hand-off of a chunk, not
    the profiles."""
    N = 1_000_000

    def trace(self, d, distinct):
        path = os.path.join(d, ('distinct' if distinct else 'two') + '.json')
        with open(path, 'w') as f:
            f.write('[')
            for i in range(self.N):
                v = '%016x' % (i * 0x9E3779B97F4A7C15 % 2**64) if distinct else str(i % 2) * 16
                f.write('%s{"name":"V","ph":"i","ts":%d,"pid":1,"tid":1,"args":{"s":"%s"}}'
                        % (',' if i else '', i, v))
            f.write(']')
        return path

    def peak(self, path):
        # One thread: the chunks in flight, not the values, set the peak.
        rc, err, out = run_census([path], threads=1, extra=('--no-metrics',))
        self.assertEqual(rc, 0, err)
        return load(out, 'run.json')['peak_rss_kib'], load(out)

    def test_distinct_values_cost_no_memory(self):
        d = scratch('tc-vmem-')
        two_rss, two = self.peak(self.trace(d, False))
        many_rss, many = self.peak(self.trace(d, True))
        [a] = [a['values'] for e in many['events'] for a in e['args']]
        self.assertEqual(a['values'], self.N)
        self.assertFalse(a['strings']['distinct_exact'])
        self.assertLessEqual(abs(a['strings']['distinct'] - self.N), 4 * HLL_SE * self.N)
        [b] = [a['values'] for e in two['events'] for a in e['args']]
        self.assertEqual(b['strings']['distinct'], 2)
        self.assertLess(many_rss - two_rss, 4 * 1024, (two_rss, many_rss))


if __name__ == '__main__':
    unittest.main()
