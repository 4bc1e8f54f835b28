#!/usr/bin/env python3
"""Checks the manual readers (manual_parse/usage/examples) on a hand-made
manual and on the real one, and that the committed manual_entries.tsv is
what manual_usage.py writes today.

Run: python3 tests/oracle/test_manual.py
"""

import contextlib
import io
import json
import os
import re
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import census_oracle  # noqa: E402
import manual_examples  # noqa: E402
import manual_usage  # noqa: E402
from manual_parse import parse_manual  # noqa: E402

MANUAL = manual_usage.DEFAULT_MANUAL

TINY_MANUAL = """Title

Alpha does a thing.

Spec

Spec text.

Arguments

Observed 1,234 times on 12 of 40 sites: 3 slices.

Behaviour

Prose that mentions Gamma once.

{
  "name": "Alpha",
  "ph": "X",
  "args": {"a": ["x", "... [2 more items]"]}
}

See also Beta \u00b7 Gamma

categories

blink

usage

moderate

duration

long

references

alpha.cc

This entry lost its heading and has no example.

Spec

Beta is what this entry is about; Beta again, Gamma once.

See also Alpha

references

beta.cc

Gamma does another thing.

Spec

Text.

Arguments

Observed 7 times on 7 of 40 sites.

Behaviour

{
  "name": "Gamma",
  "ph": "I"
}

See also Alpha \u00b7 Beta

usage

rare

references

gamma.cc

A last entry cut short.

Spec

Arguments

Observed 5 times on 1 of 40 sites.
"""


class TinyManual(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="manual-test-")
        self.manual = os.path.join(self.dir, "manual.txt")
        with open(self.manual, "w", encoding="utf-8") as f:
            f.write(TINY_MANUAL)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_entries(self):
        entries = parse_manual(self.manual)
        self.assertEqual([(e["name"], e["name_source"]) for e in entries],
                         [("Alpha", "json"), ("Beta", "inferred"), ("Gamma", "json"), (None, "")])
        alpha = entries[0]
        self.assertEqual((alpha["records"], alpha["sites"], alpha["sites_total"]), (1234, 12, 40))
        self.assertEqual(alpha["observed"], "Observed 1,234 times on 12 of 40 sites: 3 slices.")
        self.assertEqual(alpha["labels"], {"categories": "blink", "usage": "moderate",
                                           "duration": "long", "references": "alpha.cc"})
        self.assertEqual(entries[1]["records"], None)
        self.assertEqual(entries[2]["labels"]["usage"], "rare")
        self.assertEqual(entries[3]["records"], 5)

    def test_tsv_rows(self):
        tsv = os.path.join(self.dir, "out.tsv")
        with contextlib.redirect_stdout(io.StringIO()) as summary:
            self.assertEqual(manual_usage.main([self.manual, "-o", tsv]), 0)
        self.assertIn("rare | moderate: any threshold in (0.1750, 30.8500)", summary.getvalue())
        with open(tsv, encoding="utf-8") as f:
            rows = [line.rstrip("\n").split("\t") for line in f]
        self.assertEqual(rows[0], list(manual_usage.COLUMNS))
        self.assertEqual(rows[1][:7], ["Alpha", "1234", "12", "40", "moderate", "long",
                                       "Observed 1,234 times on 12 of 40 sites: 3 slices."])
        self.assertEqual(rows[2][:8], ["Beta", "", "", "", "", "", "", "inferred"])
        self.assertEqual(rows[4][:5], ["", "5", "1", "40", ""])

    def test_examples_corpus(self):
        out = os.path.join(self.dir, "corpus")
        skipped = []
        written = list(manual_examples.example_events(parse_manual(self.manual), skipped.append))
        self.assertEqual([(site, event["args"] if "args" in event else None) for site, event, _ in written],
                         [("Alpha", {"a": ["x"]}), ("Gamma", None)])
        self.assertEqual(len(skipped), 2)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(manual_examples.main([out, self.manual]), 0)
        self.assertEqual(sorted(os.listdir(out)), ["Alpha", "Gamma", "manifest.tsv"])


class RealManual(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.isfile(MANUAL):
            raise unittest.SkipTest("manual not found at " + MANUAL)
        cls.entries = parse_manual(MANUAL)
        with open(MANUAL, encoding="utf-8") as f:
            cls.lines = f.read().split("\n")

    def test_one_entry_per_spec_heading(self):
        self.assertEqual(len(self.entries), self.lines.count("Spec"))

    def test_every_observed_line_and_label_is_kept(self):
        observed = [line for line in self.lines if line.startswith("Observed ")]
        self.assertEqual([e["observed"] for e in self.entries if e["observed"]], observed)
        for label in ("usage", "duration"):
            values = [self.lines[i + 2] for i, line in enumerate(self.lines) if line == label]
            self.assertEqual([e["labels"][label] for e in self.entries if label in e["labels"]], values)

    def test_names(self):
        names = [e["name"] for e in self.entries if e["name"]]
        self.assertEqual(len(names), len(set(names)))
        for e in self.entries:
            if e["name_source"] == "json":
                self.assertEqual(json.loads(e["example"])["name"], e["name"])
            elif e["name_source"] == "inferred":
                self.assertNotIn(e["name"], e["see_also"])
                self.assertTrue(any(e["name"] in other["see_also"] for other in self.entries))
            else:
                self.assertIsNone(e["example"])

    def test_committed_tsv_is_current(self):
        with tempfile.TemporaryDirectory() as d:
            fresh = os.path.join(d, "manual_entries.tsv")
            manual_usage.write_tsv(self.entries, fresh)
            with open(fresh, encoding="utf-8") as f, \
                    open(manual_usage.DEFAULT_TSV, encoding="utf-8") as g:
                self.assertEqual(g.read(), f.read(), "rerun tests/oracle/manual_usage.py")

    def test_examples_through_the_oracle(self):
        with tempfile.TemporaryDirectory() as d:
            corpus = os.path.join(d, "corpus")
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
                self.assertEqual(manual_examples.main([corpus]), 0)
            skipped = err.getvalue().count("no example event, skipped")
            result = census_oracle.run_census(corpus, os.path.join(corpus, "manifest.tsv"))
        with_example = [e for e in self.entries if e["example"]]
        self.assertEqual(result["files_failed"], [])
        self.assertEqual(result["sites_total"], len(with_example))
        events = {e["name"]: e for e in result["events"]}
        self.assertEqual(sorted(events), sorted(e["name"] for e in with_example))
        self.assertEqual(skipped, len(self.entries) - len(with_example))
        checked = 0
        for entry in with_example:
            example = json.loads(entry["example"])
            got = events[entry["name"]]
            self.assertEqual((got["records"], got["sites"], got["phases"]), (1, 1, {example["ph"]: 1}))
            checked += self.check_undeclared_args(entry, {a["path"] for a in got["args"]})
        self.assertGreater(checked, 0)

    def check_undeclared_args(self, entry, paths):
        """The manual's own path notation: every path it lists whose last key
        the example shows must be a path the oracle found. Returns how many."""
        listed = entry["labels"].get("undeclared args", "")
        checked = 0
        for path in (re.sub(r" and \d+ more$", "", p.strip()) for p in listed.split(",") if p.strip()):
            key = re.sub(r"(\[\])+$", "", path.rsplit(".", 1)[-1])
            if '"%s":' % key in entry["example"]:
                self.assertIn(path, paths, entry["name"])
                checked += 1
        return checked


if __name__ == "__main__":
    unittest.main()
