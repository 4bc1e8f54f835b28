#!/usr/bin/env python3
"""Write the manual's example events as a small test corpus.

Usage: manual_examples.py OUTDIR [MANUAL.txt]

OUTDIR (absent or empty) gets one site directory per manual entry that has an
example event, named after the event with every character outside
[A-Za-z0-9._-] turned into "_", holding trace.json = {"traceEvents": [event]},
plus manifest.tsv (site, name, manual_line), which the census does not read
as a trace. Array elements that are the manual's truncation marks
("... [13 more items]") are dropped; truncated strings ("... [98 more chars]")
are ordinary strings and stay. Entries with no example, or whose example is
not valid JSON, are listed on stderr and skipped.
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from manual_parse import parse_manual  # noqa: E402
from manual_usage import DEFAULT_MANUAL  # noqa: E402

TRUNCATED_ITEMS = re.compile(r"^\.\.\. \[\d+ more items?\]$")


def drop_truncation_marks(value):
    if isinstance(value, dict):
        return {k: drop_truncation_marks(v) for k, v in value.items()}
    if isinstance(value, list):
        return [drop_truncation_marks(v) for v in value
                if not (isinstance(v, str) and TRUNCATED_ITEMS.match(v))]
    return value


def site_name(event_name):
    return re.sub(r"[^A-Za-z0-9._-]", "_", event_name)


def example_events(entries, report):
    """Yield (site, event, entry) for each usable example; report(str) the rest."""
    sites = set()
    for entry in entries:
        where = "line %d (%s)" % (entry["line"], entry["name"] or "no name")
        if entry["example"] is None:
            report("%s: no example event, skipped" % where)
            continue
        try:
            event = json.loads(entry["example"])
        except ValueError as e:
            report("%s: example is not valid JSON (%s), skipped" % (where, e))
            continue
        if not isinstance(event, dict) or not isinstance(event.get("name"), str):
            report("%s: example is not an event with a name, skipped" % where)
            continue
        site = site_name(event["name"])
        if site in sites:
            report("%s: site %r already written, skipped" % (where, site))
            continue
        sites.add(site)
        yield site, drop_truncation_marks(event), entry


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not 1 <= len(argv) <= 2:
        print(__doc__.strip().split("\n")[2], file=sys.stderr)
        return 2
    outdir = argv[0]
    manual = argv[1] if len(argv) == 2 else DEFAULT_MANUAL
    if os.path.exists(outdir) and os.listdir(outdir):
        print("manual_examples: %s is not empty" % outdir, file=sys.stderr)
        return 2
    os.makedirs(outdir, exist_ok=True)

    skipped = []
    manifest = ["site\tname\tmanual_line"]
    for site, event, entry in example_events(parse_manual(manual), skipped.append):
        os.mkdir(os.path.join(outdir, site))
        with open(os.path.join(outdir, site, "trace.json"), "w", encoding="utf-8") as f:
            json.dump({"traceEvents": [event]}, f, ensure_ascii=False, indent=1)
            f.write("\n")
        manifest.append("%s\t%s\t%d" % (site, event["name"], entry["line"]))
    with open(os.path.join(outdir, "manifest.tsv"), "w", encoding="utf-8") as f:
        f.write("\n".join(manifest) + "\n")
    for line in skipped:
        print("manual_examples: " + line, file=sys.stderr)
    print("manual_examples: %d sites written to %s, %d entries skipped"
          % (len(manifest) - 1, outdir, len(skipped)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
