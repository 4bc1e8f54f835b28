"""tracecensus on the bundled crawl: what its reports must say.

Runs the tracecensus CLI once on corpus/crawl with its manifest, so it needs
the binary: set TRACECENSUS to its path (e.g. TRACECENSUS=build/tracecensus).
Without it the tests are skipped, saying so. Checks:
- the census counts failed sites in S;
- metrics.csv has one row per site of the manifest, and no empty cell
  without a reason beside it (every cell is scanned, by the rule the README
  states);
- every recorded trace's page is the site itself, found among Chrome's own
  renderers (the crawl is recorded with the recipe's default flags);
- census.md says what the manual says of HTMLDocumentParser::
  PumpTokenizerIfPossible's flow pairs and of LayoutInvalidationTracking's
  recording setting;
- census.md shows the value profile of ActivateLayerTree's args.frameId and
  args.layerTreeId, and of every argument path of the manual's example
  events that the crawl holds, as census.json gives it;
- census.md is laid out for people (issue 11): a header whose figures are
  census.json's, a summary row per event with its figures, sections in
  name order without regard to case, an index by category holding every
  event under each of its categories, every link landing on an anchor, and
  no number in exponent form;
- report.html's figures are the JSON outputs': every summary row (name,
  categories, records, sites, usage, duration, median dur, DevTools-known,
  undeclared count), the heat map's columns (the events with most records)
  and cells (summing to each event's records), each distribution's n and
  median (nearest rank over metrics.json's site values), each timeline's
  buckets and long tasks.
"""
import csv
import html
import html.parser
import json
import os
import re
import subprocess
import tempfile
import unittest

import tracekit

BINARY = os.environ.get("TRACECENSUS")

# Columns whose reason lives in another column than <column>_na or their
# group's (README, "Outputs").
REASON_OF = {
    "trace": "main_thread_na", "main_pid": "main_thread_na", "main_tid": "main_thread_na",
    "main_threads": "main_thread_na", "bucket_ms": "main_thread_na",
    "frame_budget_ms": "main_thread_na", "main_url": "main_url_na",
    "window_start_us": "window_na", "window_end_us": "window_na", "window_ms": "window_na",
    "hidden_ms": "window_na", "suspended_ms": "window_na", "clock_jump_ms": "window_na",
    "discarded_samples": "window_na", "trace_span_ms": "window_na", "clamped_tasks": "window_na",
}
# Annotation columns: empty means none.
NOTES = {"flags", "error"}


def reason_column(header, column):
    """Where an empty COLUMN's reason is: its own *_na, else the README's
    table above, else its group's *_na, the first one after it that is not
    another column's own."""
    if column + "_na" in header:
        return column + "_na"
    if column in REASON_OF:
        return REASON_OF[column]
    for later in header[header.index(column) + 1:]:
        if later.endswith("_na") and later[:-3] not in header:
            return later
    return None


@unittest.skipUnless(BINARY, "TRACECENSUS is not set: set it to the tracecensus binary "
                             "(e.g. TRACECENSUS=build/tracecensus) to run the census on the crawl")
@unittest.skipUnless(tracekit.have_zstd(), "the zstd command is needed to read the crawl")
class BundledCensus(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rows = tracekit.read_manifest(tracekit.CRAWL)
        cls.tmp = tempfile.TemporaryDirectory()
        out = cls.tmp.name
        proc = subprocess.run([BINARY, "census", "--manifest",
                               os.path.join(tracekit.CRAWL, "manifest.tsv"), "-o", out,
                               tracekit.CRAWL], capture_output=True, text=True, timeout=900)
        cls.proc = proc
        with open(os.path.join(out, "census.json"), encoding="utf-8") as f:
            cls.census = json.load(f)
        with open(os.path.join(out, "metrics.json"), encoding="utf-8") as f:
            cls.metrics = json.load(f)
        with open(os.path.join(out, "metrics.csv"), encoding="utf-8", newline="") as f:
            cls.csv = list(csv.reader(f))
        with open(os.path.join(out, "census.md"), encoding="utf-8") as f:
            cls.md = f.read()
        with open(os.path.join(out, "report.html"), encoding="utf-8") as f:
            # The page is ASCII, its other characters numeric references
            # (report/tc_html_ascii.h); the patterns here read them back.
            cls.html = re.sub(r"&#(\d+);", lambda m: chr(int(m.group(1))) if int(m.group(1)) > 127
                              else m.group(0), f.read())

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_run_succeeded(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr[-2000:])

    def test_sites_total_includes_failed_sites(self):
        all_sites = {r["site"] for r in self.rows}
        traced_sites = {r["site"] for r in self.rows if r["status"] == "recorded"}
        failed_only = all_sites - traced_sites
        self.assertIn("root-404", failed_only)
        self.assertIn("hung-page", failed_only)
        self.assertEqual(self.census["sites_total"], len(all_sites))
        self.assertGreater(self.census["sites_total"], len(traced_sites))

    def test_metrics_csv_has_a_row_per_manifest_site(self):
        header, body = self.csv[0], self.csv[1:]
        site = header.index("site")
        self.assertEqual(sorted(r[site] for r in body), sorted(r["site"] for r in self.rows))
        failed = {r["site"]: r["reason"] for r in self.rows if r["status"] != "recorded"}
        for r in body:
            if r[site] in failed:
                cells = dict(zip(header, r))
                self.assertEqual((cells["main_thread_na"], cells["error"]),
                                 ("no_trace", failed[r[site]]))

    def test_no_empty_cell_without_a_reason(self):
        header, body = self.csv[0], self.csv[1:]
        checked = 0
        for r in body:
            self.assertEqual(len(r), len(header))
            cells = dict(zip(header, r))
            for column, value in cells.items():
                if value or column in NOTES or column.endswith("_na"):
                    continue
                why = reason_column(header, column)
                with self.subTest(site=cells["site"], column=column):
                    self.assertIsNotNone(why)
                    self.assertNotEqual(cells[why], "", "%s empty, %s empty too" % (column, why))
                checked += 1
        self.assertGreater(checked, 0)

    def test_every_page_is_the_site_not_chromes_own_renderer(self):
        urls = {r["site"]: r["url"] for r in self.rows if r["status"] == "recorded"}
        traces = {t["site"]: t for t in self.metrics["traces"]}
        self.assertEqual(sorted(traces), sorted(urls))
        popups = 0
        for site, url in urls.items():
            main = traces[site]["main_thread"]
            with self.subTest(site=site):
                self.assertEqual((main["rule"], main["url"]), ("commit_load", url))
                roles = {r["role"] for r in traces[site]["renderers"]}
                self.assertIn("page", roles)
                popups += "browser_ui" in roles
        self.assertEqual(popups, len(urls), "every trace holds the omnibox popup's renderer")

    def test_census_md_says_what_the_manual_says(self):
        sentence = re.search(r"^## HTMLDocumentParser::PumpTokenizerIfPossible\n\n(.*)$", self.md,
                             re.M).group(1)
        self.assertTrue(sentence.endswith("flow pairs, which carry no arguments."), sentence)
        section = self.md.split("## LayoutInvalidationTracking\n", 1)[1].split("\n## ", 1)[0]
        self.assertIn("A DevTools Performance recording contains this event only with Enable CSS "
                      "selector stats (slow) or Invalidation tracking turned on, which records "
                      "disabled-by-default-devtools.timeline.invalidationTracking.", section)

    def md_section(self, name):
        return self.md.split("\n## %s\n" % name, 1)[1].split("\n## ", 1)[0]

    def md_profile(self, name, path):
        """The values cell of NAME's PATH in census.md, unescaped."""
        for line in self.md_section(name).splitlines():
            if line.startswith("| `%s` | " % path):
                return md_unescape(re.split(r"(?<!\\)\|", line)[-2].strip())
        return None

    def json_profile(self, name, path):
        for e in self.census["events"]:
            if e["name"] == name:
                for a in e["args"]:
                    if a["path"] == path:
                        return a["values"]["profile"]
        return None

    def test_census_md_shows_activate_layer_tree_profiles(self):
        for path in ("args.frameId", "args.layerTreeId"):
            want = self.json_profile("ActivateLayerTree", path)
            self.assertTrue(want, path)
            self.assertEqual(self.md_profile("ActivateLayerTree", path), want)

    def test_census_md_shows_the_manual_example_paths(self):
        def paths(value, path, out):
            out.add(path)
            if isinstance(value, dict):
                for k, v in value.items():
                    paths(v, path + "." + k, out)
            elif isinstance(value, list):
                for v in value:
                    paths(v, path + "[]", out)

        shown = 0
        for event in tracekit.manual_events():
            args = event.get("args")
            if not isinstance(args, dict):
                continue
            found = set()
            for k, v in args.items():
                paths(v, "args." + k, found)
            for path in sorted(found):
                want = self.json_profile(event["name"], path)
                if want is None:
                    continue
                self.assertEqual(self.md_profile(event["name"], path), want, (event["name"], path))
                shown += 1
        self.assertGreater(shown, 50)


    def test_report_html_shows_every_profile(self):
        """Every argument row of report.html carries census.json's profile
        line for its path: the rows, as (path, profile) pairs, are exactly
        census.json's, one per event and path."""
        row = re.compile(r'<tr><td><code>(.*?)</code></td><td class="num">[^<]*</td>'
                         r'<td class="num">[^<]*</td><td>[^<]*</td><td>(.*?)</td></tr>')
        got = sorted((html.unescape(p), html.unescape(v)) for p, v in row.findall(self.html))
        want = sorted((a["path"], a["values"]["profile"]) for e in self.census["events"]
                      for a in e["args"])
        self.assertGreater(len(want), 1000)
        self.assertEqual(got, want)


    def md_outside_code(self):
        return re.sub(r"^```.*?^```$", "", self.md, flags=re.M | re.S)

    def test_census_md_header(self):
        c = self.census
        head = self.md.split("## Rules in brief", 1)[0]
        self.assertIn("**sites** %d surveyed (S), %d with traces" % (c["sites_total"], c["sites_with_traces"]),
                      head)
        self.assertIn("**traces** %d, holding %s event records of %d names"
                      % (c["traces"], format(c["records"], ","), len(c["events"])), head)
        self.assertIn("trace_engine", head)
        self.assertIn(c["devtools_schema"]["generator"], head)
        self.assertIn("**corpus** " + tracekit.CRAWL.replace("_", "\\_"), head)
        # The startup traces carry no metadata: the version is the manifest's.
        versions = {r["chrome_version"] for r in self.rows if r["status"] == "recorded"}
        self.assertEqual(len(versions), 1)
        self.assertIn("**Chrome** %s (%d traces, from the manifest)" % (versions.pop(), c["traces"]),
                      head)
        self.assertIn("**scope** no-chrome-ui: ", head)

    def test_census_md_summary_rows_are_the_json_figures(self):
        table = self.md.split("## Summary\n\n", 1)[1].split("\n\n", 1)[0].splitlines()[2:]
        events = sorted(self.census["events"], key=lambda e: (e["name"].encode().lower(), e["name"].encode()))
        self.assertEqual(len(table), len(events))
        for row, e in zip(table, events):
            cells = [x.strip() for x in re.split(r"(?<!\\)\|", row)[1:-1]]
            link = re.fullmatch(r"\[(.*)\]\(#(ev-[A-Za-z0-9_-]+)\)", cells[0])
            self.assertIsNotNone(link, row)
            self.assertEqual(re.sub(r"\\(.)", r"\1", link.group(1)), e["name"])
            dur = e["duration"]["class"] if e["duration"] else "n/a (no dur)"
            self.assertEqual(cells[1:], [format(e["records"], ","), format(e["sites"], ","), e["usage"], dur,
                                         "yes" if e["devtools_known"] else "no",
                                         format(len(e["undeclared_args"]), ",")], e["name"])

    def test_census_md_sections_in_name_order_without_case(self):
        names = [md_unescape(n) for n in re.findall(r"^## (.*)$", self.md_outside_code(), re.M)]
        start = names.index("Events by category") + 1
        sections = names[start:start + len(self.census["events"])]
        want = sorted((e["name"] for e in self.census["events"]), key=lambda n: (n.encode().lower(), n.encode()))
        self.assertEqual(sections, want)
        self.assertEqual(names[start + len(want):],
                         ["Seen only outside the scope", "Declared by DevTools, never observed"])

    def test_census_md_category_index(self):
        index = self.md.split("## Events by category\n\n", 1)[1].split("\n\n<a id=", 1)[0]
        got = set()
        for line in index.splitlines():
            m = re.match(r"- \*\*(.*?)\*\* \((\d+)\): (.*)$", line)
            if not m:
                continue
            cat = re.sub(r"\\(.)", r"\1", m.group(1))
            links = re.findall(r"\[((?:\\.|[^\]\\])*)\]\(#ev-", m.group(3))
            self.assertEqual(len(links), int(m.group(2)), cat)
            got |= {(cat, re.sub(r"\\(.)", r"\1", n)) for n in links}
        want = {(c["name"], e["name"]) for e in self.census["events"] for c in e["categories"]}
        want |= {("(no category)", e["name"]) for e in self.census["events"] if not e["categories"]}
        self.assertEqual(got, want)

    def test_census_md_links_land_and_numbers_have_no_exponent(self):
        text = self.md_outside_code()
        anchors = set(re.findall(r'<a id="([^"]+)"></a>', text))
        targets = set(re.findall(r"\]\(#([^)]+)\)", text))
        self.assertGreater(len(targets), len(self.census["events"]))
        self.assertEqual(targets - anchors, set())
        self.assertEqual(re.findall(r"\d(?:\.\d+)?e[+-]\d+", text), [])
        self.assertIn("**usage** very high (", text)


    def svgs(self, kind):
        return re.findall(r'<svg class="tc-plot tc-%s".*?</svg>' % kind, self.html, re.S)

    def test_report_html_summary_rows_are_census_json(self):
        rows = SummaryRows()
        rows.feed(self.html)
        by_name = {e["name"]: e for e in self.census["events"]}
        self.assertEqual(len(rows.rows), len(by_name))
        self.assertEqual([r[0][0] for r in rows.rows],
                         sorted(by_name, key=lambda n: (n.encode().lower(), n.encode())))
        for cells in rows.rows:
            e = by_name[cells[0][0]]
            dur = e["duration"]
            want = [
                [c["name"] for c in e["categories"]],
                e["records"], e["sites"], e["usage"],
                dur["class"] if dur else "n/a",
                dur["median_us"] if dur else "n/a",
                "yes" if e["devtools_known"] else "no",
                len(e["undeclared_args"]),
            ]
            got = [cells[1]] + [float(v) if v is not None else "".join(t) for t, v in cells[2:]]
            self.assertEqual(got, want, e["name"])

    def test_report_html_heatmap_is_the_top_events(self):
        (svg,) = self.svgs("heatmap")
        events = sorted(self.census["events"], key=lambda e: (-e["records"], e["name"].encode()))[:20]
        cells = re.findall(r"<rect [^>]*><title>(.*?) · (.*?): ([0-9,]+) records?</title>", svg)
        cells = [(html.unescape(s), html.unescape(e), int(n.replace(",", ""))) for s, e, n in cells]
        cols = re.search(r'<g class="cols">.*?</g>', svg, re.S).group(0)
        self.assertEqual([html.unescape(t) for t in re.findall(r"<title>(.*?)</title>", cols)],
                         [e["name"] for e in events])
        self.assertTrue({e for _, e, _ in cells} <= {e["name"] for e in events})
        totals = {}
        for _, name, n in cells:
            totals[name] = totals.get(name, 0) + n
        self.assertEqual(totals, {e["name"]: e["records"] for e in events})
        # A row per site, the rows of sites without traces n/a; a coloured
        # cell per site with records (census.json's site_records), every
        # other cell a subpath of the one path of 0 cells.
        rows = re.search(r'<g class="rows".*?</g>', svg, re.S).group(0)
        self.assertEqual(len(re.findall(r"<text [^>]*><title>", rows)), self.census["sites_total"])
        na = re.findall(r'<rect [^>]*class="na"', svg)
        with_traces = self.census["sites_with_traces"]
        self.assertEqual(len(na), (self.census["sites_total"] - with_traces) * len(events))
        nonzero = {e["name"]: sum(1 for _, n in e["site_records"] if n) for e in events}
        self.assertEqual({name: sum(1 for _, e, _ in cells if e == name) for name in nonzero}, nonzero)
        zero = re.search(r'<path class="zero"[^>]* d="([^"]*)"><title>0 records \(every cell in this shade\)', svg)
        self.assertEqual(zero.group(1).count("M") if zero else 0, with_traces * len(events) - len(cells))

    def test_report_html_distributions_are_metrics_json(self):
        plots = {}
        for svg in self.svgs("ecdf"):
            title = html.unescape(re.search(r"<title>(.*?)</title>", svg).group(1))
            plots[title] = html.unescape(re.search(r"<desc>(.*?)</desc>", svg).group(1))
        for column, title, scale in (("busy_mean_pct", "Main-thread busy rate", 1), ("tbt_ms", "Total blocking time", 1),
                                     ("long_tasks", "Long tasks per page view", 1),
                                     ("frame_p50_ms", "Frame intervals: median per page view", 1),
                                     ("frame_p95_ms", "Frame intervals: p95 per page view", 1),
                                     ("heap_growth_bytes", "JS heap growth", 1e6)):
            values = sorted(s["values"][column] / scale for s in self.metrics["sites"]
                            if s["values"].get(column) is not None)
            desc = plots[title + ": ECDF"]
            self.assertTrue(desc.startswith("n = %d sites" % len(values)), (title, desc))
            median = values[(len(values) + 1) // 2 - 1]
            # metrics.md's p50 (the corpus histogram's, within 0.5%) to one decimal
            shown = float(re.search(r"p50 (-?[0-9.,]+)", desc).group(1).replace(",", ""))
            self.assertAlmostEqual(shown, median, delta=abs(median) * 0.005 + 0.05, msg=title)

    def test_report_html_timelines_are_metrics_json(self):
        lines = [html.unescape(re.search(r'class="n"[^>]*>(.*?)</text>', svg).group(1))
                 for svg in self.svgs("timeline")]
        # Sites by TBT, largest first, n/a last, ties in metrics.json's order.
        sites = self.metrics["sites"]
        order = sorted(range(len(sites)), key=lambda i: (sites[i]["values"].get("tbt_ms") is None,
                                                         -(sites[i]["values"].get("tbt_ms") or 0), i))
        want = []
        for site in (sites[i] for i in order):
            for path in site["traces"]:
                t = next(t for t in self.metrics["traces"] if t["trace"] == path)
                series = t["busy"]["series_pct"]
                kept = sum(v is not None for v in series)
                line = "n = %d buckets of %g ms" % (kept, t["busy"]["bucket_ms"])
                if kept < len(series):
                    line += " · %d discarded" % (len(series) - kept)
                n = t["long_tasks"]["count"]
                want.append(line + " · %d long task%s" % (n, "" if n == 1 else "s"))
            if not site["traces"]:
                want.append(None)
        self.assertEqual(len(lines), len(want))
        for got, w in zip(lines, want):
            if w is not None:
                self.assertEqual(got, w)


def md_unescape(text):
    """Text as census.md escapes it (report/tc_text.h), read back: a
    backslash before ASCII punctuation."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


class SummaryRows(html.parser.HTMLParser):
    """The summary table's rows: per cell [text pieces] and its data-v."""

    def __init__(self):
        super().__init__()
        self.rows, self.table, self.cell, self.row = [], False, None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("id") == "summary":
            self.table = True
        elif self.table and tag == "tr":
            self.row = []
        elif self.table and tag == "td" and self.row is not None:
            self.cell = ([], a.get("data-v"))
            self.row.append(self.cell)

    def handle_endtag(self, tag):
        if tag == "table" and self.table:
            self.table = False
        elif self.table and tag == "tr" and self.row:
            r = self.row
            self.rows.append([[("".join(r[0][0]))], [t for t in r[1][0]]] + r[2:])
            self.row = None
        elif tag == "td":
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[0].append(data)


if __name__ == "__main__":
    unittest.main()
