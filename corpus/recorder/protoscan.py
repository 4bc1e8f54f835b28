"""Just enough of Chrome's protobuf (Perfetto) trace format for the recorder.

Chrome writes a startup trace as a Perfetto `Trace`: a run of `TracePacket`s,
each as field 1, length-delimited. The recorder needs two things from it:
- whether the file is whole: the packets must follow one another up to the
  last byte (a file still being written stops inside a packet);
- the page-load verdict's events (ResourceSendRequest and the like) with
  their `data` argument, which Chrome writes as a TrackEvent whose name and
  argument names may be interned per packet sequence.
Field numbers are Perfetto's (protos/perfetto/trace/trace_packet.proto,
track_event/track_event.proto, track_event/debug_annotation.proto,
interned_data/interned_data.proto). tracecensus has its own reader; this one
only has to find a handful of events.
"""
import json
import struct

TRACE_PACKET = 1
# TracePacket
P_TRACK_EVENT, P_INTERNED, P_SEQ_ID, P_SEQ_FLAGS, P_STATE_CLEARED = 11, 12, 10, 13, 41
P_DEFAULTS, P_TRACK_DESCRIPTOR = 59, 60
SEQ_INCREMENTAL_STATE_CLEARED = 1
# TracePacketDefaults.track_event_defaults, TrackEventDefaults.track_uuid
DEF_TRACK_EVENT, DEF_TRACK_UUID = 11, 11
# TrackDescriptor, and the pid of its ProcessDescriptor or ThreadDescriptor
D_UUID, D_PROCESS, D_THREAD, PID = 1, 3, 4, 1
# TrackEvent
E_ANNOTATION, E_TRACK_UUID, E_NAME_IID, E_NAME = 4, 11, 10, 23
# InternedData
I_EVENT_NAMES, I_ANNOTATION_NAMES, I_STRING_VALUES = 2, 3, 29
# DebugAnnotation
A_NAME_IID, A_NAME, A_BOOL, A_UINT, A_INT, A_DOUBLE, A_STRING, A_POINTER = 1, 10, 2, 3, 4, 5, 6, 7
A_NESTED, A_LEGACY_JSON, A_DICT, A_ARRAY, A_STRING_IID = 8, 9, 11, 12, 17
# DebugAnnotation.NestedValue
N_TYPE, N_KEYS, N_VALUES, N_ARRAY, N_INT, N_DOUBLE, N_BOOL, N_STRING = 1, 2, 3, 4, 5, 6, 7, 8
N_DICT, N_LIST = 1, 2


class Malformed(ValueError):
    pass


def _varint(buf, pos):
    value = shift = 0
    while True:
        if pos >= len(buf):
            raise Malformed("varint runs past the end at byte %d" % pos)
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, pos
        shift += 7
        if shift > 63:
            raise Malformed("varint longer than 10 bytes at byte %d" % pos)


def fields(buf, start=0, end=None):
    """(field number, wire type, value) of every field of the message BUF[start:end].

    A length-delimited value is a memoryview of its bytes; varints are ints,
    fixed64/fixed32 their raw 8 or 4 bytes.
    """
    end = len(buf) if end is None else end
    pos = start
    while pos < end:
        key, pos = _varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
        elif wire == 2:
            size, pos = _varint(buf, pos)
            if pos + size > end:
                raise Malformed("field %d needs %d bytes at byte %d, the message ends at %d" % (
                    number, size, pos, end))
            value, pos = memoryview(buf)[pos:pos + size], pos + size
        elif wire == 1:
            value, pos = bytes(buf[pos:pos + 8]), pos + 8
        elif wire == 5:
            value, pos = bytes(buf[pos:pos + 4]), pos + 4
        else:
            raise Malformed("wire type %d at byte %d" % (wire, pos))
        if pos > end:
            raise Malformed("field %d runs past the message's end" % number)
        yield number, wire, value


def complete(buf):
    """Whether BUF is a whole trace: at least one packet, field 1 after field 1 to the end."""
    if not buf or buf[0] != (TRACE_PACKET << 3 | 2):
        return False
    try:
        for number, wire, _ in fields(buf):
            if (number, wire) != (TRACE_PACKET, 2):
                return False
    except Malformed:
        return False
    return True


def _signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def _text(view):
    return bytes(view).decode("utf-8", "replace")


def _double(raw):
    return struct.unpack("<d", raw)[0]


# How each message spells a plain value: field number -> decoder.
NESTED_LEAVES = {N_INT: _signed, N_DOUBLE: _double, N_BOOL: bool, N_STRING: _text}
ANNOTATION_LEAVES = {A_BOOL: bool, A_UINT: int, A_POINTER: int, A_INT: _signed,
                     A_DOUBLE: _double, A_STRING: _text}


def _nested(buf):
    kind, keys, values, items, leaf = 0, [], [], [], None
    for n, _, v in fields(buf):
        if n == N_TYPE:
            kind = v
        elif n == N_KEYS:
            keys.append(_text(v))
        elif n == N_VALUES:
            values.append(_nested(v))
        elif n == N_ARRAY:
            items.append(_nested(v))
        elif n in NESTED_LEAVES:
            leaf = NESTED_LEAVES[n](v)
    if kind == N_DICT:
        return dict(zip(keys, values))
    if kind == N_LIST:
        return items
    return leaf


class _Sequence:
    """One packet sequence's interned names and strings, and its default track."""

    def __init__(self):
        self.event_names, self.annotation_names, self.strings = {}, {}, {}
        self.track = None

    def defaults(self, buf):
        for n, _, v in fields(buf):
            if n == DEF_TRACK_EVENT:
                for m, _, uuid in fields(v):
                    if m == DEF_TRACK_UUID:
                        self.track = uuid

    def intern(self, buf):
        tables = {I_EVENT_NAMES: self.event_names, I_ANNOTATION_NAMES: self.annotation_names,
                  I_STRING_VALUES: self.strings}
        for n, _, v in fields(buf):
            if n in tables:
                entry = dict((k, val) for k, _, val in fields(v))
                if 1 in entry and 2 in entry:
                    tables[n][entry[1]] = _text(entry[2])

    def annotation(self, buf):
        """(name, value) of one DebugAnnotation."""
        name, value, entries, items = None, None, None, None
        for n, _, v in fields(buf):
            if n == A_NAME_IID:
                name = self.annotation_names.get(v)
            elif n == A_NAME:
                name = _text(v)
            elif n in ANNOTATION_LEAVES:
                value = ANNOTATION_LEAVES[n](v)
            elif n == A_STRING_IID:
                value = self.strings.get(v)
            elif n == A_NESTED:
                value = _nested(v)
            elif n == A_LEGACY_JSON:
                value = json.loads(_text(v))
            elif n == A_DICT:
                entries = entries or {}
                k, val = self.annotation(v)
                entries[k] = val
            elif n == A_ARRAY:
                items = items or []
                items.append(self.annotation(v)[1])
        if entries is not None:
            value = entries
        elif items is not None:
            value = items
        return name, value

    def event(self, buf, wanted):
        """The TrackEvent as ({"name", "args"}, track uuid) if its name is in WANTED."""
        name, annotations, track = None, [], self.track
        for n, _, v in fields(buf):
            if n == E_NAME_IID:
                name = self.event_names.get(v)
            elif n == E_NAME:
                name = _text(v)
            elif n == E_ANNOTATION:
                annotations.append(v)
            elif n == E_TRACK_UUID:
                track = v
        if name not in wanted:
            return None, None
        return {"name": name, "args": dict(self.annotation(a) for a in annotations)}, track


def _track_pid(buf):
    """(uuid, pid) of a TrackDescriptor; pid None for a track of no process."""
    uuid = pid = None
    for n, _, v in fields(buf):
        if n == D_UUID:
            uuid = v
        elif n in (D_PROCESS, D_THREAD):
            pid = dict((m, val) for m, _, val in fields(v)).get(PID, pid)
    return uuid, pid


def events(buf, wanted):
    """The TrackEvents named in WANTED, in file order, as JSON-trace-like dicts
    with the "pid" of their track's process (None when no descriptor says)."""
    sequences, found, pids = {}, [], {}
    for _, _, packet in fields(buf):
        parts = {}
        for n, _, v in fields(packet):
            parts.setdefault(n, []).append(v)
        seq_id = parts.get(P_SEQ_ID, [0])[0]
        cleared = (parts.get(P_SEQ_FLAGS, [0])[0] & SEQ_INCREMENTAL_STATE_CLEARED
                   or parts.get(P_STATE_CLEARED, [0])[0])
        if cleared or seq_id not in sequences:
            sequences[seq_id] = _Sequence()
        seq = sequences[seq_id]
        for defaults in parts.get(P_DEFAULTS, []):
            seq.defaults(defaults)
        for descriptor in parts.get(P_TRACK_DESCRIPTOR, []):
            uuid, pid = _track_pid(descriptor)
            pids[uuid] = pid
        for interned in parts.get(P_INTERNED, []):
            seq.intern(interned)
        for track_event in parts.get(P_TRACK_EVENT, []):
            e, track = seq.event(track_event, wanted)
            if e is not None:
                found.append((e, track))
    for e, track in found:
        e["pid"] = pids.get(track)
    return [e for e, _ in found]
