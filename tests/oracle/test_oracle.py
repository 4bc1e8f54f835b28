#!/usr/bin/env python3
"""Pins census_oracle.py's definitions on tiny hand-made traces, and checks it
against a second, jq-based computation on the real third-party traces.

Run: python3 tests/oracle/test_oracle.py  (or python3 -m unittest discover -s tests/oracle)
"""

import contextlib
import copy
import csv
import gzip
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import census_oracle as oracle  # noqa: E402
import compare_census  # noqa: E402

THIRD_PARTY = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "traces", "third-party"))
# scripts/test.sh sets it: there, an oracle that cannot run fails instead of skipping.
REQUIRE_ORACLES = os.environ.get("TC_REQUIRE_ORACLES") == "1"


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

    def test_unknown_and_multi_character_ph_count_under_empty(self):
        self.write_events("s/t.json", [
            {"name": "P", "ph": "X"}, {"name": "P", "ph": "("}, {"name": "P", "ph": ">"},
            {"name": "P", "ph": "Z"}, {"name": "P", "ph": "BX"}, {"name": "P", "ph": ""},
            {"name": "P"}, {"name": "P", "ph": "\u00e9"}, {"name": "P", "ph": "x"},
            {"name": "P", "ph": ["B"]},
        ])
        self.assertEqual(self.event(self.census(), "P")["phases"], {"": 7, "(": 1, ">": 1, "X": 1})


class PairCase(CorpusCase):
    def pairs(self, result, name):
        """The non-zero pair counts of NAME."""
        return {k: v for k, v in self.event(result, name)["pairs"].items() if v}


class BeginEnd(PairCase):
    def test_one_stack_per_thread(self):
        self.write_events("s/t.json", [
            {"name": "A", "ph": "B", "pid": 1, "tid": 1},
            {"name": "B", "ph": "B", "pid": 1, "tid": 2},
            {"name": "x", "ph": "E", "pid": 1, "tid": 1},   # closes A
            {"name": "C", "ph": "B", "pid": 2, "tid": 1},   # same tid, other pid
            {"name": "y", "ph": "E", "pid": 1, "tid": 2},   # closes B
            {"name": "z", "ph": "E", "pid": 1, "tid": 2},   # nothing open on (1, 2)
            {"name": "w", "ph": "E", "pid": 2, "tid": 1},   # closes C
        ])
        result = self.census()
        for name in "ABC":
            self.assertEqual(self.pairs(result, name), {"begin_end": 1}, name)
        for name in "xyw":
            self.assertEqual(self.pairs(result, name), {}, name)
        self.assertEqual(self.pairs(result, "z"), {"begin_end_unmatched": 1})

    def test_an_e_closes_the_innermost_b_whatever_its_name(self):
        self.write_events("s/t.json", [
            {"name": "outer", "ph": "B", "pid": 1, "tid": 1},
            {"name": "inner", "ph": "B", "pid": 1, "tid": 1},
            {"name": "outer", "ph": "E", "pid": 1, "tid": 1},  # closes inner
            {"name": "other", "ph": "E", "pid": 1, "tid": 1},  # closes outer
            {"name": "inner", "ph": "B", "pid": 1, "tid": 1},  # left open
        ])
        result = self.census()
        self.assertEqual(self.pairs(result, "outer"), {"begin_end": 1})
        self.assertEqual(self.pairs(result, "inner"), {"begin_end": 1, "begin_end_unmatched": 1})
        self.assertEqual(self.pairs(result, "other"), {})
        self.assertIn("1 begin/end pair and 1 unmatched begin or end", self.event(result, "inner")["sentence"])

    def test_stacks_are_per_trace_and_ids_keep_their_type(self):
        self.write_events("s/one.json", [{"name": "A", "ph": "B", "pid": 1, "tid": 1}])
        self.write_events("s/two.json", [
            {"name": "A", "ph": "E", "pid": 1, "tid": 1},       # A's B is in another trace
            {"name": "S", "ph": "B", "pid": "1", "tid": 1},
            {"name": "S", "ph": "E", "pid": 1, "tid": 1},       # "1" is not 1
            {"name": "N", "ph": "B"},
            {"name": "N", "ph": "E", "pid": None, "tid": True},  # absent either way
            {"name": "F", "ph": "B", "pid": 7, "tid": 2},
            {"name": "F", "ph": "E", "pid": 7.0, "tid": 2},      # numbers by value
        ])
        result = self.census()
        self.assertEqual(self.pairs(result, "A"), {"begin_end_unmatched": 2})
        self.assertEqual(self.pairs(result, "S"), {"begin_end_unmatched": 2})
        self.assertEqual(self.pairs(result, "N"), {"begin_end": 1})
        self.assertEqual(self.pairs(result, "F"), {"begin_end": 1})


class KeyedPairs(PairCase):
    def test_flows_match_by_id_cat_and_name(self):
        self.write_events("s/t.json", [
            {"name": "A", "ph": "s", "id": 1, "cat": "c"},
            {"name": "B", "ph": "f", "id": 1, "cat": "c"},      # same id, other name
            {"name": "C", "ph": "s", "id": 2}, {"name": "C", "ph": "s", "id": 2},
            {"name": "C", "ph": "f", "id": 2},
            {"name": "D", "ph": "s", "id": 3, "cat": "c1"},
            {"name": "D", "ph": "f", "id": 3, "cat": "c2"},     # other category
            {"name": "G", "ph": "f", "id": 5}, {"name": "G", "ph": "s", "id": 5},  # order is free
            {"name": "T", "ph": "t", "id": 4}, {"name": "T", "ph": "f", "id": 4},  # steps are not ends
        ])
        result = self.census()
        self.assertEqual(self.pairs(result, "A"), {"flow_unpaired": 1})
        self.assertEqual(self.pairs(result, "B"), {"flow_unpaired": 1})
        self.assertEqual(self.pairs(result, "C"), {"flow": 1, "flow_unpaired": 1})
        self.assertEqual(self.pairs(result, "D"), {"flow_unpaired": 2})
        self.assertEqual(self.pairs(result, "G"), {"flow": 1})
        self.assertEqual(self.pairs(result, "T"), {"flow_unpaired": 1})
        self.assertEqual(self.event(result, "T")["sentence"],
                         "Observed 2 times on 1 of 1 site: 1 unpaired flow record and 1 flow step.")

    def test_flows_pair_within_one_trace(self):
        self.write_events("s/one.json", [{"name": "H", "ph": "s", "id": 1}])
        self.write_events("s/two.json", [{"name": "H", "ph": "f", "id": 1}])
        self.assertEqual(self.pairs(self.census(), "H"), {"flow_unpaired": 2})

    def test_nestable_and_legacy_async_are_separate_families(self):
        self.write_events("s/t.json", [
            {"name": "A", "ph": "b", "id": "1"}, {"name": "A", "ph": "e", "id": "1"},
            {"name": "L", "ph": "S", "id": "1"}, {"name": "L", "ph": "F", "id": "1"},
            {"name": "M", "ph": "b", "id": "1"}, {"name": "M", "ph": "F", "id": "1"},
            {"name": "N", "ph": "S", "id": "1"}, {"name": "N", "ph": "e", "id": "1"},
            {"name": "A", "ph": "n", "id": "1"}, {"name": "L", "ph": "T", "id": "1"},
            {"name": "L", "ph": "p", "id": "1"},
            {"name": "Q", "ph": "s", "id": "1"}, {"name": "Q", "ph": "e", "id": "1"},  # flow vs async
        ])
        result = self.census()
        self.assertEqual(self.pairs(result, "A"), {"async": 1})
        self.assertEqual(self.pairs(result, "L"), {"async": 1})
        self.assertEqual(self.pairs(result, "M"), {"async_unpaired": 2})
        self.assertEqual(self.pairs(result, "N"), {"async_unpaired": 2})
        self.assertEqual(self.pairs(result, "Q"), {"flow_unpaired": 1, "async_unpaired": 1})
        self.assertEqual(self.event(result, "L")["sentence"],
                         "Observed 4 times on 1 of 1 site: 1 async span and 2 async instants and steps.")

    def test_id_text(self):
        self.write("s/t.json", "[" + ",".join([
            '{"name":"num","ph":"b","id":12}', '{"name":"num","ph":"e","id":"12"}',
            '{"name":"float","ph":"b","id":1.50}', '{"name":"float","ph":"e","id":"1.50"}',
            '{"name":"float","ph":"b","id":1.5}', '{"name":"float","ph":"e","id":"1.50"}',
            '{"name":"exp","ph":"b","id":1e3}', '{"name":"exp","ph":"e","id":"1e3"}',
            '{"name":"local","ph":"b","id2":{"local":"7"}}', '{"name":"local","ph":"e","id":"L:7"}',
            '{"name":"scope","ph":"b","id2":{"local":7}}', '{"name":"scope","ph":"e","id2":{"global":7}}',
            '{"name":"idwins","ph":"b","id":"1","id2":{"local":"9"}}', '{"name":"idwins","ph":"e","id":"1"}',
            '{"name":"bad","ph":"b","id":null,"id2":{"x":1,"global":"g"}}',
            '{"name":"bad","ph":"e","id2":{"global":"g"}}',
            '{"name":"none","ph":"b"}', '{"name":"none","ph":"e","id":{}}',
        ]) + "]")
        result = self.census()
        for name in ("num", "exp", "local", "idwins", "bad", "none"):
            self.assertEqual(self.pairs(result, name), {"async": 1}, name)
        self.assertEqual(self.pairs(result, "float"), {"async": 1, "async_unpaired": 2})
        self.assertEqual(self.pairs(result, "scope"), {"async_unpaired": 2})


class Categories(CorpusCase):
    def categories(self, result, name):
        return [(c["name"], c["records"]) for c in self.event(result, name)["categories"]]

    def test_split_trimmed_once_per_record(self):
        self.write_events("s/t.json", [
            {"name": "A", "cat": "a,a"},
            {"name": "A", "cat": " a , b,,a, "},
            {"name": "A"}, {"name": "A", "cat": ""}, {"name": "A", "cat": 5}, {"name": "A", "cat": " , "},
            {"name": "A", "cat": "c d,\tc"},
        ])
        self.assertEqual(self.categories(self.census(), "A"),
                         [("a", 2), ("\tc", 1), ("b", 1), ("c d", 1)])

    def test_sorted_by_records_then_name(self):
        self.write_events("s/t.json", [
            {"name": "A", "cat": "b,a,c"}, {"name": "A", "cat": "c,b"}, {"name": "A", "cat": "c,a,\u00e9"},
            {"name": "A", "cat": "B"},
        ])
        self.assertEqual(self.categories(self.census(), "A"),
                         [("c", 3), ("a", 2), ("b", 2), ("B", 1), ("\u00e9", 1)])


class Durations(CorpusCase):
    def duration(self, durs, name="D"):
        self.write_events("s/%s.json" % name, [{"name": name, "ph": "X", "dur": d} for d in durs])
        return self.event(self.census(), name)["duration"]

    def test_class_boundaries(self):
        for dur, label in [(-1, "very short"), (0, "very short"), (9.999, "very short"), (10, "short"),
                           (99.99, "short"), (100, "typical"), (999.9, "typical"), (1000, "long"),
                           (1e9, "long")]:
            self.assertEqual(self.duration([dur], "d%s" % dur)["class"], label, dur)

    def test_median_is_the_lower_middle_rank(self):
        d = self.duration([50, 1])
        self.assertEqual((d["median_us"], d["class"]), (1, "very short"))
        d = self.duration([600, 1, 500, 20], "four")
        self.assertEqual((d["median_us"], d["class"], d["min_us"], d["max_us"]), (20, "short", 1, 600))
        d = self.duration([5, 2000, 1000, 3, 4000], "five")
        self.assertEqual((d["median_us"], d["class"]), (1000, "long"))

    def test_p95_rank(self):
        self.assertEqual(self.duration(list(range(20, 0, -1)), "twenty")["p95_us"], 19)
        self.assertEqual(self.duration(list(range(1, 22)), "twentyone")["p95_us"], 20)
        self.assertEqual(self.duration([7], "one")["p95_us"], 7)
        self.assertEqual(self.duration(list(range(1, 101)), "hundred")["p95_us"], 95)

    def test_only_numeric_dur_counts(self):
        self.write_events("s/t.json", [
            {"name": "A", "dur": "5"}, {"name": "A", "dur": True}, {"name": "A", "dur": None},
            {"name": "A", "dur": 2.5}, {"name": "A"}, {"name": "B", "dur": "7"},
        ])
        result = self.census()
        self.assertEqual(self.event(result, "A")["duration"],
                         {"records": 1, "median_us": 2.5, "p95_us": 2.5, "min_us": 2.5, "max_us": 2.5,
                          "class": "very short"})
        self.assertIsNone(self.event(result, "B")["duration"])


class UsageAndSentence(CorpusCase):
    ZERO = dict.fromkeys(oracle.PAIR_KEYS, 0)

    def test_usage_boundaries(self):
        for records, label in [(1, "rare"), (5, "rare"), (6, "low"), (14, "low"), (15, "moderate"),
                               (899, "moderate"), (900, "high"), (8999, "high"), (9000, "very high")]:
            self.assertEqual(oracle.usage_label(records, 3), label, records)
        self.assertEqual(oracle.usage_label(5, 0), "n/a")

    def test_usage_and_sentence_agree_with_the_manual(self):
        with open(os.path.join(HERE, "manual_entries.tsv"), encoding="utf-8") as f:
            rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
        usage = sentences = 0
        for row in rows:
            if not (row["records"] and row["sites"] and row["sites_total"]):
                continue
            n, m, s = int(row["records"]), int(row["sites"]), int(row["sites_total"])
            if row["usage"]:
                self.assertEqual(oracle.usage_label(n, s), row["usage"], row["name"])
                usage += 1
            manual = row["phase_sentence"]
            if manual and ":" not in manual:
                self.assertEqual(oracle.sentence(n, m, s, {"X": n}, self.ZERO, {}), manual, row["name"])
                sentences += 1
            elif manual:
                # The one breakdown in the manual, whose counts are in its own
                # text; its example's slices carry args.parser, its flows none.
                x, flows = (int(v.replace(",", "")) for v in re.findall(r": ([\d,]+) complete slices and ([\d,]+) flow pairs", manual)[0])
                ours = oracle.sentence(n, m, s, {"X": x}, dict(self.ZERO, flow=flows), {"X": x})
                self.assertEqual(ours, manual)
                sentences += 1
        self.assertGreater(usage, 20)
        self.assertGreater(sentences, 20)

    def test_every_kind_in_order(self):
        phases = {"X": 1, "t": 2, "n": 1, "T": 1, "p": 1, "I": 1, "i": 1, "R": 1, "C": 1000, "M": 1,
                  "P": 2, "N": 1, "O": 1, "D": 1, "c": 5, "V": 5, "": 5}
        pairs = {"begin_end": 1234567, "begin_end_unmatched": 2, "flow": 1, "flow_unpaired": 1,
                 "async": 2, "async_unpaired": 1}
        self.assertEqual(
            oracle.sentence(1, 1000, 1234, phases, pairs, {}),
            "Observed 1 time on 1,000 of 1,234 sites: 1 complete slice, 1,234,567 begin/end pairs, "
            "2 unmatched begins or ends, 1 flow pair, 1 unpaired flow record, 2 flow steps, "
            "2 async spans, 1 unpaired async record, 3 async instants and steps, 2 instants, 1 mark, "
            "1,000 counters, 1 metadata record, 2 samples and 3 object records.")

    def test_one_kind_alone_has_no_breakdown(self):
        self.assertEqual(oracle.sentence(8, 1, 1, {"X": 5, "V": 3}, self.ZERO), "Observed 8 times on 1 of 1 site.")
        self.assertEqual(oracle.sentence(2, 1, 2, {"B": 1, "E": 1}, dict(self.ZERO, begin_end=1)),
                         "Observed 2 times on 1 of 2 sites.")
        self.assertEqual(oracle.sentence(3, 1, 2, {"I": 1, "R": 2}, self.ZERO),
                         "Observed 3 times on 1 of 2 sites: 1 instant and 2 marks.")

    def test_groups_without_arguments_say_so(self):
        self.write_events("a/t.json", [
            {"name": "A", "ph": "X", "args": {"parser": "0x1"}}, {"name": "A", "ph": "X", "args": {}},
            {"name": "A", "ph": "s", "id": 1}, {"name": "A", "ph": "f", "id": 1},
            {"name": "B", "ph": "X"}, {"name": "B", "ph": "I", "args": {}}])
        result = self.census()
        self.assertEqual(self.event(result, "A")["sentence"],
                         "Observed 4 times on 1 of 1 site: 2 complete slices and 1 flow pair, "
                         "which carries no arguments.")
        self.assertEqual(self.event(result, "A")["phases_with_args"], {"X": 1, "f": 0, "s": 0})
        # No group carries any: nothing to tell the groups apart by.
        self.assertEqual(self.event(result, "B")["sentence"],
                         "Observed 2 times on 1 of 1 site: 1 complete slice and 1 instant.")

    def test_sentence_and_usage_in_the_census(self):
        self.write_events("a/t.json", [{"name": "A", "ph": "X"}, {"name": "A", "ph": "B"}, {"name": "A", "ph": "E"}])
        self.write_events("b/t.json", [{"name": "A", "ph": "X"}, {"name": "B", "ph": "X"}])
        e = self.event(self.census(), "A")
        self.assertEqual(e["sentence"], "Observed 4 times on 2 of 2 sites: 2 complete slices and 1 begin/end pair.")
        self.assertEqual((e["usage"], e["records_per_site"]), ("low", 2.0))


class RepeatedKeys(PairCase):
    def test_first_occurrence_wins_but_every_args_counts(self):
        self.write("s/t.json", '[{"name":"a","name":"b","ph":"B","ph":"E","cat":"x","cat":"y",'
                               '"pid":1,"pid":2,"tid":1,"dur":5,"dur":7000,'
                               '"args":{"k":1},"args":{"j":"s"}},'
                               '{"name":"c","ph":"E","pid":1,"tid":1},'
                               '{"name":"f","ph":"s","id":"1","id":"2"},{"name":"f","ph":"f","id":"1"}]')
        result = self.census()
        self.assertEqual([e["name"] for e in result["events"]], ["a", "c", "f"])
        a = self.event(result, "a")
        self.assertEqual(a["phases"], {"B": 1})
        self.assertEqual(a["categories"], [{"name": "x", "records": 1}])
        self.assertEqual((a["duration"]["records"], a["duration"]["max_us"]), (1, 5))
        self.assertEqual(self.arg_table(result, "a"), {"args.j": (1, 1, ["string"]), "args.k": (1, 1, ["number"])})
        self.assertEqual(self.pairs(result, "a"), {"begin_end": 1})
        self.assertEqual(self.pairs(result, "f"), {"flow": 1})
        self.assertEqual(result["notes"]["duplicate_keys"], 7)


class Totals(CorpusCase):
    def test_records_traces_and_sites_with_traces(self):
        self.write_events("a/one.json", [{"name": "A"}, {"name": "B"}])
        self.write_events("a/two.json", [{"name": "A"}])
        self.write("a/bad.json", "{")
        os.makedirs(os.path.join(self.dir, "empty"))
        self.write_events("top.json", [{"name": "A"}])
        result = self.census()
        self.assertEqual((result["sites_total"], result["sites_with_traces"], result["traces"], result["records"]),
                         (3, 2, 4, 4))


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


class Compare(CorpusCase):
    """compare_census.py reports every changed figure and allows the sketch its error."""

    def setUp(self):
        super().setUp()
        self.write_events("s/t.json", [
            {"name": "A", "ph": "B", "cat": "x,y", "dur": 50},
            {"name": "A", "ph": "E", "cat": "y"},
            {"name": "A", "ph": "X", "dur": 0.00005},
            {"name": "A", "ph": "X", "dur": 2000, "args": {"k": 1}},
        ])
        self.oracle = json.loads(json.dumps(self.census()))

    def differences(self, change):
        census = copy.deepcopy(self.oracle)
        census["tool"] = "tracecensus"
        census["events"][0]["example"] = {}
        change(census["events"][0])
        diffs, counts = compare_census.compare(self.oracle, census)
        return diffs, counts

    def set(self, *path_and_value):
        *path, value = path_and_value

        def change(event):
            target = event
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
        return change

    def test_equal_and_counted(self):
        diffs, counts = self.differences(lambda e: None)
        self.assertEqual(diffs, [])
        self.assertEqual(counts, {"events": 1, "args": 1, "phases": 3, "pairs": 6, "categories": 2,
                                  "durations": 1, "sentences": 1, "usage": 1})

    def test_each_figure_is_compared(self):
        def swap_categories(e):
            e["categories"].reverse()
        cases = [
            ("pairs begin_end", self.set("pairs", "begin_end", 2)),
            ("pairs async", self.set("pairs", "async", 1)),
            ("categories order", swap_categories),
            ("category 'x' records", self.set("categories", 1, "records", 2)),
            ("category 'z': only in census", lambda e: e["categories"].append({"name": "z", "records": 1})),
            ("duration class", self.set("duration", "class", "long")),
            ("duration min_us", self.set("duration", "min_us", 0)),
            ("duration records", self.set("duration", "records", 4)),
            ("duration median_us", self.set("duration", "median_us", 50 * 1.006)),
            ("duration p95_us", self.set("duration", "p95_us", 2000 * 0.994)),
            ("duration: oracle", self.set("duration", None)),
            ("sentence", self.set("sentence", "Observed 4 times on 1 of 1 site.")),
            ("usage", self.set("usage", "rare")),
            ("records_per_site", self.set("records_per_site", 4.5)),
        ]
        for what, change in cases:
            diffs, _ = self.differences(change)
            self.assertEqual(len(diffs), 1, (what, diffs))
            self.assertIn(what, diffs[0])

    def test_sketch_error_is_allowed(self):
        for key, value in (("median_us", 50 * 1.0049), ("p95_us", 2000 * 0.9951)):
            self.assertEqual(self.differences(self.set("duration", key, value))[0], [], key)

    def test_quantiles_below_the_sketch_floor_are_zero(self):
        oracle_duration = {"records": 1, "median_us": 0.00005, "p95_us": -3, "min_us": -3, "max_us": 0.00005,
                           "class": "very short"}
        for median, expected in ((0, 0), (0.00005, 1)):
            diffs = []
            compare_census.compare_duration(oracle_duration, dict(oracle_duration, median_us=median, p95_us=0),
                                            "event", diffs)
            self.assertEqual(len(diffs), expected, diffs)

    def test_last_line(self):
        with contextlib.redirect_stdout(io.StringIO()) as out:
            path = os.path.join(self.dir, "o.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(self.oracle, f)
            self.assertEqual(compare_census.main([path, path]), 0)
        self.assertEqual(out.getvalue().strip().splitlines()[-1],
                         "compare: 1 events, 1 arg paths, 3 phase counts checked, 0 differences; "
                         "also 6 pair counts, 2 category counts, 1 durations, 1 sentences, 1 usage labels")


def decompressed(path):
    with open(path, "rb") as f:
        data = f.read()
    return gzip.decompress(data) if data.startswith(b"\x1f\x8b") else data


def jq_events(path):
    """Yield [name, ph, [[path, jq type], ...]] per event, computed by jq."""
    program = r"""
(if type == "array" then . else .traceEvents end) | .[] | select(type == "object")
| [ (.name | if type == "string" then . else "" end),
    (.ph | if type == "string" and length == 1 and (. as $ph | "BEXIibneSTpFstfPNODMCRcVv()=<>" | contains($ph))
           then . else "" end),
    (if (.args | type) == "object"
     then [.args as $a | $a | paths as $p
           | [("args" + ($p | map(if type == "number" then "[]" else "." + . end) | join(""))),
              ($a | getpath($p) | type)]]
     else [] end) ]"""
    out = subprocess.run(["jq", "-c", program], input=decompressed(path), capture_output=True, check=True).stdout
    for line in out.splitlines():
        yield json.loads(line)


# Pairs, categories and durations of a corpus given as concatenated traces
# on stdin (jq -n), from the definitions in census_oracle.py's docstring.
JQ_FIGURES = r"""
def text: if type == "string" then . else "" end;
def id_text: if type == "string" then . elif type == "number" then tojson else null end;
def event_id:
  (.id | id_text)
  // (.id2 | if type == "object"
            then [to_entries[] | select(.key == "local" or .key == "global")
                  | (.value | id_text) as $t | select($t != null)
                  | (if .key == "local" then "L:" else "G:" end) + $t] | first
            else null end)
  // "";
# B/E of one trace, in order -> [[name, pair key, 1]].
def begin_end_pairs:
  reduce (.[] | select(.ph == "B" or .ph == "E")) as $e ({stacks: {}, out: []};
    ($e.name | text) as $name | ([$e.pid, $e.tid] | tojson) as $t
    | if $e.ph == "B" then .stacks[$t] += [$name]
      elif (.stacks[$t] | length) > 0
      then .out += [[.stacks[$t][-1], "begin_end", 1]] | .stacks[$t] |= .[:-1]
      else .out += [[$name, "begin_end_unmatched", 1]] end)
  | .out + [.stacks[][] | [., "begin_end_unmatched", 1]];
# s/f, b/e, S/F of one trace -> [[name, pair key, count]]; order plays no part.
def keyed_pairs:
  {"s": ["flow", 1], "f": ["flow", 0], "b": ["nestable", 1], "e": ["nestable", 0],
   "S": ["legacy", 1], "F": ["legacy", 0]} as $families
  | [.[] | (.ph | text) as $ph | select($families | has($ph))
     | [$families[$ph][0], event_id, (.cat | text), (.name | text), $families[$ph][1]]]
  | group_by(.[0:4])[]
  | (map(.[4]) | add) as $b | (length - $b) as $f | ([$b, $f] | min) as $p
  | (if .[0][0] == "flow" then "flow" else "async" end) as $kind
  | [.[0][3], $kind, $p], [.[0][3], $kind + "_unpaired", $b + $f - 2 * $p];
def trim: until(startswith(" ") | not; .[1:]) | until(endswith(" ") | not; .[:-1]);
def categories: split(",") | map(trim | select(. != "")) | unique[];
def rank($n; $percent): ($n * $percent / 100 | ceil | if . < 1 then 1 else . end) - 1;
def by_name(f): group_by(.[0]) | map({key: .[0][0], value: (map(.[1:]) | f)}) | from_entries;
reduce inputs as $doc ({pairs: [], categories: [], durations: []};
  [$doc | if type == "array" then . else .traceEvents end | .[] | select(type == "object")] as $events
  | .pairs += ($events | begin_end_pairs) + [$events | keyed_pairs]
  | .categories += [$events[] | (.name | text) as $name | .cat | text | categories | [$name, .]]
  | .durations += [$events[] | select(.dur | type == "number") | [(.name | text), .dur]])
| .pairs |= by_name(group_by(.[0]) | map({key: .[0][0], value: (map(.[1]) | add)}) | from_entries)
| .categories |= by_name(group_by(.[0]) | map({name: .[0][0], records: length}) | sort_by(-.records, .name))
| .durations |= by_name(map(.[0]) | sort | length as $n | .[rank($n; 50)] as $median
    | {records: $n, median_us: $median, p95_us: .[rank($n; 95)], min_us: .[0], max_us: .[-1],
       class: (if $median < 10 then "very short" elif $median < 100 then "short"
               elif $median < 1000 then "typical" else "long" end)})
"""


def jq_figures(paths):
    """{"pairs": {name: {key: n}}, "categories": {name: [...]}, "durations": {name: {...}}}."""
    text = b"\n".join(decompressed(p) for p in paths)
    out = subprocess.run(["jq", "-n", "-c", JQ_FIGURES], input=text, capture_output=True, check=True).stdout
    return json.loads(out)


class AgainstJq(unittest.TestCase):
    """Every figure of the oracle on the real traces, recomputed through jq.
    (sentence and usage are functions of these figures, pinned above.)"""

    @classmethod
    def setUpClass(cls):
        cls.missing = [what for what, present in (("jq", shutil.which("jq")),
                                                  (THIRD_PARTY, os.path.isdir(THIRD_PARTY))) if not present]
        if not cls.missing:
            cls.result = oracle.run_census(THIRD_PARTY)

    def setUp(self):
        if self.missing:
            why = "needs " + " and ".join(self.missing)
            if REQUIRE_ORACLES:
                self.fail(why + " (TC_REQUIRE_ORACLES=1: an oracle may not skip)")
            self.skipTest(why)

    def files(self):
        return [os.path.join(THIRD_PARTY, entry) for entry in sorted(os.listdir(THIRD_PARTY))]

    def test_names_phases_and_args(self):
        jq_type = {"boolean": "bool"}
        names = {}
        for path in self.files():
            site = path  # each file is its own site; the names differ per file
            for name, ph, pairs in jq_events(path):
                e = names.setdefault(name, {"records": 0, "sites": set(), "phases": {}, "args": {}})
                e["records"] += 1
                e["sites"].add(site)
                e["phases"][ph] = e["phases"].get(ph, 0) + 1
                seen = {}
                for arg, t in pairs:
                    seen.setdefault(arg, set()).add(jq_type.get(t, t))
                for arg, types in seen.items():
                    a = e["args"].setdefault(arg, {"records": 0, "sites": set(), "types": set()})
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
        result = self.result
        self.assertEqual(result["files_failed"], [])
        self.assertEqual(result["sites_total"], len(self.files()))
        self.assertEqual(result["traces"], len(self.files()))
        self.assertEqual(result["records"], sum(e["records"] for e in expected))
        self.assertEqual(len(result["events"]), len(expected))
        for got, want in zip(result["events"], expected):
            self.assertEqual({k: got[k] for k in want}, want, got["name"])

    def test_pairs_categories_and_durations(self):
        jq = jq_figures(self.files())
        checked = {"pairs": 0, "categories": 0, "durations": 0}
        for e in self.result["events"]:
            name = e["name"]
            self.assertEqual({k: n for k, n in e["pairs"].items() if n},
                             {k: n for k, n in jq["pairs"].get(name, {}).items() if n}, name)
            self.assertEqual(e["categories"], jq["categories"].get(name, []), name)
            self.assertEqual(e["duration"], jq["durations"].get(name), name)
            checked["pairs"] += any(e["pairs"].values())
            checked["categories"] += bool(e["categories"])
            checked["durations"] += e["duration"] is not None
        # Every kind of figure is really exercised by the real traces.
        self.assertGreater(min(checked.values()), 20, checked)
        for key in oracle.PAIR_KEYS:
            if key != "flow_unpaired":  # none in these traces; pinned by KeyedPairs
                self.assertTrue(any(e["pairs"][key] for e in self.result["events"]), key)

    def test_a_missing_jq_fails_when_oracles_are_required(self):
        with tempfile.TemporaryDirectory() as empty:
            env = dict(os.environ, PATH=empty)
            env.pop("TC_REQUIRE_ORACLES", None)
            run = [sys.executable, os.path.abspath(__file__), "AgainstJq.test_names_phases_and_args"]
            relaxed = subprocess.run(run, env=env, capture_output=True, text=True)
            strict = subprocess.run(run, env=dict(env, TC_REQUIRE_ORACLES="1"), capture_output=True, text=True)
        self.assertEqual(relaxed.returncode, 0, relaxed.stderr)
        self.assertIn("skipped", relaxed.stderr)
        self.assertNotEqual(strict.returncode, 0, strict.stderr)
        self.assertIn("TC_REQUIRE_ORACLES=1", strict.stderr)


if __name__ == "__main__":
    unittest.main()
