"""The bundled crawl's manifest: every site listed, failures kept with a reason."""
import json
import os
import unittest

import tracekit
from test_bundled_crawl import crawl_available

COLUMNS = ["site", "url", "status", "reason", "trace", "bytes", "chrome_version",
           "categories", "duration_s"]
# The minimum set of categories; the recorder may ask for more.
REQUIRED_CATEGORIES = {
    "devtools.timeline", "disabled-by-default-devtools.timeline",
    "disabled-by-default-devtools.timeline.frame", "disabled-by-default-devtools.timeline.stack",
    "disabled-by-default-devtools.timeline.invalidationTracking", "blink", "blink.user_timing",
    "blink.animations", "cc", "benchmark", "rail", "loading", "v8.execute", "toplevel"}
# The bundled crawl is committed; keep it small enough for git. Recorded as
# users record, each trace holds Chrome's omnibox popup renderer too (about
# 0.4 MB of the typical 1 MB trace), hence more than the 17 MB of the crawl
# that left it out.
MAX_CRAWL_BYTES = 40 * 1024 * 1024


@unittest.skipUnless(crawl_available(), "no bundled crawl at corpus/crawl")
class BundledManifest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rows = tracekit.read_manifest(tracekit.CRAWL)
        with open(os.path.join(tracekit.CRAWL, "manifest.tsv"), encoding="utf-8") as f:
            cls.header = f.readline().rstrip("\n").split("\t")
        with open(os.path.join(tracekit.CRAWL, "manifest.json"), encoding="utf-8") as f:
            cls.json_rows = json.load(f)

    def test_header_names_the_columns(self):
        self.assertEqual(self.header, COLUMNS)

    def test_every_fixture_site_is_in_the_manifest_once(self):
        listed = [r["site"] for r in self.rows]
        self.assertEqual(sorted(listed), tracekit.site_names())

    def test_failure_fixtures_are_failed_with_their_reason(self):
        rows = {r["site"]: r for r in self.rows}
        expected = {"root-404": "HTTP 404", "hung-page": "no response"}
        for site, words in expected.items():
            with self.subTest(site=site):
                row = rows[site]
                self.assertEqual(row["status"], "failed")
                self.assertIn(words, row["reason"])
                self.assertEqual((row["trace"], row["bytes"]), ("", ""))
                folder = os.path.join(tracekit.CRAWL, site)
                self.assertTrue(os.path.isdir(folder), "a failed site keeps its folder")
                # .gitkeep keeps the empty folder in git; the census skips dot files.
                files = [f for f in os.listdir(folder) if not f.startswith(".")]
                self.assertEqual(files, [], "and the folder holds no trace")

    def test_only_the_failure_fixtures_failed(self):
        failed = sorted(r["site"] for r in self.rows if r["status"] == "failed")
        self.assertEqual(failed, ["hung-page", "root-404"])

    def test_recorded_rows_point_at_their_compressed_trace(self):
        for row in self.rows:
            if row["status"] != "recorded":
                continue
            with self.subTest(site=row["site"]):
                self.assertEqual(row["reason"], "")
                self.assertEqual(os.path.dirname(row["trace"]), row["site"])
                path = os.path.join(tracekit.CRAWL, row["trace"])
                self.assertEqual(os.path.getsize(path), int(row["bytes"]))
                with open(path, "rb") as f:
                    self.assertEqual(f.read(4), tracekit.ZSTD_MAGIC)
                self.assertTrue(row["url"].startswith("http://127.0.0.1:"))
                self.assertTrue(row["url"].endswith("/%s/" % row["site"]))

    def test_every_row_states_version_categories_and_duration(self):
        for row in self.rows:
            with self.subTest(site=row["site"]):
                self.assertRegex(row["chrome_version"], r"^Chromium \d+\.\d+\.\d+\.\d+")
                self.assertLessEqual(REQUIRED_CATEGORIES, set(row["categories"].split(",")))
                self.assertGreaterEqual(int(row["duration_s"]), 1)

    def test_the_json_manifest_holds_the_same_rows(self):
        self.assertEqual(len(self.json_rows), len(self.rows))
        for tsv, js in zip(self.rows, self.json_rows):
            with self.subTest(site=tsv["site"]):
                self.assertEqual(sorted(js), sorted(COLUMNS))
                self.assertEqual(js["categories"], tsv["categories"].split(","))
                self.assertEqual(js["bytes"], int(tsv["bytes"]) if tsv["bytes"] else None)
                for column in ("site", "url", "status", "reason", "trace", "chrome_version"):
                    self.assertEqual(js[column], tsv[column])
                self.assertEqual(str(js["duration_s"]), tsv["duration_s"])

    def test_the_crawl_is_small_enough_for_git(self):
        total = sum(os.path.getsize(os.path.join(folder, name))
                    for folder, _, names in os.walk(tracekit.CRAWL) for name in names)
        self.assertLessEqual(total, MAX_CRAWL_BYTES)


if __name__ == "__main__":
    unittest.main()
