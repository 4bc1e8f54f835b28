"""Issue 11: the tables load in pandas (Debian's python3-pandas) with default
options, and what pandas reads equals what the JSON outputs say: census.csv
against census.json (counts, categories_list and undeclared_args_list as
JSON lists), metrics.csv against metrics.json (every trace's figures, every
site without a trace, empty cells exactly where the JSON has null).

Runs under the interpreter that has pandas: the python3 on PATH may be
another one (pyenv), so without pandas it re-runs itself under Debian's
/usr/bin/python3. Exit 77 (skipped) when no interpreter has pandas, unless
TC_REQUIRE_ORACLES=1."""
import json
import math
import os
import sys
import unittest

try:
    import pandas as pd
except ImportError:
    if sys.executable != '/usr/bin/python3' and os.path.exists('/usr/bin/python3'):
        os.execv('/usr/bin/python3', ['/usr/bin/python3', os.path.abspath(__file__), *sys.argv[1:]])
    print('pandas not found (scripts/deps.sh --test installs python3-pandas)')
    sys.exit(1 if os.environ.get('TC_REQUIRE_ORACLES') == '1' else 77)

from e2e_common import ROOT, load, run_census, scratch

CRAWL = os.path.join(ROOT, 'corpus', 'crawl')


class DataTools(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        rc, err, cls.out = run_census([CRAWL], extra=['--manifest', os.path.join(CRAWL, 'manifest.tsv')])
        assert rc == 0, err
        cls.census = load(cls.out)
        cls.metrics = load(cls.out, 'metrics.json')

    def test_census_csv(self):
        df = pd.read_csv(os.path.join(self.out, 'census.csv'))
        events = self.census['events']
        self.assertEqual(len(df), len(events))
        self.assertEqual(list(df['name']), [e['name'] for e in events])
        self.assertEqual(list(df['records']), [e['records'] for e in events])
        self.assertEqual(list(df['sites']), [e['sites'] for e in events])
        self.assertEqual(str(df['records'].dtype), 'int64')
        self.assertEqual(list(df['arg_paths']), [len(e['args']) for e in events])
        self.assertEqual(list(df['undeclared_args']), [len(e['undeclared_args']) for e in events])
        self.assertEqual([json.loads(c) for c in df['categories_list']],
                         [[c['name'] for c in e['categories']] for e in events])
        self.assertEqual([json.loads(c) for c in df['undeclared_args_list']],
                         [e['undeclared_args'] for e in events])
        self.assertGreater(sum(len(e['undeclared_args']) for e in events), 0)

    def test_metrics_csv(self):
        df = pd.read_csv(os.path.join(self.out, 'metrics.csv'))
        traces = self.metrics['traces']
        without = [s for s in self.metrics['sites'] if not s['traces']]
        self.assertGreater(len(without), 0)
        self.assertEqual(len(df), len(traces) + len(without))
        rows = {(r['site'], r['trace']): r for _, r in df.iterrows() if isinstance(r['trace'], str)}
        self.assertEqual(len(rows), len(traces))
        checked = 0
        for t in traces:
            r = rows[(t['site'], t['trace'])]
            for col, value in (('busy_mean_pct', t['busy']['mean_pct']),
                               ('long_tasks', t['long_tasks']['count']),
                               ('tbt_ms', t['long_tasks']['tbt_ms']),
                               ('frame_p50_ms', t['frames']['p50_ms']),
                               ('heap_growth_bytes', t['heap']['growth_bytes'])):
                if value is None:
                    self.assertTrue(math.isnan(r[col]), (t['site'], col))
                else:
                    self.assertEqual(r[col], value, (t['site'], col))
                    checked += 1
        self.assertGreater(checked, 3 * len(traces))
        for s in without:
            row = df[df['site'] == s['site']]
            self.assertEqual(len(row), 1)
            self.assertTrue(math.isnan(row['tbt_ms'].iloc[0]))

    def test_list_cells_survive_quotes_and_commas(self):
        """A category with a quote, a backslash and a non-ASCII letter reads
        back whole from its JSON-list cell."""
        tmp = scratch('tc-lists-')
        trace = os.path.join(tmp, 'site.json')
        cat = 'q"uote\\back ü'
        with open(trace, 'w', encoding='utf-8') as f:
            json.dump([{'name': 'E', 'cat': cat + ',plain', 'ph': 'X', 'ts': 1, 'dur': 2, 'pid': 1,
                        'tid': 1, 'args': {}}], f)
        rc, err, out = run_census([trace])
        self.assertEqual(rc, 0, err)
        df = pd.read_csv(os.path.join(out, 'census.csv'))
        self.assertEqual(json.loads(df['categories_list'][0]), sorted([cat, 'plain']))
        self.assertEqual(load(out)['events'][0]['categories'],
                         [{'name': n, 'records': 1} for n in sorted([cat, 'plain'])])


if __name__ == '__main__':
    unittest.main()
