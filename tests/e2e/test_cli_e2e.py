"""The command line as a user meets it: every spelling of -T, -q and -v,
--version, "--", help from every command, every missing path named, the
end-of-run line's figures against counts made here from the files
themselves, the progress line's units, and a misspelt job key."""
import gzip
import json
import os
import pty
import re
import select
import shutil
import subprocess
import tempfile
import unittest

from e2e_common import BINARY, ROOT, THIRD_PARTY, load

GOOD = [os.path.join(THIRD_PARTY, f) for f in ('traces__lcp-m78.json', 'traces__timespan-trace-m91.json')]
SUMMARY = re.compile(
    r'^tracecensus: (\d+) sites, (\d+) traces, (\d+) events, (\d+) names; errors: (.*?); '
    r'([\d.]+) MB on disk, ([\d.]+) MB of JSON in [\d.]+ s \(\d+ MB/s on disk, \d+ MB/s of JSON, (\d+) threads\) -> (.*)$',
    re.M)
ERRORS = re.compile(r'^(\d+) traces \((\d+) skipped whole\), (\d+) events skipped, (\d+) inputs unreadable$')


def events_of(data):
    doc = json.loads(data)
    return doc['traceEvents'] if isinstance(doc, dict) else doc


def names_of(events):
    return {e['name'] if isinstance(e.get('name'), str) else '' for e in events}


def run(*args, **kw):
    return subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=600, **kw)


class Cli(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix='tc-cli-')
        self.addCleanup(shutil.rmtree, self.dir, ignore_errors=True)

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def test_threads_every_spelling(self):
        census = {}
        for spelling, want in ((['-T0'], os.cpu_count()), (['-T', '0'], os.cpu_count()),
                               (['--threads=0'], os.cpu_count()), (['-T4'], 4),
                               (['--threads', '2'], 2), (['-T', '1'], 1)):
            out = self.path('t' + str(len(census)))
            p = run('census', *spelling, '-o', out, *GOOD)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(load(out, 'run.json')['threads'], want, spelling)
            self.assertEqual(int(SUMMARY.search(p.stderr).group(8)), want)
            with open(os.path.join(out, 'census.json'), 'rb') as f:
                census[' '.join(spelling)] = f.read()
        self.assertEqual(len(set(census.values())), 1, 'the census depends on the thread count')

    def test_quiet_and_verbose(self):
        p = run('census', '-q', '-o', self.path('q'), *GOOD)
        self.assertEqual((p.returncode, p.stderr), (0, ''))
        bad = self.path('bad.json')
        with open(bad, 'w') as f:
            f.write('[{"name":"ok","ph":"X"},{"name":"broken","args":{"x":}}]')
        p = run('census', '-q', '-o', self.path('q'), GOOD[0], bad)
        self.assertEqual(p.returncode, 1)
        self.assertEqual(p.stderr.splitlines(),
                         [f'tracecensus: {bad}: event 1 at JSON byte 24: event is not valid JSON; skipped'])
        # -v: one line per trace, its figures counted here from the file.
        corpus = self.path('corpus')
        with open(GOOD[0], 'rb') as f:
            raw = f.read()
        for site, name, data in (('plain', 'trace.json', raw), ('gz', 'trace.json.gz', gzip.compress(raw)),
                                 ('zst', 'trace.json.zst',
                                  subprocess.run(['zstd', '-q', '-c'], input=raw, capture_output=True,
                                                 check=True).stdout)):
            os.makedirs(os.path.join(corpus, site))
            with open(os.path.join(corpus, site, name), 'wb') as f:
                f.write(data)
        n = len(events_of(raw))
        p = run('census', '-v', '-o', self.path('v'), corpus)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(f'tracecensus: 1 inputs into {self.path("v")}; schema ', p.stderr)
        for site, name, fmt in (('plain', 'trace.json', 'plain'), ('gz', 'trace.json.gz', 'gzip'),
                                ('zst', 'trace.json.zst', 'zstd')):
            path = os.path.join(corpus, site, name)
            self.assertIn(f'tracecensus: {path}: site {site}, {fmt}, {n} events, 0 skipped, '
                          f'{os.path.getsize(path)} bytes on disk, {len(raw)} bytes of JSON, ok\n', p.stderr)

    def test_version(self):
        with open(os.path.join(ROOT, 'meson.build')) as f:
            version = re.search(r"version : '([^']+)'", f.read()).group(1)
        for args in (['-V'], ['--version'], ['census', '-V'], ['run', '--version']):
            p = run(*args)
            self.assertEqual((p.returncode, p.stdout, p.stderr), (0, f'tracecensus {version}\n', ''), args)

    def test_help_is_no_usage_error(self):
        for args, head in ((['--help'], 'usage: tracecensus census [OPTIONS]'),
                           (['-h'], 'usage: tracecensus census [OPTIONS]'),
                           (['help'], 'usage: tracecensus census [OPTIONS]'),
                           (['census', '--help'], 'usage: tracecensus census [-T N]'),
                           (['census', '-o', 'x', '-h'], 'usage: tracecensus census [-T N]'),
                           (['help', 'census'], 'usage: tracecensus census [-T N]'),
                           (['run', '--help'], 'usage: tracecensus run [-T N]'),
                           (['help', 'run'], 'usage: tracecensus run [-T N]')):
            p = run(*args)
            self.assertEqual(p.returncode, 0, args)
            self.assertTrue(p.stdout.startswith(head), (args, p.stdout[:80]))
            self.assertEqual(p.stderr, '')
        # Every option the README's "Using it" lists is in census --help.
        text = run('census', '--help').stdout
        for opt in ('--threads=N', '--output=OUTDIR', '--manifest=FILE', '--schema=FILE',
                    '--chunk-bytes=B', '--no-metrics', '--quiet', '--verbose', '--version'):
            self.assertIn(opt, text)

    def test_double_dash_ends_options(self):
        odd = self.path('-odd.json')
        shutil.copy(GOOD[0], odd)
        out = self.path('out')
        p = subprocess.run([BINARY, 'census', '-o', out, '--', os.path.basename(odd)], cwd=self.dir,
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual([s['site'] for s in load(out, 'run.json')['sites']], ['-odd'])
        # Without it the name reads as options: -o dd.json, and no INPUT.
        p = subprocess.run([BINARY, 'census', '-o', out, os.path.basename(odd)], cwd=self.dir,
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn('census needs at least one INPUT', p.stderr)

    def test_every_missing_path_named(self):
        gone = [self.path('gone1'), self.path('gone2')]
        out = self.path('out')
        p = run('census', '-o', out, gone[0], GOOD[0], gone[1])
        self.assertEqual(p.returncode, 1, p.stderr)
        for g in gone:
            self.assertIn(f'tracecensus: {g}: No such file or directory; skipped\n', p.stderr)
        self.assertEqual(ERRORS.match(SUMMARY.search(p.stderr).group(5)).groups(), ('0', '0', '0', '2'))
        p = run('census', '-o', out, *gone, self.path('gone3'))
        self.assertEqual(p.returncode, 2)
        self.assertEqual(len(re.findall(r'gone\d: No such file or directory', p.stderr)), 3)
        self.assertIn('no INPUT exists (3 named above); nothing written', p.stderr)
        p = run('census', '--manifest', self.path('no.tsv'), '-o', out, GOOD[0])
        self.assertEqual(p.returncode, 2)
        self.assertIn(f'{self.path("no.tsv")}: cannot read the manifest: No such file or directory', p.stderr)
        p = run('census', '--schema', self.path('no-schema.tsv'), '-o', out, GOOD[0])
        self.assertEqual(p.returncode, 2)
        self.assertIn(f'{self.path("no-schema.tsv")}: cannot open {self.path("no-schema.tsv")}', p.stderr)
        job = self.path('x.job')
        with open(job, 'w') as f:
            f.write(f'corpus = {gone[0]}\noutput = {out}\n')
        p = run('run', job)
        self.assertEqual(p.returncode, 2)
        self.assertIn(f'{gone[0]}: No such file or directory', p.stderr)
        p = run('run', self.path('no.job'))
        self.assertEqual(p.returncode, 2)
        self.assertIn(f'{self.path("no.job")}: cannot open the job file: No such file or directory', p.stderr)

    def test_end_of_run_line_counts(self):
        """Figures of the last line, each from the corpus as built here."""
        corpus = self.path('corpus')
        files = {}
        for i, src in enumerate(GOOD):
            with open(src, 'rb') as f:
                files[f'good{i}/trace.json'] = f.read()
        files['bad-event/trace.json'] = b'[{"name":"a","ph":"X"},{"name":"b","args":{"x":}},{"name":"c"}]'
        files['not-trace/trace.json'] = b'hello'
        files['gz/trace.json.gz'] = gzip.compress(files['good0/trace.json'])
        for rel, data in files.items():
            os.makedirs(os.path.dirname(os.path.join(corpus, rel)), exist_ok=True)
            with open(os.path.join(corpus, rel), 'wb') as f:
                f.write(data)
        counted = events_of(files['good0/trace.json']) * 2 + events_of(files['good1/trace.json'])
        counted += [{'name': 'a'}, {'name': 'c'}]
        json_bytes = sum(len(d) for r, d in files.items() if not r.endswith('.gz'))
        json_bytes += len(files['good0/trace.json'])
        disk = sum(len(d) for d in files.values())
        out = self.path('out')
        p = run('census', '-T', '3', '-o', out, corpus, self.path('missing'))
        self.assertEqual(p.returncode, 1, p.stderr)
        m = SUMMARY.search(p.stderr)
        self.assertIsNotNone(m, p.stderr)
        self.assertEqual([int(x) for x in m.group(1, 2, 3, 4)],
                         [5, 5, len(counted), len(names_of(counted))])
        self.assertEqual(ERRORS.match(m.group(5)).groups(), ('2', '1', '1', '1'))
        self.assertEqual(m.group(6), f'{disk / 1e6:.1f}')
        self.assertEqual(m.group(7), f'{json_bytes / 1e6:.1f}')
        self.assertEqual((m.group(8), m.group(9)), ('3', out))
        self.assertEqual(p.stderr.count('\n'), len(p.stderr.splitlines()))
        p = run('census', '-o', out, *GOOD)
        self.assertEqual(SUMMARY.search(p.stderr).group(5), 'none')

    def test_progress_units(self):
        """On a terminal: traces done of all, MB on disk of the corpus total,
        the total equal to the last line's "MB on disk"."""
        corpus = self.path('corpus')
        sources = sorted(os.listdir(THIRD_PARTY))
        for copy in range(8):
            for src in sources:
                d = os.path.join(corpus, f'{copy}-{src}')
                os.makedirs(d)
                shutil.copy(os.path.join(THIRD_PARTY, src), os.path.join(d, 'trace.json'))
        disk = sum(os.path.getsize(os.path.join(THIRD_PARTY, s)) for s in sources) * 8
        ntraces = 8 * len(sources)
        master, slave = pty.openpty()
        p = subprocess.Popen([BINARY, 'census', '-T', '1', '-o', self.path('out'), corpus],
                             stdout=subprocess.DEVNULL, stderr=slave)
        os.close(slave)
        text = b''
        while True:
            r, _, _ = select.select([master], [], [], 600)
            try:
                chunk = os.read(master, 65536) if r else b''
            except OSError:
                chunk = b''
            if not chunk:
                break
            text += chunk
        os.close(master)
        self.assertEqual(p.wait(timeout=600), 0)
        text = text.decode()
        draws = re.findall(r'traces (\d+)/(\d+), ([\d.]+)/([\d.]+) MB on disk \(([\d.]+) MB/s on disk\)', text)
        self.assertTrue(draws, text[-500:])
        final = SUMMARY.search(text.replace('\r', '\n').replace('\x1b[K', ''))
        for done, total, mb, total_mb, _ in draws:
            self.assertEqual(int(total), ntraces)
            self.assertLessEqual(int(done), ntraces)
            self.assertEqual(total_mb, f'{disk / 1e6:.1f}')
            self.assertLessEqual(float(mb), float(total_mb))
        self.assertEqual(final.group(6), f'{disk / 1e6:.1f}')

    def test_job_paths_from_the_job_folder(self):
        """A job's relative paths are its folder's: the same job runs from
        any directory, and from the job's folder it reads as written."""
        os.makedirs(self.path('crawl', 'site'))
        shutil.copy(GOOD[0], self.path('crawl', 'site', 'trace.json'))
        os.makedirs(self.path('jobs'))
        job = self.path('jobs', 'x.job')
        with open(job, 'w') as f:
            f.write('corpus = ../crawl\noutput = ../out\n')
        elsewhere = self.path('elsewhere')
        os.makedirs(elsewhere)
        p = run('run', '-q', job, cwd=elsewhere)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(load(self.path('out'))['traces'], 1)
        self.assertFalse(os.listdir(elsewhere))
        p = run('run', '-q', 'x.job', cwd=self.path('jobs'))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(load(self.path('out'), 'run.json')['files'][0]['path'],
                         '../crawl/site/trace.json')

    def test_misspelt_job_key_named(self):
        job = self.path('x.job')
        with open(job, 'w') as f:
            f.write('corpus = c\n# a comment\nthredas = 2\noutput = o\n')
        p = run('run', job)
        self.assertEqual(p.returncode, 2)
        self.assertEqual(p.stderr, f"tracecensus: {job}:3: unknown key 'thredas' (did you mean 'threads'?)\n")

    def test_build_errors_shown(self):
        """scripts/build.sh is quiet on success, but shows what ninja said
        when the build fails (a stand-in ninja that fails, on a build
        folder that is already configured)."""
        build = self.path('build')
        os.mkdir(build)
        open(os.path.join(build, 'build.ninja'), 'w').close()
        bin_dir = self.path('bin')
        os.mkdir(bin_dir)
        with open(os.path.join(bin_dir, 'ninja'), 'w') as f:
            f.write('#!/bin/sh\necho "src/x.c:3:1: error: expected expression"\nexit 1\n')
        os.chmod(os.path.join(bin_dir, 'ninja'), 0o755)
        env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ['PATH'])
        p = subprocess.run(['bash', os.path.join(ROOT, 'scripts', 'build.sh'), build],
                           capture_output=True, text=True, env=env)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn('src/x.c:3:1: error: expected expression', p.stderr)
        self.assertIn(f'scripts/build.sh: failed: ninja -C {build}', p.stderr)
        with open(os.path.join(bin_dir, 'ninja'), 'w') as f:
            f.write('#!/bin/sh\necho "[1/1] Linking target tracecensus"\n')
        p = subprocess.run(['bash', os.path.join(ROOT, 'scripts', 'build.sh'), build],
                           capture_output=True, text=True, env=env)
        self.assertEqual((p.returncode, p.stdout, p.stderr), (0, '', ''))


if __name__ == '__main__':
    unittest.main()
