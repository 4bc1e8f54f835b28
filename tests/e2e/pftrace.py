"""Writes small Perfetto protobuf traces for the tests: a protobuf wire
writer and the few messages Chrome's traces are made of, with the field
numbers typed from Perfetto's protos/perfetto/trace/ (nothing shared with
src/proto). Standard library only.

    t = Trace()
    t.process(uuid=1, pid=7, name="Renderer")
    t.thread(uuid=2, parent=1, pid=7, tid=8, name="CrRendererMain")
    t.slice(2, "ParseHTML", 1000, 5000, cats=["devtools.timeline"], args={"data": {"url": "x"}})
    data = t.bytes()
"""
import struct


def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def tag(field, wire):
    return varint(field << 3 | wire)


def u(field, v):
    return tag(field, 0) + varint(v)


def ln(field, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    return tag(field, 2) + varint(len(data)) + data


def fixed64(field, v):
    return tag(field, 1) + struct.pack("<Q", v & ((1 << 64) - 1))


def double(field, d):
    return tag(field, 1) + struct.pack("<d", d)


def annotation(name, value):
    """A DebugAnnotation: dicts as dict_entries, lists as array_values."""
    out = ln(10, name) if name is not None else b""
    if isinstance(value, bool):
        out += u(2, int(value))
    elif isinstance(value, int):
        out += u(4, value)
    elif isinstance(value, float):
        out += double(5, value)
    elif isinstance(value, str):
        out += ln(6, value)
    elif isinstance(value, dict):
        out += b"".join(ln(11, annotation(k, v)) for k, v in value.items())
    elif isinstance(value, list):
        out += b"".join(ln(12, annotation(None, v)) for v in value)
    return out


class Trace:
    """Packets on sequence 1 unless said otherwise; names interned on it."""

    def __init__(self):
        self.out = bytearray()
        self.names = {}
        self.cats = {}
        self.cleared = False

    def packet(self, body):
        self.out += ln(1, body)

    def bytes(self):
        return bytes(self.out)

    def process(self, uuid, pid, name):
        self.packet(ln(60, u(1, uuid) + ln(3, u(1, pid) + ln(6, name))))

    def thread(self, uuid, parent, pid, tid, name):
        self.packet(ln(60, u(1, uuid) + u(5, parent) + ln(4, u(1, pid) + u(2, tid) + ln(5, name))))

    def child(self, uuid, parent):
        self.packet(ln(60, u(1, uuid) + u(5, parent)))

    def metadata(self, **kv):
        self.packet(ln(5, b"".join(ln(2, ln(1, k.replace("_", "-")) + ln(2, v))
                                   for k, v in kv.items())))

    def _interned(self, name, cats):
        """The event's name and category fields, interning what is new."""
        fresh = b""
        if name not in self.names:
            self.names[name] = len(self.names) + 1
            fresh += ln(2, u(1, self.names[name]) + ln(2, name))
        fields = u(10, self.names[name])
        for c in cats:
            if c not in self.cats:
                self.cats[c] = len(self.cats) + 1
                fresh += ln(1, u(1, self.cats[c]) + ln(2, c))
            fields += u(3, self.cats[c])
        return fields, fresh

    def event(self, ts, track, typ, name=None, cats=(), args=None, extra=b""):
        fields, fresh = self._interned(name, cats) if name is not None else (b"", b"")
        body = u(9, typ) + u(11, track) + fields + extra
        for k, v in (args or {}).items():
            body += ln(4, annotation(k, v))
        head = u(8, ts) + u(10, 1)
        if not self.cleared:
            head += u(13, 1)
            self.cleared = True
        if fresh:
            head += ln(12, fresh)
        self.packet(head + ln(11, body))

    def slice(self, track, name, begin, end, cats=(), args=None):
        self.event(begin, track, 1, name, cats, args)
        self.event(end, track, 2)

    def instant(self, track, name, ts, cats=(), args=None):
        self.event(ts, track, 3, name, cats, args)


def renderer_trace(tasks=3, name="RunTask"):
    """A browser and a renderer, the renderer's main thread running TASKS
    long tasks of 60 ms each, with a devtools.timeline event carrying args."""
    t = Trace()
    t.process(1, 100, "Browser")
    t.thread(2, 1, 100, 100, "CrBrowserMain")
    t.process(3, 200, "Renderer")
    t.thread(4, 3, 200, 200, "CrRendererMain")
    t.metadata(product_version="Chrome/156.0.8078.108")
    base = 1_000_000_000
    for k in range(tasks):
        b = base + k * 100_000_000
        t.slice(4, name, b, b + 60_000_000, cats=["disabled-by-default-devtools.timeline"])
        t.slice(4, "ParseHTML", b + 1000, b + 2000000, cats=["devtools.timeline"],
                args={"beginData": {"frame": "F1", "url": "http://x/", "startLine": k}})
    t.instant(2, "Mark", base, cats=["blink"], args={"n": 1})
    return t.bytes()
