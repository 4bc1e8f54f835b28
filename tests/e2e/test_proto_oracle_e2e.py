"""tracecensus's census of every committed Perfetto protobuf fixture against
an independent computation (issue 22).

tests/oracle/proto_oracle.py (its own wire walker, no protobuf library, no
project code) writes the JSON each protobuf trace maps to under the
README's rules; tests/oracle/census_oracle.py computes that corpus's census;
compare_census.py holds tracecensus's census of the protobuf corpus against
it name by name: records, sites, phases, pairs, categories, arg paths with
their record counts and types, and durations, with `--scope all` (every
process counted, as the census oracle counts). The default census (scope
no-chrome-ui) is held against tests/oracle/scope_oracle.py on the same JSON:
the fixtures were recorded with Chrome's defaults, so Chrome's omnibox
renderer is in them and must be left out of protobuf traces exactly as of
JSON ones. Both fixture crawls (corpus/proto/crawl and
corpus/truth/proto/crawl) are checked, on two processes at once."""
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

from e2e_common import BINARY, ROOT

ORACLE = os.path.join(ROOT, 'tests', 'oracle')
sys.path.insert(0, ORACLE)
import scope_oracle  # noqa: E402
CRAWLS = [os.path.join(ROOT, 'corpus', 'proto', 'crawl'),
          os.path.join(ROOT, 'corpus', 'truth', 'proto', 'crawl')]


def check(crawl):
    """(compare's last line, its exit status, its output) for CRAWL."""
    tmp = tempfile.mkdtemp(prefix='tc-proto-oracle-')
    try:
        as_json = os.path.join(tmp, 'json')
        os.makedirs(as_json)
        manifest = os.path.join(crawl, 'manifest.tsv')
        subprocess.run([sys.executable, os.path.join(ORACLE, 'proto_oracle.py'), '--corpus',
                        crawl, as_json], check=True, timeout=600)
        oracle = os.path.join(tmp, 'oracle.json')
        subprocess.run([sys.executable, os.path.join(ORACLE, 'census_oracle.py'), as_json,
                        '--manifest', manifest, '-o', oracle], check=True, timeout=600,
                       capture_output=True)
        out = os.path.join(tmp, 'out')
        p = subprocess.run([BINARY, 'census', '-q', '-T', '1', '--scope', 'all', '--manifest',
                            manifest, '-o', out, crawl], capture_output=True, text=True,
                           timeout=600)
        if p.returncode != 0:
            return '', p.returncode, p.stderr, []
        c = subprocess.run([sys.executable, os.path.join(ORACLE, 'compare_census.py'), oracle,
                            os.path.join(out, 'census.json')], capture_output=True, text=True,
                           timeout=600)
        lines = c.stdout.strip().splitlines()
        return (lines[-1] if lines else ''), c.returncode, c.stdout[-4000:], \
            scope_differences(crawl, manifest, as_json, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def scope_differences(crawl, manifest, as_json, tmp):
    """The default census of CRAWL against the scope oracle on AS_JSON: one
    line per figure that differs, and a last line saying what was checked."""
    out = os.path.join(tmp, 'scoped')
    subprocess.run([BINARY, 'census', '-q', '-T', '1', '--manifest', manifest, '-o', out, crawl],
                   check=True, capture_output=True, timeout=600)
    with open(os.path.join(out, 'census.json'), encoding='utf-8') as f:
        census = {e['name']: e for e in json.load(f)['events']}
    oracle = scope_oracle.run(as_json)
    diffs = []
    kept = {n: e for n, e in oracle['events'].items() if e['records']}
    for name in sorted(set(kept) | set(census)):
        want = kept.get(name, {'records': 0, 'sites': 0})
        got = census.get(name, {'records': 0, 'sites': 0})
        for key in ('records', 'sites'):
            if want[key] != got[key]:
                diffs.append('%r %s: scope oracle %d, census %d' % (name, key, want[key], got[key]))
    left = oracle['left']
    diffs.append('scope: %d names, %d records kept, %d left out' % (len(kept), oracle['records'], left))
    return diffs


@unittest.skipUnless(shutil.which('zstd'), 'zstd is needed to read the fixtures')
class ProtoOracle(unittest.TestCase):
    def test_every_fixture_agrees_with_the_oracle(self):
        crawls = [c for c in CRAWLS if os.path.isdir(c)]
        self.assertEqual(len(crawls), 2, 'both fixture crawls are committed')
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(check, crawls))
        for crawl, (summary, rc, text, scoped) in zip(crawls, results):
            with self.subTest(crawl=crawl):
                self.assertEqual(rc, 0, text)
                self.assertEqual(scoped[:-1], [], '\n'.join(scoped[:40]))
                self.assertGreater(int(scoped[-1].split()[-3]), 0,
                                   'fixtures recorded with Chrome\'s defaults hold its omnibox renderer')
                print('%s: %s' % (os.path.relpath(crawl, ROOT), scoped[-1]))
                m = re.match(r'compare: (\d+) events, (\d+) arg paths, (\d+) phase counts checked, '
                             r'0 differences', summary)
                self.assertIsNotNone(m, summary)
                print('%s: %s' % (os.path.relpath(crawl, ROOT), summary))
                self.assertGreater(int(m.group(1)), 100)
                self.assertGreater(int(m.group(2)), 100)


if __name__ == '__main__':
    unittest.main()
