#!/usr/bin/env python3
"""Independent oracle of the argument value profiles (issue 14): exact
figures per (event name, argument path), computed from the definitions with
no code shared with the C side beyond census_oracle's trace reading.

Usage: value_oracle.py CORPUS [-o OUT.json]

Output: {"paths": [{"name", "path", "values", "types": {type: n},
"sentinels": {"zero", "minus_one", "empty_string", "null", "false"},
"numbers": null or {"min", "max", "integer", "fractional", "negative",
"sorted": [every number, ascending]}, "strings": null or {"length_min",
"length_max", "distinct", "top": [[key, count, sites], ...] all keys, most
frequent first}, "constant": null or {"type", "value", "sites"}}]}

Definitions:
- A value is every member value under an event's args object, at its path
  (census notation: "args.a.b", array elements "args.a[]"), every array
  element included, containers as values of their own type; each
  occurrence of a repeated key is a value.
- Sentinels: numbers equal to 0 and to -1, empty strings, nulls, false.
- Numbers: integer when the double has no fractional part.
- String lengths are in UTF-8 bytes; distinct counts whole values.
- Top keys: with --whole-urls the value's first 64 bytes, cut back to a
  code point boundary (at most 3 bytes); values sharing a key count as one.
- Constant: every value of the path equal (numbers by value, -0 = 0;
  strings byte for byte; no container); sites counts the distinct sites.
"""
import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import census_oracle as co  # noqa: E402

TOPK_MAXLEN = 64


def top_key(raw):
    if len(raw) <= TOPK_MAXLEN:
        return raw
    cut = TOPK_MAXLEN
    while cut > TOPK_MAXLEN - 3 and (raw[cut] & 0xC0) == 0x80:
        cut -= 1
    return raw[:cut]


class PathValues:
    def __init__(self):
        self.n = 0
        self.types = dict.fromkeys(("null", "bool", "number", "string", "array", "object"), 0)
        self.sentinels = dict.fromkeys(("zero", "minus_one", "empty_string", "null", "false"), 0)
        self.numbers = []
        self.lengths = []
        self.distinct = set()
        self.keys = {}       # top key -> count
        self.key_sites = {}  # top key -> set of sites
        self.const = None    # (type, value) while every value equals it
        self.const_ok = True
        self.sites = set()

    def add(self, site, value):
        t = co.json_type(value)
        self.n += 1
        self.types[t] += 1
        self.sites.add(site)
        if t == "number":
            v = float(value)
            if v == 0:
                v = 0.0
            self.numbers.append(v)
            self.sentinels["zero"] += v == 0
            self.sentinels["minus_one"] += v == -1
            ident = (t, v)
        elif t == "string":
            raw = value.encode("utf-8", "surrogatepass")
            self.lengths.append(len(raw))
            self.sentinels["empty_string"] += not raw
            self.distinct.add(raw)
            k = top_key(raw)
            self.keys[k] = self.keys.get(k, 0) + 1
            self.key_sites.setdefault(k, set()).add(site)
            ident = (t, raw)
        elif t == "bool":
            self.sentinels["false"] += value is False
            ident = (t, bool(value))
        elif t == "null":
            self.sentinels["null"] += 1
            ident = (t, None)
        else:
            ident = None
        if ident is None or (self.const is not None and self.const != ident):
            self.const_ok = False
        elif self.const is None:
            self.const = ident

    def to_json(self, name, path):
        nums = sorted(self.numbers)
        numbers = None
        if nums:
            frac = sum(1 for v in nums if math.isfinite(v) and v != math.floor(v))
            numbers = {"min": nums[0], "max": nums[-1], "integer": len(nums) - frac,
                       "fractional": frac, "negative": sum(1 for v in nums if v < 0),
                       "sorted": nums}
        strings = None
        if self.lengths:
            top = sorted(self.keys.items(), key=lambda kv: (-kv[1], kv[0]))
            strings = {"length_min": min(self.lengths), "length_max": max(self.lengths),
                       "distinct": len(self.distinct),
                       "top": [[k.decode("utf-8", "surrogatepass"), c, len(self.key_sites[k])]
                               for k, c in top]}
        constant = None
        if self.const_ok and self.const is not None:
            t, v = self.const
            if t == "string":
                v = v.decode("utf-8", "surrogatepass")
            constant = {"type": t, "value": v, "sites": len(self.sites)}
        return {"name": name, "path": path, "values": self.n, "types": self.types,
                "sentinels": self.sentinels, "numbers": numbers, "strings": strings,
                "constant": constant}


def walk(site, value, path, table, name):
    entry = table.get((name, path))
    if entry is None:
        entry = table[(name, path)] = PathValues()
    entry.add(site, value)
    if isinstance(value, co.JsonObject):
        for key, member in value:
            walk(site, member, path + "." + key, table, name)
    elif isinstance(value, list):
        for element in value:
            walk(site, element, path + "[]", table, name)


def profile(corpus):
    sites, _ = co.list_sites(corpus)
    table = {}
    for site in sorted(sites):
        for path in sites[site]:
            events, _ = co.parse_trace(co.read_text(path))
            for event in events:
                if not isinstance(event, co.JsonObject) or not event:
                    continue
                name = co.string_or_empty(event.first("name"))
                for key, args in event:
                    if key == "args" and isinstance(args, co.JsonObject):
                        for member_key, member in args:
                            walk(site, member, "args." + member_key, table, name)
    return [table[k].to_json(*k) for k in sorted(table)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("-o", "--output")
    a = ap.parse_args()
    out = json.dumps({"paths": profile(a.corpus)})
    if a.output:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(out)
    else:
        print(out)


if __name__ == "__main__":
    main()
