"""Hostile text from traces (issue 27 item 3): web pages choose event names
(performance.mark/measure), so names, categories, arg keys, arg string values
and site folder names may hold terminal escapes, NUL, newlines, Markdown and
HTML, and spreadsheet formulas. A census (with -v) of such a corpus, and a
diff of two such outputs (to the terminal and to files), must keep every
output well formed: JSON valid UTF-8, CSV parseable and free of formulas,
Markdown tables whole and headings only the tool's, no raw control byte in
any .md, .csv or the terminal; and the names must still be there (escaped by
README's rule, "How text from traces is written"), one row each."""
import csv
import io
import json
import os
import re
import subprocess
import sys
import unittest

from e2e_common import BINARY, scratch

HOSTILE = [
    'osc\x1b]0;x\x07',
    'csi\x1b[31mred',
    'nul\x00byte',
    'line\nbreak\n## injected',
    'pipe|in|name',
    'tick`s ```run``` end`',
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '=HYPERLINK("http://x")',
    '+1',
    '-1',
    '@SUM(A1)',
    '\ttab-leading',
]
# Only in B: a new event and a new argument path for the diff.
HOSTILE_B = ['=new|\x1b[1m`<b>`']
SITE = '=site\x1b[31m|`<img src=x onerror=alert(1)>`\nx'
BROKEN_SITE = '@broken\x1b]0;t\x07'


def trace(names, extra_arg):
    ev = [{'ph': 'M', 'pid': 1, 'tid': 1, 'ts': 0, 'name': 'thread_name', 'args': {'name': 'CrRendererMain'}},
          {'ph': 'M', 'pid': 1, 'tid': 0, 'ts': 0, 'name': 'process_name', 'args': {'name': 'Renderer'}}]
    for i, n in enumerate(names):
        args = {n: n, 'k' + n: {'v': n}}
        if extra_arg:
            args['new|`' + n] = 1
        ev.append({'ph': 'X', 'pid': 1, 'tid': 1, 'ts': 1000 * (i + 1), 'dur': 10,
                   'name': n, 'cat': n + ',plain', 'args': args})
    return {'traceEvents': ev, 'metadata': {'product-version': 'Chrome/120.0.0.0'}}


def corpus(root, names, extra_arg):
    for site in (SITE, 'plain-site'):
        os.makedirs(os.path.join(root, site))
        with open(os.path.join(root, site, 'trace.json'), 'w', encoding='utf-8') as f:
            json.dump(trace(names, extra_arg), f)
    os.makedirs(os.path.join(root, BROKEN_SITE))
    with open(os.path.join(root, BROKEN_SITE, 'trace.json'), 'wb') as f:
        f.write(b'{"traceEvents": [{"name": "x\x1b[2J", "ph": "X", ')  # cut short


def run(*args):
    return subprocess.run([BINARY, *args], capture_output=True, timeout=600)


# Bytes that must never reach a .md, a .csv or the terminal raw.
RAW_CONTROL = re.compile(rb'[\x00-\x08\x0b-\x1f\x7f]')
RAW_CONTROL_CSV = re.compile(rb'[\x00-\x08\x0b-\x1f\x7f]')  # TAB and LF may sit in quoted cells


def unescape_csv(cell):
    """The rule back: a ' before a formula character, control bytes \\xHH."""
    if cell[:1] == "'" and (cell[1:2] in ('=', '+', '-', '@', '\t') or cell[1:5] == '\\x0d'):
        cell = cell[1:]
    return re.sub(r'\\x([0-9a-f]{2})', lambda m: chr(int(m.group(1), 16)), cell)


def unescape_md(text):
    """Markdown text back: \\xHH, \\u00HH, then a backslash before punctuation."""
    text = re.sub(r'(?<!\\)((?:\\\\)*)\\x([0-9a-f]{2})', lambda m: m.group(1) + chr(int(m.group(2), 16)), text)
    text = re.sub(r'(?<!\\)((?:\\\\)*)\\u00([0-9a-f]{2})', lambda m: m.group(1) + chr(int(m.group(2), 16)), text)
    return re.sub(r'\\([!-/:-@\[-`{-~])', r'\1', text)


def unescaped_pipes(line):
    """The | of a table row that GFM splits cells on (not after a backslash)."""
    n = 0
    i = 0
    while i < len(line):
        if line[i] == '\\':
            i += 2
            continue
        n += line[i] == '|'
        i += 1
    return n


class Hostile(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = scratch('tc-hostile-')
        cls.out = {}
        cls.terminal = {}
        for side, names, extra in (('A', HOSTILE, False), ('B', HOSTILE[:-3] + HOSTILE_B, True)):
            root = os.path.join(cls.tmp, 'corpus' + side)
            corpus(root, names, extra)
            out = os.path.join(cls.tmp, 'out' + side)
            p = run('census', '-v', '-T', '2', '--scope', 'all', '--value-sites', '1', '-o', out, root)
            assert p.returncode in (0, 1), p.stderr.decode('utf-8', 'replace')
            cls.out[side] = out
            cls.terminal['census ' + side] = p.stdout + p.stderr
        cls.diff_out = os.path.join(cls.tmp, 'diffAB')
        p = run('diff', '-o', cls.diff_out, cls.out['A'], cls.out['B'])
        assert p.returncode == 1, (p.returncode, p.stderr)
        cls.terminal['diff -o'] = p.stdout + p.stderr
        p = run('diff', cls.out['A'], cls.out['B'])
        assert p.returncode == 1, (p.returncode, p.stderr)
        cls.terminal['diff'] = p.stdout + p.stderr
        cls.diff_stdout = p.stdout

    def files(self, ext):
        for d in (self.out['A'], self.out['B'], self.diff_out):
            for f in sorted(os.listdir(d)):
                if f.endswith(ext):
                    yield os.path.join(d, f)

    def test_json_parses_and_is_utf8(self):
        n = 0
        for path in self.files('.json'):
            with open(path, 'rb') as f:
                raw = f.read()
            json.loads(raw.decode('utf-8'))  # strict: invalid UTF-8 raises
            n += 1
        self.assertGreaterEqual(n, 7)  # census, metrics, run x2, diff
        names = {e['name'] for e in json.load(open(os.path.join(self.out['A'], 'census.json')))['events']}
        self.assertTrue(set(HOSTILE) <= names, set(HOSTILE) - names)

    def test_no_raw_control_bytes(self):
        checked = 0
        for ext, pat in (('.md', RAW_CONTROL), ('.csv', RAW_CONTROL_CSV)):
            for path in self.files(ext):
                with open(path, 'rb') as f:
                    raw = f.read()
                m = pat.search(raw)
                if m:
                    self.fail('%s: raw %r at byte %d' % (path, m.group(), m.start()))
                if ext == '.md':
                    self.assertNotIn(b'\t', raw, path)
                checked += 1
        self.assertGreaterEqual(checked, 8)
        for what, text in self.terminal.items():
            m = RAW_CONTROL.search(text)
            if m:
                self.fail('%s: raw %r at byte %d' % (what, m.group(), m.start()))
            text.decode('utf-8')  # the terminal gets UTF-8 too (bad bytes as \xHH)
        # The site's name and the broken trace's path reached the terminal, escaped.
        census = self.terminal['census A'].decode('utf-8')
        self.assertIn('=site\\x1b[31m|`<img src=x onerror=alert(1)>`\\x0ax', census)
        self.assertIn('@broken\\x1b]0;t\\x07', census)

    def test_csv_cells(self):
        numeric = re.compile(r'^-?[0-9][0-9.e+-]*$')
        for path in self.files('.csv'):
            with open(path, 'rb') as f:
                raw = f.read()
            self.assertNotIn(b'\x00', raw, path)
            rows = list(csv.reader(io.StringIO(raw.decode('utf-8'), newline='')))
            self.assertGreater(len(rows), 1, path)
            width = len(rows[0])
            for r in rows:
                self.assertEqual(len(r), width, (path, r))
                for c in r:
                    if c[:1] in ('=', '+', '-', '@', '\t', '\r'):
                        self.assertRegex(c, numeric, path)  # only a number may lead so
        # Every hostile name has its row, the rule undone.
        with open(os.path.join(self.out['A'], 'census.csv'), encoding='utf-8', newline='') as f:
            names = [unescape_csv(r['name']) for r in csv.DictReader(f)]
        for h in HOSTILE:
            self.assertEqual(names.count(h), 1, repr(h))
        with open(os.path.join(self.out['A'], 'census_args.csv'), encoding='utf-8', newline='') as f:
            paths = {unescape_csv(r['path']) for r in csv.DictReader(f)}
        for h in HOSTILE:
            self.assertIn('args.' + h, paths)
        with open(os.path.join(self.out['A'], 'metrics.csv'), encoding='utf-8', newline='') as f:
            sites = {unescape_csv(r['site']) for r in csv.DictReader(f)}
        self.assertIn(SITE, sites)
        with open(os.path.join(self.diff_out, 'diff.csv'), encoding='utf-8', newline='') as f:
            diff = list(csv.DictReader(f))
        self.assertIn(HOSTILE_B[0], {unescape_csv(r['name']) for r in diff if r['section'] == 'event_new'})
        gone = {unescape_csv(r['name']) for r in diff if r['section'] == 'event_vanished'}
        self.assertEqual(gone, set(HOSTILE[-3:]))

    def check_markdown(self, path, own_headings):
        with open(path, encoding='utf-8') as f:
            lines = f.read().split('\n')
        header = None
        rows = 0
        headings = []
        for i, line in enumerate(lines):
            if line.startswith('|'):
                if header is None:
                    header = unescaped_pipes(line)
                self.assertEqual(unescaped_pipes(line), header, '%s:%d: %s' % (path, i + 1, line))
                rows += 1
            else:
                header = None
            if line.startswith('#'):
                self.assertIsNone(re.search(r'(?<!\\)<', line), '%s:%d: %s' % (path, i + 1, line))
                headings.append(line)
        for h in headings:
            self.assertTrue(h.lstrip('#').strip() in own_headings or h.startswith('## '), h)
        self.assertNotIn('# injected', [h for h in headings if not h.startswith('## ')])
        return lines, rows, headings

    def test_markdown(self):
        lines, rows, headings = self.check_markdown(os.path.join(self.out['A'], 'census.md'),
                                                    {'Trace event census'})
        self.assertGreater(rows, 2 * len(HOSTILE))
        # One section per event: its heading, the rule undone, is the name.
        named = [unescape_md(h[3:]) for h in headings if h.startswith('## ')]
        for h in HOSTILE:
            self.assertEqual(named.count(h), 1, repr(h))
        text = '\n'.join(lines)
        # Outside code (spans and the example's fenced JSON) no < is raw.
        prose = re.sub(r'(`+)(?!`).*?(?<!`)\1(?!`)', '', re.sub(r'```json\n.*?\n```', '', text, flags=re.S))
        tag = r'(?<!\\)<(?=[A-Za-z/!?])(?!a id="|/a>)'  # what HTML would read as a tag
        self.assertEqual(re.findall('.{0,30}' + tag + '.{0,30}', prose), [])
        self.assertIn('\\<script\\>alert(1)\\</script\\>', prose)
        # An argument path as a code span in a table: fence longer than its run of 3.
        self.assertIn('```` args.tick`s ```run``` end` ````', text)  # padded: it ends with a backtick
        lines, rows, _ = self.check_markdown(os.path.join(self.out['A'], 'metrics.md'), {'Runtime metrics'})
        self.assertIn('| =site\\x1b\\[31m\\|\\`\\<img src=x onerror=alert(1)\\>\\`\\x0ax |', '\n'.join(lines))
        for path in (os.path.join(self.diff_out, 'diff.md'),):
            lines, rows, _ = self.check_markdown(path, {'tracecensus diff'})
            self.assertGreater(rows, 3)
            text = '\n'.join(lines)
            prose = re.sub(r'(`+)(?!`).*?(?<!`)\1(?!`)', '', text)
            self.assertNotIn('<b>', prose)
            self.assertIn('| =new\\|\\x1b\\[1m\\`\\<b\\>\\` |', text)
        # diff to the terminal is diff.md itself.
        with open(os.path.join(self.diff_out, 'diff.md'), 'rb') as f:
            md = f.read()
        self.assertEqual(self.diff_stdout, md)


if __name__ == '__main__':
    unittest.main()
