#!/usr/bin/env python3
"""Independent reading of a trace for the parser test (test_json_traces.c).

Usage: json_oracle.py TRACE [WANTED_PATH ...]

Loads TRACE (plain or gzip) with Python's json module, keeping every object
as its list of (key, value) pairs in document order, and prints what
tc_parser must report for each event, one record a line:

  E index name cat ph ts dur pid tid id bind_id s
  P path types          (once per distinct argument path of the event)
  W slot type elem value (each scalar at a wanted path, in document order)

Strings are printed as 'h' + the hex of their UTF-8 bytes, so that any byte
survives; '-' means absent (or no flag), '?' means "not comparable here"
(e.g. a float written as an id, whose original text json does not keep).
"""
import gzip
import json
import sys

MAX_DEPTH = 64  # levels of args walked by tc_parser (kMaxArgDepth)

T_NULL, T_BOOL, T_NUMBER, T_STRING, T_ARRAY, T_OBJECT = 1, 2, 4, 8, 16, 32
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


class Obj(list):
    """A JSON object as its (key, value) pairs, duplicates kept."""


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def hexs(s):
    try:
        return "h" + s.encode("utf-8").hex()
    except UnicodeEncodeError:  # a lone surrogate escape
        return "?"


def jtype(v):
    if v is None:
        return T_NULL
    if isinstance(v, bool):
        return T_BOOL
    if is_num(v):
        return T_NUMBER
    if isinstance(v, str):
        return T_STRING
    if isinstance(v, list) and not isinstance(v, Obj):
        return T_ARRAY
    return T_OBJECT


def text_of(v, prefix=""):
    """An id-like field: strings as they are, integers and booleans as
    written; a float's original text is lost, other values are empty."""
    if isinstance(v, bool):
        return hexs(prefix + ("true" if v else "false"))
    if isinstance(v, str):
        return hexs(prefix + v)
    if isinstance(v, int):
        return hexs(prefix + str(v))
    if isinstance(v, float):
        return "?"
    return hexs("")


def signed_id(v):
    if isinstance(v, bool) or not (is_num(v) or isinstance(v, str)):
        return "?"
    if isinstance(v, str):
        return "S"
    i = int(v)
    return str(i) if INT64_MIN <= i <= INT64_MAX else "?"


class Event:
    def __init__(self, wanted):
        self.wanted = wanted
        self.presence = {}  # path -> types, first-seen order
        self.values = []
        self.elem_counter = 0
        self.cur_elem = 0

    def visit(self, v, path, depth):
        t = jtype(v)
        self.presence[path] = self.presence.get(path, 0) | t
        if t == T_OBJECT:
            if depth < MAX_DEPTH:
                for k, cv in v:
                    self.visit(cv, path + ("" if k == "[]" else ".") + k, depth + 1)
            return
        if t == T_ARRAY:
            if depth < MAX_DEPTH:
                outer = self.cur_elem
                for el in v:
                    self.elem_counter += 1
                    self.cur_elem = self.elem_counter
                    self.visit(el, path + "[]", depth + 1)
                self.cur_elem = outer
            return
        slot = self.wanted.get(path)
        if slot is None:
            return
        if t == T_NUMBER:
            val = repr(float(v))
        elif t == T_BOOL:
            val = "1" if v else "0"
        elif t == T_STRING:
            val = hexs(v)
        else:
            val = "-"
        self.values.append("W %d %d %d %s" % (slot, t, self.cur_elem, val))


def describe(index, ev, wanted, out):
    f = {k: "-" for k in ("name", "cat", "ph", "ts", "dur", "pid", "tid", "id", "bind_id", "s")}
    e = Event(wanted)
    for k, v in ev:
        if k == "name" and isinstance(v, str):
            f["name"] = hexs(v)
        elif k in ("cat", "ph", "id", "bind_id", "s"):
            f[k] = text_of(v)
        elif k == "ts" and is_num(v):
            f["ts"] = repr(float(v))
        elif k == "dur":
            f["dur"] = repr(float(v)) if is_num(v) else "-"
        elif k in ("pid", "tid"):
            f[k] = signed_id(v)
        elif k == "id2" and isinstance(v, Obj):
            for ik, iv in v:
                if ik in ("local", "global"):
                    f["id"] = text_of(iv, "L:" if ik == "local" else "G:")
        elif k == "args" and isinstance(v, Obj):
            for ak, av in v:
                e.visit(av, "args" + ("" if ak == "[]" else ".") + ak, 1)
    out.write("E %d %s\n" % (index, " ".join(f[k] for k in (
        "name", "cat", "ph", "ts", "dur", "pid", "tid", "id", "bind_id", "s"))))
    for path, types in e.presence.items():
        out.write("P %s %d\n" % (hexs(path), types))
    for line in e.values:
        out.write(line + "\n")


def main():
    path, wanted_list = sys.argv[1], sys.argv[2:]
    # tc_parser gives a path the last slot that names it.
    wanted = {w: i for i, w in enumerate(wanted_list)}
    with open(path, "rb") as fh:
        data = fh.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    doc = json.loads(data.decode("utf-8-sig"), object_pairs_hook=Obj)
    if isinstance(doc, Obj):
        events = [v for k, v in doc if k == "traceEvents" and isinstance(v, list)
                  and not isinstance(v, Obj)][:1]
        events = events[0] if events else []
    else:
        events = doc
    out = sys.stdout
    for i, ev in enumerate(events):
        if isinstance(ev, Obj):
            describe(i, ev, wanted, out)


if __name__ == "__main__":
    main()
