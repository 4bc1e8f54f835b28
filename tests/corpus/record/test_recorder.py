"""Run the recorder for real on two fixture sites and the 404 fixture, and on
every ground-truth site.

Needs Debian's chromium and the zstd command; skipped, saying which is
missing, otherwise (CI installs both). The traces it records are checked
against the same expectations as the bundled crawl, and the ground-truth
sites' metrics (tracecensus, named by TRACECENSUS) against their set
figures, as test_ground_truth.py checks the committed recordings. Both runs
use the recorder's default flags, as users record.
"""
import os
import shutil
import subprocess
import tempfile
import unittest

import tracekit
from test_bundled_crawl import EXPECTATIONS
from test_ground_truth import BINARY, TRUTH, check_recording

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


@unittest.skipUnless(shutil.which(CHROMIUM), "chromium is not installed (apt-get install chromium)")
@unittest.skipUnless(tracekit.have_zstd(), "the zstd command is not installed")
@unittest.skipUnless(BINARY, "TRACECENSUS is not set: set it to the tracecensus binary")
class GroundTruthRecording(unittest.TestCase):
    def test_a_fresh_recording_has_the_set_figures(self):
        check_recording(self, self.record, "startup", startup_windows=True)

    def record(self, out, sites):
        subset = ["--sites", ",".join(sites)] if sites else []
        # One browser at a time: a second one would preempt the first's busy
        # loops just as other work does.
        proc = subprocess.run(
            [tracekit.RECORD, "-o", out, "--sites-dir", os.path.join(TRUTH, "sites"), *subset,
             "--chromium", CHROMIUM, "--zstd-level", "3", "--jobs", "1"],
            capture_output=True, text=True, timeout=900,
            preexec_fn=tracekit.raise_priority())
        self.assertEqual(proc.returncode, 0, proc.stderr[-3000:])


if __name__ == "__main__":
    unittest.main()
