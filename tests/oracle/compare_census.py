#!/usr/bin/env python3
"""Compare the oracle's census with tracecensus's census.json.

Usage: compare_census.py ORACLE.json CENSUS.json

Both files have the shape census_oracle.py prints; keys that only one side
has beyond sites_total/events (and name/records/sites/phases/args inside an
event, path/records/sites/types inside an arg) are ignored. Every difference
is printed, down to one phase or one arg path; the order of events, of arg
paths and of types is checked too (sorted by code point = UTF-8 byte order).
Exit status: 0 if equal, 1 on any difference, 2 if a file cannot be read.
"""

import json
import sys


def by_key(items, key, side, where, diffs):
    """Index items by item[key], reporting repeats, missing keys and bad order."""
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
    if keys != sorted(keys):
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


def compare(oracle, census):
    """Return (differences, counts of events, arg paths, phase counts checked)."""
    diffs = []
    counts = {"events": 0, "args": 0, "phases": 0}
    compare_fields(oracle, census, ["sites_total"], "corpus", diffs)
    want = by_key(oracle["events"], "name", "oracle", "events", diffs)
    got = by_key(census.get("events", []), "name", "census", "events", diffs)
    for name in compare_sets(want, got, "event", diffs):
        counts["events"] += 1
        w, g = want[name], got[name]
        where = "event %r" % name
        compare_fields(w, g, ["records", "sites"], where, diffs)

        g_phases = g.get("phases", {})
        if list(g_phases) != sorted(g_phases):
            diffs.append("census: %s phases not sorted" % where)
        for ph in compare_sets(w["phases"], g_phases, where + " phase", diffs):
            counts["phases"] += 1
            if w["phases"][ph] != g_phases[ph]:
                diffs.append("%s phase %r records: oracle %d, census %r"
                             % (where, ph, w["phases"][ph], g_phases[ph]))

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
    print("compare: %d events, %d arg paths, %d phase counts checked, %d differences"
          % (counts["events"], counts["args"], counts["phases"], len(diffs)))
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
