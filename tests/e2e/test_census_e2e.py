"""End-to-end checks of the census on real traces, against the independent
Python oracle (tests/oracle/census_oracle.py) and against itself under a
different thread count and input order; and against the oracle on made-up
traces holding what the real ones never show."""
import filecmp
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import unittest

from e2e_common import ROOT, THIRD_PARTY, load, read_trace, run_census, scratch, third_party_files

ORACLE = os.path.join(ROOT, 'tests', 'oracle')
COMPARE_LINE = (r'^compare: [1-9]\d* events, [1-9]\d* arg paths, [1-9]\d* phase counts checked, 0 differences; '
                r'also [1-9]\d* pair counts, [1-9]\d* category counts, [1-9]\d* durations, '
                r'[1-9]\d* sentences, [1-9]\d* usage labels$')

# What the real traces never show: every pairing rule, id spellings, odd
# phases and categories, duration class boundaries, repeated keys.
EDGE_TRACES = {
    'one/t.json': '[' + ','.join([
        '{"name":"A","ph":"B","pid":1,"tid":1,"cat":"a,a"}',
        '{"name":"B","ph":"B","pid":1,"tid":2,"cat":" a , b,,a, "}',
        '{"name":"x","ph":"E","pid":1,"tid":1}', '{"name":"C","ph":"B","pid":2,"tid":1}',
        '{"name":"y","ph":"E","pid":1,"tid":2}', '{"name":"z","ph":"E","pid":1,"tid":2}',
        '{"name":"w","ph":"E","pid":2,"tid":1}',
        '{"name":"outer","ph":"B","pid":3,"tid":1}', '{"name":"inner","ph":"B","pid":3,"tid":1}',
        '{"name":"outer","ph":"E","pid":3,"tid":1}', '{"name":"other","ph":"E","pid":3,"tid":1}',
        '{"name":"inner","ph":"B","pid":3,"tid":1}',
        '{"name":"S","ph":"B","pid":"1","tid":1}', '{"name":"S","ph":"E","pid":1,"tid":1}',
        '{"name":"fa","ph":"s","id":1,"cat":"c"}', '{"name":"fb","ph":"f","id":1,"cat":"c"}',
        '{"name":"fc","ph":"s","id":2}', '{"name":"fc","ph":"s","id":2}', '{"name":"fc","ph":"f","id":2}',
        '{"name":"fd","ph":"s","id":3,"cat":"c1"}', '{"name":"fd","ph":"f","id":3,"cat":"c2"}',
        '{"name":"ft","ph":"t","id":4}', '{"name":"ft","ph":"f","id":4}',
        '{"name":"aa","ph":"b","id":"1"}', '{"name":"aa","ph":"e","id":"1"}', '{"name":"aa","ph":"n","id":"1"}',
        '{"name":"al","ph":"S","id":"1"}', '{"name":"al","ph":"F","id":"1"}', '{"name":"al","ph":"T","id":"1"}',
        '{"name":"am","ph":"b","id":"1"}', '{"name":"am","ph":"F","id":"1"}',
        '{"name":"num","ph":"b","id":12}', '{"name":"num","ph":"e","id":"12"}',
        '{"name":"float","ph":"b","id":1.50}', '{"name":"float","ph":"e","id":"1.50"}',
        '{"name":"float","ph":"b","id":1.5}',
        '{"name":"local","ph":"b","id2":{"local":"7"}}', '{"name":"local","ph":"e","id":"L:7"}',
        '{"name":"scope","ph":"b","id2":{"local":7}}', '{"name":"scope","ph":"e","id2":{"global":7}}',
        '{"name":"idwins","ph":"b","id":"1","id2":{"local":"9"}}', '{"name":"idwins","ph":"e","id":"1"}',
        '{"name":"id2first","ph":"b","id2":{"local":"9"},"id":"1"}', '{"name":"id2first","ph":"e","id":"1"}',
        '{"name":"P","ph":"Z"}', '{"name":"P","ph":"BX"}', '{"name":"P","ph":"("}', '{"name":"P","ph":""}',
        '{"name":"d","ph":"X","dur":10}', '{"name":"d","ph":"X","dur":9.999}',
        '{"name":"e","ph":"X","dur":100}', '{"name":"e","ph":"X","dur":1}',
        '{"name":"e","ph":"X","dur":1000}', '{"name":"e","ph":"X","dur":1000}',
        '{"name":"g","ph":"X","dur":0.00005}', '{"name":"g","dur":true}', '{"name":"g","dur":"5"}',
        '{"name":"r","name":"q","ph":"B","ph":"E","cat":"x","cat":"y","pid":9,"pid":8,"tid":1,'
        '"dur":5,"dur":7000,"args":{"k":1},"args":{"j":"s"}}',
        '{"name":"c","ph":"E","pid":9,"tid":1}',
        '{"name":"fid","ph":"s","id":"1","id":"2"}', '{"name":"fid","ph":"f","id":"1"}',
    ]) + ']',
    'two/t.json': '{"traceEvents":[{"name":"A","ph":"E","pid":1,"tid":1},'
                  '{"name":"fa","ph":"f","id":1,"cat":"c"},{"name":"d","ph":"X","dur":100,"cat":"b,a"}]}',
}


def run_oracle(corpus):
    """Writes the oracle's census of CORPUS into a temp dir; returns its path."""
    oracle = os.path.join(scratch('tc-oracle-'), 'oracle.json')
    subprocess.run([sys.executable, os.path.join(ORACLE, 'census_oracle.py'), corpus, '-o', oracle], check=True)
    return oracle


def compare(oracle, outdir):
    """compare_census.py on ORACLE and OUTDIR/census.json; returns the CompletedProcess."""
    return subprocess.run([sys.executable, os.path.join(ORACLE, 'compare_census.py'), oracle,
                           os.path.join(outdir, 'census.json')], capture_output=True, text=True)


class CensusAgainstOracle(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rc, cls.err, cls.out = run_census([THIRD_PARTY], threads=2)
        cls.oracle = run_oracle(THIRD_PARTY)

    def test_clean_run(self):
        self.assertEqual(self.rc, 0, self.err)

    def test_equal_to_oracle(self):
        p = compare(self.oracle, self.out)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertRegex(p.stdout.strip().splitlines()[-1], COMPARE_LINE)

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
    return read_trace(path)[1]


def many_ids_trace(n=30000, seed=11):
    """Flows and async spans with N ids, most closed soon after they open
    (some end first, some repeat, some never close), so the census's table
    of open ids fills and is compacted many times over."""
    rnd = random.Random(seed)
    events, pending = [], []
    for i in range(n):
        family = rnd.choice([('s', 'f'), ('b', 'e'), ('S', 'F')])
        first, second = family if rnd.random() < 0.9 else family[::-1]
        name = 'N%d' % rnd.randrange(3)
        events.append({'name': name, 'ph': first, 'cat': 'c', 'id': i})
        if rnd.random() < 0.97:
            pending.append({'name': name, 'ph': second, 'cat': 'c', 'id': i})
        if rnd.random() < 0.1:
            events.append({'name': name, 'ph': rnd.choice(family), 'cat': 'c', 'id': rnd.randrange(i + 1)})
        while pending and rnd.random() < 0.5:
            events.append(pending.pop(rnd.randrange(len(pending))))
    return json.dumps({'traceEvents': events + pending[: len(pending) // 2]})


class EdgeCasesAgainstOracle(unittest.TestCase):
    def check(self, traces):
        corpus = scratch('tc-edge-')
        for rel, text in traces.items():
            os.makedirs(os.path.dirname(os.path.join(corpus, rel)), exist_ok=True)
            with open(os.path.join(corpus, rel), 'w', encoding='utf-8') as f:
                f.write(text)
        rc, err, out = run_census([corpus])
        self.assertEqual(rc, 0, err)
        p = compare(run_oracle(corpus), out)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertRegex(p.stdout.strip().splitlines()[-1], r' [1-9]\d* events, .* 0 differences; also [1-9]')

    def test_hand_made_cases(self):
        self.check(EDGE_TRACES)

    def test_many_ids(self):
        self.check({'s/t.json': many_ids_trace()})

    def test_id_and_process_rules(self):
        # A boolean is no id, a number is no category, 1.5 is not pid 1, and
        # an event without a pid shares no stack with pid 0.
        self.check({'s/t.json': '[' + ','.join([
            '{"name":"F","ph":"s","id":true,"cat":"c","pid":1,"tid":1,"ts":1}',
            '{"name":"F","ph":"f","id":"true","cat":"c","pid":1,"tid":1,"ts":2}',
            '{"name":"N","ph":"X","cat":5,"pid":1,"tid":1,"ts":1,"dur":1}',
            '{"name":"B1","ph":"B","pid":1.5,"tid":1,"ts":1}',
            '{"name":"E1","ph":"E","pid":1,"tid":1,"ts":2}',
            '{"name":"B2","ph":"B","tid":1,"ts":1}',
            '{"name":"E2","ph":"E","pid":0,"tid":1,"ts":2}']) + ']'})


class Determinism(unittest.TestCase):
    def test_threads_and_order(self):
        files = third_party_files()
        rc1, err1, out1 = run_census(files, threads=1)
        rc2, err2, out2 = run_census(list(reversed(files)), threads=2)
        rc3, err3, out3 = run_census(files[::2] + files[1::2], threads=2,
                                     extra=('--chunk-bytes', '4096'))
        for rc, err in ((rc1, err1), (rc2, err2), (rc3, err3)):
            self.assertEqual(rc, 0, err)
        for name in ('census.json', 'census.csv', 'census.md', 'census_args.csv', 'metrics.json',
                     'metrics.csv', 'metrics.md', 'report.html'):
            self.assertTrue(filecmp.cmp(os.path.join(out1, name), os.path.join(out2, name), shallow=False), name)
            self.assertTrue(filecmp.cmp(os.path.join(out1, name), os.path.join(out3, name), shallow=False), name)
        # 4 KiB chunks really did split the traces.
        run = load(out3, 'run.json')
        self.assertGreater(max(f['chunks'] for f in run['files']), 100)

    def test_sites_larger_than_the_window(self):
        # Sites of many traces: the next site starts while the oldest one
        # still runs its last traces (the window counts running traces), so
        # sites overlap in the workers; the tables must not notice.
        files = third_party_files()
        corpus = tempfile.mkdtemp(prefix='tc-e2e-sites-')
        for site, part in (('a', files[:12]), ('b', files[12:13]), ('c', files[13:]),
                           ('d', files[:10])):
            os.makedirs(os.path.join(corpus, site))
            for f in part:
                shutil.copy(f, os.path.join(corpus, site))
        outs = []
        for t in (1, 2, 3):
            rc, err, out = run_census([corpus], threads=t)
            self.assertEqual(rc, 0, err)
            outs.append(out)
        self.assertEqual(load(outs[0])['traces'], 12 + 1 + 14 + 10)
        for name in ('census.json', 'census.csv', 'census.md', 'census_args.csv', 'metrics.json',
                     'metrics.csv', 'metrics.md', 'report.html'):
            for out in outs[1:]:
                self.assertTrue(filecmp.cmp(os.path.join(outs[0], name), os.path.join(out, name),
                                            shallow=False), name)
        shutil.rmtree(corpus)


if __name__ == '__main__':
    unittest.main()
