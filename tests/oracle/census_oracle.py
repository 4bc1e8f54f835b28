#!/usr/bin/env python3
"""Independent census oracle: the figures tracecensus's census must reproduce.

Written from the definitions alone, sharing no code or parser with the C side,
so that agreement between the two means something. Standard library only.

Usage: census_oracle.py CORPUS [--manifest FILE.tsv] [-o OUT.json]

Output (stdout or -o) is the census.json subset:
  {"sites_total": S, "sites_with_traces", "traces", "records",
   "events": [{"name", "records", "sites", "sentence", "phases": {ph: records},
               "pairs": {"begin_end", "begin_end_unmatched", "flow",
                         "flow_unpaired", "async", "async_unpaired"},
               "categories": [{"name", "records"}], "usage",
               "records_per_site", "duration": null or {"records",
               "median_us", "p95_us", "min_us", "max_us", "class"},
               "args": [{"path", "records", "sites", "types": [...]}]}],
   "files_failed": [{"site", "file", "error"}], "notes": {...}}
events sorted by name, args by path (code-point order, which is also UTF-8
byte order, i.e. what strcmp gives). median_us and p95_us are exact here; the
census answers from a sketch, so compare_census.py allows its stated error.
files_failed and notes are extra keys the comparison ignores; a failed file
is reported on stderr and makes the exit status 2 so it is never silently
dropped.

Definitions (the C census implements exactly these):
- Sites: every subdirectory of CORPUS is a site named after it, holding the
  plain files directly inside it (no recursion). Every plain file directly in
  CORPUS is a site of its own, named by its file name with the suffixes in
  SITE_SUFFIXES stripped repeatedly (never down to an empty name). Files
  named manifest.tsv, manifest.json or README* are not traces, anywhere.
  sites_total counts the sites, or the data rows of --manifest. Two entries
  that map to the same site name are one site (a warning is printed).
- Compression is recognised by magic bytes only: gzip 1f8b, zstd 28b52ffd
  (decoded by `zstd -dc`), anything else is read as JSON text (UTF-8; a
  leading byte-order mark is skipped).
- Trace shapes: a JSON array of events or an object whose "traceEvents" is
  an array. If the text does not parse, it is repaired once, the way
  Chrome/Perfetto tolerate an unterminated array: trailing whitespace and
  commas are stripped and "]" appended ("]}" when the text starts with "{").
  A text that still fails is a failed file.
- Events are the JSON objects in that array; other elements are ignored.
  name = the "name" member if it is a string, else ""; cat likewise.
  ph = the "ph" member if it is a string of one character among
  PHASE_LETTERS, else "" (missing, multi-character, unknown and non-string
  ph all count under ""). When an object repeats a key, every member but
  args takes its first occurrence, and every occurrence of args contributes
  paths (what a streaming parser that walks each field sees); repeats are
  counted in notes.
- records counts events, traces counts trace files (failed ones too),
  sites_with_traces the sites holding at least one file.
- Arg paths: for an event whose "args" is an object, each member is
  "args.<key>" (key unescaped, verbatim); an object value's members extend
  the path with ".<key>"; an array value is itself a path of type array and
  its elements are "<path>[]", each with its own type, recursing into
  element objects and nested arrays ("args.a[][]"). A path counts once per
  event; its types are the set of JSON types seen for it anywhere.
- Pairs are counted per trace file, over its events in file order, then
  summed over the corpus under the name each pair counts for:
  begin_end: ph B pushes its name on the stack of its thread (pid, tid); ph
  E pops the innermost open B of that thread, whatever the names, and the
  pair counts for the B's name. begin_end_unmatched: an E whose thread has
  no open B (for the E's name), and every B still open at the end of the
  trace (for its name). pid and tid are numbers (by value) or strings;
  anything else is "absent", one more value.
  flow, flow_unpaired: ph s (begin) and f (end) grouped by (id, cat, name);
  per group pairs = min(begins, ends), unpaired = begins + ends - 2 pairs.
  ph t is no part of it. async, async_unpaired: the same over two separate
  families, b with e (nestable) and S with F (legacy); a b never pairs with
  an F. The id is "id" if it is a string (as is) or a number (its JSON text
  as written; an integer's is its digits, "-0" reading as "0"), else the
  first "local" or "global" member of an "id2" object, a string or number
  likewise, prefixed "L:" or "G:"; else "" (which groups like any id).
- categories: cat split on commas, each field stripped of spaces; every
  distinct non-empty field counts once per record. Sorted by records
  descending, then by name.
- usage from N/S (records / sites_total): rare < 2 <= low < 5 <= moderate
  < 300 <= high < 3000 <= very high; "n/a" when S is 0, as is
  records_per_site (null here).
- duration, over the records whose dur is a JSON number (not a bool):
  records, min_us, max_us; median_us and p95_us are nearest-rank quantiles
  (the value of rank ceil(q n), ranks from 1, in sorted order); class from
  that exact median: very short < 10 <= short < 100 <= typical < 1000 <=
  long. null when no record has a dur.
- sentence: "Observed N time(s) on M of S site(s)", numbers with thousands
  separators, then, only when more than one of SENTENCE_PARTS has a
  non-zero count, ": " and those counts in that order, "a, b and c", then
  ".". A part counts pairs or the records of some phases. A part none of
  whose records has an argument path gets ", which carry no arguments"
  ("carries" for one) after it, when some other part's records have one.
"""

import argparse
import gzip
import json
import os
import subprocess
import sys
import time
import zlib

GZIP_MAGIC = b"\x1f\x8b"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
UTF8_BOM = b"\xef\xbb\xbf"
SITE_SUFFIXES = (".gz", ".zst", ".json", "__trace", ".trace")
NOT_TRACE_NAMES = ("manifest.tsv", "manifest.json")
PHASE_LETTERS = "BEXIibneSTpFstfPNODMCRcVv()=<>"
PAIR_KEYS = ("begin_end", "begin_end_unmatched", "flow", "flow_unpaired", "async", "async_unpaired")
# ph -> (family, begins?, pair key); families never pair with each other.
KEYED_PHASES = {
    "s": ("flow", True, "flow"), "f": ("flow", False, "flow"),
    "b": ("nestable", True, "async"), "e": ("nestable", False, "async"),
    "S": ("legacy", True, "async"), "F": ("legacy", False, "async"),
}
USAGE_LIMITS = ((2, "rare"), (5, "low"), (300, "moderate"), (3000, "high"))
DURATION_LIMITS_US = ((10, "very short"), (100, "short"), (1000, "typical"))
# The sentence's breakdown, in order: (pair keys, phase letters, one, many,
# the phases whose records the part is made of).
SENTENCE_PARTS = (
    ((), "X", "complete slice", "complete slices"),
    (("begin_end",), "", "begin/end pair", "begin/end pairs", "BE"),
    (("begin_end_unmatched",), "", "unmatched begin or end", "unmatched begins or ends", "BE"),
    (("flow",), "", "flow pair", "flow pairs", "sf"),
    (("flow_unpaired",), "", "unpaired flow record", "unpaired flow records", "sf"),
    ((), "t", "flow step", "flow steps"),
    (("async",), "", "async span", "async spans", "beSF"),
    (("async_unpaired",), "", "unpaired async record", "unpaired async records", "beSF"),
    ((), "nTp", "async instant or step", "async instants and steps"),
    ((), "Ii", "instant", "instants"),
    ((), "R", "mark", "marks"),
    ((), "C", "counter", "counters"),
    ((), "M", "metadata record", "metadata records"),
    ((), "P", "sample", "samples"),
    ((), "NOD", "object record", "object records"),
)


class TraceError(Exception):
    """A trace file that cannot be read or parsed."""


class JsonObject(list):
    """A JSON object kept as its (key, value) pairs, repeats included."""

    def first(self, key, default=None):
        for k, v in self:
            if k == key:
                return v
        return default


class JsonFloat(float):
    """A non-integer JSON number that keeps the text it was written as."""

    @classmethod
    def parse(cls, text):
        value = cls(text)
        value.text = text
        return value


def is_trace_name(filename):
    return filename not in NOT_TRACE_NAMES and not filename.startswith("README")


def site_name_for_file(filename):
    name = filename
    stripped = True
    while stripped:
        stripped = False
        for suffix in SITE_SUFFIXES:
            if name.endswith(suffix) and len(name) > len(suffix):
                name = name[: -len(suffix)]
                stripped = True
    return name


def list_sites(corpus):
    """Return {site name: [trace file paths]} and warnings about name clashes."""
    sites = {}
    warnings = []

    def add(site, files, origin):
        if site in sites:
            warnings.append("site name %r used twice (%s)" % (site, origin))
            sites[site].extend(files)
        else:
            sites[site] = list(files)

    for entry in sorted(os.listdir(corpus)):
        path = os.path.join(corpus, entry)
        if os.path.isdir(path):
            files = [
                os.path.join(path, f)
                for f in sorted(os.listdir(path))
                if is_trace_name(f) and os.path.isfile(os.path.join(path, f))
            ]
            add(entry, files, path)
        elif os.path.isfile(path) and is_trace_name(entry):
            add(site_name_for_file(entry), [path], path)
    return sites, warnings


def count_manifest_rows(path):
    with open(path, encoding="utf-8") as f:
        lines = [line.rstrip("\r\n") for line in f]
    if not lines or "site" not in lines[0].split("\t"):
        raise SystemExit("%s: header has no 'site' column" % path)
    return sum(1 for line in lines[1:] if line.strip())


def read_text(path):
    with open(path, "rb") as f:
        data = f.read()
    try:
        if data.startswith(GZIP_MAGIC):
            data = gzip.decompress(data)
        elif data.startswith(ZSTD_MAGIC):
            proc = subprocess.run(["zstd", "-dc", "--", path], capture_output=True)
            if proc.returncode != 0:
                raise TraceError("zstd: " + proc.stderr.decode(errors="replace").strip())
            data = proc.stdout
    except (OSError, EOFError, zlib.error) as e:
        raise TraceError("decompress: %s" % e) from e
    if data.startswith(UTF8_BOM):
        data = data[len(UTF8_BOM):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise TraceError("not UTF-8: %s" % e) from e


def _reject_constant(name):
    raise ValueError("non-standard JSON constant " + name)


def _loads(text):
    """Parse text; return (document, number of repeated keys in it)."""
    repeats = 0

    def make_object(pairs):
        nonlocal repeats
        obj = JsonObject(pairs)
        repeats += len(obj) - len({k for k, _ in obj})
        return obj

    doc = json.loads(text, object_pairs_hook=make_object, parse_float=JsonFloat.parse,
                     parse_constant=_reject_constant)
    return doc, repeats


def parse_trace(text, stats=None):
    """Return (events array, repaired?) for one trace's text.

    stats["duplicate_keys"], when given, grows by the repeated keys in the text."""
    try:
        (doc, repeats), repaired = _loads(text), False
    except RecursionError:
        raise TraceError("JSON nested too deeply for the oracle") from None
    except ValueError as first_error:
        body = text.rstrip(" \t\r\n,")
        closing = "]}" if text.lstrip().startswith("{") else "]"
        try:
            (doc, repeats), repaired = _loads(body + closing), True
        except (ValueError, RecursionError):
            raise TraceError("JSON: %s" % first_error) from None
    if stats is not None:
        stats["duplicate_keys"] += repeats
    if isinstance(doc, JsonObject):
        events = doc.first("traceEvents")
        if not isinstance(events, list) or isinstance(events, JsonObject):
            raise TraceError("object without a traceEvents array")
        return events, repaired
    if isinstance(doc, list):
        return doc, repaired
    raise TraceError("top level is neither an array nor an object")


def json_type(value):
    # bool before number: Python's bool is an int.
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, JsonObject):
        return "object"
    if isinstance(value, list):
        return "array"
    raise TypeError("not a JSON value: %r" % (value,))


def collect_paths(value, path, out):
    """Add path -> types for value and everything under it to out."""
    out.setdefault(path, set()).add(json_type(value))
    if isinstance(value, JsonObject):
        for key, member in value:
            collect_paths(member, path + "." + key, out)
    elif isinstance(value, list):
        for element in value:
            collect_paths(element, path + "[]", out)


def event_arg_paths(event):
    """Return {path: types} for one event's args (empty unless args is an object)."""
    paths = {}
    for key, args in event:
        if key == "args" and isinstance(args, JsonObject):
            for member_key, member in args:
                collect_paths(member, "args." + member_key, paths)
    return paths


def string_or_empty(value):
    return value if isinstance(value, str) else ""


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def phase_of(value):
    if isinstance(value, str) and len(value) == 1 and value in PHASE_LETTERS:
        return value
    return ""


def id_text(value, prefix=""):
    """Text of an id-like value, or None when it is neither string nor number."""
    if isinstance(value, str):
        return prefix + value
    if is_number(value):
        return prefix + (value.text if isinstance(value, JsonFloat) else str(value))
    return None


def event_id(event):
    text = id_text(event.first("id"))
    if text is not None:
        return text
    id2 = event.first("id2")
    if isinstance(id2, JsonObject):
        for key, value in id2:
            if key in ("local", "global"):
                text = id_text(value, "L:" if key == "local" else "G:")
                if text is not None:
                    return text
    return ""


def thread_part(value):
    if is_number(value):
        return ("number", value)
    if isinstance(value, str):
        return ("string", value)
    return None


def event_categories(event):
    fields = (field.strip(" ") for field in string_or_empty(event.first("cat")).split(","))
    return {field for field in fields if field}


def event_duration(event):
    dur = event.first("dur")
    return dur if is_number(dur) else None


def usage_label(records, sites_total):
    if not sites_total:
        return "n/a"
    for limit, label in USAGE_LIMITS:
        if records < limit * sites_total:
            return label
    return "very high"


def duration_class(median_us):
    for limit, label in DURATION_LIMITS_US:
        if median_us < limit:
            return label
    return "long"


def nearest_rank(sorted_values, percent):
    """The value of rank ceil(percent/100 * n), in integers so no rounding moves it."""
    rank = max(1, -(-percent * len(sorted_values) // 100))
    return sorted_values[rank - 1]


def duration_summary(values):
    if not values:
        return None
    values = sorted(values)
    median = nearest_rank(values, 50)
    return {
        "records": len(values),
        "median_us": median,
        "p95_us": nearest_rank(values, 95),
        "min_us": values[0],
        "max_us": values[-1],
        "class": duration_class(median),
    }


def sentence(records, sites, sites_total, phases, pairs, phases_with_args=None):
    phases_with_args = phases_with_args or {}
    text = "Observed {:,} {} on {:,} of {:,} {}".format(
        records, "time" if records == 1 else "times", sites, sites_total,
        "site" if sites_total == 1 else "sites")
    parts = []
    for part in SENTENCE_PARTS:
        pair_keys, letters, one, many = part[:4]
        made_of = part[4] if len(part) > 4 else letters
        n = sum(pairs[k] for k in pair_keys) + sum(phases.get(ph, 0) for ph in letters)
        if n:
            with_args = sum(phases_with_args.get(ph, 0) for ph in made_of)
            parts.append(("{:,} {}".format(n, one if n == 1 else many), n, with_args))
    if len(parts) > 1:
        any_args = any(a for _, _, a in parts)
        clause = [any_args and not a for _, _, a in parts]
        words = [t + (", which carr%s no arguments" % ("ies" if n == 1 else "y") if c else "")
                 for (t, n, _), c in zip(parts, clause)]
        text += ": " + ", ".join(words[:-1]) + (", and " if clause[-2] else " and ") + words[-1]
    return text + "."


class Pairing:
    """The pair counts of one trace, fed its events in file order."""

    def __init__(self):
        self.stacks = {}  # (pid, tid) -> names of the open B records, innermost last
        self.keyed = {}   # (family, id, cat, name) -> [begins, ends]
        self.pairs = {}   # name -> {pair key: count}

    def count(self, name, key, n=1):
        if n:
            counts = self.pairs.setdefault(name, dict.fromkeys(PAIR_KEYS, 0))
            counts[key] += n

    def feed(self, event, name, ph):
        if ph in ("B", "E"):
            thread = (thread_part(event.first("pid")), thread_part(event.first("tid")))
            stack = self.stacks.setdefault(thread, [])
            if ph == "B":
                stack.append(name)
            elif stack:
                self.count(stack.pop(), "begin_end")
            else:
                self.count(name, "begin_end_unmatched")
        elif ph in KEYED_PHASES:
            family, begins, _ = KEYED_PHASES[ph]
            key = (family, event_id(event), string_or_empty(event.first("cat")), name)
            self.keyed.setdefault(key, [0, 0])[0 if begins else 1] += 1

    def finish(self):
        """Return {name: {pair key: count}} for the names with any."""
        for stack in self.stacks.values():
            for name in stack:
                self.count(name, "begin_end_unmatched")
        pair_key = {family: key for family, _, key in KEYED_PHASES.values()}
        for (family, _, _, name), (begins, ends) in self.keyed.items():
            paired = min(begins, ends)
            self.count(name, pair_key[family], paired)
            self.count(name, pair_key[family] + "_unpaired", begins + ends - 2 * paired)
        return self.pairs


class Census:
    """Accumulates the census over events tagged with their site."""

    def __init__(self):
        self.names = {}
        self.events = 0

    def add(self, site, event):
        """Count one event; return its (name, ph) for the trace's pairing."""
        self.events += 1
        name = string_or_empty(event.first("name"))
        ph = phase_of(event.first("ph"))
        entry = self.names.get(name)
        if entry is None:
            entry = self.names[name] = {
                "records": 0, "sites": set(), "phases": {}, "phases_with_args": {}, "args": {},
                "pairs": dict.fromkeys(PAIR_KEYS, 0), "categories": {}, "durations": [],
            }
        entry["records"] += 1
        entry["sites"].add(site)
        entry["phases"][ph] = entry["phases"].get(ph, 0) + 1
        for category in event_categories(event):
            entry["categories"][category] = entry["categories"].get(category, 0) + 1
        dur = event_duration(event)
        if dur is not None:
            entry["durations"].append(dur)
        paths = event_arg_paths(event)
        if paths:
            entry["phases_with_args"][ph] = entry["phases_with_args"].get(ph, 0) + 1
        for path, types in paths.items():
            arg = entry["args"].get(path)
            if arg is None:
                arg = entry["args"][path] = {"records": 0, "sites": set(), "types": set()}
            arg["records"] += 1
            arg["sites"].add(site)
            arg["types"] |= types
        return name, ph

    def add_pairs(self, pairs):
        for name, counts in pairs.items():
            total = self.names[name]["pairs"]
            for key, n in counts.items():
                total[key] += n

    def events_json(self, sites_total):
        return [self.event_json(name, e, sites_total) for name, e in sorted(self.names.items())]

    @staticmethod
    def event_json(name, e, sites_total):
        phases = {ph: e["phases"][ph] for ph in sorted(e["phases"])}
        return {
            "name": name,
            "records": e["records"],
            "sites": len(e["sites"]),
            "sentence": sentence(e["records"], len(e["sites"]), sites_total, phases, e["pairs"],
                                 e["phases_with_args"]),
            "phases": phases,
            "phases_with_args": {ph: e["phases_with_args"].get(ph, 0) for ph in phases},
            "phase_counts": [{"ph": ph, "records": n} for ph, n in phases.items()],
            "phase_counts_with_args": [{"ph": ph, "records": e["phases_with_args"].get(ph, 0)}
                                       for ph in phases],
            "pairs": dict(e["pairs"]),
            "categories": [
                {"name": c, "records": n}
                for c, n in sorted(e["categories"].items(), key=lambda item: (-item[1], item[0]))
            ],
            "usage": usage_label(e["records"], sites_total),
            "records_per_site": e["records"] / sites_total if sites_total else None,
            "duration": duration_summary(e["durations"]),
            "args": [
                {
                    "path": path,
                    "records": a["records"],
                    "sites": len(a["sites"]),
                    "types": sorted(a["types"]),
                }
                for path, a in sorted(e["args"].items())
            ],
        }


def run_census(corpus, manifest=None, log=None):
    """Return the census dict for corpus; log(str) receives warnings."""
    log = log or (lambda msg: None)
    sites, warnings = list_sites(corpus)
    for w in warnings:
        log("warning: " + w)
    census = Census()
    failed = []
    repaired = []
    files = 0
    stats = {"duplicate_keys": 0}
    for site in sorted(sites):
        for path in sites[site]:
            files += 1
            try:
                events, was_repaired = parse_trace(read_text(path), stats)
            except TraceError as e:
                failed.append({"site": site, "file": path, "error": str(e)})
                log("error: %s: %s" % (path, e))
                continue
            if was_repaired:
                repaired.append(path)
                log("note: %s: repaired an unterminated event array" % path)
            pairing = Pairing()
            for event in events:
                if isinstance(event, JsonObject):
                    pairing.feed(event, *census.add(site, event))
            census.add_pairs(pairing.finish())
    sites_total = count_manifest_rows(manifest) if manifest else len(sites)
    return {
        "sites_total": sites_total,
        "sites_with_traces": sum(1 for files in sites.values() if files),
        "traces": files,
        "records": census.events,
        "events": census.events_json(sites_total),
        "files_failed": failed,
        "notes": {
            "sites_found": len(sites),
            "files": files,
            "files_repaired": repaired,
            "event_records": census.events,
            "duplicate_keys": stats["duplicate_keys"],
        },
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("--manifest", help="TSV whose data rows give sites_total")
    ap.add_argument("-o", "--output", help="write JSON here instead of stdout")
    ap.add_argument("--stats", action="store_true", help="print totals and time to stderr")
    args = ap.parse_args(argv)

    start = time.monotonic()
    result = run_census(args.corpus, args.manifest, lambda m: print(m, file=sys.stderr))
    elapsed = time.monotonic() - start
    text = json.dumps(result, ensure_ascii=False, indent=1) + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if args.stats:
        events = result["events"]
        print(
            "oracle: %d sites, %d files, %d event records, %d distinct names, "
            "%d distinct (name, arg path) pairs, %d distinct arg paths, %.2f s"
            % (
                result["sites_total"],
                result["notes"]["files"],
                result["notes"]["event_records"],
                len(events),
                sum(len(e["args"]) for e in events),
                len({a["path"] for e in events for a in e["args"]}),
                elapsed,
            ),
            file=sys.stderr,
        )
    return 2 if result["files_failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
