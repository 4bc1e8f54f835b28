#!/usr/bin/env python3
"""Extract each manual entry's observed counts and labels into a TSV.

Usage: manual_usage.py [MANUAL.txt] [-o manual_entries.tsv]
Defaults: ../shared/seeds/chrome-trace-event-manual.txt (relative to the
repository root) and tests/oracle/manual_entries.tsv beside this script.

Columns: name, records (N), sites (M), sites_total (S), usage,
duration_label, phase_sentence (the whole "Observed ..." line), name_source
(json | inferred | empty: see manual_parse.py), manual_line (where the entry
starts, 1-based). Missing values are empty cells.

Then prints, per usage label, the range of N/S (records per corpus site) and
of N/M (records per site that has the event), and whether the labels are
ordered without overlap on that ratio, with the gaps a threshold can sit in.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from manual_parse import parse_manual  # noqa: E402

DEFAULT_MANUAL = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "seeds",
                                               "chrome-trace-event-manual.txt"))
DEFAULT_TSV = os.path.join(HERE, "manual_entries.tsv")
COLUMNS = ("name", "records", "sites", "sites_total", "usage", "duration_label",
           "phase_sentence", "name_source", "manual_line")
USAGE_ORDER = ("rare", "low", "moderate", "high", "very high")


def row(entry):
    cells = {
        "name": entry["name"] or "",
        "records": entry["records"],
        "sites": entry["sites"],
        "sites_total": entry["sites_total"],
        "usage": entry["labels"].get("usage"),
        "duration_label": entry["labels"].get("duration"),
        "phase_sentence": entry["observed"],
        "name_source": entry["name_source"],
        "manual_line": entry["line"],
    }
    out = ["" if cells[c] is None else str(cells[c]) for c in COLUMNS]
    for cell in out:
        if "\t" in cell or "\n" in cell:
            raise ValueError("cell would break the TSV: %r" % cell)
    return out


def write_tsv(entries, path):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\t".join(COLUMNS) + "\n")
        for entry in entries:
            f.write("\t".join(row(entry)) + "\n")


def label_ranges(entries, ratio):
    """Return {usage label: (min, max, count)} of ratio(entry) over labelled entries."""
    ranges = {}
    for e in entries:
        label = e["labels"].get("usage")
        if label is None or e["records"] is None:
            continue
        value = ratio(e)
        lo, hi, n = ranges.get(label, (value, value, 0))
        ranges[label] = (min(lo, value), max(hi, value), n + 1)
    return ranges


def describe(ranges, title):
    lines = [title]
    labels = [l for l in USAGE_ORDER if l in ranges] + sorted(set(ranges) - set(USAGE_ORDER))
    for label in labels:
        lo, hi, n = ranges[label]
        lines.append("  %-9s n=%-3d min %12.4f  max %12.4f" % (label, n, lo, hi))
    ordered = [l for l in USAGE_ORDER if l in ranges]
    separable = True
    for lower, upper in zip(ordered, ordered[1:]):
        gap_lo, gap_hi = ranges[lower][1], ranges[upper][0]
        if gap_lo < gap_hi:
            lines.append("  %s | %s: any threshold in (%.4f, %.4f) separates them"
                         % (lower, upper, gap_lo, gap_hi))
        else:
            separable = False
            lines.append("  %s | %s: OVERLAP, %s reaches %.4f but %s starts at %.4f"
                         % (lower, upper, lower, gap_lo, upper, gap_hi))
    lines.append("  => %s" % ("labels are separable on this ratio" if separable
                               else "labels are NOT separable on this ratio"))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("manual", nargs="?", default=DEFAULT_MANUAL)
    ap.add_argument("-o", "--output", default=DEFAULT_TSV)
    args = ap.parse_args(argv)

    entries = parse_manual(args.manual)
    write_tsv(entries, args.output)

    print("manual_usage: %d entries -> %s" % (len(entries), args.output))
    print("  with an example name: %d, name inferred: %d, no name: %d"
          % tuple(sum(1 for e in entries if e["name_source"] == s) for s in ("json", "inferred", "")))
    print("  with an Observed sentence: %d, with a usage label: %d, with a duration label: %d"
          % (sum(1 for e in entries if e["observed"]),
             sum(1 for e in entries if "usage" in e["labels"]),
             sum(1 for e in entries if "duration" in e["labels"])))
    for e in entries:
        if e["name_source"] != "json":
            print("  line %d: name %s (%s; candidates %s)"
                  % (e["line"], repr(e["name"]) if e["name"] else "unknown",
                     e["name_source"] or "not inferred", e.get("name_candidates")))
        if "usage" in e["labels"] and not e["observed"]:
            print("  line %d %s: usage %r but no Observed sentence"
                  % (e["line"], e["name"], e["labels"]["usage"]))
    print(describe(label_ranges(entries, lambda e: e["records"] / e["sites_total"]),
                   "usage by N/S (records per corpus site):"))
    print(describe(label_ranges(entries, lambda e: e["records"] / e["sites"]),
                   "usage by N/M (records per site carrying the event):"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
