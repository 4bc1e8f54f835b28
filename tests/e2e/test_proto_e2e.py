"""Perfetto protobuf traces end to end (issue 22).

- A mixed corpus (JSON, protobuf plain, gzip'd, zstd'd, and the JSON that
  the README's mapping makes of the same protobuf trace, written out by hand
  here) gives the same census for the protobuf sites as for the JSON site,
  name by name (records, phases, categories, arg paths, durations), metrics
  that find the renderer's main thread and its three 60 ms tasks, and
  byte-identical outputs at -T 1 and -T 2.
- A catalogue of broken traces: each problem named in run.json with its
  code and byte offset, computed here from how the bytes were made, and the
  good traces' figures unchanged by the broken ones beside them.
"""
import gzip
import io
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest
import zipfile

import pftrace
from e2e_common import BINARY, load

HOST = re.compile(r'^\s*"(seconds|json_mb_per_s|peak_rss_kib|threads|simdjson_kernel)": ')


def site(corpus, name, filename, data):
    d = os.path.join(corpus, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, filename), 'wb') as f:
        f.write(data)


def census(corpus, threads, out):
    p = subprocess.run([BINARY, 'census', '-q', '-T', str(threads), '-o', out, corpus],
                       capture_output=True, text=True, timeout=300)
    return p.returncode, p.stderr


def json_twin():
    """pftrace.renderer_trace() as the README's mapping writes it, by hand."""
    ev = [
        {"name": "process_name", "cat": "__metadata", "ph": "M", "ts": 0, "pid": 100, "tid": 0,
         "args": {"name": "Browser"}},
        {"name": "thread_name", "cat": "__metadata", "ph": "M", "ts": 0, "pid": 100, "tid": 100,
         "args": {"name": "CrBrowserMain"}},
        {"name": "process_name", "cat": "__metadata", "ph": "M", "ts": 0, "pid": 200, "tid": 0,
         "args": {"name": "Renderer"}},
        {"name": "thread_name", "cat": "__metadata", "ph": "M", "ts": 0, "pid": 200, "tid": 200,
         "args": {"name": "CrRendererMain"}},
    ]
    base = 1_000_000
    for k in range(3):
        b = base + k * 100_000
        ev.append({"name": "ParseHTML", "cat": "devtools.timeline", "ph": "X", "ts": b + 1,
                   "dur": 1999, "pid": 200, "tid": 200,
                   "args": {"beginData": {"frame": "F1", "url": "http://x/", "startLine": k}}})
        ev.append({"name": "RunTask", "cat": "disabled-by-default-devtools.timeline", "ph": "X",
                   "ts": b, "dur": 60000, "pid": 200, "tid": 200, "args": {}})
    ev.append({"name": "Mark", "cat": "blink", "ph": "I", "ts": base, "pid": 100, "tid": 100,
               "s": "t", "args": {"n": 1}})
    return json.dumps({"traceEvents": ev,
                       "metadata": {"product-version": "Chrome/156.0.8078.108"}}).encode()


def by_name(outdir):
    return {e['name']: e for e in load(outdir)['events']}


SAME = ('records', 'phases', 'phases_with_args', 'categories', 'pairs', 'duration')


class MixedCorpus(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix='tc-proto-')
        cls.corpus = os.path.join(cls.tmp, 'corpus')
        trace = pftrace.renderer_trace()
        site(cls.corpus, 'json', 'trace.json', json_twin())
        site(cls.corpus, 'proto', 'trace.pftrace', trace)
        site(cls.corpus, 'proto-gz', 'trace.pftrace.gz', gzip.compress(trace, mtime=0))
        zst = subprocess.run(['zstd', '-q', '-c', '-19', '--long'], input=trace,
                             capture_output=True, check=True).stdout
        site(cls.corpus, 'proto-zst', 'trace.pftrace.zst', zst)
        cls.outs = {}
        for t in (1, 2):
            out = os.path.join(cls.tmp, 'out%d' % t)
            cls.outs[t] = (out,) + census(cls.corpus, t, out)
        cls.files = {f['site']: f for f in load(cls.outs[2][0], 'run.json')['files']}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_clean_run(self):
        for t in (1, 2):
            self.assertEqual(self.outs[t][1], 0, self.outs[t][2])

    def test_run_json_tells_the_formats(self):
        want = {'json': ('plain', 'json'), 'proto': ('plain', 'perfetto_protobuf'),
                'proto-gz': ('gzip', 'perfetto_protobuf'),
                'proto-zst': ('zstd', 'perfetto_protobuf')}
        for s, (fmt, content) in want.items():
            f = self.files[s]
            self.assertEqual((f['format'], f['trace_format'], f['status']), (fmt, content, 'ok'))
            self.assertEqual(f['events'], 11)
            self.assertEqual(f['chrome_version'], 'Chrome/156.0.8078.108')
        self.assertEqual(self.files['proto']['shape'], 'protobuf')
        self.assertEqual(self.files['proto']['json_bytes'], len(pftrace.renderer_trace()))

    def test_protobuf_census_equals_its_json_twin(self):
        """Four sites, each with the same events: every figure is the JSON
        site's times four sites."""
        ev = by_name(self.outs[2][0])
        self.assertEqual(sorted(ev), ['Mark', 'ParseHTML', 'RunTask', 'process_name',
                                      'thread_name'])
        self.assertEqual(ev['RunTask']['records'], 12)
        self.assertEqual(ev['RunTask']['sites'], 4)
        self.assertEqual(ev['RunTask']['phases'], {'X': 12})
        self.assertEqual(ev['RunTask']['duration']['min_us'], 60000)
        self.assertEqual(ev['ParseHTML']['duration']['max_us'], 1999)
        self.assertEqual([a['path'] for a in ev['ParseHTML']['args']],
                         ['args.beginData', 'args.beginData.frame', 'args.beginData.startLine',
                          'args.beginData.url'])
        self.assertEqual([a['records'] for a in ev['ParseHTML']['args']], [12] * 4)
        self.assertEqual(ev['thread_name']['records'], 8)
        self.assertEqual(ev['Mark']['phases'], {'I': 4})
        # Each protobuf site alone against the JSON site alone.
        alone = {}
        for s in ('json', 'proto', 'proto-gz'):
            out = os.path.join(self.tmp, 'alone-' + s)
            rc, err = census(os.path.join(self.corpus, s), 1, out)
            self.assertEqual(rc, 0, err)
            alone[s] = by_name(out)
        for s in ('proto', 'proto-gz'):
            self.assertEqual(sorted(alone[s]), sorted(alone['json']))
            for name, e in alone['json'].items():
                for k in SAME:
                    self.assertEqual(alone[s][name][k], e[k], (s, name, k))
                self.assertEqual(alone[s][name]['args'], e['args'], (s, name))

    def test_metrics_find_the_main_thread_and_its_tasks(self):
        m = load(self.outs[2][0], 'metrics.json')
        traces = {t['site']: t for t in m['traces']}
        for s in ('json', 'proto', 'proto-gz', 'proto-zst'):
            t = traces[s]
            self.assertEqual(t['main_thread']['threads'], [{'pid': 200, 'tid': 200}], s)
            self.assertEqual(t['main_thread']['rule'], 'only_renderer', s)
            self.assertEqual(t['long_tasks']['count'], 3, s)
            self.assertAlmostEqual(t['long_tasks']['tbt_ms'], 30.0, places=6)

    def test_one_and_two_threads_write_the_same_bytes(self):
        a, b = self.outs[1][0], self.outs[2][0]
        for name in sorted(os.listdir(a)):
            with open(os.path.join(a, name), 'rb') as f:
                x = f.read()
            with open(os.path.join(b, name), 'rb') as f:
                y = f.read()
            if name == 'run.json':
                x = [l for l in x.decode().splitlines() if not HOST.match(l)]
                y = [l for l in y.decode().splitlines() if not HOST.match(l)]
            self.assertEqual(x, y, name)


    def test_the_byte_counts_say_what_was_decompressed(self):
        """run.json's json_bytes is every trace's decompressed bytes and
        protobuf_bytes the protobuf traces' share, from the bytes written
        here; the end-of-run line and `bench` name the unit they count:
        protobuf alone, then JSON and protobuf together."""
        proto = len(pftrace.renderer_trace())
        json_len = len(json_twin())
        run_json = load(self.outs[2][0], 'run.json')
        self.assertEqual((run_json['json_bytes'], run_json['protobuf_bytes']),
                         (json_len + 3 * proto, 3 * proto))
        only = os.path.join(self.tmp, 'proto-only')
        site(only, 'proto', 'trace.pftrace', pftrace.renderer_trace())
        for corpus, unit, total in ((only, 'protobuf', proto),
                                    (self.corpus, 'JSON and protobuf', json_len + 3 * proto)):
            with self.subTest(unit=unit):
                out = os.path.join(self.tmp, 'line-' + unit.replace(' ', '-'))
                p = subprocess.run([BINARY, 'census', '-o', out, corpus], capture_output=True,
                                   text=True, timeout=300)
                self.assertEqual(p.returncode, 0, p.stderr)
                m = re.search(r'MB on disk, ([\d.]+) MB of (.+?) in [\d.]+ s \(\d+ MB/s on disk, '
                              r'\d+ MB/s of (.+?), ', p.stderr)
                self.assertIsNotNone(m, p.stderr)
                self.assertEqual(m.groups(), (f'{total / 1e6:.1f}', unit, unit))
                export = os.path.join(self.tmp, 'bench-%d.json' % len(unit))
                p = subprocess.run([BINARY, 'bench', '--runs', '1', '--warmup', '0',
                                    '--export-json', export, corpus],
                                   capture_output=True, text=True, timeout=300)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertIn(f'{total / 1e6:.1f} MB of {unit}, ', p.stdout + p.stderr)
                self.assertIn(f'MB/s of {unit} per stage', p.stdout + p.stderr)
                with open(export, encoding='utf-8') as f:
                    got = json.load(f)
                self.assertEqual((got['json_bytes'], got['protobuf_bytes']),
                                 (total, total - (json_len if 'JSON' in unit else 0)))


def cut_varint_tag():
    """Broken framing: an 11-byte tag. Returns (bytes, offset of the break)."""
    good = pftrace.renderer_trace(tasks=1)
    return good + b'\xff' * 10 + b'\x01' + pftrace.renderer_trace(tasks=1), len(good)


def bad_inner_varint():
    """A packet whose timestamp varint runs 11 bytes: the packet is left out."""
    good = pftrace.renderer_trace(tasks=1)
    bad = pftrace.ln(1, b'\x40' + b'\xff' * 10 + b'\x01')
    return good + bad + good, len(good) + 2 + 1


def wrong_wire_type():
    good = pftrace.renderer_trace(tasks=1)
    return good + pftrace.ln(1, b'\x42\x01\x00') + good, len(good) + 2


def undefined_iid():
    """An event naming iid 999 on its sequence, which never defined it."""
    good = pftrace.renderer_trace(tasks=1)
    bad = pftrace.ln(1, pftrace.u(8, 5) + pftrace.u(10, 1) +
                     pftrace.ln(11, pftrace.u(9, 3) + pftrace.u(10, 999)))
    return good + bad, len(good)


def truncated():
    good = pftrace.renderer_trace(tasks=1)
    extra = pftrace.renderer_trace(tasks=1)
    # The last packet of EXTRA loses its last byte.
    return good + extra[:-1], None


def oversize():
    good = pftrace.renderer_trace(tasks=1)
    return good + pftrace.tag(1, 2) + pftrace.varint((64 << 20) + 1) + b'\0' * 100, len(good)


def zipped():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, 'w') as z:
        z.writestr('trace.json', '[]')
    return buf.getvalue()


class Catalogue(unittest.TestCase):
    """Each broken trace in a site of its own beside two good sites."""

    CASES = {
        'framing-varint': (cut_varint_tag, 'pb_varint'),
        'inner-varint': (bad_inner_varint, 'pb_varint'),
        'wire-type': (wrong_wire_type, 'pb_wire_type'),
        'undefined-iid': (undefined_iid, 'pb_interned'),
        'truncated': (truncated, 'pb_truncated'),
        'oversize': (oversize, 'pb_too_big'),
    }
    NOT_TRACES = {
        'gzip-in-gzip': ('t.pftrace.gz', gzip.compress(gzip.compress(b'[]')), 'not_trace_gzip'),
        'zip': ('t.zip', zipped(), 'not_trace_zip'),
        'png': ('t.png', b'\x89PNG\r\n\x1a\n' + b'\0' * 40, 'not_trace_png'),
        'jpeg': ('t.jpg', b'\xff\xd8\xff\xe0' + b'\0' * 40, 'not_trace_jpeg'),
        'pdf': ('t.pdf', b'%PDF-1.7\n' + b'x' * 40, 'not_trace_pdf'),
        'har': ('t.har', b'{"log": {"version": "1.2", "entries": []}}', 'not_trace_har'),
        'protobuf': ('t.pb', b'\x08\x96\x01\x12\x03abc', 'not_trace_protobuf'),
        'binary': ('t.bin', b'\x00\x01\x02\x03' * 20, 'not_trace_binary'),
    }

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix='tc-proto-bad-')
        good_corpus = os.path.join(cls.tmp, 'good')
        cls.corpus = os.path.join(cls.tmp, 'all')
        for c in (good_corpus, cls.corpus):
            site(c, 'good-proto', 'trace.pftrace', pftrace.renderer_trace())
            site(c, 'good-json', 'trace.json', json_twin())
        cls.offsets = {}
        for name, (make, _) in cls.CASES.items():
            data, at = make()
            cls.offsets[name] = at
            site(cls.corpus, name, 'trace.pftrace', data)
        for name, (fn, data, _) in cls.NOT_TRACES.items():
            site(cls.corpus, name, fn, data)
        cls.good_out = os.path.join(cls.tmp, 'good-out')
        cls.out = os.path.join(cls.tmp, 'out')
        cls.good_rc, _ = census(good_corpus, 2, cls.good_out)
        cls.rc, cls.err = census(cls.corpus, 2, cls.out)
        cls.files = {f['site']: f for f in load(cls.out, 'run.json')['files']}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_exit_status(self):
        self.assertEqual(self.good_rc, 0)
        self.assertEqual(self.rc, 1, self.err)

    def test_each_problem_named_with_its_offset(self):
        for name, (_, code) in self.CASES.items():
            f = self.files[name]
            self.assertEqual(f['status'], 'partial', name)
            self.assertEqual(f['trace_format'], 'perfetto_protobuf', name)
            codes = [e['error_name'] for e in f['errors']]
            self.assertEqual(codes, [code], name)
            if self.offsets[name] is not None:
                self.assertEqual(f['errors'][0]['json_offset'], self.offsets[name], name)
            self.assertRegex(self.err, re.escape(name) + r'/trace\.pftrace: event \d+ at protobuf byte')
        # The events before each problem are counted: one renderer_trace of
        # one task makes 7 events (4 names, RunTask, ParseHTML, Mark).
        self.assertEqual(self.files['framing-varint']['events'], 7)
        self.assertTrue(self.files['framing-varint']['trailing_bytes'])
        self.assertEqual(self.files['framing-varint']['trailing_data']['json_offset'],
                         self.offsets['framing-varint'])
        self.assertEqual(self.files['inner-varint']['events'], 7 + 7 - 4)
        self.assertEqual(self.files['undefined-iid']['events'], 7)
        self.assertTrue(self.files['truncated']['truncated'])
        self.assertEqual(self.files['oversize']['events'], 7)

    # Formats that are never a trace are left out of the census with a
    # warning (they are no trace of their site); files that may be a damaged
    # trace fail as traces, each named for what it looks like.
    LEFT_OUT = ('zip', 'png', 'jpeg', 'pdf', 'har')

    def test_not_traces_say_what_they_are(self):
        warnings = load(self.out, 'run.json')['warnings']
        for name, (fn, _, code) in self.NOT_TRACES.items():
            if name in self.LEFT_OUT:
                self.assertNotIn(name, self.files)
                path = os.path.join(self.corpus, name, fn)
                said = [w for w in warnings if w.startswith(path + ': not a trace: ')]
                self.assertEqual(len(said), 1, (name, warnings))
                self.assertTrue(said[0].endswith('; not counted as a trace'), said)
                self.assertIn('warning: ' + said[0], self.err)
            else:
                f = self.files[name]
                self.assertEqual((f['status'], f['error_name']), ('failed', code), name)
        self.assertIn('not a trace: a zip archive', self.err)
        self.assertIn('not a trace: gzip data inside the decompressed stream', self.err)

    def test_good_traces_unchanged(self):
        good_files = {f['site']: f for f in load(self.good_out, 'run.json')['files']}
        good_m = {t['site']: t for t in load(self.good_out, 'metrics.json')['traces']}
        all_m = {t['site']: t for t in load(self.out, 'metrics.json')['traces']}
        for s in ('good-proto', 'good-json'):
            for k in ('status', 'events', 'skipped_events', 'json_bytes', 'errors'):
                self.assertEqual(self.files[s][k], good_files[s][k], (s, k))
            self.assertEqual(all_m[s]['long_tasks'], good_m[s]['long_tasks'], s)
        self.assertEqual(good_files['good-proto']['events'], 11)
        self.assertEqual(good_m['good-proto']['long_tasks']['count'], 3)
        self.assertEqual(by_name(self.good_out)['RunTask']['records'], 6)

if __name__ == '__main__':
    unittest.main()
