#!/usr/bin/env python3
"""How long report.html takes to open at scale: a synthetic corpus of SITES x
NAMES (bench/report_corpus.py; 500 sites x 3,000 names by default) is
censused, then its report.html is opened from file:// in Debian's headless
Chromium (playwright-core from `npm ci` in tests/report) RUNS times (default
5), each in a fresh page; a load is navigation start to the end of the load
event (the page script, which sets up every table, runs before it). Prints
each load and their median in seconds, and the page's size.

    python3 bench/report_load.py [--sites 500] [--names 3000] [--runs 5]
                                 [--binary build/tracecensus] [--max SECONDS]
                                 [--vs OLD/report.html] [--keep DIR]

With --max, exits 1 when the new page's median is over it (a loose check for
tests). With --vs, an older page (kept with --keep by a run of an older
build) is loaded in turn with the new one, each run loading both, so both
medians and their ratio come from the same minutes of a noisy machine.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

LOADER = r'''
const [pw, chromium, runs, ...urls] = process.argv.slice(2);
const { chromium: c } = await import(pw);
const browser = await c.launch({ executablePath: chromium });
const out = urls.map(() => []);
for (let i = 0; i < Number(runs); i++) {
  for (const [k, url] of urls.entries()) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url, { waitUntil: 'load', timeout: 120000 });
    const t = await page.evaluate(() => {
      const n = performance.getEntriesByType('navigation')[0];
      return (n.loadEventEnd - n.startTime) / 1000;
    });
    out[k].push({ seconds: t, errors });
    await page.close();
  }
}
await browser.close();
console.log(JSON.stringify(out));
'''


def report(label, page, loads):
    secs = [l['seconds'] for l in loads]
    print(f'{label}: {os.path.getsize(page) / 1e6:.1f} MB, loads (s): ' + ' '.join(f'{s:.2f}' for s in secs))
    print(f'{label}: median load {statistics.median(secs):.2f} s')
    return statistics.median(secs), sorted({e for l in loads for e in l['errors']})


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--sites', type=int, default=500)
    ap.add_argument('--names', type=int, default=3000)
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--binary', default=os.path.join(ROOT, 'build', 'tracecensus'))
    ap.add_argument('--chromium', default=os.environ.get('TC_CHROMIUM', '/usr/bin/chromium'))
    ap.add_argument('--max', type=float)
    ap.add_argument('--vs', metavar='PAGE', help='a report.html to load in turn with the new one')
    ap.add_argument('--keep', metavar='DIR', help='copy the new report.html into DIR')
    a = ap.parse_args()
    pw = os.path.join(ROOT, 'tests', 'report', 'node_modules', 'playwright-core', 'index.mjs')
    if not os.path.exists(pw) or not os.path.exists(a.chromium) or not shutil.which('node'):
        print('report_load: needs node, playwright-core (npm ci in tests/report) and Chromium; skipped')
        # scripts/test.sh installs them: there a missing one is a failure.
        return 1 if os.environ.get('TC_REQUIRE_ORACLES') == '1' else 77
    work = tempfile.mkdtemp(prefix='tc-report-load-')
    try:
        corpus, out = os.path.join(work, 'corpus'), os.path.join(work, 'out')
        subprocess.run([sys.executable, os.path.join(HERE, 'report_corpus.py'), corpus,
                        '--sites', str(a.sites), '--names', str(a.names)], check=True)
        subprocess.run([a.binary, 'census', '-q', '-o', out, corpus], check=True)
        page = os.path.join(out, 'report.html')
        if a.keep:
            os.makedirs(a.keep, exist_ok=True)
            shutil.copy(page, os.path.join(a.keep, 'report.html'))
        pages = [page] + ([os.path.abspath(a.vs)] if a.vs else [])
        loader = os.path.join(work, 'load.mjs')
        with open(loader, 'w', encoding='utf-8') as f:
            f.write(LOADER)
        res = subprocess.run(['node', loader, 'file://' + pw, a.chromium, str(a.runs)] +
                             ['file://' + p for p in pages],
                             check=True, capture_output=True, text=True, timeout=900)
        loads = json.loads(res.stdout)
        print(f'report.html of {a.sites} sites x {a.names} names, {a.runs} loads each' +
              (', in turn with --vs' if a.vs else ''))
        med, errors = report('new', page, loads[0])
        if a.vs:
            vs_med, vs_errors = report('vs', pages[1], loads[1])
            print(f'new / vs: {med / vs_med:.2f}x the time')
            errors += vs_errors
        if errors:
            print('page errors: ' + '; '.join(errors))
        return 1 if errors or (a.max is not None and med > a.max) else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)

if __name__ == '__main__':
    sys.exit(main())
