"""The ground-truth sites' metrics from their Perfetto protobuf recordings
(issue 22): corpus/truth/proto/crawl holds one trace per site of
corpus/truth/sites, recorded with Chrome's default startup format (see
corpus/proto/README.md). tracecensus reads them and every site's figures
must pass groundtruth.py's checks with the same tolerances as the JSON
recordings (test_ground_truth.py). The events the checks read beside the
metrics (the page's loadEventEnd, the iframe's CommitLoad) come from
tests/oracle/proto_oracle.py, the independent reader, not from
tracecensus. Needs TRACECENSUS (the binary) and zstd."""
import os
import sys
import tempfile
import unittest

import groundtruth
import test_ground_truth
import tracekit

sys.path.insert(0, os.path.join(tracekit.REPO, "tests", "oracle"))
import proto_oracle  # noqa: E402

CRAWL = os.path.join(tracekit.CORPUS, "truth", "proto", "crawl")


@unittest.skipUnless(test_ground_truth.BINARY, "TRACECENSUS is not set: set it to the tracecensus binary")
@unittest.skipUnless(tracekit.have_zstd(), "the zstd command is needed to read the crawl")
class GroundTruthProto(unittest.TestCase):
    def test_protobuf_crawl_has_the_set_figures(self):
        rows = {r["site"]: r for r in tracekit.read_manifest(CRAWL)}
        self.assertEqual(sorted(rows), sorted(groundtruth.SITES))
        with tempfile.TemporaryDirectory() as out:
            metrics = test_ground_truth.census(CRAWL, out)
        traces = {t["site"]: t for t in metrics["traces"]}
        for site in sorted(rows):
            with self.subTest(site=site):
                self.assertEqual(rows[site]["status"], "recorded", rows[site]["reason"])
                path = os.path.join(CRAWL, rows[site]["trace"])
                events = proto_oracle.convert(proto_oracle.read(path))["traceEvents"]
                self.assertEqual(groundtruth.check(traces[site], site, rows[site]["url"], events), [])

    def test_recorded_in_the_default_format(self):
        for row in tracekit.read_manifest(CRAWL):
            with open(os.path.join(CRAWL, row["trace"]), "rb") as f:
                self.assertEqual(f.read(4), b"\x28\xb5\x2f\xfd")
            data = proto_oracle.read(os.path.join(CRAWL, row["trace"]))
            with self.subTest(site=row["site"]):
                self.assertEqual(data[:1], b"\x0a")


if __name__ == "__main__":
    unittest.main()
