"""`tracecensus diff` on two corpora built from the real third-party traces.

A is every trace, one site folder each, with a manifest. B is A with one
trace removed, one event renamed and one argument added (in another trace)
and one site's Chrome version changed (its metadata's product-version,
where run.json reads it). The diff must name exactly those changes, mark
the changed site's metrics "not comparable", and every figure of diff.json
must match a computation made here from the two folders' census.json and
metrics.json. B2 is B without the Chrome change, so that its changes are
numbers to check. C is A with a trace config added to one trace's metadata;
D is A with one trace's durations halved, so that metrics change alone.
`diff A A` reports nothing and exits 0. SharedSites compares two crawls
that differ by two sites; ValueShifts, three edits of argument values whose
value-profile shifts are computed here from the traces."""
import collections
import csv
import gzip
import json
import math
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from e2e_common import ROOT, BINARY, HERE, SANITIZED, THIRD_PARTY, load

REMOVED = 'artifacts__perflog'            # its trace is removed in B (the site stays in the manifest)
EDITED = 'artifacts__user-timing'          # one event renamed, one argument added in B
CHROME = 'traces__threeframes-blank_content_more'  # product-version Chrome/54... -> Chrome/99... in B
CONFIG = 'traces__bad-nav-start-ts'       # a trace-config added to its metadata in C (A otherwise)
SLOWER = 'traces__timespan-trace-m91'     # every complete event's dur halved in D (A otherwise)
ADDED_ARG = 'tcdiff_added'
METRICS = ('busy_mean_pct', 'tbt_ms', 'long_tasks', 'frame_p50_ms', 'frame_p95_ms',
           'heap_growth_bytes')


def site_of(fname):
    for suffix in ('.gz', '.json', '.trace', '__trace'):
        if fname.endswith(suffix):
            fname = fname[:-len(suffix)]
    return fname


def read_trace(path):
    with open(path, 'rb') as f:
        data = f.read()
    return gzip.decompress(data) if data[:2] == b'\x1f\x8b' else data


def edit_text(path, pattern, repl):
    """Replaces the one match of PATTERN in the trace at PATH (a symlink
    into the shared traces) by a plain file with the edit."""
    raw = read_trace(path).decode('utf-8')
    raw, n = re.subn(pattern, repl, raw)
    assert n == 1, 'the fixture trace %s changed: %r matches %d times' % (path, pattern, n)
    os.unlink(path)
    with open(path, 'w') as f:
        f.write(raw)


def unique_keys(pairs):
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), 'a repeated key would not survive the rewrite'
    return dict(pairs)


def diff_out_a_b(folder):
    """diff of FOLDER's outA and outB into FOLDER/diff, which must find
    differences; its diff.json."""
    p = run('diff', '-o', os.path.join(folder, 'diff'), os.path.join(folder, 'outA'),
            os.path.join(folder, 'outB'))
    assert p.returncode == 1, p.stderr
    return load(os.path.join(folder, 'diff'), 'diff.json')


def run(*args):
    return subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=600)


def change(a, b):
    return (b - a) / abs(a) * 100.0


def nearest_rank(values, q_num, q_den):
    """metrics.md's rule: rank ceil(q n), n/a below 1/(1-q) samples."""
    v = sorted(values)
    n = len(v)
    if n * (q_den - q_num) < q_den:
        return None
    return v[-(-n * q_num // q_den) - 1]


class Diff(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix='tc-diff-')
        files = sorted(os.listdir(THIRD_PARTY))
        cls.sites = {site_of(f): f for f in files}
        for corpus in ('A', 'B', 'B2', 'C', 'D'):
            for site, f in cls.sites.items():
                os.makedirs(cls.path(corpus, site))
                if corpus in ('B', 'B2') and site == REMOVED:
                    continue
                os.symlink(os.path.join(THIRD_PARTY, f), cls.path(corpus, site, f))
            with open(cls.path(corpus, 'manifest.tsv'), 'w') as m:
                m.write('site\n' + ''.join(s + '\n' for s in sorted(cls.sites)))
        cls.census('A')
        a = load(cls.path('outA'))
        # The renamed event: one only EDITED's trace has; the event given
        # an argument: one EDITED's trace shares with other sites.
        edited = cls.path('B', EDITED, cls.sites[EDITED])
        doc = json.loads(read_trace(edited), object_pairs_hook=unique_keys)
        events = doc['traceEvents'] if isinstance(doc, dict) else doc
        names = {e.get('name') for e in events}
        by_name = {e['name']: e for e in a['events']}
        cls.renamed = sorted(n for n in names if n in by_name and by_name[n]['sites'] == 1)[0]
        cls.new_name = cls.renamed + '.renamed'
        cls.arg_event = sorted(n for n in names if n in by_name and by_name[n]['sites'] > 1 and
                               not any(p['path'] == 'args.' + ADDED_ARG
                                       for p in by_name[n]['args']))[0]
        for e in events:
            if e.get('name') == cls.renamed:
                e['name'] = cls.new_name
            elif e.get('name') == cls.arg_event:
                e.setdefault('args', {})[ADDED_ARG] = 1
        text = json.dumps(doc, separators=(',', ':'))
        for corpus in ('B', 'B2'):
            path = cls.path(corpus, EDITED, cls.sites[EDITED])
            os.unlink(path)
            with open(path, 'w') as f:
                f.write(text)
        # The Chrome version and the trace config, edited in place in the
        # text (nothing else moves).
        edit_text(cls.path('B', CHROME, cls.sites[CHROME]),
                  r'("product-version"\s*:\s*")Chrome/54\.', r'\1Chrome/99.')
        edit_text(cls.path('C', CONFIG, cls.sites[CONFIG]), r'("product-version"\s*:)',
                  r'"trace-config": "{\\"record_mode\\":\\"record-as-much-as-possible\\"}", \1')
        path = cls.path('D', SLOWER, cls.sites[SLOWER])
        doc = json.loads(read_trace(path), object_pairs_hook=unique_keys)
        for e in doc['traceEvents'] if isinstance(doc, dict) else doc:
            if e.get('ph') == 'X' and isinstance(e.get('dur'), (int, float)):
                e['dur'] = e['dur'] / 2
        os.unlink(path)
        with open(path, 'w') as f:
            json.dump(doc, f, separators=(',', ':'))
        removed = json.loads(read_trace(os.path.join(THIRD_PARTY, cls.sites[REMOVED])))
        removed = removed['traceEvents'] if isinstance(removed, dict) else removed
        cls.removed_names = {e.get('name') for e in removed}
        cls.census('B')
        cls.census('B2')
        cls.census('C')
        cls.census('D')

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    @classmethod
    def path(cls, *parts):
        return os.path.join(cls.dir, *parts)

    @classmethod
    def census(cls, corpus):
        p = run('census', '-q', '-T', '2', '--manifest', cls.path(corpus, 'manifest.tsv'),
                '-o', cls.path('out' + corpus), cls.path(corpus))
        assert p.returncode == 0, p.stderr

    def diff(self, a, b, out):
        p = run('diff', '-o', self.path(out), self.path(a), self.path(b))
        self.assertIn(p.returncode, (0, 1), p.stderr)
        return p.returncode, load(self.path(out), 'diff.json')

    # The independent computation: what differs between two folders.
    def expected(self, a_dir, b_dir, conditions_differ):
        ca, cb = load(self.path(a_dir)), load(self.path(b_dir))
        ea = {e['name']: e for e in ca['events']}
        eb = {e['name']: e for e in cb['events']}
        sa, sb = ca['sites_total'], cb['sites_total']
        changed = {}
        for n in sorted(set(ea) & set(eb)):
            x, y = ea[n], eb[n]
            pa, pb = {p['path'] for p in x['args']}, {p['path'] for p in y['args']}
            ua, ub = set(x['undeclared_args']), set(y['undeclared_args'])
            if (x['records'], x['sites']) != (y['records'], y['sites']) or pa != pb or ua != ub:
                changed[n] = (x, y, sorted(pb - pa), sorted(pa - pb), sorted(ub - ua), sorted(ua - ub))
        return {'new': sorted(set(eb) - set(ea)), 'gone': sorted(set(ea) - set(eb)),
                'changed': changed, 'sa': sa, 'sb': sb}

    def check_event_figures(self, d, exp, comparable):
        self.assertEqual([e['name'] for e in d['events_new']], exp['new'])
        self.assertEqual([e['name'] for e in d['events_vanished']], exp['gone'])
        self.assertEqual([e['name'] for e in d['events_changed']], sorted(exp['changed']))
        for e in d['events_changed']:
            x, y, anew, agone, unew, ugone = exp['changed'][e['name']]
            self.assertEqual((e['records_a'], e['records_b'], e['sites_a'], e['sites_b']),
                             (x['records'], y['records'], x['sites'], y['sites']))
            self.assertEqual((e['args_appeared'], e['args_vanished']), (anew, agone))
            self.assertEqual((e['undeclared_appeared'], e['undeclared_vanished']), (unew, ugone))
            for key, a, b in (('records_per_site', x['records'] / exp['sa'], y['records'] / exp['sb']),
                              ('site_share_pct', x['sites'] / exp['sa'] * 100, y['sites'] / exp['sb'] * 100)):
                f = e[key]
                self.assertAlmostEqual(f['a'], a, delta=1e-12 * abs(a))
                self.assertAlmostEqual(f['b'], b, delta=1e-12 * abs(b))
                if comparable:
                    self.assertIsNone(f['change_na'])
                    self.assertAlmostEqual(f['change_pct'], change(a, b), delta=1e-9 * abs(change(a, b)) + 1e-12)
                else:
                    self.assertIsNone(f['change_pct'])
                    self.assertEqual(f['change_na'], d['events_not_comparable'])

    def check_metrics(self, d, a_dir, b_dir, not_comparable):
        ma, mb = load(self.path(a_dir), 'metrics.json'), load(self.path(b_dir), 'metrics.json')
        va = {s['site']: s['values'] for s in ma['sites']}
        vb = {s['site']: s['values'] for s in mb['sites']}
        self.assertEqual([m['metric'] for m in d['metric_distributions']], list(METRICS))
        for m in d['metric_distributions']:
            xa = [v[m['metric']] for v in va.values() if v[m['metric']] is not None]
            xb = [v[m['metric']] for v in vb.values() if v[m['metric']] is not None]
            self.assertEqual((m['n_a'], m['n_b']), (len(xa), len(xb)))
            for key, q in (('median', (1, 2)), ('p90', (9, 10))):
                a, b = nearest_rank(xa, *q), nearest_rank(xb, *q)
                f = m[key]
                self.assertEqual((f['a'], f['b']), (a, b), (m['metric'], key))
                if a is None or b is None:
                    self.assertIsNone(f['change_pct'])
                    self.assertTrue(f['change_na'].startswith('n/a'))
                elif not_comparable:
                    self.assertIsNone(f['change_pct'])
                    self.assertEqual(f['change_na'], not_comparable)
                elif len(xa) != len(xb):
                    self.assertIsNone(f['change_pct'])
                    self.assertEqual(f['change_na'], 'sample counts differ (n %d -> %d)' % (len(xa), len(xb)))
                elif a == 0:
                    self.assertEqual(f['change_na'], 'baseline is zero')
                else:
                    self.assertAlmostEqual(f['change_pct'], change(a, b), delta=1e-9 * abs(change(a, b)) + 1e-12)
        # Each listed site's figures are its values in the two metrics.json.
        for site in d['sites']:
            for k in METRICS:
                f, a, b = site['metrics'][k], va[site['site']][k], vb[site['site']][k]
                self.assertEqual((f['a'], f['b']), (a, b), (site['site'], k))
                if a is not None and b is not None and a != 0 and site['not_comparable'] is None \
                        and site['traces_a'] == site['traces_b']:
                    self.assertAlmostEqual(f['change_pct'], change(a, b), delta=1e-9 * abs(change(a, b)) + 1e-12)
                else:
                    self.assertIsNone(f['change_pct'])
                    self.assertTrue(f['change_na'])
        return va, vb

    def test_b_names_exactly_the_changes(self):
        rc, d = self.diff('outA', 'outB', 'diffAB')
        self.assertEqual(rc, 1)
        self.assertTrue(d['changed'])
        exp = self.expected('outA', 'outB', True)
        # The construction: the renamed event is new, it and the events only
        # the removed trace had have vanished, the added argument appeared.
        self.assertEqual(exp['new'], [self.new_name])
        only_removed = {n for n in self.removed_names
                        if n and next(e for e in load(self.path('outA'))['events'] if e['name'] == n)['sites'] == 1}
        self.assertEqual(set(exp['gone']), {self.renamed} | only_removed)
        appeared = [(n, p) for n, c in exp['changed'].items() for p in c[2]]
        self.assertEqual(appeared, [(self.arg_event, 'args.' + ADDED_ARG)])
        # The conditions: only the edited site's Chrome major, and it makes
        # every event change not comparable.
        self.assertEqual(d['conditions_differ'], ['site %s: Chrome major 54 -> 99' % CHROME])
        self.assertEqual(d['events_not_comparable'], 'site %s: Chrome major 54 -> 99' % CHROME)
        self.assertEqual(d['sites_only_in_a'], [])
        self.assertEqual(d['sites_only_in_b'], [])
        self.check_event_figures(d, exp, comparable=False)
        va, vb = self.check_metrics(d, 'outA', 'outB', d['metrics_not_comparable'])
        sites = {s['site']: s for s in d['sites']}
        chrome = sites[CHROME]
        self.assertEqual(chrome['not_comparable'], 'Chrome major 54 -> 99')
        for k in METRICS:
            self.assertIsNone(chrome['metrics'][k]['change_pct'])
            self.assertTrue(chrome['metrics'][k]['change_na'] == 'Chrome major 54 -> 99' or
                            chrome['metrics'][k]['change_na'].startswith('n/a'), k)
        self.assertEqual((sites[REMOVED]['traces_a'], sites[REMOVED]['traces_b']), (1, 0))
        # Exactly the sites whose conditions, trace count or values differ.
        differ = {s for s in va if s in (CHROME, REMOVED) or any(va[s][k] != vb[s][k] for k in METRICS)}
        self.assertEqual(set(sites), differ)
        # diff.md says it for people, diff.csv row for row with diff.json.
        with open(self.path('diffAB', 'diff.md'), encoding='utf-8') as f:
            md = f.read()
        # Markdown text escapes '>' (README, "How text from traces is written").
        self.assertIn('Chrome major 54 -\\> 99', md)
        self.assertIn('not comparable', md)
        self.assertIn(self.new_name, md)
        with open(self.path('diffAB', 'diff.csv'), newline='', encoding='utf-8') as f:
            rows = list(csv.DictReader(f))
        self.assertEqual([r['name'] for r in rows if r['section'] == 'event_new' and
                          r['figure'] == 'records_per_site'], exp['new'])
        self.assertEqual([(r['name'], r['figure']) for r in rows if r['section'] == 'arg_appeared'],
                         [(self.arg_event, 'args.' + ADDED_ARG)])
        site_rows = [r for r in rows if r['section'] == 'site_metric' and r['name'] == CHROME]
        self.assertEqual(len(site_rows), len(METRICS))
        self.assertTrue(all(r['change_pct'] == '' for r in site_rows))
        with open(self.path('diffAB', 'diff.html'), encoding='utf-8') as f:
            html = f.read()
        self.assertTrue(html.startswith('<!DOCTYPE html>'))
        self.assertNotIn('src="http', html)

        def rows(table):
            i = html.index('id="%s"' % table)
            return html[i:html.index('</table>', i)].count('<tr>') - 1

        paths = sum(len(e[k]) for e in d['events_changed'] for k in
                    ('args_appeared', 'args_vanished', 'undeclared_appeared', 'undeclared_vanished'))
        tables = (('events-new', len(d['events_new'])), ('events-gone', len(d['events_vanished'])),
                  ('events-changed', len(d['events_changed'])), ('args', paths),
                  ('dists', len(METRICS)), ('sites', len(d['sites']) * len(METRICS)))
        for table, n in tables:
            self.assertEqual(rows(table), n, table)
        # The page in headless Chromium, when playwright-core is installed;
        # its screenshot goes to the build folder beside the binary.
        node = shutil.which('node')
        shots = os.path.join(os.path.dirname(os.path.abspath(BINARY)), 'tests', 'e2e')
        if node:
            p = subprocess.run([node, os.path.join(HERE, 'diff_page_check.mjs'),
                                self.path('diffAB', 'diff.html'),
                                os.path.join(shots if os.path.isdir(shots) else self.dir, 'diff.png'),
                                CHROME, str(len(METRICS)),
                                *('%s=%d' % t for t in tables)],
                               capture_output=True, text=True, timeout=180)
            self.assertIn(p.returncode, (0, 77), p.stdout + p.stderr)

    def test_comparable_changes_are_numbers(self):
        rc, d = self.diff('outA', 'outB2', 'diffAB2')
        self.assertEqual(rc, 1)
        self.assertEqual(d['conditions_differ'], [])
        self.assertIsNone(d['events_not_comparable'])
        exp = self.expected('outA', 'outB2', False)
        self.assertGreater(len(exp['changed']), 1)
        self.check_event_figures(d, exp, comparable=True)
        self.check_metrics(d, 'outA', 'outB2', None)
        sites = {s['site']: s for s in d['sites']}
        self.assertNotIn(CHROME, sites)
        for k in METRICS:
            self.assertRegex(sites[REMOVED]['metrics'][k]['change_na'], r'^n/a in (A \(.*\) and in )?B \(no_trace\)$')

    def test_trace_config_makes_it_not_comparable(self):
        rc, d = self.diff('outA', 'outC', 'diffAC')
        self.assertEqual(rc, 1)
        run_c = load(self.path('outC'), 'run.json')
        meta = next(f['metadata'] for f in run_c['files'] if f['site'] == CONFIG)
        self.assertIn('trace-config', meta)
        self.assertEqual(d['conditions_differ'], ['site %s: trace config differs' % CONFIG])
        self.assertEqual(d['events_not_comparable'], 'trace config differs on 1 site')
        self.assertEqual([s['site'] for s in d['sites']], [CONFIG])
        self.assertEqual(d['sites'][0]['not_comparable'], 'trace config differs')
        self.assertEqual((d['events_new'], d['events_vanished'], d['events_changed']), ([], [], []))
        self.check_metrics(d, 'outA', 'outC', d['metrics_not_comparable'])

    def test_metrics_alone_changed(self):
        rc, d = self.diff('outA', 'outD', 'diffAD')
        self.assertEqual(rc, 1)
        self.assertEqual(d['conditions_differ'], [])
        self.assertIsNone(d['metrics_not_comparable'])
        self.check_metrics(d, 'outA', 'outD', None)
        # The halved trace moves the distributions: some change is a number.
        self.assertTrue(any(m[q]['change_pct'] is not None and m[q]['change_pct'] != 0
                            for m in d['metric_distributions'] for q in ('median', 'p90')))
        self.assertEqual([s['site'] for s in d['sites']], [SLOWER])
        self.assertLess(d['sites'][0]['metrics']['busy_mean_pct']['change_pct'], 0)

    def test_no_metrics_side(self):
        p = run('census', '-q', '-T', '2', '--no-metrics', '--manifest', self.path('A', 'manifest.tsv'),
                '-o', self.path('outA-nometrics'), self.path('A'))
        self.assertEqual(p.returncode, 0, p.stderr)
        rc, d = self.diff('outA', 'outA-nometrics', 'diffAN')
        self.assertEqual(rc, 1)
        self.assertEqual(d['metrics_na'], 'no metrics.json in B (a --no-metrics run)')
        self.assertEqual((d['metric_distributions'], d['sites'], d['conditions_differ']), ([], [], []))
        self.assertEqual((d['events_new'], d['events_vanished'], d['events_changed']), ([], [], []))

    def test_shared_metadata_block_is_followed(self):
        # Two sites with the same trace: run.json writes their metadata once
        # and the second file points at the first (`metadata_of`); a trace
        # config added to both must show on both sites.
        for corpus, config in (('M1', False), ('M2', True)):
            for site in ('x', 'y'):
                os.makedirs(self.path(corpus, site))
                path = self.path(corpus, site, 't.json')
                shutil.copy(os.path.join(THIRD_PARTY, self.sites[CONFIG]), path)
                if config:
                    edit_text(path, r'("product-version"\s*:)', r'"trace-config": "{}", \1')
            p = run('census', '-q', '-o', self.path('out' + corpus), self.path(corpus))
            self.assertEqual(p.returncode, 0, p.stderr)
            files = load(self.path('out' + corpus), 'run.json')['files']
            self.assertEqual([f.get('metadata_of') for f in files], [None, 0])
        rc, d = self.diff('outM1', 'outM2', 'diffM')
        self.assertEqual(rc, 1)
        self.assertEqual(d['conditions_differ'], ['site x: trace config differs', 'site y: trace config differs'])

    def test_same_folder_reports_nothing(self):
        rc, d = self.diff('outA', 'outA', 'diffAA')
        self.assertEqual(rc, 0)
        self.assertFalse(d['changed'])
        for key in ('conditions_differ', 'events_new', 'events_vanished', 'events_changed', 'sites',
                    'sites_only_in_a', 'sites_only_in_b'):
            self.assertEqual(d[key], [], key)
        p = run('diff', self.path('outA'), self.path('outA'))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn('No differences.', p.stdout)
        self.assertEqual(p.stdout.count('\n## '), 0)

    def test_diff_into_a_census_folder_keeps_it(self):
        target = self.path('keep')
        shutil.copytree(self.path('outA'), target)
        p = run('diff', '-o', target, self.path('outA'), self.path('outB'))
        self.assertEqual(p.returncode, 1, p.stderr)
        for name in ('census.json', 'run.json', 'metrics.json', 'diff.md', 'diff.json', 'diff.csv',
                     'diff.html'):
            self.assertTrue(os.path.isfile(os.path.join(target, name)), name)
        # A census into it again replaces its own files and keeps the diff.
        p = run('census', '-q', '-o', target, os.path.join(THIRD_PARTY, self.sites[REMOVED]))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(os.path.isfile(os.path.join(target, 'diff.json')))
        self.assertEqual(load(target)['traces'], 1)

    def test_bad_folders_are_named(self):
        bad = self.path('bad')
        shutil.copytree(self.path('outA'), bad)
        os.unlink(os.path.join(bad, 'run.json'))
        p = run('diff', bad, self.path('outA'))
        self.assertEqual(p.returncode, 2)
        self.assertIn(bad + '/run.json: cannot read: No such file or directory', p.stderr)
        with open(os.path.join(self.path('outA'), 'census.json'), 'rb') as f:
            text = f.read()
        # cut at a line's end: census.json holds one member a line, so the cut
        # is never inside a string (where simdjson names no place)
        cut = text.index(b'\n', 1000)
        for content, want in ((text[:cut], bad + r'/census.json: not valid JSON at byte \d+'),
                              (b'{"tool": "other"}', bad + '/census.json: not a tracecensus output'),
                              (text[:text.index(b'"events"')] + re.sub(
                                  rb'"records": (\d+)', rb'"records": "\1"',
                                  text[text.index(b'"events"'):], count=1),
                               bad + r'/census.json: not a tracecensus output .*events\[\d+\]'),
                              (b'', bad + '/census.json: not valid JSON at byte 0')):
            shutil.copy(os.path.join(self.path('outA'), 'run.json'), bad)
            with open(os.path.join(bad, 'census.json'), 'wb') as f:
                f.write(content)
            p = run('diff', self.path('outA'), bad)
            self.assertEqual(p.returncode, 2, content[:40])
            self.assertRegex(p.stderr, want)
            self.assertEqual(p.stdout, '')

    def test_manifest_names_a_chrome_upgrade(self):
        # Two startup-trace crawls (their traces name no Chrome version) whose
        # manifests record different Chromium builds for one site.
        crawl = os.path.join(ROOT, 'corpus', 'crawl')
        sites = ['long-tasks', 'user-timing', 'root-404']
        for side, version in (('upA', '156.0.8078.114'), ('upB', '157.0.8100.2')):
            corpus = self.path(side)
            os.makedirs(corpus)
            with open(os.path.join(crawl, 'manifest.tsv'), encoding='utf-8') as f:
                lines = f.read().splitlines()
            rows = [lines[0]]
            for line in lines[1:]:
                cells = line.split('\t')
                if cells[0] not in sites:
                    continue
                if cells[0] == 'user-timing':
                    cells[6] = 'Chromium %s built on Debian GNU/Linux 12 (bookworm)' % version
                rows.append('\t'.join(cells))
                os.makedirs(os.path.join(corpus, cells[0]))
                for t in os.listdir(os.path.join(crawl, cells[0])):
                    os.symlink(os.path.join(crawl, cells[0], t), os.path.join(corpus, cells[0], t))
            with open(os.path.join(corpus, 'manifest.tsv'), 'w', encoding='utf-8') as f:
                f.write('\n'.join(rows) + '\n')
            p = run('census', '-q', '--no-metrics', '--manifest', os.path.join(corpus, 'manifest.tsv'),
                    '-o', self.path('out' + side), corpus)
            self.assertIn(p.returncode, (0, 1), p.stderr)
        rc, d = self.diff('outupA', 'outupB', 'diffup')
        self.assertEqual(rc, 1)
        self.assertEqual(d['conditions_differ'], ['site user-timing: Chrome major 156 -> 157'])
        self.assertEqual(d['events_not_comparable'], 'site user-timing: Chrome major 156 -> 157')

    def test_usage(self):
        p = run('diff', self.path('outA'))
        self.assertEqual(p.returncode, 2)
        self.assertIn('diff takes two output folders A and B, not 1', p.stderr)
        p = run('diff', '--help')
        self.assertEqual(p.returncode, 0)
        self.assertTrue(p.stdout.startswith('usage: tracecensus diff [-o OUTDIR]'))


def crawl_trace(path):
    """A corpus/crawl trace (.json.zst): the document and its events."""
    with open(path, 'rb') as f:
        raw = subprocess.run(['zstd', '-q', '-dc'], input=f.read(), capture_output=True,
                             check=True).stdout
    doc = json.loads(raw)
    return doc, doc['traceEvents'] if isinstance(doc, dict) else doc


def arg_paths(event):
    """The census's argument paths of one event, written here: every value
    under an object `args`, members by key ("args.data.frame"), array
    elements as "[]"."""
    out = set()

    def walk(v, path):
        out.add(path)
        if isinstance(v, dict):
            for k, m in v.items():
                walk(m, path + '.' + k)
        elif isinstance(v, list):
            for m in v:
                walk(m, path + '[]')
    args = event.get('args')
    if isinstance(args, dict):
        for k, m in args.items():
            walk(m, 'args.' + k)
    return out


def path_counts(events):
    """(event name, arg path) -> the records that carry the path."""
    return collections.Counter((e.get('name'), p) for e in events for p in arg_paths(e))


class SharedSites(unittest.TestCase):
    """Two crawls from corpus/crawl that differ by two sites (LONE_A only in
    A, LONE_B only in B), one event renamed in one shared site's trace in B,
    and in LONE_B an argument path no other site has added to an event every
    shared site has. Both censuses count every process (--scope all), so an
    event's records are a plain count of the traces' events by name, and its
    paths' records a plain count of the paths under `args`, made here."""

    LONE_PATH = 'tcdiff_lone_path'

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix='tc-diff-shared-')
        crawl = os.path.join(ROOT, 'corpus', 'crawl')
        sites = sorted(s for s in os.listdir(crawl)
                       if os.path.isfile(os.path.join(crawl, s, 'trace.json.zst')))
        # Under a sanitizer the crawl's five smallest traces: the same code
        # paths, at a fraction of the bytes.
        sites = sorted(sorted(sites, key=lambda s: os.path.getsize(
            os.path.join(crawl, s, 'trace.json.zst')))[:5]) if SANITIZED else sites[:7]
        cls.lone_a, cls.lone_b, cls.shared = sites[0], sites[1], sites[2:]
        cls.traces = {s: os.path.join(crawl, s, 'trace.json.zst') for s in sites}
        counts, cls.paths = {}, {}
        for s in sites:
            events = crawl_trace(cls.traces[s])[1]
            counts[s] = collections.Counter(e.get('name') for e in events)
            cls.paths[s] = path_counts(events)
        # The renamed event: one only a single shared site has, in no lone site.
        on = collections.Counter(n for s in cls.shared for n in counts[s])
        cls.old = sorted(n for n, k in on.items() if k == 1 and isinstance(n, str) and
                         not any(n in counts[s] for s in (cls.lone_a, cls.lone_b)))[0]
        cls.new = cls.old + '.tcdiff_renamed'
        cls.edited = next(s for s in cls.shared if cls.old in counts[s])
        # The event that gets the lone path: the one with most records that
        # every site has, with arguments in LONE_B.
        every = set.intersection(*(set(counts[s]) for s in sites)) - {cls.old}
        cls.common = max(sorted(n for n in every if isinstance(n, str)
                                and any(n == k[0] for k in cls.paths[cls.lone_b])),
                         key=lambda n: sum(counts[s][n] for s in cls.shared))
        for side, lone in (('A', cls.lone_a), ('B', cls.lone_b)):
            for s in cls.shared + [lone]:
                os.makedirs(os.path.join(cls.dir, side, s))
                if side == 'B' and s in (cls.edited, cls.lone_b):
                    doc, events = crawl_trace(cls.traces[s])
                    for e in events:
                        if s == cls.edited and e.get('name') == cls.old:
                            e['name'] = cls.new
                    if s == cls.lone_b:
                        e = next(e for e in events if e.get('name') == cls.common
                                 and isinstance(e.get('args'), dict))
                        e['args'][cls.LONE_PATH] = 1
                    with open(os.path.join(cls.dir, side, s, 'trace.json'), 'w') as f:
                        json.dump(doc, f)
                    counts['B:' + s] = collections.Counter(e.get('name') for e in events)
                    cls.paths['B:' + s] = path_counts(events)
                else:
                    os.symlink(cls.traces[s], os.path.join(cls.dir, side, s, 'trace.json.zst'))
            p = run('census', '-q', '-T', '2', '--scope', 'all', '-o', os.path.join(cls.dir, 'out' + side),
                    os.path.join(cls.dir, side))
            assert p.returncode == 0, p.stderr
        # Records per event over the shared sites, on each side, counted here.
        cls.count_a = sum((counts[s] for s in cls.shared), collections.Counter())
        cls.count_b = sum((counts['B:' + s if s == cls.edited else s] for s in cls.shared),
                          collections.Counter())
        cls.lone_only = {n for s in (cls.lone_a, cls.lone_b) for n in counts[s]
                         if isinstance(n, str) and not cls.count_a[n] and not cls.count_b[n]}
        cls.d = diff_out_a_b(cls.dir)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def test_sites(self):
        d = self.d
        self.assertEqual(d['events_basis'], 'shared_sites')
        self.assertIsNone(d['events_basis_why'])
        self.assertEqual(d['sites_shared'], len(self.shared))
        self.assertEqual((d['sites_only_in_a'], d['sites_only_in_b']), ([self.lone_a], [self.lone_b]))
        self.assertEqual((d['lone_sites_a'], d['lone_sites_b']), (1, 1))
        self.assertEqual(d['events_only_on_lone_sites'], len(self.lone_only))
        # The same crawler and settings on both sides: every change is a number.
        self.assertIsNone(d['events_not_comparable'])
        with open(os.path.join(self.dir, 'diff', 'diff.md'), encoding='utf-8') as f:
            md = f.read()
        self.assertIn('over the %d sites both crawls list' % len(self.shared), md)

    def test_renamed_event_ranks_first(self):
        ranked = self.d['events_ranked']
        top = {r['name']: r for r in ranked[:2]}
        self.assertEqual(set(top), {self.old, self.new})
        self.assertEqual((top[self.old]['kind'], top[self.new]['kind']), ('gone', 'new'))
        n = self.count_a[self.old]
        self.assertEqual(self.count_b[self.new], n)
        self.assertEqual((top[self.old]['records_a'], top[self.old]['sites_a']), (n, 1))
        self.assertEqual((top[self.new]['records_b'], top[self.new]['sites_b']), (n, 1))
        self.assertAlmostEqual(top[self.new]['records_per_site_b'], n / len(self.shared))
        self.assertEqual([r['rank'] for r in ranked], list(range(1, len(ranked) + 1)))
        sizes = [r['change_size'] for r in ranked]
        self.assertEqual(sizes, sorted(sizes, reverse=True))
        # diff.csv's event_rank rows, and diff.md's ranking, in that order.
        with open(os.path.join(self.dir, 'diff', 'diff.csv'), newline='', encoding='utf-8') as f:
            rows = [r for r in csv.DictReader(f) if r['section'] == 'event_rank']
        self.assertEqual([(r['name'], int(r['a']), r['change_na']) for r in rows],
                         [(r['name'], r['rank'], r['kind']) for r in ranked])
        with open(os.path.join(self.dir, 'diff', 'diff.md'), encoding='utf-8') as f:
            md = f.read()
        self.assertLess(md.index('## Events ranked by size of change'), md.index('## Sites only in A'))
        self.assertRegex(md, r'\| 1 \| %s \| ' % re.escape(ranked[0]['name']))

    def test_records_over_shared_sites(self):
        # census.json's site_records over the shared sites: the count made here.
        for side, want in (('A', self.count_a), ('B', self.count_b)):
            out = os.path.join(self.dir, 'out' + side)
            c, r = load(out), load(out, 'run.json')
            names = [s['site'] for s in r['sites']]
            got = {e['name']: sum(k for i, k in e['site_records'] if names[i] in self.shared)
                   for e in c['events']}
            self.assertEqual({n: k for n, k in got.items() if k},
                             {n: k for n, k in want.items() if isinstance(n, str) and k}, side)
        # And every ranked or changed event's records in diff.json.
        for e in self.d['events_ranked']:
            self.assertEqual(e['records_a'], self.count_a[e['name']] or None, e['name'])
            self.assertEqual(e['records_b'], self.count_b[e['name']] or None, e['name'])

    def shared_paths(self, side):
        """(name, path) -> records over the shared sites on SIDE, counted here."""
        return sum((self.paths['B:' + s if side == 'B' and s == self.edited else s]
                    for s in self.shared), collections.Counter())

    def test_paths_over_shared_sites(self):
        # census.json's per-path site_records: over all sites its records and
        # sites; over the shared sites the count made here.
        want = {side: self.shared_paths(side) for side in ('A', 'B')}
        for side in ('A', 'B'):
            out = os.path.join(self.dir, 'out' + side)
            c, r = load(out), load(out, 'run.json')
            names = [s['site'] for s in r['sites']]
            got = collections.Counter()
            for e in c['events']:
                for a in e['args']:
                    rows = a['site_records']
                    self.assertEqual((sum(k for _, k in rows), len(rows)), (a['records'], a['sites']))
                    got[(e['name'], a['path'])] = sum(k for i, k in rows if names[i] in self.shared)
            self.assertEqual(+got, +want[side], side)
        # The lone path is in B's census, on LONE_B only, and no change.
        lone = 'args.' + self.LONE_PATH
        b = {(e['name'], a['path']): a for e in load(os.path.join(self.dir, 'outB'))['events']
             for a in e['args']}
        self.assertEqual(b[(self.common, lone)]['sites'], 1)
        self.assertEqual(self.d['args_basis'], 'shared_sites')
        # Each changed event's paths that appeared or vanished: the set
        # difference over the shared sites, made here.
        on = {side: {} for side in ('A', 'B')}
        for side in ('A', 'B'):
            for (name, path), k in want[side].items():
                on[side].setdefault(name, set()).add(path)
        for e in self.d['events_changed']:
            pa, pb = on['A'].get(e['name'], set()), on['B'].get(e['name'], set())
            self.assertEqual((sorted(e['args_appeared']), sorted(e['args_vanished'])),
                             (sorted(pb - pa), sorted(pa - pb)), e['name'])
        for r in self.d['events_ranked']:
            self.assertNotIn(lone, r['args_new'], r['name'])
            if r['kind'] == 'new':
                self.assertEqual(sorted(r['args_new']), sorted(on['B'].get(r['name'], set())))

    def older_output(self, side, name, event_sites):
        """SIDE's output as NAME, without per-path site_records (as before
        they were written) and, unless EVENT_SITES, without the events'."""
        old = os.path.join(self.dir, name)
        shutil.copytree(os.path.join(self.dir, 'out' + side), old)
        c = load(old)
        for e in c['events']:
            if not event_sites:
                del e['site_records']
            for a in e['args']:
                del a['site_records']
        with open(os.path.join(old, 'census.json'), 'w', encoding='utf-8') as f:
            json.dump(c, f)

    def test_outputs_without_path_sites_compare_paths_over_whole_crawls(self):
        self.older_output('A', 'midA', True)
        self.older_output('B', 'midB', True)
        for a, b in (('midA', 'midB'), ('outA', 'midB')):
            out = os.path.join(self.dir, 'diff-' + a + b)
            p = run('diff', '-o', out, os.path.join(self.dir, a), os.path.join(self.dir, b))
            self.assertEqual(p.returncode, 1, p.stderr)
            d = load(out, 'diff.json')
            self.assertEqual((d['events_basis'], d['args_basis']), ('shared_sites', 'whole_crawls'))
            # Over whole crawls the lone site's path is a change of the event.
            common = next(e for e in d['events_changed'] if e['name'] == self.common)
            self.assertIn('args.' + self.LONE_PATH, common['args_appeared'])
            with open(os.path.join(out, 'diff.md'), encoding='utf-8') as f:
                self.assertIn('Argument paths are compared over the whole crawls', f.read())

    def test_old_outputs_compare_whole_crawls(self):
        for side in ('A', 'B'):
            self.older_output(side, 'old' + side, False)
        for a, b, why in (('oldA', 'oldB', 'neither'), ('outA', 'oldB', "B's")):
            p = run('diff', '-o', os.path.join(self.dir, 'diff-' + a + b), os.path.join(self.dir, a),
                    os.path.join(self.dir, b))
            self.assertEqual(p.returncode, 1, p.stderr)
            d = load(os.path.join(self.dir, 'diff-' + a + b), 'diff.json')
            self.assertEqual(d['events_basis'], 'whole_crawls')
            self.assertTrue(d['events_basis_why'].startswith(why), d['events_basis_why'])
            self.assertEqual(d['events_not_comparable'], 'the sites differ (1 only in A, 1 only in B)')
            with open(os.path.join(self.dir, 'diff-' + a + b, 'diff.md'), encoding='utf-8') as f:
                self.assertIn('Events are compared over the whole crawls: ', f.read())



def json_type(v):
    return ('null' if v is None else 'bool' if isinstance(v, bool) else
            'number' if isinstance(v, (int, float)) else 'string' if isinstance(v, str) else
            'array' if isinstance(v, list) else 'object')


def expected_shift(va, vb):
    """README's value-profile shift of one path, from its values on each
    side, computed here from the traces: the largest of the change in the
    mix of types (total variation), in the share of one sentinel, and a
    constant that changed (1) or stopped or started being one (0.5)."""
    def shares(vals, key):
        c = collections.Counter(key(v) for v in vals)
        return {k: n / len(vals) for k, n in c.items()}
    ta, tb = shares(va, json_type), shares(vb, json_type)
    types = sum(abs(ta.get(k, 0) - tb.get(k, 0)) for k in set(ta) | set(tb)) / 2
    sentinels = {'zero': lambda v: json_type(v) == 'number' and v == 0,
                 'minus_one': lambda v: json_type(v) == 'number' and v == -1,
                 'empty_string': lambda v: v == '', 'null': lambda v: v is None,
                 'false': lambda v: v is False}
    sent = max(abs(sum(map(f, va)) / len(va) - sum(map(f, vb)) / len(vb))
               for f in sentinels.values())
    ca, cb = len({json.dumps(v) for v in va}) == 1, len({json.dumps(v) for v in vb}) == 1
    const = (1.0 if ca and cb and va[0] != vb[0] else 0.5 if ca != cb else 0.0)
    return max(types, sent, const)


class ValueShifts(unittest.TestCase):
    """A is one third-party trace; B is the same trace with three events'
    values edited: one numeric argument turned to a string in every second
    record (its mix of types moves by half), one constant argument given
    another constant, one numeric argument set to 0 in every fourth record
    (a sentinel's share moves). Each must be ranked with exactly that shift,
    computed here from the traces, and no other event may show one."""
    TRACE = 'artifacts__animation__trace.json.gz'

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix='tc-diff-values-')
        doc = json.loads(read_trace(os.path.join(THIRD_PARTY, cls.TRACE)))
        events = doc['traceEvents'] if isinstance(doc, dict) else doc
        values = collections.defaultdict(list)  # (name, key) -> values of args.key
        for e in events:
            if isinstance(e.get('args'), dict):
                for k, v in e['args'].items():
                    values[(e.get('name'), k)].append(v)
        names = collections.Counter(e.get('name') for e in events)
        numeric = sorted((k for k, v in values.items() if len(v) >= 20 and
                          all(json_type(x) == 'number' for x in v)),
                         key=lambda k: (-len(values[k]), k))
        # One argument per event, and only events with one such argument
        # edited, so each event has one shift.
        cls.typed = numeric[0]
        cls.zeroed = next(k for k in numeric if k[0] != cls.typed[0] and 0 not in values[k])
        cls.constant = next(k for k, v in sorted(values.items(), key=lambda kv: str(kv[0]))
                            if k[0] not in (cls.typed[0], cls.zeroed[0]) and len(v) >= 3 and
                            json_type(v[0]) == 'number' and len(set(v)) == 1 and
                            len(v) == names[k[0]])
        seen = collections.Counter()
        for e in events:
            key = (e.get('name'), None)
            for k in (cls.typed, cls.zeroed, cls.constant):
                if e.get('name') == k[0] and isinstance(e.get('args'), dict) and k[1] in e['args']:
                    key = k
            if key[1] is None:
                continue
            seen[key] += 1
            v = e['args'][key[1]]
            if key == cls.typed and seen[key] % 2 == 0:
                e['args'][key[1]] = str(v)
            elif key == cls.zeroed and seen[key] % 4 == 0:
                e['args'][key[1]] = 0
            elif key == cls.constant:
                e['args'][key[1]] = v + 1
        after = collections.defaultdict(list)
        for e in events:
            if isinstance(e.get('args'), dict):
                for k, v in e['args'].items():
                    after[(e.get('name'), k)].append(v)
        cls.want = {k: expected_shift(values[k], after[k])
                    for k in (cls.typed, cls.zeroed, cls.constant)}
        for side, d in (('A', None), ('B', doc)):
            os.makedirs(os.path.join(cls.dir, side, 'site'))
            path = os.path.join(cls.dir, side, 'site', 'trace.json')
            if d is None:
                os.symlink(os.path.join(THIRD_PARTY, cls.TRACE), path + '.gz')
            else:
                with open(path, 'w') as f:
                    json.dump(d, f)
            # Every constant printed (--value-sites 0): one site would hide them.
            p = run('census', '-q', '--value-sites', '0', '-o', os.path.join(cls.dir, 'out' + side),
                    os.path.join(cls.dir, side))
            assert p.returncode == 0, p.stderr
        cls.d = diff_out_a_b(cls.dir)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def test_each_edit_is_a_shift_of_the_size_computed_here(self):
        self.assertAlmostEqual(self.want[self.typed], 0.5, delta=0.03)
        self.assertEqual(self.want[self.constant], 1.0)
        self.assertGreater(self.want[self.zeroed], 0.2)
        ranked = {r['name']: r for r in self.d['events_ranked']}
        self.assertEqual({n for n, r in ranked.items() if r['value_shifts']},
                         {k[0] for k in self.want})
        for (name, key), want in self.want.items():
            r = ranked[name]
            self.assertEqual([s['path'] for s in r['value_shifts']], ['args.' + key], name)
            s = r['value_shifts'][0]
            self.assertAlmostEqual(s['shift'], want, places=9, msg=name)
            self.assertAlmostEqual(r['value_shift'], want, places=9, msg=name)
            self.assertEqual(s['basis'], {self.typed: 'types', self.zeroed: 'sentinel 0',
                                          self.constant: 'constant'}[(name, key)])
            # Records and sites did not move: the size is the shift's term alone.
            self.assertEqual((r['kind'], r['records_a']), ('changed', r['records_b']))
            self.assertAlmostEqual(r['change_size'], 2 * want, places=9, msg=name)

    def test_profiles_are_census_json_s(self):
        census = {side: {e['name']: {a['path']: a['values']['profile'] for a in e['args']}
                         for e in load(os.path.join(self.dir, 'out' + side))['events']}
                  for side in 'AB'}
        for r in self.d['events_ranked']:
            for s in r['value_shifts']:
                self.assertEqual(s['profile_a'], census['A'][r['name']][s['path']])
                self.assertEqual(s['profile_b'], census['B'][r['name']][s['path']])

    def test_md_csv_and_html_show_them(self):
        with open(os.path.join(self.dir, 'diff', 'diff.md'), encoding='utf-8') as f:
            md = f.read()
        with open(os.path.join(self.dir, 'diff', 'diff.csv'), newline='', encoding='utf-8') as f:
            rows = [r for r in csv.DictReader(f) if r['section'] == 'value_shift']
        with open(os.path.join(self.dir, 'diff', 'diff.html'), encoding='utf-8') as f:
            html = f.read()
        self.assertIn('## Value profiles that shifted', md)
        self.assertEqual(sorted((r['name'], r['figure']) for r in rows),
                         sorted((k[0], 'args.' + k[1]) for k in self.want))
        for r in rows:
            self.assertAlmostEqual(float(r['b']), self.want[(r['name'], r['figure'][5:])], places=9)
        for (name, key), want in self.want.items():
            self.assertIn('`args.%s` %.2f (' % (key, want), md)
            self.assertIn('<code>args.%s</code> %.2f (' % (key, want), html)

if __name__ == '__main__':
    unittest.main()
