#!/usr/bin/env python3
"""Compare the oracle's census with tracecensus's census.json.

Usage: compare_census.py ORACLE.json CENSUS.json

Both files have the shape census_oracle.py prints. Compared: sites_total,
and sites_with_traces/traces/records when the oracle has them; per event
name, records, sites, phases, args (path, records, sites, types) and, when
the oracle has them, sentence, pairs, categories (order included), usage,
records_per_site and duration. Keys the oracle lacks are ignored. Every
difference is printed, down to one phase, pair count, category or arg path;
the order of events, of arg paths and of types is checked too (sorted by
code point = UTF-8 byte order).

Durations: records, min_us, max_us and class must be equal; median_us and
p95_us are the census's sketch answers, which must lie within
SKETCH_ALPHA (relative) of the oracle's exact nearest-rank quantile, or be
0 where that quantile is below SKETCH_ZERO (the sketch counts those as 0).

The last line reads "compare: N events, M arg paths, K phase counts checked,
D differences; also P pair counts, C category counts, U durations, S
sentences, L usage labels".
Exit status: 0 if equal, 1 on any difference, 2 if a file cannot be read.
"""

import json
import sys

SKETCH_ALPHA = 0.005
SKETCH_ZERO = 1e-4
EVENT_EXACT_FIELDS = ("sentence", "usage", "records_per_site", "phases_with_args")


def by_key(items, key, side, where, diffs, ordered=True):
    """Index items by item[key], reporting repeats, missing keys and, if
    ordered, items not sorted by key."""
    table = {}
    for item in items:
        value = item.get(key) if isinstance(item, dict) else None
        if not isinstance(value, str):
            diffs.append("%s: %s entry without a string %s: %r" % (side, where, key, item))
        elif value in table:
            diffs.append("%s: %s %s %r appears twice" % (side, where, key, value))
        else:
            table[value] = item
    keys = [item.get(key) for item in items if isinstance(item, dict) and isinstance(item.get(key), str)]
    if ordered and keys != sorted(keys):
        diffs.append("%s: %s not sorted by %s" % (side, where, key))
    return table


def compare_sets(want, got, what, diffs):
    """Report members only one side has; return the common ones, sorted."""
    for k in sorted(set(want) - set(got)):
        diffs.append("%s %r: only in oracle" % (what, k))
    for k in sorted(set(got) - set(want)):
        diffs.append("%s %r: only in census" % (what, k))
    return sorted(set(want) & set(got))


def compare_fields(want, got, fields, where, diffs):
    for field in fields:
        if want.get(field) != got.get(field):
            diffs.append("%s %s: oracle %r, census %r" % (where, field, want.get(field), got.get(field)))


def within_sketch_error(exact, answer):
    if not isinstance(answer, (int, float)) or isinstance(answer, bool):
        return False
    if exact < SKETCH_ZERO:
        return answer == 0
    return abs(answer - exact) <= SKETCH_ALPHA * exact * (1 + 1e-12)


def compare_duration(want, got, where, diffs):
    if want is None or not isinstance(got, dict):
        if want != got:
            diffs.append("%s duration: oracle %r, census %r" % (where, want, got))
        return
    compare_fields(want, got, ["records", "min_us", "max_us", "class"], where + " duration", diffs)
    for key in ("median_us", "p95_us"):
        if not within_sketch_error(want[key], got.get(key)):
            diffs.append("%s duration %s: census %r is not within %g of the exact %r"
                         % (where, key, got.get(key), SKETCH_ALPHA, want[key]))


def compare_categories(want, got, where, diffs):
    if not isinstance(got, list):
        diffs.append("%s categories: census %r is not a list" % (where, got))
        return 0
    w = {c["name"]: c["records"] for c in want}
    g = by_key(got, "name", "census", where + " categories", diffs, ordered=False)
    for name in compare_sets(w, g, where + " category", diffs):
        if w[name] != g[name].get("records"):
            diffs.append("%s category %r records: oracle %d, census %r"
                         % (where, name, w[name], g[name].get("records")))
    order = [c.get("name") for c in got if isinstance(c, dict)]
    if sorted(order) == sorted(w) and order != [c["name"] for c in want]:
        diffs.append("%s categories order: oracle %r, census %r"
                     % (where, [c["name"] for c in want], order))
    return len(w)


def compare_event_extras(w, g, where, counts, diffs):
    """The figures an older oracle output may lack: checked when present."""
    present = [f for f in EVENT_EXACT_FIELDS if f in w]
    compare_fields(w, g, present, where, diffs)
    counts["sentences"] += "sentence" in w
    counts["usage"] += "usage" in w
    if "pairs" in w:
        g_pairs = g.get("pairs") if isinstance(g.get("pairs"), dict) else {}
        for key in sorted(w["pairs"]):
            counts["pairs"] += 1
            if w["pairs"][key] != g_pairs.get(key):
                diffs.append("%s pairs %s: oracle %d, census %r" % (where, key, w["pairs"][key], g_pairs.get(key)))
    if "categories" in w:
        counts["categories"] += compare_categories(w["categories"], g.get("categories"), where, diffs)
    if "duration" in w:
        counts["durations"] += w["duration"] is not None
        compare_duration(w["duration"], g.get("duration"), where, diffs)


def compare(oracle, census):
    """Return (differences, counts of what was checked)."""
    diffs = []
    counts = dict.fromkeys(("events", "args", "phases", "pairs", "categories", "durations",
                            "sentences", "usage"), 0)
    compare_fields(oracle, census, ["sites_total"] + [f for f in ("sites_with_traces", "traces", "records")
                                                      if f in oracle], "corpus", diffs)
    want = by_key(oracle["events"], "name", "oracle", "events", diffs)
    got = by_key(census.get("events", []), "name", "census", "events", diffs)
    for name in compare_sets(want, got, "event", diffs):
        counts["events"] += 1
        w, g = want[name], got[name]
        where = "event %r" % name
        compare_fields(w, g, ["records", "sites"], where, diffs)
        compare_event_extras(w, g, where, counts, diffs)

        g_phases = g.get("phases", {})
        if list(g_phases) != sorted(g_phases):
            diffs.append("census: %s phases not sorted" % where)
        for ph in compare_sets(w["phases"], g_phases, where + " phase", diffs):
            counts["phases"] += 1
            if w["phases"][ph] != g_phases[ph]:
                diffs.append("%s phase %r records: oracle %d, census %r"
                             % (where, ph, w["phases"][ph], g_phases[ph]))
        # The case-independent form (issue 11): the same counts as rows.
        compare_fields(w, g, ["phase_counts", "phase_counts_with_args"], where, diffs)

        w_args = by_key(w["args"], "path", "oracle", where + " args", diffs)
        g_args = by_key(g.get("args", []), "path", "census", where + " args", diffs)
        for path in compare_sets(w_args, g_args, where + " arg", diffs):
            counts["args"] += 1
            compare_fields(w_args[path], g_args[path], ["records", "sites", "types"],
                           "%s arg %r" % (where, path), diffs)
    return diffs, counts


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print("compare: cannot read %s: %s" % (path, e), file=sys.stderr)
        sys.exit(2)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        print(__doc__.strip().split("\n")[2], file=sys.stderr)
        return 2
    diffs, counts = compare(load(argv[0]), load(argv[1]))
    for d in diffs:
        print(d)
    print("compare: %d events, %d arg paths, %d phase counts checked, %d differences; "
          "also %d pair counts, %d category counts, %d durations, %d sentences, %d usage labels"
          % (counts["events"], counts["args"], counts["phases"], len(diffs), counts["pairs"],
             counts["categories"], counts["durations"], counts["sentences"], counts["usage"]))
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
