#!/usr/bin/env python3
"""Independent census oracle: the figures tracecensus's census must reproduce.

Written from the definitions alone, sharing no code or parser with the C side,
so that agreement between the two means something. Standard library only.

Usage: census_oracle.py CORPUS [--manifest FILE.tsv] [-o OUT.json]

Output (stdout or -o) is the census.json subset:
  {"sites_total": S,
   "events": [{"name", "records", "sites", "phases": {ph: records},
               "args": [{"path", "records", "sites", "types": [...]}]}],
   "files_failed": [{"site", "file", "error"}], "notes": {...}}
events sorted by name, args by path (code-point order, which is also UTF-8
byte order, i.e. what strcmp gives). files_failed and notes are extra keys
the comparison ignores; a failed file is reported on stderr and makes the
exit status 2 so it is never silently dropped.

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
  name = the "name" member if it is a string, else ""; ph likewise.
  When an object repeats a key, name/ph take the first occurrence and every
  occurrence under args contributes paths (what a streaming parser that
  walks each field sees); repeats are counted in notes.
- Arg paths: for an event whose "args" is an object, each member is
  "args.<key>" (key unescaped, verbatim); an object value's members extend
  the path with ".<key>"; an array value is itself a path of type array and
  its elements are "<path>[]", each with its own type, recursing into
  element objects and nested arrays ("args.a[][]"). A path counts once per
  event; its types are the set of JSON types seen for it anywhere.
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


class TraceError(Exception):
    """A trace file that cannot be read or parsed."""


class JsonObject(list):
    """A JSON object kept as its (key, value) pairs, repeats included."""

    def first(self, key, default=None):
        for k, v in self:
            if k == key:
                return v
        return default



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

    doc = json.loads(text, object_pairs_hook=make_object, parse_constant=_reject_constant)
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


class Census:
    """Accumulates the census over events tagged with their site."""

    def __init__(self):
        self.names = {}
        self.events = 0

    def add(self, site, event):
        self.events += 1
        name = string_or_empty(event.first("name"))
        ph = string_or_empty(event.first("ph"))
        entry = self.names.get(name)
        if entry is None:
            entry = self.names[name] = {"records": 0, "sites": set(), "phases": {}, "args": {}}
        entry["records"] += 1
        entry["sites"].add(site)
        entry["phases"][ph] = entry["phases"].get(ph, 0) + 1
        for path, types in event_arg_paths(event).items():
            arg = entry["args"].get(path)
            if arg is None:
                arg = entry["args"][path] = {"records": 0, "sites": set(), "types": set()}
            arg["records"] += 1
            arg["sites"].add(site)
            arg["types"] |= types

    def events_json(self):
        return [
            {
                "name": name,
                "records": e["records"],
                "sites": len(e["sites"]),
                "phases": {ph: e["phases"][ph] for ph in sorted(e["phases"])},
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
            for name, e in sorted(self.names.items())
        ]


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
            for event in events:
                if isinstance(event, JsonObject):
                    census.add(site, event)
    sites_total = count_manifest_rows(manifest) if manifest else len(sites)
    return {
        "sites_total": sites_total,
        "events": census.events_json(),
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
