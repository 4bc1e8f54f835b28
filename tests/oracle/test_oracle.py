#!/usr/bin/env python3
"""Pins census_oracle.py's definitions on tiny hand-made traces, and checks it
against a second, jq-based computation on the real third-party traces.

Run: python3 tests/oracle/test_oracle.py  (or python3 -m unittest discover -s tests/oracle)
"""

import contextlib
import gzip
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import census_oracle as oracle  # noqa: E402

THIRD_PARTY = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "traces", "third-party"))


class CorpusCase(unittest.TestCase):
    """Builds a throwaway corpus directory per test."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="oracle-test-")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, relpath, content):
        path = os.path.join(self.dir, relpath)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        data = content if isinstance(content, bytes) else content.encode("utf-8")
        with open(path, "wb") as f:
            f.write(data)
        return path

    def write_events(self, relpath, events):
        return self.write(relpath, json.dumps({"traceEvents": events}))

    def census(self, manifest=None):
        self.messages = []
        return oracle.run_census(self.dir, manifest, self.messages.append)

    def event(self, result, name):
        matches = [e for e in result["events"] if e["name"] == name]
        self.assertEqual(len(matches), 1, "event %r" % name)
        return matches[0]

    def arg_table(self, result, name):
        return {a["path"]: (a["records"], a["sites"], a["types"]) for a in self.event(result, name)["args"]}


class PathNotation(CorpusCase):
    def test_objects_arrays_and_nested_arrays(self):
        self.write_events("s/t.json", [{
            "name": "E", "ph": "X",
            "args": {
                "data": {"frame": "F", "stackTrace": [{"url": "u", "line": 3}]},
                "a": [[1, {"b": None}], "x"],
                "empty_list": [],
                "empty_obj": {},
            },
        }])
        self.assertEqual(self.arg_table(self.census(), "E"), {
            "args.data": (1, 1, ["object"]),
            "args.data.frame": (1, 1, ["string"]),
            "args.data.stackTrace": (1, 1, ["array"]),
            "args.data.stackTrace[]": (1, 1, ["object"]),
            "args.data.stackTrace[].url": (1, 1, ["string"]),
            "args.data.stackTrace[].line": (1, 1, ["number"]),
            "args.a": (1, 1, ["array"]),
            "args.a[]": (1, 1, ["array", "string"]),
            "args.a[][]": (1, 1, ["number", "object"]),
            "args.a[][].b": (1, 1, ["null"]),
            "args.empty_list": (1, 1, ["array"]),
            "args.empty_obj": (1, 1, ["object"]),
        })

    def test_keys_are_unescaped_and_verbatim(self):
        self.write("s/t.json", r'[{"name":"E","args":{"a\"b":1,"c.d":{"\u00e9":2}," ":3}}]')
        self.assertEqual(sorted(self.arg_table(self.census(), "E")),
                         ["args. ", 'args.a"b', "args.c.d", "args.c.d.\u00e9"])

    def test_bool_is_not_a_number(self):
        self.write_events("s/t.json", [
            {"name": "E", "args": {"f": True, "g": 1, "h": 1.5, "i": False, "m": [True, 0]}},
            {"name": "E", "args": {"f": 0, "g": False}},
        ])
        table = self.arg_table(self.census(), "E")
        self.assertEqual(table["args.f"], (2, 1, ["bool", "number"]))
        self.assertEqual(table["args.g"], (2, 1, ["bool", "number"]))
        self.assertEqual(table["args.h"], (1, 1, ["number"]))
        self.assertEqual(table["args.i"], (1, 1, ["bool"]))
        self.assertEqual(table["args.m[]"], (1, 1, ["bool", "number"]))

    def test_path_counts_once_per_record(self):
        three = {"name": "E", "args": {"a": [{"u": 1}, {"u": "s"}, {"u": 2}]}}
        self.write_events("s/t.json", [three, three, {"name": "E", "args": {"a": []}}])
        table = self.arg_table(self.census(), "E")
        self.assertEqual(table["args.a"], (3, 1, ["array"]))
        self.assertEqual(table["args.a[]"], (2, 1, ["object"]))
        self.assertEqual(table["args.a[].u"], (2, 1, ["number", "string"]))

    def test_non_object_args_give_no_paths_but_count_the_record(self):
        self.write_events("s/t.json", [
            {"name": "E", "args": [1, 2]},
            {"name": "E", "args": "text"},
            {"name": "E", "args": None},
            {"name": "E", "args": 7},
            {"name": "E"},
        ])
        e = self.event(self.census(), "E")
        self.assertEqual((e["records"], e["args"]), (5, []))

    def test_arg_sites_are_per_name(self):
        self.write_events("s1/t.json", [{"name": "A", "args": {"x": 1}}, {"name": "B", "args": {}}])
        self.write_events("s2/t.json", [{"name": "B", "args": {"x": "y"}}, {"name": "A"}])
        self.write_events("s3/t.json", [{"name": "A", "args": {"x": 2}}])
        result = self.census()
        self.assertEqual(self.arg_table(result, "A"), {"args.x": (2, 2, ["number"])})
        self.assertEqual(self.arg_table(result, "B"), {"args.x": (1, 1, ["string"])})
        self.assertEqual(self.event(result, "A")["sites"], 3)


class NamesAndPhases(CorpusCase):
    def test_missing_or_non_string_name_and_ph_are_empty(self):
        self.write_events("s/t.json", [
            {"ph": "X"},
            {"name": 5, "ph": 1},
            {"name": None},
            {"name": "", "ph": "B"},
            {"name": "N", "ph": "X"},
            {"name": "N", "ph": "X"},
            {"name": "N", "ph": "E"},
            {"name": "N", "ph": None},
        ])
        result = self.census()
        blank = self.event(result, "")
        self.assertEqual((blank["records"], blank["phases"]), (4, {"": 2, "B": 1, "X": 1}))
        n = self.event(result, "N")
        self.assertEqual((n["records"], n["sites"], n["phases"]), (4, 1, {"": 1, "E": 1, "X": 2}))

    def test_only_object_elements_are_events(self):
        self.write("s/t.json", '[{"name":"A"}, 1, "A", null, [{"name":"A"}], {"name":"A"}]')
        self.assertEqual(self.event(self.census(), "A")["records"], 2)

    def test_repeated_keys(self):
        # name takes its first occurrence; every occurrence under args counts.
        self.write("s/t.json", '[{"name":"first","name":"second","args":{"k":1,"k":"s"}}]')
        result = self.census()
        self.assertEqual([e["name"] for e in result["events"]], ["first"])
        self.assertEqual(self.arg_table(result, "first"), {"args.k": (1, 1, ["number", "string"])})
        self.assertEqual(result["notes"]["duplicate_keys"], 2)

    def test_output_is_sorted(self):
        self.write_events("s/t.json", [
            {"name": "b", "ph": "X", "args": {"z": 1, "a": {"y": 1, "b": 2}}},
            {"name": "B", "ph": "B"},
            {"name": "a", "ph": "i"},
            {"name": "\u00e9"},
            {"name": "a", "ph": "I", "args": {"q": [True, None, "s", 1, {}, []]}},
        ])
        result = self.census()
        self.assertEqual([e["name"] for e in result["events"]], ["B", "a", "b", "\u00e9"])
        self.assertEqual(list(self.event(result, "a")["phases"]), ["I", "i"])
        self.assertEqual([a["path"] for a in self.event(result, "b")["args"]],
                         ["args.a", "args.a.b", "args.a.y", "args.z"])
        self.assertEqual(self.arg_table(result, "a")["args.q[]"][2],
                         ["array", "bool", "null", "number", "object", "string"])


class Repair(unittest.TestCase):
    def test_valid_texts_are_not_repaired(self):
        self.assertEqual(oracle.parse_trace('[{"name":"a"}]')[1], False)
        self.assertEqual(oracle.parse_trace('{"traceEvents":[],"metadata":{}}')[1], False)

    def test_unterminated_array_with_trailing_commas(self):
        events, repaired = oracle.parse_trace('[{"name":"a"},\n{"name":"b"},  ,\n\n')
        self.assertEqual((len(events), repaired), (2, True))
        events, repaired = oracle.parse_trace('[')
        self.assertEqual((len(events), repaired), (0, True))

    def test_unterminated_object_form(self):
        events, repaired = oracle.parse_trace('\t{"traceEvents":[{"name":"a"},{"name":"b"},\n')
        self.assertEqual((len(events), repaired), (2, True))

    def test_what_the_repair_does_not_cover(self):
        for text in ('[{"name":"a"},]',                      # comma before the bracket
                     '[{"name":"a"},{"name":',                # cut inside an event
                     '{"traceEvents":[{"name":"a"}],"x":1',    # only "}" missing
                     '{"other":[]}', '"text"', '[NaN]', ''):
            with self.assertRaises(oracle.TraceError, msg=text):
                oracle.parse_trace(text)


class Files(CorpusCase):
    EVENTS = [{"name": "A", "ph": "X", "args": {"v": 1}}, {"name": "B"}]

    def test_compression_by_magic_not_by_name(self):
        text = json.dumps(self.EVENTS).encode()
        self.write("plain/trace.gz", text)
        self.write("gz/trace.json", gzip.compress(text))
        self.write("bom/trace", b"\xef\xbb\xbf" + text)
        if shutil.which("zstd"):
            zst = subprocess.run(["zstd", "-c", "-q"], input=text, capture_output=True, check=True).stdout
            self.write("zst/trace.json", zst)
        result = self.census()
        self.assertEqual(result["files_failed"], [])
        sites = result["notes"]["sites_found"]
        self.assertEqual(self.event(result, "A")["sites"], sites)
        self.assertEqual(self.arg_table(result, "A"), {"args.v": (sites, sites, ["number"])})

    def test_broken_files_are_reported_not_dropped(self):
        self.write("s/bad.json", "{not json")
        self.write("s/badgz.json.gz", b"\x1f\x8b\x08\x00garbage")
        whole = gzip.compress(json.dumps(self.EVENTS).encode())
        self.write("s/cut.json.gz", whole[: len(whole) // 2])
        self.write("s/corrupt.json.gz", whole[:12] + bytes(b ^ 0x5A for b in whole[12:]))
        if shutil.which("zstd"):
            self.write("s/badzst.json.zst", b"\x28\xb5\x2f\xfd" + b"garbage")
        self.write_events("s/good.json", self.EVENTS)
        result = self.census()
        expected = ["bad.json", "badgz.json.gz", "corrupt.json.gz", "cut.json.gz"]
        if shutil.which("zstd"):
            expected.append("badzst.json.zst")
        self.assertEqual(sorted(os.path.basename(f["file"]) for f in result["files_failed"]), sorted(expected))
        self.assertEqual(self.event(result, "A")["records"], 1)
        with contextlib.redirect_stderr(io.StringIO()) as err:
            status = oracle.main([self.dir, "-o", os.path.join(self.dir, "out.json")])
        self.assertEqual(status, 2)
        self.assertIn("bad.json", err.getvalue())


class Sites(CorpusCase):
    def test_top_level_file_names(self):
        for given, expected in [
            ("artifacts__lr__trace.json.gz", "artifacts__lr"),
            ("traces__amp-m86.trace.json", "traces__amp-m86"),
            ("traces__lcp-m78.json", "traces__lcp-m78"),
            ("a.json.zst", "a"),
            ("a.trace.json.gz.zst", "a"),
            ("a.gz.json.gz", "a"),
            ("noext", "noext"),
            ("a.txt", "a.txt"),
            (".json", ".json"),
            ("__trace.json", "__trace"),
            ("x.tracer.json", "x.tracer"),
        ]:
            self.assertEqual(oracle.site_name_for_file(given), expected, given)

    def test_directories_files_and_exclusions(self):
        self.write_events("dirsite/one.json", [{"name": "A"}])
        self.write_events("dirsite/two.bin", [{"name": "A"}])
        self.write_events("dirsite/deeper/three.json", [{"name": "A"}])
        self.write("dirsite/manifest.json", "{}")
        self.write("dirsite/README.md", "not a trace")
        os.makedirs(os.path.join(self.dir, "emptysite"))
        self.write_events("top__trace.json", [{"name": "A"}, {"name": "C"}])
        self.write("manifest.tsv", "site\tx\n")
        self.write("README", "not a trace")
        self.write("README.txt", "not a trace")
        result = self.census()
        self.assertEqual(result["files_failed"], [])
        self.assertEqual(result["sites_total"], 3)
        self.assertEqual(result["notes"]["files"], 3)
        a = self.event(result, "A")
        self.assertEqual((a["records"], a["sites"]), (3, 2))
        sites, _ = oracle.list_sites(self.dir)
        self.assertEqual(sorted(sites), ["dirsite", "emptysite", "top"])

    def test_manifest_rows_give_sites_total(self):
        self.write_events("a/t.json", [{"name": "A"}])
        manifest = self.write("manifest.tsv", "rank\tsite\turl\n1\ta\tx\n2\tb\ty\n\n3\tc\tz\n")
        self.assertEqual(self.census(manifest)["sites_total"], 3)
        self.assertEqual(self.census()["sites_total"], 1)

    def test_clashing_site_names_are_one_site_and_warned(self):
        self.write_events("x.json", [{"name": "A"}])
        self.write_events("x.trace.json.gz", [{"name": "A"}])
        result = self.census()
        self.assertEqual((result["sites_total"], self.event(result, "A")["sites"]), (1, 1))
        self.assertTrue(any("used twice" in m for m in self.messages))


def jq_events(path):
    """Yield [name, ph, [[path, jq type], ...]] per event, computed by jq."""
    program = r'''
(if type == "array" then . else .traceEvents end) | .[] | select(type == "object")
| [ (.name | if type == "string" then . else "" end),
    (.ph | if type == "string" then . else "" end),
    (if (.args | type) == "object"
     then [.args as $a | $a | paths as $p
           | [("args" + ($p | map(if type == "number" then "[]" else "." + . end) | join(""))),
              ($a | getpath($p) | type)]]
     else [] end) ]'''
    with open(path, "rb") as f:
        data = f.read()
    if data.startswith(b"\x1f\x8b"):
        data = gzip.decompress(data)
    out = subprocess.run(["jq", "-c", program], input=data, capture_output=True, check=True).stdout
    for line in out.splitlines():
        yield json.loads(line)


@unittest.skipUnless(shutil.which("jq") and os.path.isdir(THIRD_PARTY), "needs jq and ../shared traces")
class AgainstJq(unittest.TestCase):
    """Every figure of the oracle on the real traces, recomputed through jq."""

    def test_real_traces(self):
        jq_type = {"boolean": "bool"}
        names = {}
        for entry in sorted(os.listdir(THIRD_PARTY)):
            site = entry  # each file is its own site; the names differ per file
            for name, ph, pairs in jq_events(os.path.join(THIRD_PARTY, entry)):
                e = names.setdefault(name, {"records": 0, "sites": set(), "phases": {}, "args": {}})
                e["records"] += 1
                e["sites"].add(site)
                e["phases"][ph] = e["phases"].get(ph, 0) + 1
                seen = {}
                for path, t in pairs:
                    seen.setdefault(path, set()).add(jq_type.get(t, t))
                for path, types in seen.items():
                    a = e["args"].setdefault(path, {"records": 0, "sites": set(), "types": set()})
                    a["records"] += 1
                    a["sites"].add(site)
                    a["types"] |= types
        expected = [
            {"name": n, "records": e["records"], "sites": len(e["sites"]), "phases": e["phases"],
             "args": sorted(({"path": p, "records": a["records"], "sites": len(a["sites"]),
                              "types": sorted(a["types"])} for p, a in e["args"].items()),
                            key=lambda a: a["path"])}
            for n, e in sorted(names.items())
        ]
        result = oracle.run_census(THIRD_PARTY)
        self.assertEqual(result["files_failed"], [])
        self.assertEqual(result["sites_total"], len(os.listdir(THIRD_PARTY)))
        self.assertEqual(len(result["events"]), len(expected))
        for got, want in zip(result["events"], expected):
            self.assertEqual(got, want, got["name"])


if __name__ == "__main__":
    unittest.main()
