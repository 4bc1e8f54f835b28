"""Tiny stdlib encoders for the fixture images: PNG (zlib) and GIF (LZW).

The pictures are synthetic patterns; what matters for the traces is that each
file is a real, valid image of a chosen size and format, so that Chrome decodes
it (Decode Image) and paints it (PaintImage).
"""
import struct
import zlib


def pattern_rgb(width, height, seed):
    """Rows of (r, g, b) tuples: a diagonal gradient with a checker overlay."""
    rows = []
    for y in range(height):
        row = []
        for x in range(width):
            checker = ((x // 8) + (y // 8) + seed) % 2
            r = (x * 255 // max(width - 1, 1) + seed * 40) % 256
            g = (y * 255 // max(height - 1, 1)) % 256
            b = 200 if checker else 60
            row.append((r, g, b))
        rows.append(row)
    return rows


def _png_chunk(tag, data):
    body = tag + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def encode_png(rows):
    """Truecolour PNG, filter 1 (Sub) on every row: the gradients compress well."""
    height, width = len(rows), len(rows[0])
    raw = bytearray()
    for row in rows:
        raw.append(1)
        prev = (0, 0, 0)
        for px in row:
            raw += bytes((c - p) & 0xFF for c, p in zip(px, prev))
            prev = px
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr)
            + _png_chunk(b"IDAT", zlib.compress(bytes(raw), 9))
            + _png_chunk(b"IEND", b""))


def _quantize(rows):
    """Map every pixel to a 6x6x6 colour cube index (216 palette entries)."""
    def level(v):
        return min(5, (v * 6) // 256)
    return [[36 * level(r) + 6 * level(g) + level(b) for r, g, b in row] for row in rows]


def _palette():
    out = bytearray()
    for i in range(256):
        if i < 216:
            out += bytes((i // 36 * 51, i // 6 % 6 * 51, i % 6 * 51))
        else:
            out += b"\x00\x00\x00"
    return bytes(out)


def _lzw_literal_stream(indices):
    """LZW data that never grows a code: a clear code every 254 literals keeps
    every code 9 bits wide, which any GIF decoder must accept."""
    clear, end = 256, 257
    codes = []
    for i, px in enumerate(indices):
        if i % 254 == 0:
            codes.append(clear)
        codes.append(px)
    codes.append(end)
    bits, nbits, out = 0, 0, bytearray()
    for code in codes:
        bits |= code << nbits
        nbits += 9
        while nbits >= 8:
            out.append(bits & 0xFF)
            bits >>= 8
            nbits -= 8
    if nbits:
        out.append(bits & 0xFF)
    blocks = bytearray()
    for off in range(0, len(out), 255):
        chunk = out[off:off + 255]
        blocks.append(len(chunk))
        blocks += chunk
    blocks.append(0)
    return bytes(blocks)


def encode_gif(frames, delay_cs=10):
    """GIF89a with a global 256-colour palette; several frames loop forever."""
    height, width = len(frames[0]), len(frames[0][0])
    out = bytearray(b"GIF89a")
    out += struct.pack("<HHBBB", width, height, 0xF7, 0, 0)
    out += _palette()
    if len(frames) > 1:
        out += b"\x21\xFF\x0BNETSCAPE2.0\x03\x01\x00\x00\x00"
    for rows in frames:
        out += struct.pack("<BBBBHBB", 0x21, 0xF9, 4, 0, delay_cs, 0, 0)
        out += struct.pack("<BHHHHB", 0x2C, 0, 0, width, height, 0)
        out.append(8)
        flat = [px for row in _quantize(rows) for px in row]
        out += _lzw_literal_stream(flat)
    out.append(0x3B)
    return bytes(out)
