#include "report/tc_jsonw.h"

#include <math.h>

#include "util/tc_json_valid.h"

void tc_jsonw_init(tc_jsonw *w, FILE *fp, int indent) {
  tc_wbuf_init(&w->out, fp);
  w->depth = 0;
  w->indent = indent;
  w->first[0] = 1;
  w->after_key = 0;
}

/* After every value: a complete top-level value goes to the stream. */
static void done(tc_jsonw *w) {
  if (w->depth == 0)
    tc_wbuf_flush(&w->out);
}

static const char line[65] = "\n                                                               ";

static void newline(tc_jsonw *w) {
  if (!w->indent)
    return;
  size_t n = 1 + (size_t)w->depth * (size_t)w->indent;
  if (n > sizeof line) { /* deeper than any report goes */
    tc_wbuf_putc(&w->out, '\n');
    for (size_t i = 1; i < n; i++)
      tc_wbuf_putc(&w->out, ' ');
    return;
  }
  /* A whole line's worth copied at a fixed size is a few moves; only N
   * bytes of it count. */
  memcpy(tc_wbuf_room(&w->out, sizeof line), line, sizeof line);
  w->out.len += n;
}

/* Separator and indentation before a value or a key at the current level. */
static void before_item(tc_jsonw *w) {
  if (w->after_key) {
    w->after_key = 0;
    return;
  }
  if (w->depth > 0) {
    if (!w->first[w->depth])
      tc_wbuf_putc(&w->out, ',');
    newline(w);
  }
  w->first[w->depth] = 0;
}

static void jw_open(tc_jsonw *w, char c) {
  before_item(w);
  tc_wbuf_putc(&w->out, c);
  if (w->depth + 1 < TC_JSONW_MAX_DEPTH)
    w->depth++;
  w->first[w->depth] = 1;
}

static void jw_close(tc_jsonw *w, char c) {
  int empty = w->first[w->depth];
  if (w->depth > 0)
    w->depth--;
  if (!empty)
    newline(w);
  tc_wbuf_putc(&w->out, c);
  done(w);
}

void tc_jsonw_obj(tc_jsonw *w) { jw_open(w, '{'); }
void tc_jsonw_obj_end(tc_jsonw *w) { jw_close(w, '}'); }
void tc_jsonw_arr(tc_jsonw *w) { jw_open(w, '['); }
void tc_jsonw_arr_end(tc_jsonw *w) { jw_close(w, ']'); }

/* Bytes that need a look: controls, quote, backslash, and every byte of a
 * multi-byte sequence (valid UTF-8 passes, the rest becomes U+FFFD). */
static const unsigned char look[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x00 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x10 */
    0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x20: '"' */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x30 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x40 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, /* 0x50: '\\' */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x60 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x70 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x80 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x90 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0xa0 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0xb0 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0xc0 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0xd0 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0xe0 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0xf0 */
};

/* Eight bytes, the first in the low lane whatever the machine's order. */
static inline uint64_t load_lanes(const unsigned char *p) {
  uint64_t x;
  memcpy(&x, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  x = __builtin_bswap64(x);
#endif
  return x;
}

/* Two 4-byte loads as one word of lanes, LO's first byte in the low lane. */
static inline uint64_t load_lanes_2x4(uint32_t lo, uint32_t hi) {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  lo = __builtin_bswap32(lo);
  hi = __builtin_bswap32(hi);
#endif
  return (uint64_t)lo | (uint64_t)hi << 32;
}

/* The high bit of each lane of X that needs a look (a byte below 0x20,
 * equal to '"' or '\\', or with its high bit set). Above the lowest such
 * lane a borrow can flag more, so only the lowest is exact; that is the
 * one used. */
static inline uint64_t look_lanes(uint64_t x) {
  const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
  uint64_t q = x ^ (ones * '"'), s = x ^ (ones * '\\');
  return (((x - ones * 0x20) & ~x) | ((q - ones) & ~q) | ((s - ones) & ~s) | x) & high;
}

/* Length of the run at P (N bytes) that is copied as it is: eight bytes a
 * step, the last step on the word that ends at P + N (its lanes already
 * seen masked off), the table for strings shorter than a word. */
static size_t plain_run(const unsigned char *p, size_t n) {
  size_t i = 0;
  if (n < 4) {
    while (i < n && !look[p[i]])
      i++;
    return i;
  }
  if (n < 8) { /* the first four bytes in the low lanes, the last four above */
    uint32_t lo, hi;
    memcpy(&lo, p, 4);
    memcpy(&hi, p + n - 4, 4);
    uint64_t m = look_lanes(load_lanes_2x4(lo, hi));
    if (!m)
      return n;
    size_t lane = (size_t)(__builtin_ctzll(m) >> 3);
    return lane < 4 ? lane : n - 8 + lane;
  }
  for (; i + 8 <= n; i += 8) {
    uint64_t m = look_lanes(load_lanes(p + i));
    if (m)
      return i + (size_t)(__builtin_ctzll(m) >> 3);
  }
  if (i == n)
    return n;
  uint64_t m = look_lanes(load_lanes(p + n - 8)) & (~0ULL << (8 * (8 - (n - i))));
  return m ? n - 8 + (size_t)(__builtin_ctzll(m) >> 3) : n;
}

static void escape_byte(tc_wbuf *b, unsigned char c) {
  static const char hex[] = "0123456789abcdef";
  switch (c) {
  case '"': tc_wbuf_put(b, "\\\"", 2); break;
  case '\\': tc_wbuf_put(b, "\\\\", 2); break;
  case '\n': tc_wbuf_put(b, "\\n", 2); break;
  case '\r': tc_wbuf_put(b, "\\r", 2); break;
  case '\t': tc_wbuf_put(b, "\\t", 2); break;
  case '\b': tc_wbuf_put(b, "\\b", 2); break;
  case '\f': tc_wbuf_put(b, "\\f", 2); break;
  default:
    if (c < 0x20) {
      char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
      tc_wbuf_put(b, u, sizeof u);
    } else {
      tc_wbuf_put(b, "\\ufffd", 6);
    }
  }
}

void tc_json_escape(tc_wbuf *b, tc_str s) {
  if (!s.len) /* an empty tc_str may hold NULL, where even P + 0 is undefined */
    return;
  const unsigned char *p = (const unsigned char *)s.ptr;
  size_t n = s.len, i = 0, run = 0; /* run: start of the bytes copied as they are */
  while ((i += plain_run(p + i, n - i)) < n) {
    size_t u = p[i] >= 0x80 ? tc_utf8_len(p + i, n - i) : 0;
    if (u) { /* valid UTF-8 passes as it is */
      i += u;
      continue;
    }
    tc_wbuf_put(b, p + run, i - run);
    escape_byte(b, p[i]);
    run = ++i;
  }
  tc_wbuf_put(b, p + run, n - run);
}

/* The bytes a short key, its separator and its indentation can take. */
#define KEY_FAST_MAX 64
#define KEY_FAST_ROOM (1 + sizeof line + 1 + KEY_FAST_MAX + 3)

void tc_jsonw_keyn(tc_jsonw *w, tc_str k) {
  /* Nearly every key is a short plain one inside an object: comma,
   * indentation, quotes and text go into the buffer in one step. */
  size_t ind = w->indent ? 1 + (size_t)w->depth * (size_t)w->indent : 0;
  if (!w->after_key && w->depth > 0 && k.len <= KEY_FAST_MAX && ind <= sizeof line &&
      (!k.len || plain_run((const unsigned char *)k.ptr, k.len) == k.len)) {
    char *o = tc_wbuf_room(&w->out, KEY_FAST_ROOM);
    size_t n = 0;
    if (!w->first[w->depth])
      o[n++] = ',';
    w->first[w->depth] = 0;
    if (ind) {
      memcpy(o + n, line, sizeof line); /* a fixed size: a few moves; IND of it count */
      n += ind;
    }
    o[n++] = '"';
    if (k.len)
      memcpy(o + n, k.ptr, k.len);
    n += k.len;
    memcpy(o + n, "\": ", 3);
    n += w->indent ? 3 : 2;
    w->out.len += n;
    w->after_key = 1;
    return;
  }
  before_item(w);
  tc_wbuf_putc(&w->out, '"');
  tc_json_escape(&w->out, k);
  if (w->indent)
    tc_wbuf_put(&w->out, "\": ", 3);
  else
    tc_wbuf_put(&w->out, "\":", 2);
  w->after_key = 1;
}

void tc_jsonw_key(tc_jsonw *w, const char *k) { tc_jsonw_keyn(w, tc_str_c(k)); }

void tc_jsonw_strn(tc_jsonw *w, tc_str s) {
  before_item(w);
  tc_wbuf_putc(&w->out, '"');
  tc_json_escape(&w->out, s);
  tc_wbuf_putc(&w->out, '"');
  done(w);
}

void tc_jsonw_str(tc_jsonw *w, const char *s) {
  if (!s) {
    tc_jsonw_null(w);
    return;
  }
  tc_jsonw_strn(w, tc_str_c(s));
}

void tc_jsonw_int(tc_jsonw *w, int64_t v) {
  before_item(w);
  tc_wbuf_i64(&w->out, v);
  done(w);
}

void tc_jsonw_uint(tc_jsonw *w, uint64_t v) {
  before_item(w);
  tc_wbuf_u64(&w->out, v);
  done(w);
}

void tc_jsonw_num(tc_jsonw *w, double v) {
  if (!isfinite(v)) {
    tc_jsonw_null(w);
    return;
  }
  before_item(w);
  tc_wbuf_num(&w->out, v);
  done(w);
}

void tc_jsonw_bool(tc_jsonw *w, int v) {
  before_item(w);
  tc_wbuf_puts(&w->out, v ? "true" : "false");
  done(w);
}

void tc_jsonw_null(tc_jsonw *w) {
  before_item(w);
  tc_wbuf_put(&w->out, "null", 4);
  done(w);
}

void tc_jsonw_raw(tc_jsonw *w, tc_str json) {
  before_item(w);
  tc_wbuf_str(&w->out, json);
  done(w);
}

void tc_jsonw_end(tc_jsonw *w) {
  tc_wbuf_putc(&w->out, '\n');
  tc_wbuf_flush(&w->out);
}

/* Each keyed call is its key, then the plain call. */
#define TC_JSONW_KEYED(name, type)                                             \
  void tc_jsonw_k##name(tc_jsonw *w, const char *k, type v) {                  \
    tc_jsonw_key(w, k);                                                        \
    tc_jsonw_##name(w, v);                                                     \
  }
TC_JSONW_KEYED(str, const char *)
TC_JSONW_KEYED(strn, tc_str)
TC_JSONW_KEYED(int, int64_t)
TC_JSONW_KEYED(uint, uint64_t)
TC_JSONW_KEYED(num, double)
TC_JSONW_KEYED(bool, int)
TC_JSONW_KEYED(raw, tc_str)
#undef TC_JSONW_KEYED

#define TC_JSONW_KEYED_OPEN(name)                                              \
  void tc_jsonw_k##name(tc_jsonw *w, const char *k) {                          \
    tc_jsonw_key(w, k);                                                        \
    tc_jsonw_##name(w);                                                        \
  }
TC_JSONW_KEYED_OPEN(null)
TC_JSONW_KEYED_OPEN(obj)
TC_JSONW_KEYED_OPEN(arr)
#undef TC_JSONW_KEYED_OPEN

static int valid_utf8(tc_str s) {
  const unsigned char *p = (const unsigned char *)s.ptr;
  for (size_t i = 0; i < s.len;) {
    size_t u = p[i] < 0x80 ? 1 : tc_utf8_len(p + i, s.len - i);
    if (!u)
      return 0;
    i += u;
  }
  return 1;
}

void tc_jsonw_kname(tc_jsonw *w, const char *k, tc_str name) {
  tc_jsonw_kstrn(w, k, name);
  if (valid_utf8(name))
    return;
  char key[64];
  snprintf(key, sizeof key, "%s_hex", k);
  tc_jsonw_key(w, key);
  static const char digits[] = "0123456789abcdef";
  before_item(w);
  tc_wbuf_putc(&w->out, '"');
  for (size_t i = 0; i < name.len; i++) {
    unsigned char c = (unsigned char)name.ptr[i];
    char two[2] = {digits[c >> 4], digits[c & 15]};
    tc_wbuf_put(&w->out, two, 2);
  }
  tc_wbuf_putc(&w->out, '"');
  done(w);
}
