"""report.html's figures against the other outputs of the same run, computed
again here: the census and metrics of corpus/crawl (with its manifest) are
written into a temp dir, report.html is parsed (html.parser, stdlib), and

- the sites table: one row per site of metrics.json; each metric cell is the
  nearest-rank median (rank ceil(n/2)) of the site's rows of metrics.csv that
  measured it, printed with metrics.md's rounding (counts and bytes whole, ms and %
  to %.1f, whole from 1e6 up), or "n/a (CODE)" with metrics.json's reason code; traces per site
  from metrics.csv; failures name the crawl's reason for a site without
  trace;
- the ECDFs' p50/p90 labels: metrics.json's corpus p50/p90 with the same
  rounding and n/a (too_few_samples) where metrics.json says so (a
  percentile q needs ceil(1/(1-q)) sites); heap growth, which has no corpus
  histogram, by nearest rank over the sites' values in MB under the same
  rule; every label above the curve's plot area;
- the histograms: no bar holds all values but one when the values are
  skewed (the heap growth);
- the heat map: per event, its cells sum to census.json's records of the
  event, and the legend's last label is the largest cell;
- the per-site drill-down of the top events: a row per site with records,
  summing to census.json's records; every other event's line names its
  sites with most records (all of them up to 12) with census.json's
  site_records figures, most first;
- the page is ASCII, its other characters numeric references;
- every plot in a <figure> of its own, the timelines' trace paths in their
  figure's caption, the timelines' sites by TBT (median of metrics.csv's
  rows), largest first."""
import csv
import html.parser
import json
import math
import os
import re
import sys

from e2e_common import ROOT, run_census, scratch

CRAWL = os.path.join(ROOT, 'corpus', 'crawl')
failures = []


def check(ok, what):
    print(('ok   ' if ok else 'FAIL ') + what)
    if not ok:
        failures.append(what)


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.kids = tag, dict(attrs), parent, []

    def text(self):
        return ''.join(k if isinstance(k, str) else k.text() for k in self.kids)

    def all(self, tag=None, cls=None):
        for k in self.kids:
            if isinstance(k, Node):
                if (tag is None or k.tag == tag) and (cls is None or cls in k.attrs.get('class', '').split()):
                    yield k
                yield from k.all(tag, cls)

    def up(self, tag):
        n = self.parent
        while n is not None and n.tag != tag:
            n = n.parent
        return n


VOID = {'meta', 'br', 'input', 'link', 'img', 'hr'}


class Tree(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.cur = Node('#root', {}, None)

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.cur)
        self.cur.kids.append(n)
        if tag not in VOID:
            self.cur = n

    def handle_startendtag(self, tag, attrs):
        self.cur.kids.append(Node(tag, attrs, self.cur))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        n = self.cur
        while n is not None and n.tag != tag:
            n = n.parent
        if n is not None:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.kids.append(data)


def by_id(root, ident):
    return next((n for n in root.all() if n.attrs.get('id') == ident), None)


def fmt(v, col=None):
    """metrics.md's rounding: counts and bytes (a column not in ms or %) whole,
    others one decimal, none from 1e6 up; COL None for a value in another
    unit than its column's (heap growth in MB)."""
    whole = col is not None and not col.endswith(('_ms', '_pct'))
    return '%.0f' % v if whole or abs(v) >= 1e6 else '%.1f' % v


def nearest_rank(values, q):
    values = sorted(values)
    return values[math.ceil(q * len(values)) - 1]


def min_samples(q):
    return 1 if q in (0, 1) else math.ceil(1 / (1 - q) - 1e-9)


def shown(cell):
    return cell.text().strip().replace(',', '')


def sites_table(root, metrics, rows):
    table = by_id(root, 'sites')
    check(table is not None, 'report.html has a sites table')
    heads = [th.text().strip() for th in table.all('th')]
    cols = {'busy': 'busy_mean_pct', 'long tasks': 'long_tasks', 'TBT': 'tbt_ms',
            'frames over budget': 'frames_over_budget', 'heap growth': 'heap_growth_bytes',
            'user timing': 'user_timing_measures'}
    index = {}
    for i, h in enumerate(heads):
        for label in cols:
            if h.startswith(label):
                index.setdefault(label, i)
    check(len(index) == len(cols), f'sites table columns {sorted(index)}')
    trs = [tr for tr in table.all('tr') if tr.up('tbody') is not None]
    check(len(trs) == len(metrics['sites']), f'{len(trs)} site rows, metrics.json has {len(metrics["sites"])} sites')
    by_site = {}
    for r in rows:  # a site without trace has a row with an empty trace
        by_site.setdefault(r['site'], []).extend([r] if r['trace'] else [])
    checked, before = 0, len(failures)
    for tr, site in zip(trs, metrics['sites']):
        cells = list(tr.all('td'))
        name = site['site']
        if cells[0].text().strip() != name:
            check(False, f'row {name}: shows {cells[0].text().strip()!r}')
            continue
        traces = by_site.get(name, [])
        if shown(cells[1]) != str(len(traces)):
            check(False, f'{name}: traces {shown(cells[1])}, metrics.csv has {len(traces)}')
        for label, col in cols.items():
            got = shown(cells[index[label]])
            vals = [float(r[col]) for r in traces if r[col] != '']
            if vals:
                want = fmt(nearest_rank(vals, 0.5), col)
            else:
                code = site['values_na'].get(col) or ('no_trace' if not traces else None)
                want = f'n/a ({code})'
            if got != want.replace(',', ''):
                check(False, f'{name} {label}: report.html {got!r}, metrics.csv {want!r}')
            checked += 1
        fail = cells[-1].text().strip()
        if not traces and site['no_trace_reason'] and site['no_trace_reason'] not in fail:
            check(False, f'{name}: failures {fail!r} do not name {site["no_trace_reason"]!r}')
        if traces and not site['traces_unreadable'] and fail != 'none':
            check(False, f'{name}: failures {fail!r}, metrics.json has none')
    check(checked == len(trs) * len(cols) and len(failures) == before,
          f'sites table: {checked} cells equal metrics.csv medians with metrics.md rounding and n/a codes')


DISTS = {'busy_mean_pct': ('%', 1), 'tbt_ms': ('ms', 1), 'long_tasks': ('', 1), 'frame_p50_ms': ('ms', 1),
         'frame_p95_ms': ('ms', 1), 'heap_growth_bytes': ('MB', 1e6)}


def ecdf_marks(root, metrics):
    before = len(failures)
    for col, (unit, scale) in DISTS.items():
        sec = by_id(root, 'dist-' + col.replace('_', '_5f'))
        svgs = list(sec.all('svg'))
        ecdf = [s for s in svgs if 'tc-ecdf' in s.attrs.get('class', '')]
        check(len(ecdf) == 1, f'{col}: one ECDF')
        svg = ecdf[0]
        labels = {t.text().split(' ', 1)[0]: t for t in svg.all('text', 'qlabel')}
        corpus = metrics['corpus']['metrics'].get(col)
        values = [s['values'][col] for s in metrics['sites'] if s['values'].get(col) is not None]
        for q, name in ((0.5, 'p50'), (0.9, 'p90')):
            if corpus is not None:
                v = corpus[name]
                want = f'{name} n/a ({corpus["field_na"][name]})' if v is None else f'{name} {fmt(v / scale, col if scale == 1 else None)}'
            elif len(values) >= min_samples(q):
                want = f'{name} {fmt(nearest_rank(values, q) / scale, col if scale == 1 else None)}'
            else:
                want = f'{name} n/a (too_few_samples)'
            if 'n/a' not in want and unit:
                want += ' ' + unit
            t = labels.get(name)
            got = t.text().replace(',', '') if t is not None else None
            check(got == want, f'{col} ECDF {name}: label {got!r}, want {want!r} (n = {len(values)})')
            if t is None:
                continue
            top = next(float(y.attrs['y']) for y in svg.all('text', 'yt') if y.text() == '1.0')
            check(float(t.attrs['y']) < top - 4, f'{col} ECDF {name}: label above the plot area (y {t.attrs["y"]} < {top})')
    fp95 = metrics['corpus']['metrics']['frame_p95_ms']
    check(fp95['n'] < 10 and fp95['p90'] is None, 'frame_p95_ms has under 10 sites, so its p90 is n/a (the case of issue 24)')
    return len(failures) == before


def histograms(root, metrics):
    sec = by_id(root, 'dist-heap_5fgrowth_5fbytes')
    hist = next(s for s in sec.all('svg') if 'tc-hist' in s.attrs.get('class', ''))
    counts = []
    for rect in hist.all('rect', 'bar'):
        m = re.search(r': (\d+) of (\d+)', rect.text())
        counts.append((int(m.group(1)), int(m.group(2))))
    n = counts[0][1]
    check(max(c for c, _ in counts) < n - 1 and sum(1 for c, _ in counts if c) >= 4,
          f'heap growth histogram shows its shape: bars {[c for c, _ in counts]} of {n}')


def heatmap(root, census):
    svg = next(s for s in root.all('svg') if 'tc-heatmap' in s.attrs.get('class', ''))
    cols = [t.text() for t in next(svg.all('g', 'cols')).all('title')]
    sums, biggest = {}, 0
    for rect in next(svg.all('g', 'cells')).all('rect'):
        tip = rect.text()
        m = re.search(r' \u00b7 (.*): ([\d,]+) records$', tip)
        if not m:
            continue
        v = int(m.group(2).replace(',', ''))
        sums[m.group(1)] = sums.get(m.group(1), 0) + v
        biggest = max(biggest, v)
    records = {e['name']: e['records'] for e in census['events']}
    bad = [c for c in cols if sums.get(c, 0) != records[c]]
    check(not bad and len(cols) == 20, f'heat map: each of {len(cols)} columns sums to census.json records {bad[:3]}')
    top = next(t for t in svg.all('text', 'lmax')).text().replace(',', '')
    check(top == str(biggest), f'heat-map legend ends at the largest cell: {top} (cells up to {biggest})')
    return cols


BYSITE_LINE = 12  # sites an event's line names (report/tc_report_html.c)


def site_lines(root, census, run):
    """Every event outside the heat map's columns: its line of records per
    site names its sites with most records (all of them up to
    BYSITE_LINE), most first, then in run.json's order, with census.json's
    site_records figures."""
    events = {e['name']: e for e in census['events']}
    names = [s['site'] for s in run['sites']]
    bad, lines = [], 0
    for p in root.all('p', 'bysite'):
        name = next(p.up('section').all('h3')).text()
        rows = sorted(events[name]['site_records'], key=lambda r: (-r[1], r[0]))
        want = [(names[i], n) for i, n in rows[:BYSITE_LINE]]
        spans = [k for k in p.kids if isinstance(k, Node) and k.tag == 'span']
        got = [(sp.text(), int(sp.parent.kids[sp.parent.kids.index(sp) + 1].strip(' ,.;').split(';')[0]
                               .replace(',', ''))) for sp in spans]
        more = len(rows) > BYSITE_LINE
        if got != want or more != p.text().startswith(f'records per site the {BYSITE_LINE} of '):
            bad.append(name)
        lines += 1
    check(lines > 0 and not bad, f'{lines} events\' lines of records per site are census.json\'s '
                                 f'site_records, most first ({bad[:3]})')


def drill_down(root, census, top_names):
    events = {e['name']: e for e in census['events']}
    tables = [n for n in root.all('table') if n.attrs.get('id', '').startswith('bysite-')]
    check(len(tables) == len(top_names), f'{len(tables)} per-site drill-down tables, one per top event')
    for t in tables:
        sec = t.up('section')
        name = next(sec.all('h3')).text()
        rows = [int(shown(list(tr.all('td'))[1])) for tr in t.all('tr') if tr.up('tbody') is not None]
        e = events[name]
        if sum(rows) != e['records'] or len(rows) != e['sites'] or 0 in rows:
            check(False, f'{name}: per-site rows sum {sum(rows)} in {len(rows)} rows, '
                         f'census.json {e["records"]} on {e["sites"]} sites')
    check(len(tables) > 0, 'per-site drill-down: a row per site with records, summing to census.json records')


def figures(root, metrics, rows):
    svgs = list(root.all('svg'))
    loose = [s.attrs.get('class') for s in svgs if s.up('figure') is None]
    check(not loose, f'every plot in a figure ({len(svgs)} plots; outside: {loose[:3]})')
    multi = [f for f in root.all('figure') if len(list(f.all('svg'))) != 1]
    check(not multi, 'one plot per figure')
    caps = [next(f.all('figcaption'), None) for f in root.all('figure')
            if 'tc-timeline' in next(f.all('svg')).attrs.get('class', '')]
    got = [c.text() for c in caps if c is not None and c.text() != 'no trace']
    # Sites by their TBT (the median of their traces), largest first, n/a
    # last, ties in metrics.json's order (by name); each site's traces in
    # metrics.json's order.
    tbt = {}
    for r in rows:
        if r['trace'] and r['tbt_ms'] != '':
            tbt.setdefault(r['site'], []).append(float(r['tbt_ms']))
    order = sorted(range(len(metrics['sites'])),
                   key=lambda i: (metrics['sites'][i]['site'] not in tbt,
                                  -nearest_rank(tbt.get(metrics['sites'][i]['site'], [0]), 0.5), i))
    traces = [t['trace'] for i in order for t in metrics['traces']
              if t['site'] == metrics['sites'][i]['site']]
    check(got == traces, f'each timeline\'s figure captions its own trace, sites by TBT largest first '
                         f'({len(got)} of {len(traces)})')
    worst = [metrics['sites'][i]['site'] for i in order[:3]]
    check(len(set(nearest_rank(tbt[s], 0.5) for s in worst if s in tbt)) > 1,
          f'the order is not vacuous: the first sites differ in TBT ({worst})')


def main():
    rc, err, out = run_census([CRAWL], extra=['-q', '--manifest', os.path.join(CRAWL, 'manifest.tsv')],
                              outdir=scratch('tc-report-'))
    check(rc == 0, f'census of corpus/crawl exits 0 ({err.strip()[:200]})')
    with open(os.path.join(out, 'metrics.json'), encoding='utf-8') as f:
        metrics = json.load(f)
    with open(os.path.join(out, 'census.json'), encoding='utf-8') as f:
        census = json.load(f)
    with open(os.path.join(out, 'metrics.csv'), encoding='utf-8', newline='') as f:
        rows = list(csv.DictReader(f))
    tree = Tree()
    with open(os.path.join(out, 'report.html'), encoding='utf-8') as f:
        page = f.read()
    # ASCII, the rest as numeric references (report/tc_html_ascii.h), which
    # the parser reads back: "µs" in the summary's median column's unit.
    check(page.isascii(), 'report.html is ASCII')
    tree.feed(page)
    root = tree.root
    check(any(t.text() == '\u00b5s' for t in root.all('span', 'unit')), 'the µs unit reads as µs')
    sites_table(root, metrics, rows)
    ecdf_marks(root, metrics)
    histograms(root, metrics)
    top = heatmap(root, census)
    drill_down(root, census, top)
    with open(os.path.join(out, 'run.json'), encoding='utf-8') as f:
        site_lines(root, census, json.load(f))
    figures(root, metrics, rows)
    if failures:
        print(f'{len(failures)} check(s) failed', file=sys.stderr)
        sys.exit(1)


main()
