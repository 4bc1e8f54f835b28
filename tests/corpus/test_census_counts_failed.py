"""The census counts failed sites in S.

Runs the tracecensus CLI on the bundled crawl, so it needs the binary: set
TRACECENSUS to its path (e.g. TRACECENSUS=build/tracecensus). Without it the
test is skipped, saying so.
"""
import json
import os
import subprocess
import tempfile
import unittest

import tracekit

BINARY = os.environ.get("TRACECENSUS")


@unittest.skipUnless(BINARY, "TRACECENSUS is not set: set it to the tracecensus binary "
                             "(e.g. TRACECENSUS=build/tracecensus) to run the census on the crawl")
class CensusCountsFailedSites(unittest.TestCase):
    def test_sites_total_includes_failed_sites(self):
        rows = tracekit.read_manifest(tracekit.CRAWL)
        all_sites = {r["site"] for r in rows}
        traced_sites = {r["site"] for r in rows if r["status"] == "recorded"}
        failed_only = all_sites - traced_sites
        self.assertIn("root-404", failed_only)
        self.assertIn("hung-page", failed_only)
        with tempfile.TemporaryDirectory() as out:
            proc = subprocess.run([BINARY, "census", "-o", out, tracekit.CRAWL],
                                  capture_output=True, text=True, timeout=900)
            self.assertIn(proc.returncode, (0, 1), proc.stderr[-2000:])
            with open(os.path.join(out, "census.json"), encoding="utf-8") as f:
                census = json.load(f)
        self.assertEqual(census["sites_total"], len(all_sites))
        self.assertGreater(census["sites_total"], len(traced_sites))


if __name__ == "__main__":
    unittest.main()
