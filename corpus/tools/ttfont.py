"""A minimal TrueType font written with the stdlib, for the web-font fixture.

Every printable ASCII letter and digit gets a glyph made of two rectangles
whose proportions depend on the code point, so text set in the font looks
different from any fallback and Chrome has real outlines to shape and raster.
The tables are the ten that Chrome's font sanitizer (OTS) requires of a
TrueType font: cmap, glyf, head, hhea, hmtx, loca, maxp, name, OS/2, post.
"""
import struct

UNITS_PER_EM = 1000
ASCENT, DESCENT = 800, 200


def _glyph_boxes(code):
    """Two rectangles (x0, y0, x1, y1) in font units for one code point."""
    h = 300 + (code * 37) % 450
    w = 250 + (code * 53) % 300
    stem = 80 + (code * 11) % 60
    return [(40, 0, 40 + stem, h), (40, h - stem, 40 + w, h)]


def _simple_glyph(boxes):
    flags, xs, ys, ends = [], [], [], []
    for x0, y0, x1, y1 in boxes:
        for px, py in ((x0, y0), (x0, y1), (x1, y1), (x1, y0)):
            xs.append(px)
            ys.append(py)
            flags.append(1)
        ends.append(len(xs) - 1)
    out = struct.pack(">hhhhh", len(boxes), min(xs), min(ys), max(xs), max(ys))
    out += b"".join(struct.pack(">H", e) for e in ends)
    out += struct.pack(">H", 0)
    out += bytes(flags)
    prev = 0
    for x in xs:
        out += struct.pack(">h", x - prev)
        prev = x
    prev = 0
    for y in ys:
        out += struct.pack(">h", y - prev)
        prev = y
    return out + b"\x00" * (-len(out) % 4), len(xs), max(xs)


def _cmap(code_to_glyph):
    codes = sorted(code_to_glyph)
    segments = []
    for c in codes:
        if segments and c == segments[-1][1] + 1 and \
                code_to_glyph[c] - c == code_to_glyph[segments[-1][0]] - segments[-1][0]:
            segments[-1][1] = c
        else:
            segments.append([c, c])
    segments.append([0xFFFF, 0xFFFF])
    n = len(segments)
    search = 2 ** (n.bit_length() - 1)
    ends = b"".join(struct.pack(">H", e) for _, e in segments)
    starts = b"".join(struct.pack(">H", s) for s, _ in segments)
    deltas = b"".join(struct.pack(">H", ((code_to_glyph[s] - s) if s != 0xFFFF else 1) & 0xFFFF)
                      for s, _ in segments)
    offsets = b"\x00\x00" * n
    body = ends + b"\x00\x00" + starts + deltas + offsets
    sub = struct.pack(">HHHHHHH", 4, 14 + len(body), 0, 2 * n, 2 * search,
                      search.bit_length() - 1, 2 * n - 2 * search) + body
    return struct.pack(">HHHHI", 0, 1, 3, 1, 12) + sub


def _name(family):
    strings = {1: family, 2: "Regular", 3: family + "-Regular-1", 4: family + " Regular",
               5: "Version 1.0", 6: family + "-Regular"}
    records, data = b"", b""
    for name_id, text in strings.items():
        enc = text.encode("utf-16-be")
        records += struct.pack(">HHHHHH", 3, 1, 0x409, name_id, len(enc), len(data))
        data += enc
    return struct.pack(">HHH", 0, len(strings), 6 + len(records)) + records + data


def _checksum(data):
    data += b"\x00" * (-len(data) % 4)
    return sum(struct.unpack(">%dI" % (len(data) // 4), data)) & 0xFFFFFFFF


def build_font(family):
    """Return the bytes of a TrueType font named `family`."""
    codes = [c for c in range(0x20, 0x7F) if chr(c).isalnum() or c == 0x20]
    glyf, loca = b"", [0]
    advances = [(500, 0)]
    code_to_glyph = {}
    max_points, max_x = 0, 0
    for gid, code in enumerate(codes, start=1):
        code_to_glyph[code] = gid
        if code == 0x20:
            advances.append((300, 0))
        else:
            data, points, right = _simple_glyph(_glyph_boxes(code))
            glyf += data
            max_points, max_x = max(max_points, points), max(max_x, right)
            advances.append((right + 60, 40))
        loca.append(len(glyf))
    num_glyphs = len(codes) + 1
    loca = [0] + loca  # .notdef is empty: same offset as the first real glyph
    tables = {}
    tables[b"glyf"] = glyf
    tables[b"loca"] = b"".join(struct.pack(">I", off) for off in loca)
    tables[b"head"] = struct.pack(">IIIIHHqqhhhhHHhhh", 0x00010000, 0x00010000, 0, 0x5F0F3CF5,
                                  0x000B, UNITS_PER_EM, 0, 0, 0, 0, max_x, ASCENT,
                                  0, 8, 2, 1, 0)
    adv_max = max(a for a, _ in advances)
    tables[b"hhea"] = struct.pack(">IhhhHhhhhhhhhhhhH", 0x00010000, ASCENT, -DESCENT, 0, adv_max,
                                  0, 0, max_x, 1, 0, 0, 0, 0, 0, 0, 0, num_glyphs)
    tables[b"hmtx"] = b"".join(struct.pack(">Hh", a, lsb) for a, lsb in advances)
    tables[b"maxp"] = struct.pack(">IHHHHHHHHHHHHHH", 0x00010000, num_glyphs, max_points, 2,
                                  0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0)
    avg = sum(a for a, _ in advances) // num_glyphs
    tables[b"OS/2"] = (struct.pack(">HhHHHhhhhhhhhhhh", 4, avg, 400, 5, 0, 650, 600, 0, 75,
                                   650, 600, 0, 350, 50, 250, 0)
                       + bytes(10) + struct.pack(">IIII", 1, 0, 0, 0) + b"TCEN"
                       + struct.pack(">HHHhhhHH", 0x40, min(codes), max(codes), ASCENT,
                                     -DESCENT, 0, ASCENT, DESCENT)
                       + struct.pack(">II", 1, 0)
                       + struct.pack(">hhHHH", 500, 700, 0, 0x20, 1))
    tables[b"cmap"] = _cmap(code_to_glyph)
    tables[b"name"] = _name(family)
    tables[b"post"] = struct.pack(">IIhhIIIII", 0x00030000, 0, -100, 50, 0, 0, 0, 0, 0)

    tags = sorted(tables)
    n = len(tags)
    search = 2 ** (n.bit_length() - 1)
    header = struct.pack(">IHHHH", 0x00010000, n, 16 * search, search.bit_length() - 1,
                         16 * n - 16 * search)
    offset = 12 + 16 * n
    directory, body = b"", b""
    for tag in tags:
        data = tables[tag]
        directory += struct.pack(">4sIII", tag, _checksum(data), offset + len(body), len(data))
        body += data + b"\x00" * (-len(data) % 4)
    font = bytearray(header + directory + body)
    head_off = offset + sum(len(tables[t]) + (-len(tables[t]) % 4)
                            for t in tags[:tags.index(b"head")])
    adjust = (0xB1B0AFBA - _checksum(bytes(font))) & 0xFFFFFFFF
    struct.pack_into(">I", font, head_off + 8, adjust)
    return bytes(font)
