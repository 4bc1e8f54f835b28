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
  events that the crawl holds, as census.json gives it.
"""
import csv
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
                return re.split(r"(?<!\\)\|", line)[-2].strip().replace("\\|", "|")
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


if __name__ == "__main__":
    unittest.main()
