"""Bad input never stops the run: each problem is named with its file and
byte offset or event index, the rest of the corpus is counted, and the exit
status is 1 with the report written."""
import gzip
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from e2e_common import THIRD_PARTY, load, run_census

GOOD = os.path.join(THIRD_PARTY, 'traces__lcp-m78.json')
# Big enough that half of its compressed bytes hold whole zstd blocks.
BIG = os.path.join(THIRD_PARTY, 'traces__amp-m86.trace.json')


def site(corpus, name, filename, data):
    d = os.path.join(corpus, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, filename), 'wb') as f:
        f.write(data)


class BadInputs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.corpus = tempfile.mkdtemp(prefix='tc-bad-')
        with open(GOOD, 'rb') as f:
            good = f.read()
        cls.good_events = json.loads(good)
        cls.good_events = cls.good_events['traceEvents'] if isinstance(cls.good_events, dict) else cls.good_events
        site(cls.corpus, 'good', 'trace.json', good)
        with open(BIG, 'rb') as f:
            big = f.read()
        cls.big_events = len(json.loads(big)['traceEvents'] if big.lstrip()[:1] == b'{' else json.loads(big))
        gz = gzip.compress(big)
        site(cls.corpus, 'gz-cut', 'trace.json.gz', gz[: len(gz) // 2])
        zst = subprocess.run(['zstd', '-q', '-c', '-3'], input=big, capture_output=True, check=True).stdout
        site(cls.corpus, 'zst-cut', 'trace.json.zst', zst[: len(zst) // 2])
        cls.bad_text = b'[{"name":"ok1","ph":"X"},\n {"name":"broken","args":{"x":}},\n {"name":"ok2","ph":"i"}'
        site(cls.corpus, 'bad-event', 'trace.json', cls.bad_text)
        site(cls.corpus, 'not-trace', 'trace.json', b'hello, world')
        site(cls.corpus, 'empty', 'trace.json', b'')
        site(cls.corpus, 'not-object', 'trace.json', b'[1, {"name":"after-number","ph":"X"}, "s"]')
        site(cls.corpus, 'no-events', 'trace.json', b'{"metadata": {"product-version": "Chrome/1"}}')
        site(cls.corpus, 'cut-event', 'trace.json', b'[{"name":"whole","ph":"X"},{"name":"cut","ar')
        cls.rc, cls.err, cls.out = run_census([cls.corpus], threads=2)
        cls.census = {e['name']: e for e in load(cls.out)['events']}
        cls.run_json = load(cls.out, 'run.json')
        cls.files = {f['site']: f for f in cls.run_json['files']}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.corpus, ignore_errors=True)

    def test_exit_status_and_reports_written(self):
        self.assertEqual(self.rc, 1, self.err)
        for name in ('census.json', 'census.csv', 'census.md', 'run.json'):
            self.assertTrue(os.path.exists(os.path.join(self.out, name)))
        self.assertEqual(self.run_json['sites_total'], 9)

    def test_bad_event_named_with_index_and_offset(self):
        f = self.files['bad-event']
        self.assertEqual(f['status'], 'partial')
        self.assertEqual(f['events'], 2)
        self.assertEqual(f['skipped_events'], 1)
        self.assertEqual(f['errors'][0]['event_index'], 1)
        self.assertEqual(f['errors'][0]['json_offset'], self.bad_text.index(b'{"name":"broken"'))
        self.assertTrue(f['unterminated'])
        self.assertIn('ok1', self.census)
        self.assertIn('ok2', self.census)
        self.assertNotIn('broken', self.census)
        self.assertRegex(self.err, r'bad-event/trace\.json: event 1 at JSON byte \d+')

    def test_event_without_category_is_never_recorded_by_devtools(self):
        rec = self.census['ok1']['devtools_recording']
        self.assertEqual((rec['level'], rec['settings'], rec['category']), ('never', [], None))
        self.assertEqual(rec['sentence'], 'A DevTools Performance recording does not contain this event.')

    def test_truncated_streams_keep_what_was_read(self):
        for name in ('gz-cut', 'zst-cut'):
            f = self.files[name]
            self.assertEqual(f['status'], 'partial', name)
            self.assertEqual(f['stream_error'], 'compressed stream is truncated', name)
            self.assertGreater(f['events'], 0, name)
            self.assertLess(f['events'], self.big_events, name)
            self.assertIn(name + '/trace.json', self.err)

    def test_unreadable_traces_fail_alone(self):
        self.assertEqual(self.files['not-trace']['status'], 'failed')
        self.assertEqual(self.files['empty']['status'], 'failed')
        self.assertEqual(self.files['no-events']['error'], 'object has no traceEvents array')
        self.assertEqual(self.files['no-events']['chrome_version'], 'Chrome/1')

    def test_non_objects_and_cut_event(self):
        f = self.files['not-object']
        self.assertEqual([e['event_index'] for e in f['errors']], [0, 2])
        self.assertEqual(f['errors'][0]['error'], 'event is not a JSON object')
        self.assertIn('after-number', self.census)
        f = self.files['cut-event']
        self.assertEqual(f['errors'][0]['error'], 'trace ends inside an event')
        self.assertEqual(f['errors'][0]['event_index'], 1)
        self.assertIn('whole', self.census)

    def test_every_error_has_its_stable_name(self):
        # Each message has the code's name beside it: the enum's name in
        # lower case (src/util/tc_error.h), for machines to match on.
        self.assertEqual(self.files['gz-cut']['stream_error_name'], 'truncated')
        self.assertEqual(self.files['no-events']['error_name'], 'no_events')
        self.assertEqual(self.files['not-trace']['error_name'], 'not_trace')
        self.assertEqual(self.files['empty']['error_name'], 'empty_trace')
        self.assertEqual([e['error_name'] for e in self.files['not-object']['errors']],
                         ['not_object', 'not_object'])
        self.assertEqual(self.files['cut-event']['errors'][0]['error_name'], 'truncated_json')
        for f in self.run_json['files']:
            for key in ('error', 'stream_error'):
                self.assertEqual(key in f, key + '_name' in f, (f['site'], key))
            for e in f['errors']:
                self.assertRegex(e['error_name'], r'^[a-z][a-z0-9_]*$')

    def test_good_site_fully_counted(self):
        names = {}
        for ev in self.good_events:
            n = ev.get('name') if isinstance(ev.get('name'), str) else ''
            names[n] = names.get(n, 0) + 1
        # The good trace, and the truncated copies' prefixes, all add records.
        for n, count in names.items():
            self.assertGreaterEqual(self.census[n]['records'], count, n)
        self.assertEqual(self.files['good']['status'], 'ok')
        self.assertEqual(self.files['good']['events'], len(self.good_events))


class Manifest(unittest.TestCase):
    def test_failed_sites_count_in_S(self):
        corpus = tempfile.mkdtemp(prefix='tc-manifest-')
        shutil.copy(GOOD, os.path.join(corpus, 'one.json'))
        manifest = os.path.join(corpus, 'manifest.tsv')
        with open(manifest, 'w') as f:
            f.write('site\turl\tstatus\treason\n')
            f.write('one\thttp://127.0.0.1/one\trecorded\t\n')
            f.write('dead\thttp://127.0.0.1/dead\tfailed\troot returned 404\n')
            f.write('hung\thttp://127.0.0.1/hung\tfailed\tno response in 20 s\n')
        rc, err, out = run_census([corpus], extra=('--manifest', manifest))
        self.assertEqual(rc, 0, err)
        census = load(out)
        self.assertEqual(census['sites_total'], 3)
        self.assertEqual(census['sites_with_traces'], 1)
        self.assertTrue(all(e['sites'] <= 1 for e in census['events']))
        self.assertIn('of 3 sites', census['events'][0]['sentence'])
        sites = {s['site']: s for s in load(out, 'run.json')['sites']}
        self.assertEqual(sites['dead']['manifest_reason'], 'root returned 404')
        shutil.rmtree(corpus, ignore_errors=True)


class Usage(unittest.TestCase):
    def test_usage_errors_exit_2(self):
        from e2e_common import BINARY
        for args in ([], ['census'], ['census', '-o', '/tmp/x'], ['frobnicate'], ['run'],
                     ['census', '-T', 'many', '-o', '/tmp/x', THIRD_PARTY]):
            p = subprocess.run([BINARY, *args], capture_output=True, text=True)
            self.assertEqual(p.returncode, 2, args)
            self.assertIn('usage:', p.stderr)
        p = subprocess.run([BINARY, '--help'], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0)
        self.assertIn('tracecensus run', p.stdout)

    def test_bad_job_names_line(self):
        from e2e_common import BINARY
        d = tempfile.mkdtemp(prefix='tc-job-')
        job = os.path.join(d, 'x.job')
        with open(job, 'w') as f:
            f.write('corpus = x\n# comment\nthreads = lots\n')
        p = subprocess.run([BINARY, 'run', job], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn('x.job:3:', p.stderr)
        shutil.rmtree(d, ignore_errors=True)


class FilesBesideTraces(unittest.TestCase):
    """A screenshot, notes or a HAR beside the traces are no traces: each is
    named in a warning and counts as no trace, so a site folder holding only
    such files is a site without traces; a damaged .json still fails as a
    trace of its site. Figures known by construction."""

    @classmethod
    def setUpClass(cls):
        cls.corpus = tempfile.mkdtemp(prefix='tc-beside-')
        with open(GOOD, 'rb') as f:
            cls.good = f.read()
        png = b'\x89PNG\r\n\x1a\n' + b'\0' * 64
        site(cls.corpus, 'a', 'trace.json', cls.good)
        site(cls.corpus, 'a', 'shot.png', png)
        site(cls.corpus, 'a', 'notes.txt', b'recorded by hand, second try\n')
        site(cls.corpus, 'a', 'page.har', b'{"log": {"version": "1.2", "entries": []}}')
        site(cls.corpus, 'b', 'only.png', png)
        site(cls.corpus, 'c', 'broken.json', b'hello, not JSON')
        cls.rc, cls.err, cls.out = run_census([cls.corpus], threads=2)
        cls.runjson = load(cls.out, 'run.json')
        manifest = os.path.join(cls.corpus, 'manifest.tsv')
        with open(manifest, 'w') as f:
            f.write('site\tstatus\na\tok\nb\tok\nc\tok\n')
        cls.m_rc, _, cls.m_out = run_census([cls.corpus], threads=2,
                                            extra=('--manifest', manifest))

    @classmethod
    def tearDownClass(cls):
        for d in (cls.corpus, cls.out, cls.m_out):
            shutil.rmtree(d, ignore_errors=True)

    def test_each_named_once_as_a_warning(self):
        for rel, what in (('a/shot.png', 'a PNG image'), ('a/notes.txt', 'text that is not JSON'),
                          ('a/page.har', 'a HAR file'), ('b/only.png', 'a PNG image')):
            path = os.path.join(self.corpus, rel)
            said = [w for w in self.runjson['warnings'] if w.startswith(path + ': not a trace: ')]
            self.assertEqual(len(said), 1, (rel, self.runjson['warnings']))
            self.assertIn(what, said[0])
            self.assertEqual(self.err.count('warning: ' + path + ': not a trace'), 1, self.err)

    def test_counted_as_no_trace(self):
        self.assertEqual(self.rc, 1, self.err)  # c's broken.json fails as a trace
        files = {os.path.relpath(f['path'], self.corpus): f['status'] for f in self.runjson['files']}
        self.assertEqual(files, {'a/trace.json': 'ok', 'c/broken.json': 'failed'})
        census = load(self.out)
        # a (a trace), b (none: its folder makes it a site), c (a failed trace)
        self.assertEqual((census['sites_total'], census['sites_with_traces'], census['traces']),
                         (3, 2, 2))
        good_records = len(json.loads(self.good)['traceEvents'] if self.good.lstrip()[:1] == b'{'
                           else json.loads(self.good))
        self.assertEqual(census['records'] + census['records_outside_scope'], good_records)

    def test_manifest_site_without_traces(self):
        self.assertEqual(self.m_rc, 1)
        census = load(self.m_out)
        self.assertEqual((census['sites_total'], census['sites_with_traces']), (3, 2))
        rows = {r['site']: r for r in load(self.m_out, 'run.json')['sites']}
        self.assertEqual(rows['b']['traces'], 0, rows['b'])


if __name__ == '__main__':
    unittest.main()
