"""Run the recorder for real on two fixture sites and the 404 fixture.

Needs Debian's chromium and the zstd command; skipped, saying which is
missing, otherwise (CI installs both). The traces it records are checked
against the same expectations as the bundled crawl.
"""
import os
import shutil
import subprocess
import tempfile
import unittest

import tracekit
from test_bundled_crawl import EXPECTATIONS

CHROMIUM = os.environ.get("CHROMIUM", "chromium")
SITES = ["layout-thrash", "anim-composited"]


@unittest.skipUnless(shutil.which(CHROMIUM), "chromium is not installed (apt-get install chromium)")
@unittest.skipUnless(tracekit.have_zstd(), "the zstd command is not installed")
class RecorderRun(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="tc-recorder-test-")
        cls.out = os.path.join(cls.tmp, "crawl")
        cls.proc = subprocess.run(
            [tracekit.RECORD, "-o", cls.out, "--sites", ",".join(SITES + ["root-404"]),
             "--chromium", CHROMIUM, "--zstd-level", "3"],
            capture_output=True, text=True, timeout=600)
        cls.rows = {r["site"]: r for r in tracekit.read_manifest(cls.out)} \
            if os.path.exists(os.path.join(cls.out, "manifest.tsv")) else {}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_exit_status_says_a_site_failed(self):
        self.assertEqual(self.proc.returncode, 1, self.proc.stderr[-3000:])

    def test_manifest_lists_the_three_sites(self):
        self.assertEqual(sorted(self.rows), sorted(SITES + ["root-404"]))
        self.assertEqual(self.rows["root-404"]["status"], "failed")
        self.assertIn("HTTP 404", self.rows["root-404"]["reason"])

    def test_traces_parse_and_hold_the_expected_events(self):
        for site in SITES:
            with self.subTest(site=site):
                row = self.rows[site]
                self.assertEqual(row["status"], "recorded", row["reason"])
                trace = tracekit.Trace.load(os.path.join(self.out, row["trace"]))
                self.assertGreater(len(trace.events), 1000)
                view = tracekit.SiteView(trace, row["url"])
                self.assertTrue(view.pids, "no renderer committed " + row["url"])
                for check in EXPECTATIONS[site]:
                    ok, detail = check.run(view)
                    with self.subTest(check=check.description):
                        self.assertTrue(ok, detail)


if __name__ == "__main__":
    unittest.main()
