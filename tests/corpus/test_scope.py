"""The census scope on the bundled crawl, against tests/oracle/scope_oracle.py
(an independent Python reading of the rule, no project code):

- the default census (scope no-chrome-ui) counts, name by name, the
  records and sites the oracle counts over the processes it keeps, and the
  records and sites it leaves out; the names it leaves out whole are listed
  apart; run.json names, per trace, exactly the processes the oracle leaves
  out, each with its records;
- `--scope all` counts every record: per name the oracle's kept and
  left-out records together, on every site with any;
- the header names the Chromium version the manifest records, said to come
  from it (the startup traces name none).

Needs the binary (TRACECENSUS) and the zstd command."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import tracekit

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "oracle"))
import scope_oracle  # noqa: E402

BINARY = os.environ.get("TRACECENSUS")


def census(out, *extra):
    subprocess.run([BINARY, "census", "-q", "-T", "2", "--manifest",
                    os.path.join(tracekit.CRAWL, "manifest.tsv"), "-o", out, *extra,
                    tracekit.CRAWL], check=True, capture_output=True, text=True, timeout=600)
    with open(os.path.join(out, "census.json"), encoding="utf-8") as f:
        c = json.load(f)
    with open(os.path.join(out, "run.json"), encoding="utf-8") as f:
        r = json.load(f)
    return c, r


@unittest.skipUnless(BINARY, "TRACECENSUS is not set")
@unittest.skipUnless(tracekit.have_zstd(), "the zstd command is needed to read the crawl")
class Scope(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.oracle = scope_oracle.run(tracecensus_crawl())
        cls.census, cls.runjson = census(os.path.join(cls.tmp.name, "default"))
        cls.all, _ = census(os.path.join(cls.tmp.name, "all"), "--scope", "all")
        with open(os.path.join(cls.tmp.name, "default", "census.md"), encoding="utf-8") as f:
            cls.md = f.read()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_the_oracle_finds_chromes_own_renderer(self):
        # Every trace of the crawl holds the omnibox popup's renderer.
        self.assertTrue(all(self.oracle["traces"].values()), self.oracle["traces"])
        self.assertGreater(self.oracle["left"], 0)

    def test_default_scope_counts_what_the_oracle_keeps(self):
        c = self.census
        self.assertEqual(c["scope"], "no-chrome-ui")
        self.assertEqual(c["records"], self.oracle["records"])
        self.assertEqual(c["records_outside_scope"], self.oracle["left"])
        self.assertEqual(c["outside_scope"], {"browser_ui": self.oracle["left"], "other_renderer": 0})
        inside = {e["name"]: e for e in c["events"]}
        outside = {e["name"]: e for e in c["events_outside_scope"]}
        for name, want in self.oracle["events"].items():
            with self.subTest(name=name):
                got = inside.get(name) if want["records"] else outside.get(name)
                self.assertIsNotNone(got, "missing")
                if want["records"]:
                    self.assertEqual((got["records"], got["sites"]), (want["records"], want["sites"]))
                self.assertEqual(got["outside_scope"]["browser_ui"],
                                 {"records": want["left"], "sites": want["left_sites"]})
                self.assertEqual(got["records_outside_scope"], want["left"])
        self.assertEqual(len(inside) + len(outside), len(self.oracle["events"]))
        self.assertEqual(sorted(outside), sorted(n for n, w in self.oracle["events"].items()
                                                 if not w["records"]))

    def test_run_json_names_the_processes_left_out(self):
        for f in self.runjson["files"]:
            path = os.path.relpath(f["path"], tracecensus_crawl())
            with self.subTest(trace=path):
                got = [p["pid"] for p in f["processes_outside_scope"]]
                self.assertEqual(got, self.oracle["traces"][path])
                for p in f["processes_outside_scope"]:
                    self.assertEqual(p["left_out_as"], "browser_ui")
                    self.assertTrue(p["urls"] and all(u.startswith("chrome://") for u in p["urls"]))
                    self.assertGreater(p["records"], 0)
        left = sum(p["records"] for f in self.runjson["files"] for p in f["processes_outside_scope"])
        self.assertEqual(left, self.oracle["left"])

    def test_scope_all_counts_every_record(self):
        a = self.all
        self.assertEqual(a["scope"], "all")
        self.assertEqual(a["records"], self.oracle["records"] + self.oracle["left"])
        self.assertEqual(a["events_outside_scope"], [])
        got = {e["name"]: (e["records"], e["sites"]) for e in a["events"]}
        want = {n: (w["records"] + w["left"], w["all_sites"]) for n, w in self.oracle["events"].items()}
        self.assertEqual(got, want)

    def test_header_names_the_manifests_chromium(self):
        versions = {r["chrome_version"] for r in tracekit.read_manifest(tracecensus_crawl())
                    if r["status"] == "recorded"}
        self.assertEqual(len(versions), 1)
        version = versions.pop()
        self.assertIn("**Chrome** %s (33 traces, from the manifest)" % version, self.md)
        self.assertEqual(self.runjson["chrome_versions"], {version: 33})
        self.assertTrue(all(f["chrome_version"] == version and f["chrome_version_from"] == "manifest"
                            for f in self.runjson["files"]))


def tracecensus_crawl():
    return tracekit.CRAWL


if __name__ == "__main__":
    unittest.main()
