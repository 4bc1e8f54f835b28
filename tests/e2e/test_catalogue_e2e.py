"""The catalogue of broken input: each kind in a corpus that also holds two
good real traces. Every case asserts the exit status; that stderr and
run.json name the file (and the byte offset or event index where one
exists, the same number in both); and that the good traces come out as in a
clean run of them alone: status ok, the same event counts in run.json and
the same metrics.csv rows. Inputs Perfetto's importer accepts are counted
(lenient_events says which), the rest skipped and named; nothing may hang
(every run has a timeout) or crash (the suite also runs under ASan+UBSan).
The output-side faults (full disk, signals, locks) have their own file."""
import csv
import gzip
import io
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest
import zlib

from e2e_common import BINARY, THIRD_PARTY

GOOD = {'good-lcp': 'traces__lcp-m78.json', 'good-frames': 'traces__frame-metrics-m90.json'}
RUN_TIMEOUT = 120


def run(inputs, outdir, extra=(), env=None):
    cmd = [BINARY, 'census', '-T', '2', '-o', outdir, *extra, *inputs]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT,
                       errors='replace', env=env)
    return p.returncode, p.stderr


def zstd(data, *args):
    return subprocess.run(['zstd', '-q', '-c', *args], input=data, capture_output=True,
                          check=True).stdout


def events_json(events):
    return json.dumps(events, separators=(',', ':')).encode()


EV_A = b'{"name":"cat-a","ph":"X","ts":1,"dur":2,"pid":1,"tid":1}'
EV_B = b'{"name":"cat-b","ph":"i","ts":3,"pid":1,"tid":1}'
EV_C = b'{"name":"cat-c","ph":"X","ts":4,"dur":1,"pid":1,"tid":1,"args":{"k":[1,2]}}'


class Case:
    """One kind of broken input. BUILD(corpus) makes it and returns the
    inputs to give (the corpus by default). RC is the exit status wanted;
    NAMED lists (path, number or None, where) that stderr and run.json must
    show; CHECK(run_json, census, stderr, corpus) asserts the rest."""

    def __init__(self, name, build, rc=1, named=(), check=None, extra=()):
        self.name, self.build, self.rc, self.named = name, build, rc, named
        self.check, self.extra = check, extra


def site_file(corpus, site, data, filename='trace.json'):
    d = os.path.join(corpus, site)
    os.makedirs(d, exist_ok=True)
    p = os.path.join(d, filename)
    with open(p, 'wb') as f:
        f.write(data)
    return p


# ---- the cases --------------------------------------------------------------
# Each builder writes its broken thing into site "bad" (or beside the good
# sites) and records in CTX what the checks need: the path, the offsets.

def trace_case(name, data, where=None, rc=1, check=None, filename='trace.json'):
    """A broken trace file. WHERE(data) gives the number that must be named
    with it (offset or index), or None when only the file is named."""
    def build(corpus, ctx):
        ctx['path'] = site_file(corpus, 'bad', data, filename)
        ctx['data'] = data
        ctx['number'] = where(data) if where else None
    return Case(name, build, rc=rc, named=('trace',), check=check)


def at(marker, plus=0):
    return lambda data: data.index(marker) + plus


def file_entry(run_json, ctx):
    for f in run_json['files']:
        if f['path'] == ctx['path']:
            return f
    raise AssertionError('%s not in run.json files' % ctx['path'])


def trailing(t, ctx, values):
    f = file_entry(t.run_json, ctx)
    t.assertEqual(f['status'], 'partial')
    t.assertEqual(f['trailing_data']['json_offset'], ctx['number'])
    t.assertEqual(f['trailing_data']['values'], values)
    t.assertEqual(f['trailing_data']['bytes'], len(ctx['data']) - ctx['number'])


def skipped_event(error, index):
    def check(t, ctx):
        f = file_entry(t.run_json, ctx)
        t.assertEqual(f['status'], 'partial')
        errs = [e for e in f['errors'] if e['json_offset'] == ctx['number']]
        t.assertEqual(len(errs), 1, f['errors'])
        t.assertEqual(errs[0]['event_index'], index)
        t.assertEqual(errs[0]['error'], error)
        t.assertRegex(t.stderr, r'%s: event %d at JSON byte %d: %s; skipped' % (
            re.escape(ctx['path']), index, ctx['number'], re.escape(error)))
    return check


def counted(events, lenient=0, status='ok'):
    def check(t, ctx):
        f = file_entry(t.run_json, ctx)
        t.assertEqual(f['status'], status, f)
        t.assertEqual(f['events'], events)
        t.assertEqual(f['lenient_events'], lenient)
    return check


def failed(error, offset=None):
    def check(t, ctx):
        f = file_entry(t.run_json, ctx)
        t.assertEqual(f['status'], 'failed')
        t.assertEqual(f['error'], error)
        if offset is not None:
            t.assertEqual(f['error_json_offset'], ctx['number'])
            t.assertIn('(JSON byte %d); trace skipped' % ctx['number'], t.stderr)
        t.assertIn('%s: %s' % (ctx['path'], error), t.stderr)
    return check


def stream_error(error):
    def check(t, ctx):
        f = file_entry(t.run_json, ctx)
        if f['status'] == 'failed':  # no JSON decoded before the damage
            t.assertEqual(f['error'], error)
            t.assertIn('%s: %s; trace skipped' % (ctx['path'], error), t.stderr)
            return
        t.assertEqual(f['stream_error'], error)
        off = f['stream_error_json_offset']
        ctx['number'] = off
        t.assertIn('%s: %s at JSON byte %d' % (ctx['path'], error, off), t.stderr)
        t.assertLessEqual(f['events'], f['elements'])
    return check


def entry_case(name, make, why):
    """A folder entry that is no trace: named with what it is, never opened."""
    def build(corpus, ctx):
        d = os.path.join(corpus, 'bad')
        os.makedirs(d, exist_ok=True)
        ctx['path'] = os.path.join(d, 'entry.json')
        make(ctx['path'])
        ctx['number'] = None

    def check(t, ctx):
        notes = [s for s in t.run_json['skipped_inputs'] if s['path'] == ctx['path']]
        t.assertEqual(len(notes), 1, t.run_json['skipped_inputs'])
        t.assertEqual(notes[0]['reason'], why)
        t.assertIn('%s: %s; skipped' % (ctx['path'], why), t.stderr)
        t.assertNotIn(ctx['path'], [f['path'] for f in t.run_json['files']])
    return Case(name, build, rc=1, named=('skip',), check=check)


def concat_gzip(*parts):
    return b''.join(gzip.compress(p, mtime=0) for p in parts)


def flip(data, at_fraction):
    b = bytearray(data)
    i = int(len(b) * at_fraction)
    for k in range(i, min(i + 16, len(b))):
        b[k] ^= 0x5A
    return bytes(b)


def big_events():
    """12,000 events that do not compress to nothing."""
    evs = [b'{"name":"cat-%d","ph":"X","ts":%d,"dur":%d,"pid":1,"tid":%d}' % (
        i % 97, i * 7919 % 1000003, i * 104729 % 9973, i % 13) for i in range(12000)]
    return b'[' + b',\n'.join(evs) + b']'


def half(data):
    return data[: len(data) // 2]


def truncated_stream_check(error):
    base = stream_error(error)

    def check(t, ctx):
        base(t, ctx)
        f = file_entry(t.run_json, ctx)
        t.assertEqual(f['status'], 'partial')
        t.assertGreater(f['events'], 0)
        t.assertLess(f['events'], 12000)
    return check


def gzip_trailing_check(t, ctx):
    f = file_entry(t.run_json, ctx)
    t.assertEqual(f['stream_error'], 'compressed stream is corrupt')
    t.assertEqual(f['events'], 3)
    t.assertEqual(f['stream_error_json_offset'], len(ctx['plain']))
    ctx['number'] = len(ctx['plain'])
    t.assertIn('at JSON byte %d' % len(ctx['plain']), t.stderr)


def build_gzip_trailing(corpus, ctx):
    plain = b'[' + b','.join([EV_A, EV_B, EV_C]) + b']'
    ctx['plain'] = plain
    ctx['path'] = site_file(corpus, 'bad', gzip.compress(plain, mtime=0) + b'garbage', 'trace.json.gz')
    ctx['number'] = None


def long_window_case():
    """zstd --long=31 from a pipe: a 2 GiB window. The test runner's
    MALLOC_PERTURB_ would write over all of it; a real run never touches
    more than the output it held."""
    case = trace_case('a zstd --long=31 stream', zstd(b'[' + EV_A + b',' + EV_B + b']', '--long=31'),
                      rc=0, check=counted(2), filename='t.json.zst')
    build = case.build

    def build_without_perturb(corpus, ctx):
        build(corpus, ctx)
        ctx['env'] = {k: v for k, v in os.environ.items() if k != 'MALLOC_PERTURB_'}
    case.build = build_without_perturb
    return case


def missing_inputs_build(corpus, ctx):
    ctx['missing'] = [os.path.join(corpus, 'no-such-dir'), os.path.join(corpus, 'gone.json')]
    ctx['path'] = ctx['missing'][0]
    ctx['number'] = None
    return [corpus] + ctx['missing']


def missing_inputs_check(t, ctx):
    paths = [s['path'] for s in t.run_json['skipped_inputs']]
    for m in ctx['missing']:
        t.assertIn(m, paths)
        t.assertIn('%s: No such file or directory; skipped' % m, t.stderr)


def hard_links_build(corpus, ctx):
    src = site_file(corpus, 'linked-0', EV_A.join([b'[', b']']))
    for i in range(1, 20):
        d = os.path.join(corpus, 'linked-%d' % i)
        os.makedirs(d)
        os.link(src, os.path.join(d, 'trace.json'))
    ctx['path'], ctx['number'] = src, None


def hard_links_check(t, ctx):
    files = [f for f in t.run_json['files'] if '/linked-' in f['path']]
    t.assertEqual(len(files), 20)
    t.assertTrue(all(f['events'] == 1 for f in files))
    t.assertEqual(t.census_by_name['cat-a']['sites'], 20)


def same_names_build(corpus, ctx):
    # Every trace given as a file, all named trace.json: sites by folder.
    ctx['path'], ctx['number'] = None, None
    return [os.path.join(corpus, s, 'trace.json') for s in sorted(GOOD)] + [
        site_file(corpus, 'third', EV_B.join([b'[', b']']))]


def same_names_check(t, ctx):
    sites = sorted(s['site'] for s in t.run_json['sites'])
    t.assertEqual(sites, sorted(list(GOOD) + ['third']))
    t.assertEqual(len(t.run_json['warnings']), 1)
    t.assertIn('3 input files map to the site name "trace"', t.run_json['warnings'][0])
    t.assertIn('tracecensus: warning: 3 input files map to the site name "trace"', t.stderr)


def manifest_case(name, text, rc, check, line=None):
    def build(corpus, ctx):
        ctx['path'] = os.path.join(os.path.dirname(corpus), 'sites.tsv')
        with open(ctx['path'], 'wb') as f:
            f.write(text)
        ctx['number'] = line
        ctx['extra'] = ('--manifest', ctx['path'])
    return Case(name, build, rc=rc, named=('manifest',) if line else (), check=check)


def manifest_sites(*names):
    def check(t, ctx):
        sites = {s['site'] for s in t.run_json['sites']}
        for n in names:
            t.assertIn(n, sites)
        t.assertEqual(t.run_json['sites_total'], len(sites))
    return check


def manifest_skipped_row(t, ctx):
    notes = [s for s in t.run_json['skipped_inputs'] if s['path'] == ctx['path']]
    t.assertEqual(len(notes), 1)
    t.assertEqual(notes[0]['line'], ctx['number'])
    t.assertIn('%s:%d: row has an empty site cell; ignored' % (ctx['path'], ctx['number']),
               t.stderr)


def deep_args():
    return b'[' + EV_A + b',{"name":"deep","args":' + b'[' * 10000 + b']' * 10000 + b'},' + EV_B + b']'


CASES = [
    # -- after the events array: Perfetto calls it an error; reported, not counted
    trace_case('events after the array closes',
               b'[' + EV_A + b',]],' + EV_B + b',' + EV_C + b']', at(b'],' + EV_B),
               check=lambda t, c: trailing(t, c, 2)),
    trace_case('garbage after the array', b'[' + EV_A + b'] garbage 12', at(b'garbage'),
               check=lambda t, c: trailing(t, c, 2)),
    trace_case('a second JSON document', b'[' + EV_A + b']\n[' + EV_B + b',' + EV_C + b']\n',
               at(b'[' + EV_B), check=lambda t, c: trailing(t, c, 2)),
    trace_case('a second object document',
               b'{"traceEvents":[' + EV_A + b']} {"traceEvents":[' + EV_B + b']}',
               at(b' {"traceEvents":[' + EV_B, 1), check=lambda t, c: trailing(t, c, 1)),
    trace_case('garbage after the object', b'{"traceEvents":[' + EV_A + b']}}}x', at(b'}}x'),
               check=lambda t, c: trailing(t, c, 1)),
    # -- what Perfetto's importer reads: counted
    trace_case('traceEvents given twice',
               b'{"traceEvents":[' + EV_A + b'],"traceEvents":[' + EV_B + b',' + EV_C + b']}',
               rc=0, check=counted(3)),
    trace_case('trailing comma in an args object',
               b'[' + EV_A + b',{"name":"cat-t","args":{"x":1,}},' + EV_B + b']', rc=0,
               check=counted(3, lenient=1)),
    trace_case('trailing comma in an args array',
               b'[' + EV_A + b',{"name":"cat-t","args":{"x":[1,2,]}}]', rc=0,
               check=counted(2, lenient=1)),
    trace_case('trailing comma closing an event', b'[' + EV_A + b',{"name":"cat-t","ph":"i",}]',
               rc=0, check=counted(2, lenient=1)),
    trace_case('raw newline in a string', b'[' + EV_A + b',{"name":"cat\nnl"},' + EV_B + b']',
               rc=0, check=counted(3, lenient=1)),
    trace_case('raw control bytes in args',
               b'[{"name":"cat-t","args":{"s":"\x01\x02\x1f"}},' + EV_A + b']', rc=0,
               check=counted(2, lenient=1)),
    trace_case('bytes that are not UTF-8 in a name', b'[{"name":"cat-\xff\xfe"},' + EV_A + b']',
               rc=0, check=counted(2, lenient=1)),
    trace_case('an unknown escape', b'[{"name":"cat\\qx"},' + EV_A + b']', rc=0,
               check=counted(2, lenient=1)),
    trace_case('an escaped traceEvents key', b'{"trace\\u0045vents":[' + EV_A + b',' + EV_B + b']}',
               rc=0, check=counted(2)),
    trace_case('an array never closed', b'[' + EV_A + b',' + EV_B + b',\n', rc=0, check=counted(2)),
    trace_case('a byte order mark', b'\xef\xbb\xbf[' + EV_A + b']', rc=0, check=counted(1)),
    trace_case('trailing commas in the events array', b'[' + EV_A + b',,,' + EV_B + b',,]', rc=0,
               check=counted(2)),
    trace_case('a key given twice', b'[{"name":"cat-a","name":"cat-z","ph":"X","ph":"B"}]', rc=0,
               check=counted(1)),
    # -- elements skipped, each named with its index and offset
    trace_case('an empty object', b'[' + EV_A + b',{},' + EV_B + b']', at(b'{},'),
               check=skipped_event('event is an empty object', 1)),
    trace_case('a number element', b'[' + EV_A + b',42,' + EV_B + b']', at(b'42'),
               check=skipped_event('event is not a JSON object', 1)),
    trace_case('a string element', b'[' + EV_A + b',"str",' + EV_B + b']', at(b'"str"'),
               check=skipped_event('event is not a JSON object', 1)),
    trace_case('a null element', b'[null,' + EV_A + b']', at(b'null'),
               check=skipped_event('event is not a JSON object', 0)),
    trace_case('an array element', b'[' + EV_A + b',[1,{"a":2}],' + EV_B + b']', at(b'[1,'),
               check=skipped_event('event is not a JSON object', 1)),
    trace_case('a stray closing brace', b'[' + EV_A + b',},' + EV_B + b']', at(b',},', 1),
               check=skipped_event('event is not a JSON object', 1)),
    trace_case('mismatched brackets', b'[' + EV_A + b',{"name":"x","args":[1}},' + EV_B + b']',
               at(b'{"name":"x"'), check=skipped_event('mismatched brackets in event', 1)),
    trace_case('an event cut off at the end', b'[' + EV_A + b',{"name":"cut","ar',
               at(b'{"name":"cut"'), check=skipped_event('trace ends inside an event', 1)),
    trace_case('a value missing', b'[' + EV_A + b',{"name":"x","args":{"k":}},' + EV_B + b']',
               at(b'{"name":"x"'), check=skipped_event('event is not valid JSON', 1)),
    trace_case('a colon missing', b'[' + EV_A + b',{"name" "x"},' + EV_B + b']',
               at(b'{"name" "x"'), check=skipped_event('event is not valid JSON', 1)),
    # Scalars the census does not read are not checked beyond their type.
    trace_case('a bad literal in a value not read', b'[{"name":"x","args":{"b":tru}},' + EV_A + b']',
               rc=0, check=counted(2)),
    trace_case('two commas in an object', b'[' + EV_A + b',{"name":"x",,"ph":"i"}]',
               at(b'{"name":"x"'), check=skipped_event('event is not valid JSON', 1)),
    # Paths are walked 64 levels deep; below that the value is skipped whole.
    trace_case('args nested 10,000 deep', deep_args(), rc=0, check=counted(3)),
    # -- not a trace at all
    trace_case('not JSON', b'hello, world', lambda d: 0,
               check=failed('not a trace: expected a JSON array or an object', 0)),
    trace_case('a JSON string', b'   "[{}]"', lambda d: 3,
               check=failed('not a trace: expected a JSON array or an object', 3)),
    trace_case('an empty file', b'', check=failed('trace is empty (no JSON at all)')),
    trace_case('spaces only', b' \n\t\r\n', check=failed('trace is empty (no JSON at all)')),
    trace_case('a byte order mark only', b'\xef\xbb\xbf', check=failed('trace is empty (no JSON at all)')),
    trace_case('an object without traceEvents', b'{"metadata":{"product-version":"Chrome/1"}}',
               check=failed('object has no traceEvents array')),
    trace_case('traceEvents not an array', b'{"traceEvents":{"name":"x"}}',
               check=failed('object has no traceEvents array')),
    # -- compressed streams
    trace_case('gzip cut in half', half(gzip.compress(big_events(), mtime=0)),
               check=truncated_stream_check('compressed stream is truncated'), filename='t.json.gz'),
    trace_case('zstd cut in half', half(zstd(big_events(), '-B65536')),
               check=truncated_stream_check('compressed stream is truncated'), filename='t.json.zst'),
    trace_case('gzip with flipped bytes', flip(gzip.compress(big_events(), mtime=0), 0.5),
               check=stream_error('compressed stream is corrupt'), filename='t.json.gz'),
    trace_case('zstd with flipped bytes', flip(zstd(big_events()), 0.5),
               check=stream_error('compressed stream is corrupt'), filename='t.json.zst'),
    trace_case('gzip magic then noise', b'\x1f\x8b' + bytes(range(256)) * 4,
               check=failed('compressed stream is corrupt'), filename='t.json.gz'),
    trace_case('a zstd frame header only', b'\x28\xb5\x2f\xfd\x00\x00\x00',
               check=failed('compressed stream is truncated'), filename='t.json.zst'),
    trace_case('gzip members splitting the JSON',
               concat_gzip(b'[' + EV_A + b',', EV_B + b',', EV_C + b']'), rc=0, check=counted(3),
               filename='t.json.gz'),
    long_window_case(),
    trace_case('a zstd skippable frame first',
               b'\x50\x2a\x4d\x18\x04\x00\x00\x00abcd' + zstd(b'[' + EV_A + b']'), rc=0,
               check=counted(1), filename='t.json.zst'),
    Case('garbage after a gzip member', build_gzip_trailing, check=gzip_trailing_check,
         named=('trace',)),
    # -- folder entries that are no trace
    entry_case('a folder inside a site folder', os.mkdir,
               'a folder inside a site folder (traces lie directly in it)'),
    entry_case('a symlink loop', lambda p: os.symlink(p, p), 'a symlink loop'),
    entry_case('a dangling symlink', lambda p: os.symlink('/nonexistent/tc-target', p),
               'a dangling symlink'),
    entry_case('a FIFO', os.mkfifo, 'a FIFO, not a regular file'),
    entry_case('/dev/zero linked in', lambda p: os.symlink('/dev/zero', p),
               'a character device, not a regular file'),
    entry_case('/dev/urandom linked in', lambda p: os.symlink('/dev/urandom', p),
               'a character device, not a regular file'),
    entry_case('a socket', lambda p: __import__('socket').socket(
        __import__('socket').AF_UNIX).bind(p), 'a socket, not a regular file'),
    Case('inputs that do not exist', missing_inputs_build, check=missing_inputs_check,
         named=('skip',)),
    Case('hard links in twenty site folders', hard_links_build, rc=0, check=hard_links_check),
    Case('input files that share a site name', same_names_build, rc=0, check=same_names_check),
    # -- manifests
    manifest_case('a manifest with a byte order mark',
                  b'\xef\xbb\xbfsite\tstatus\nghost\tfailed\n', 0, manifest_sites('ghost')),
    manifest_case('a manifest site column past the 64th',
                  b'\t'.join(b'c%d' % i for i in range(70)) + b'\tsite\n' + b'x\t' * 70 + b'far\n',
                  0, manifest_sites('far')),
    manifest_case('a manifest row with an empty site cell',
                  b'site\tstatus\nghost\tfailed\n\tfailed\n', 1, manifest_skipped_row, line=3),
]


def normalized_metrics_rows(outdir, sites):
    with open(os.path.join(outdir, 'metrics.csv'), newline='', encoding='utf-8') as f:
        rows = list(csv.DictReader(f))
    out = {}
    for r in rows:
        if r['site'] in sites:
            r = dict(r)
            r['trace'] = os.path.basename(os.path.dirname(r['trace']))
            out[r['site']] = r
    return out


class Catalogue(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix='tc-catalogue-')
        cls.good = {}
        for site, name in GOOD.items():
            with open(os.path.join(THIRD_PARTY, name), 'rb') as f:
                cls.good[site] = f.read()
        corpus = cls.fresh_corpus('clean')
        out = os.path.join(cls.tmp, 'clean-out')
        rc, err = run([corpus], out)
        assert rc == 0, err
        with open(os.path.join(out, 'run.json')) as f:
            clean = json.load(f)
        cls.clean_events = {os.path.basename(os.path.dirname(f['path'])): f['events']
                            for f in clean['files']}
        cls.clean_metrics = normalized_metrics_rows(out, GOOD)
        assert all(cls.clean_events[s] > 100 for s in GOOD), cls.clean_events

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    @classmethod
    def fresh_corpus(cls, name):
        corpus = os.path.join(cls.tmp, re.sub(r'[^a-z0-9]+', '-', name.lower()), 'corpus')
        for site, data in cls.good.items():
            site_file(corpus, site, data)
        return corpus

    def run_case(self, case):
        corpus = self.fresh_corpus(case.name)
        ctx = {}
        inputs = case.build(corpus, ctx) or [corpus]
        out = os.path.join(os.path.dirname(corpus), 'out')
        self.rc, self.stderr = run(inputs, out, ctx.get('extra', ()), ctx.get('env'))
        self.assertEqual(self.rc, case.rc, '%s: exit %d\n%s' % (case.name, self.rc, self.stderr))
        with open(os.path.join(out, 'run.json'), encoding='utf-8') as f:
            self.run_json = json.load(f)
        with open(os.path.join(out, 'census.json'), encoding='utf-8') as f:
            self.census_by_name = {e['name']: e for e in json.load(f)['events']}
        self.check_good_traces(out)
        if case.check:
            case.check(self, ctx)
        self.check_named(case, ctx)
        self.assertNotIn('runtime error', self.stderr)
        self.assertNotIn('AddressSanitizer', self.stderr)

    def check_good_traces(self, out):
        by_site = {}
        for f in self.run_json['files']:
            by_site.setdefault(f['site'], []).append(f)
        for site in GOOD:
            self.assertEqual(len(by_site[site]), 1)
            f = by_site[site][0]
            self.assertEqual(f['status'], 'ok', f)
            self.assertEqual(f['events'], self.clean_events[site])
            self.assertEqual(f['skipped_events'], 0)
        self.assertEqual(normalized_metrics_rows(out, GOOD), self.clean_metrics)

    def check_named(self, case, ctx):
        """The file is named in stderr and in run.json, with its number."""
        if not case.named or case.rc == 0:
            return
        path = ctx['path']
        self.assertIn(path, self.stderr)
        self.assertIn(json.dumps(path), json.dumps(self.run_json))
        number = ctx.get('number')
        if number is not None:
            lines = [l for l in self.stderr.splitlines() if path in l]
            self.assertTrue(any(re.search(r'\b%d\b' % number, l) for l in lines),
                            '%s: %d not named in %s' % (case.name, number, lines))
            self.assertIn(number, numbers_of(self.run_json, path))


def numbers_of(run_json, path):
    """Every number run.json gives about PATH."""
    found = []
    for f in run_json['files']:
        if f['path'] == path:
            found += [e['json_offset'] for e in f['errors']] + [e['event_index'] for e in f['errors']]
            for k in ('stream_error_json_offset', 'error_json_offset'):
                if k in f:
                    found.append(f[k])
            if f.get('trailing_data'):
                found.append(f['trailing_data']['json_offset'])
    for s in run_json['skipped_inputs']:
        if s['path'] == path and 'line' in s:
            found.append(s['line'])
    return found


def make_test(case):
    def test(self):
        self.run_case(case)
    test.__doc__ = case.name
    return test


for i, c in enumerate(CASES):
    setattr(Catalogue, 'test_%02d_%s' % (i, re.sub(r'[^a-z0-9]+', '_', c.name.lower()).strip('_')),
            make_test(c))


class Whole(unittest.TestCase):
    """Runs where nothing good is left."""

    def test_catalogue_size(self):
        self.assertGreaterEqual(len(CASES), 50)

    def test_every_trace_bad_still_reports(self):
        tmp = tempfile.mkdtemp(prefix='tc-allbad-')
        corpus = os.path.join(tmp, 'c')
        site_file(corpus, 'a', b'hello')
        site_file(corpus, 'b', b'')
        site_file(corpus, 'c', b'[{},42]')
        out = os.path.join(tmp, 'out')
        rc, err = run([corpus], out)
        self.assertEqual(rc, 1, err)
        for name in ('census.json', 'census.csv', 'census.md', 'run.json', 'metrics.csv'):
            self.assertTrue(os.path.exists(os.path.join(out, name)), name)
        with open(os.path.join(out, 'census.json')) as f:
            self.assertEqual(json.load(f)['records'], 0)
        self.assertNotIn('runtime error', err)
        shutil.rmtree(tmp, ignore_errors=True)

    def test_no_input_readable_names_them(self):
        tmp = tempfile.mkdtemp(prefix='tc-none-')
        missing = [os.path.join(tmp, 'a'), os.path.join(tmp, 'b')]
        rc, err = run(missing, os.path.join(tmp, 'out'))
        self.assertEqual(rc, 2)
        for m in missing:
            self.assertIn('%s: No such file or directory; skipped' % m, err)
        self.assertIn('no INPUT exists (2 named above); nothing written', err)
        self.assertNotIn('runtime error', err)
        shutil.rmtree(tmp, ignore_errors=True)

    def test_manifest_without_site_column_is_fatal_and_named(self):
        tmp = tempfile.mkdtemp(prefix='tc-manifest-')
        m = os.path.join(tmp, 'sites.tsv')
        with open(m, 'w') as f:
            f.write('url\tstatus\nhttp://a\tok\n')
        corpus = os.path.join(tmp, 'c')
        site_file(corpus, 'a', b'[' + EV_A + b']')
        rc, err = run([corpus], os.path.join(tmp, 'out'), ('--manifest', m))
        self.assertEqual(rc, 2)
        self.assertIn('%s: sites manifest has no header line with a `site` column' % m, err)
        rc, err = run([corpus], os.path.join(tmp, 'out'), ('--manifest', m + '.missing'))
        self.assertEqual(rc, 2)
        self.assertIn('%s.missing: cannot read the manifest: No such file or directory' % m, err)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    unittest.main()
