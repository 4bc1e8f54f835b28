#!/usr/bin/env python3
"""Independent reader of Perfetto protobuf traces: writes the JSON trace the
README's "Perfetto protobuf traces" rules make of one, so that
census_oracle.py can compute its census and compare_census.py can hold
tracecensus's census of the protobuf trace against it.

Standard library only, and nothing shared with the C side: its own wire
walker (no protobuf library, no .proto file: the field numbers below are
typed from Perfetto's protos/perfetto/trace/), its own tables.

Usage: proto_oracle.py TRACE [-o OUT.json]
       proto_oracle.py --corpus PROTO_CORPUS OUT_CORPUS
TRACE may be plain, gzip or zstd (`zstd -dc`). With --corpus every trace file
of PROTO_CORPUS/SITE/ becomes OUT_CORPUS/SITE/<name>.json, and a
manifest.tsv is copied.

The rules (the README states the same for tracecensus):
- Packets: field 1 of Trace. Interned data (event names 2, categories 1,
  annotation names 3, source locations 4, annotation string values 29) is
  per trusted_packet_sequence_id (10) and dropped by sequence_flags bit 1
  (13) or incremental_state_cleared (41), which act before the packet's own
  interned data and TracePacketDefaults (59).
- Time: the packet timestamp (8) in its clock (58, else the sequence's
  default, else BOOTTIME 6), converted to the first ClockSnapshot's
  primary_trace_clock (else BOOTTIME) by the latest snapshot linking them;
  sequence-scoped clocks 64-127 from snapshots on their sequence (unit,
  incremental) through a builtin clock of the same snapshot. ts and dur in
  JSON are ns // 1000 truncated towards zero.
- Tracks (TrackDescriptor 60): thread (4) -> pid, tid; process (3) -> pid;
  counter (8); a parent (5) with neither -> a child (async) track, scoped
  by its nearest thread or process ancestor. Events name their track (11),
  else the sequence's default, else an older ThreadDescriptor packet's
  thread, else the global track; a legacy event on the global track goes
  to its sequence's own track (the writing thread).
- Names: one M thread_name / process_name event per thread / process, with
  the first non-empty name a descriptor gives it.
- Slices: begin (type 1 or legacy 'B') to end (2, 'E') on one track. On a
  thread, process or global track: X with dur, or I when 0 ns; on a child
  track b and e with id2.local = uuid in hex, or n when 0 ns; open at the
  end: B / b. Instants (3, 'I'/'i'): I with s t/p/g, or n on a child track.
  Counters (4): C named by the track, args.value; thread-time counters
  (CounterDescriptor.type 1, 2) are none. Legacy 'X' with duration_us;
  other legacy phases as they are, with their ids.
- Args: debug annotations (4): dicts (11) objects, arrays (12) arrays,
  NestedValue (8), scalars, pointers "0x..", legacy JSON (9) embedded if
  valid JSON else a string; no value -> left out. TaskExecution (5) ->
  src_file, src_func, src_line. An end's args join its begin's.
- Flows (47, 36; terminating 48, 42; legacy bind_id): each link of a flow,
  an s at the earlier step and an f with bp e at the later, both named and
  categorised as the earlier step, numbered from 0.
- An event whose interned name, category, annotation name or string value
  was never defined on its sequence, or whose clock cannot be converted,
  is not written; nor is an end with no open begin.
"""
import argparse
import gzip
import json
import math
import os
import shutil
import struct
import subprocess
import sys

BOOTTIME = 6


class Bad(Exception):
    """A malformed message: the packet is left out."""


def varint(b, i):
    x = shift = 0
    while True:
        if i >= len(b) or shift > 63:
            raise Bad("varint")
        c = b[i]
        i += 1
        x |= (c & 0x7F) << shift
        if c < 0x80:
            return x, i
        shift += 7


def short_varint(b, i, n):
    """varint(), a one-byte value (most lengths and values) read at once."""
    if i >= n:
        raise Bad("varint")
    v = b[i]
    return (v, i + 1) if v < 0x80 else varint(b, i)


def walk(b):
    """{field: [(wire, value)]}: ints for varint/fixed, memoryview slices for
    length-delimited. One-byte varints (most tags and lengths) are read
    inline: this loop is where the oracle spends its time."""
    out = {}
    i, n = 0, len(b)
    while i < n:
        tag = b[i]
        i += 1
        if tag >= 0x80:
            tag, i = varint(b, i - 1)
        f, w = tag >> 3, tag & 7
        if w == 0:
            v, i = short_varint(b, i, n)
        elif w == 2:
            size, i = short_varint(b, i, n)
            if i + size > n:
                raise Bad("length")
            v = b[i:i + size]
            i += size
        elif w == 1 or w == 5:
            size = 8 if w == 1 else 4
            if i + size > n:
                raise Bad("fixed")
            v = int.from_bytes(b[i:i + size], "little")
            i += size
        else:
            raise Bad("wire type")
        vals = out.get(f)
        if vals is None:
            out[f] = [(w, v)]
        else:
            vals.append((w, v))
    return out


def last(m, f, default=None):
    v = m.get(f)
    return v[-1][1] if v else default


def ints(m, f, fixed=False):
    """A repeated integer field, packed or not."""
    vals = []
    for w, v in m.get(f, ()):
        if w != 2:
            vals.append(v)
        elif fixed:
            vals.extend(int.from_bytes(v[k:k + 8], "little") for k in range(0, len(v), 8))
        else:
            i = 0
            while i < len(v):
                x, i = varint(v, i)
                vals.append(x)
    return vals


def signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def text(b):
    return bytes(b).decode("utf-8", "replace")


def trunc_us(ns):
    return -((-ns) // 1000) if ns < 0 else ns // 1000


class Missing(Exception):
    """An interned id the sequence never defined."""


class NoClock(Exception):
    """A timestamp with no path to the trace clock."""


class Deep(Exception):
    """Annotations nested too deep."""


MAX_DEPTH = 64


class Seq:
    def __init__(self):
        self.tables = {k: {} for k in ("name", "cat", "annot", "str", "loc")}
        self.clock = None
        self.track = None
        self.thread = None
        self.last_us = 0
        self.clocks = {}

    def clear(self):
        self.tables = {k: {} for k in self.tables}
        self.clock = self.track = None

    def look(self, kind, iid):
        try:
            return self.tables[kind][iid]
        except KeyError:
            raise Missing(kind) from None


class Reader:
    def __init__(self):
        self.events = []
        self.meta = {}
        self.seqs = {}
        self.tracks = {}
        self.open = {}
        self.trace_clock = None
        self.offset = {}
        self.named = {}
        self.flows = {}
        self.next_flow = 0

    # ---- clocks ----
    def snapshot(self, seq, m):
        clocks = [walk(c) for _, c in m.get(1, ())]
        if self.trace_clock is None:
            self.trace_clock = last(m, 2, BOOTTIME)
            if not 1 <= self.trace_clock < 64:
                self.trace_clock = BOOTTIME

        def ns(c):
            unit = last(c, 4, 1) or 1
            return last(c, 2, 0) * unit

        anchor = None
        for c in clocks:
            if last(c, 1, 0) == self.trace_clock:
                anchor = ns(c)
                break
        if anchor is None:
            for c in clocks:
                cid = last(c, 1, 0)
                if 1 <= cid < 64 and cid in self.offset:
                    anchor = ns(c) + self.offset[cid]
                    break
        for c in clocks:
            cid = last(c, 1, 0)
            if 1 <= cid < 64 and anchor is not None:
                self.offset[cid] = anchor - ns(c)
            elif 64 <= cid < 128:
                refs = [r for r in clocks if 1 <= last(r, 1, 0) < 64]
                refs.sort(key=lambda r: -(2 if last(r, 1, 0) == self.trace_clock
                                          else int(last(r, 1, 0) in self.offset)))
                ref = refs[0] if refs else None
                seq.clocks[cid] = {
                    "inc": bool(last(c, 3, 0)), "unit": last(c, 4, 1) or 1,
                    "at": last(c, 2, 0), "last": last(c, 2, 0),
                    "ref": last(ref, 1, 0) if ref else None, "ref_ns": ns(ref) if ref else 0}

    def builtin(self, clock, ns):
        if clock == (self.trace_clock or BOOTTIME):
            return ns
        if 1 <= clock < 64 and clock in self.offset:
            return ns + self.offset[clock]
        raise NoClock(clock)

    def convert(self, seq, clock, ts):
        if 64 <= clock < 128:
            c = seq.clocks.get(clock)
            if c is None or c["ref"] is None:
                raise NoClock(clock)
            v = ts
            if c["inc"]:
                c["last"] += ts
                v = c["last"]
            return self.builtin(c["ref"], c["ref_ns"] + (v - c["at"]) * c["unit"])
        return self.builtin(clock, ts)

    # ---- tracks ----
    def where(self, uuid):
        """(scope, pid, tid): scope thread/process/child/global."""
        t = self.tracks.get(uuid)
        child = False
        for _ in range(32):
            if t is None:
                break
            if t["kind"] == "thread":
                return ("child" if child else "thread", t["pid"], t["tid"])
            if t["kind"] == "process":
                return ("child" if child else "process", t["pid"], t["pid"])
            if t["parent"] is None:
                break
            child = True
            t = self.tracks.get(t["parent"])
        return ("child" if child else "global", None, None)

    def name_event(self, thread, pid, tid, name):
        if not name:
            return
        key = (thread, pid, tid if thread else 0)
        if key in self.named:
            return
        self.named[key] = name
        self.events.append({"name": "thread_name" if thread else "process_name",
                            "cat": "__metadata", "ph": "M", "ts": 0, "pid": pid,
                            "tid": tid if thread else 0, "args": {"name": name}})

    def descriptor(self, m):
        uuid = last(m, 1, 0)
        t = self.tracks.setdefault(uuid, {"kind": None, "parent": None, "pid": 0, "tid": 0,
                                          "name": None, "ctype": 0})
        if 5 in m:
            t["parent"] = last(m, 5)
        if 4 in m:
            d = walk(last(m, 4))
            t.update(kind="thread", pid=to_i32(last(d, 1, 0)), tid=signed(last(d, 2, 0)))
        elif 3 in m:
            d = walk(last(m, 3))
            t.update(kind="process", pid=to_i32(last(d, 1, 0)))
        elif 8 in m:
            d = walk(last(m, 8))
            t.update(kind="counter", ctype=last(d, 1, 0))
        name = last(m, 2) if 2 in m else last(m, 10)
        if name is not None:
            t["name"] = text(name)
        if 3 in m:
            self.process_name(walk(last(m, 3)))
        if 4 in m:
            self.thread_name(walk(last(m, 4)))

    def process_name(self, d):
        if 1 in d and 6 in d:
            self.name_event(False, to_i32(last(d, 1)), 0, text(last(d, 6)))

    def thread_name(self, d):
        if 1 in d and 2 in d and 5 in d:
            self.name_event(True, to_i32(last(d, 1)), signed(last(d, 2)), text(last(d, 5)))

    # ---- args ----
    def annotation_value(self, seq, m, depth):
        if depth > MAX_DEPTH:
            raise Deep()
        if 11 in m:
            out = {}
            for _, b in m[11]:
                x = walk(b)
                if has_value(x):
                    k = self.annotation_name(seq, x)
                    v = self.annotation_value(seq, x, depth + 1)
                    out.setdefault(k, v)
            return out
        if 12 in m:
            return [self.annotation_value(seq, walk(b), depth + 1)
                    for _, b in m[12] if has_value(walk(b))]
        if 8 in m:
            return self.nested(walk(last(m, 8)), depth + 1)
        if 2 in m:
            return bool(last(m, 2))
        if 3 in m:
            return last(m, 3)
        if 4 in m:
            return signed(last(m, 4))
        if 5 in m:
            return number(last(m, 5))
        if 6 in m:
            return text(last(m, 6))
        if 17 in m:
            return seq.look("str", last(m, 17))
        if 7 in m:
            return "0x%x" % last(m, 7)
        raw = text(last(m, 9))
        try:
            return json.loads(raw)
        except ValueError:
            return raw

    def nested(self, m, depth):
        if depth > MAX_DEPTH:
            raise Deep()
        kind = last(m, 1, 0)
        if kind == 1:
            keys = [text(k) for _, k in m.get(2, ())]
            vals = [b for _, b in m.get(3, ())]
            out = {}
            for k, b in zip(keys, vals):
                out.setdefault(k, self.nested(walk(b), depth + 1))
            return out
        if kind == 2:
            return [self.nested(walk(b), depth + 1) for _, b in m.get(4, ())]
        if 5 in m:
            return signed(last(m, 5))
        if 6 in m:
            return number(last(m, 6))
        if 7 in m:
            return bool(last(m, 7))
        if 8 in m:
            return text(last(m, 8))
        return None

    def annotation_name(self, seq, m):
        if 10 in m:
            return text(last(m, 10))
        if 1 in m:
            return seq.look("annot", last(m, 1))
        return ""

    def args(self, seq, e):
        out = {}
        for _, b in e.get(4, ()):
            a = walk(b)
            if has_value(a):
                k = self.annotation_name(seq, a)
                out.setdefault(k, self.annotation_value(seq, a, 1))
        if 5 in e:
            task = walk(last(e, 5))
            if 1 in task:
                f, fn, line = seq.look("loc", last(task, 1))
                out.setdefault("src_file", f)
                out.setdefault("src_func", fn)
                if line is not None:
                    out.setdefault("src_line", line)
        return out

    # ---- events ----
    def head(self, seq, e, lg):
        if 23 in e:
            name = text(last(e, 23))
        elif 10 in e:
            name = seq.look("name", last(e, 10))
        elif lg is not None and 1 in lg:
            name = seq.look("name", last(lg, 1))
        else:
            name = ""
        cats = [seq.look("cat", i) for i in ints(e, 3)] + [text(c) for _, c in e.get(22, ())]
        return {"name": name, "cat": ",".join(cats)}

    @staticmethod
    def located(ev, w):
        """EV with the pid and tid of W = (scope, pid, tid), those known."""
        if w[1] is not None:
            ev["pid"] = w[1]
        if w[2] is not None:
            ev["tid"] = w[2]
        return ev

    def place(self, ev, w, uuid):
        """Located, and on a child track with its id2."""
        if w[0] == "child":
            ev["id2"] = {"local": "0x%x" % uuid}
        return self.located(ev, w)

    def whole(self, s, end, more):
        dur = end - s["ts"]
        args = dict(s["args"])
        for k, v in more.items():
            args.setdefault(k, v)
        base = dict(s["head"], **s["extra"])
        if s["w"][0] == "child":
            self.events.append(self.place(dict(base, ph="b" if dur else "n",
                                               ts=trunc_us(s["ts"]), args=args), s["w"], s["uuid"]))
            if dur:
                self.events.append(self.place(dict(base, ph="e", ts=trunc_us(end), args={}),
                                              s["w"], s["uuid"]))
            return
        ev = dict(base, ph="X" if dur else "I", ts=trunc_us(s["ts"]), args=args)
        if dur:
            ev["dur"] = trunc_us(dur)
        else:
            ev["s"] = {"thread": "t", "process": "p"}.get(s["w"][0], "g")
        self.events.append(self.place(ev, s["w"], s["uuid"]))

    def flow(self, key, terminating, head, ts, w):
        prev = self.flows.pop(key, None)
        if prev is not None:
            h, pts, pw = prev
            s = dict(h, ph="s", ts=trunc_us(pts), id=self.next_flow, args={})
            f = dict(h, ph="f", ts=trunc_us(ts), bp="e", id=self.next_flow, args={})
            self.events.append(self.located(s, pw))
            self.events.append(self.located(f, w))
            self.next_flow += 1
        if not terminating:
            self.flows[key] = (head, ts, w)

    def flows_of(self, e, lg, head, ts, w):
        for i in ints(e, 47, fixed=True) + ints(e, 36):
            self.flow((0, i), False, head, ts, w)
        for i in ints(e, 48, fixed=True) + ints(e, 42):
            self.flow((0, i), True, head, ts, w)
        if lg is not None and 8 in lg:
            self.flow((1, last(lg, 8)), last(lg, 13, 0) == 1, head, ts, w)

    def track_event(self, seq, e, ts):
        lg = walk(last(e, 6)) if 6 in e else None
        phase = last(lg, 2, 0) if lg is not None else 0
        typ = last(e, 9, 0)
        kinds = {1: "begin", 2: "end", 3: "instant", 4: "counter"}
        if typ in kinds:
            kind = kinds[typ]
        else:
            kind = {0: None, 66: "begin", 69: "end", 73: "instant", 105: "instant",
                    88: "complete"}.get(phase, "raw")
        if kind is None:
            return
        own = seq.track if seq.track is not None else seq.thread
        uuid = last(e, 11) if 11 in e else (own or 0)
        w = self.where(uuid)
        if lg is not None and w[0] == "global" and own and uuid != own:
            uuid = own
            w = self.where(uuid)
        if lg is not None and 18 in lg:
            w = (w[0], to_i32(last(lg, 18)), w[2])
        if lg is not None and 19 in lg:
            w = (w[0], w[1], to_i32(last(lg, 19)))
        stack = self.open.setdefault(uuid, [])
        if kind == "end":
            if not stack:
                return
            s = stack.pop()
            try:
                more = self.args(seq, e)
            except (Missing, Deep, Bad):
                more = {}
            self.whole(s, ts, more)
            self.flows_of(e, lg, s["head"], s["ts"], w)
            return
        head = self.head(seq, e, lg)
        args = self.args(seq, e)
        extra = {}
        if lg is not None:
            if 6 in lg:
                extra["id"] = "0x%x" % last(lg, 6)
            if 10 in lg or 11 in lg:
                extra["id2"] = ({"local": "0x%x" % last(lg, 10)} if 10 in lg
                                else {"global": "0x%x" % last(lg, 11)})
            if 7 in lg:
                extra["scope"] = text(last(lg, 7))
        if kind == "begin":
            stack.append({"ts": ts, "head": head, "extra": extra, "args": args, "w": w,
                          "uuid": uuid})
        elif kind == "instant":
            scope = last(lg, 14, 0) if lg is not None else 0
            if scope == 1:
                w = ("global", None, None)
            elif scope == 2 and w[1] is not None:
                w = ("process", w[1], w[1])
            elif scope == 3 or (scope == 0 and lg is not None and w[0] == "thread"):
                w = ("thread",) + w[1:]
            self.whole({"ts": ts, "head": head, "extra": extra, "args": {}, "w": w,
                        "uuid": uuid}, ts, args)
        elif kind == "counter":
            t = self.tracks.get(uuid)
            if t is not None and t["kind"] == "counter" and t["ctype"] in (1, 2):
                return
            if 30 in e:
                value = signed(last(e, 30))
            elif 44 in e:
                value = number(last(e, 44))
            else:
                return
            if t is not None and t["name"] is not None:
                head["name"] = t["name"]
            self.events.append(self.located(dict(head, ph="C", ts=trunc_us(ts),
                                                 args={"value": value}), w))
            return
        elif kind == "complete":
            dur = signed(last(lg, 3, 0))
            s = {"ts": ts, "head": head, "extra": extra, "args": args, "w": w, "uuid": uuid}
            if dur < 0:
                ev = dict(head, **extra)
                ev.update(ph="b" if w[0] == "child" else "B", ts=trunc_us(ts), args=args)
                self.events.append(self.place(ev, w, uuid))
            else:
                self.whole(s, ts + dur * 1000, {})
        else:
            ph = chr(phase) if 0x20 <= phase < 0x7F else ""
            ev = dict(head, **extra)
            ev.update(ph=ph, ts=trunc_us(ts), args=args)
            self.events.append(self.located(ev, w))
            return
        self.flows_of(e, lg, head, ts, w)

    def packet(self, body):
        try:
            p = walk(body)
        except Bad:
            return
        seq = self.seqs.setdefault(last(p, 10, 0), Seq())
        if (last(p, 13, 0) & 1) or last(p, 41, 0):
            seq.clear()
        if 59 in p:
            d = walk(last(p, 59))
            seq.clock = last(d, 58)
            ted = walk(last(d, 11)) if 11 in d else {}
            seq.track = last(ted, 11)
        if 12 in p:
            d = walk(last(p, 12))
            for f, kind in ((1, "cat"), (2, "name"), (3, "annot"), (29, "str")):
                for _, b in d.get(f, ()):
                    x = walk(b)
                    seq.tables[kind][last(x, 1, 0)] = text(last(x, 2, b""))
            for _, b in d.get(4, ()):
                x = walk(b)
                seq.tables["loc"][last(x, 1, 0)] = (text(last(x, 2, b"")), text(last(x, 3, b"")),
                                                    last(x, 4))
        if 6 in p:
            self.snapshot(seq, walk(last(p, 6)))
        ts, clock_ok = 0, True
        if 8 in p:
            clock = last(p, 58, seq.clock if seq.clock is not None else BOOTTIME)
            try:
                ts = self.convert(seq, clock, last(p, 8))
            except NoClock:
                clock_ok = False
        if 60 in p:
            self.descriptor(walk(last(p, 60)))
        if 43 in p:
            self.process_name(walk(last(p, 43)))
        if 44 in p:
            d = walk(last(p, 44))
            uuid = 1 << 63 | last(p, 10, 0)
            self.tracks[uuid] = {"kind": "thread", "parent": None, "pid": to_i32(last(d, 1, 0)),
                                 "tid": signed(last(d, 2, 0)), "name": None, "ctype": 0}
            seq.thread = uuid
            seq.last_us = signed(last(d, 6, 0))
            self.thread_name(d)
        if 5 in p:
            for _, b in walk(last(p, 5)).get(2, ()):
                m = walk(b)
                if 1 not in m:
                    continue
                k = text(last(m, 1))
                if 2 in m:
                    v = text(last(m, 2))
                elif 4 in m:
                    v = signed(last(m, 4))
                elif 3 in m:
                    v = bool(last(m, 3))
                else:
                    raw = text(last(m, 5, b""))
                    try:
                        v = json.loads(raw)
                    except ValueError:
                        v = raw
                self.meta.setdefault(k, v)
        if 51 in p:
            c = walk(last(p, 51))
            if 6 in c:
                self.meta.setdefault("product-version", text(last(c, 6)))
        if 11 in p:
            e = walk(last(p, 11))
            if 8 not in p:
                if 16 in e:
                    ts = signed(last(e, 16)) * 1000
                elif 1 in e:
                    seq.last_us += signed(last(e, 1))
                    ts = seq.last_us * 1000
            elif not clock_ok:
                return
            try:
                self.track_event(seq, e, ts)
            except (Missing, Deep, Bad):
                pass

    def finish(self):
        for uuid, stack in self.open.items():
            for s in stack:
                ev = dict(s["head"], **s["extra"])
                ev.update(ph="b" if s["w"][0] == "child" else "B", ts=trunc_us(s["ts"]),
                          args=s["args"])
                self.events.append(self.place(ev, s["w"], s["uuid"]))


def has_value(m):
    return any(f in m for f in (11, 12, 8, 2, 3, 4, 5, 6, 17, 7, 9))


def to_i32(v):
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


def number(bits):
    d = struct.unpack("<d", bits.to_bytes(8, "little"))[0]
    if math.isnan(d):
        return "NaN"
    if math.isinf(d):
        return "Infinity" if d > 0 else "-Infinity"
    return d


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        return gzip.decompress(data)
    if data[:4] == b"\x28\xb5\x2f\xfd":
        return subprocess.run(["zstd", "-dc", "--long=31", path], check=True,
                              capture_output=True).stdout
    return data


def convert(data):
    """The JSON trace (a dict) the rules make of DATA, a whole Perfetto trace."""
    r = Reader()
    view = memoryview(data)
    i, n = 0, len(data)
    while i < n:
        tag, i = varint(data, i)
        w = tag & 7
        if w == 2:
            size, i = varint(data, i)
            if tag >> 3 == 1:
                r.packet(view[i:i + size])
            i += size
        elif w == 0:
            _, i = varint(data, i)
        elif w in (1, 5):
            i += 8 if w == 1 else 4
        else:
            break
    r.finish()
    out = {"traceEvents": r.events}
    if r.meta:
        out["metadata"] = r.meta
    return out


def write(trace, f):
    """TRACE as JSON to F. json.dump would stream it through the pure-Python
    encoder, a third of a conversion's time; json.dumps encodes in C."""
    f.write(json.dumps(trace))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("trace", nargs="?")
    ap.add_argument("-o", "--out")
    ap.add_argument("--corpus", nargs=2, metavar=("PROTO_CORPUS", "OUT_CORPUS"))
    a = ap.parse_args(argv)
    if a.corpus:
        src, dst = a.corpus
        for site in sorted(os.listdir(src)):
            d = os.path.join(src, site)
            if site == "manifest.tsv":
                shutil.copy(d, os.path.join(dst, site))
            if not os.path.isdir(d):
                continue
            os.makedirs(os.path.join(dst, site), exist_ok=True)
            for f in sorted(os.listdir(d)):
                name = f.split(".")[0] + ".json"
                with open(os.path.join(dst, site, name), "w", encoding="utf-8") as o:
                    write(convert(read(os.path.join(d, f))), o)
        return 0
    out = convert(read(a.trace))
    if a.out:
        with open(a.out, "w", encoding="utf-8") as o:
            write(out, o)
    else:
        write(out, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
