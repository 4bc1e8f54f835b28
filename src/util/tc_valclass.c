#include "util/tc_valclass.h"

#include <math.h>
#include <string.h>

#define SCHEME_MAX 32
#define NAME_MAX_SHOWN 64

static const char *const names[] = {
#define TC_VC_NAME(id, name, label) name,
    TC_VALCLASS_MAP(TC_VC_NAME)
#undef TC_VC_NAME
};

static const char *const labels[] = {
#define TC_VC_LABEL(id, name, label) label,
    TC_VALCLASS_MAP(TC_VC_LABEL)
#undef TC_VC_LABEL
};

const char *tc_valclass_name(tc_vclass c) { return (unsigned)c < TC_VC_COUNT ? names[c] : NULL; }

const char *tc_valclass_label(tc_vclass c) {
  return (unsigned)c < TC_VC_COUNT ? labels[c] : NULL;
}

/* Byte classes by table: classifying runs on every string value, and a
 * load and a mask per byte beat chains of compares. */
enum { C_ALPHA = 1, C_DIGIT = 2, C_HEXL = 4, C_SCHEME = 8 };

#define C_OF(c)                                                                \
  ((((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') ? C_ALPHA | C_SCHEME : 0) | \
   ((c) >= '0' && (c) <= '9' ? C_DIGIT | C_SCHEME : 0) |                       \
   (((c) >= 'a' && (c) <= 'f') || ((c) >= 'A' && (c) <= 'F') ? C_HEXL : 0) |   \
   ((c) == '+' || (c) == '-' || (c) == '.' ? C_SCHEME : 0))
#define C4(n) C_OF(n), C_OF(n + 1), C_OF(n + 2), C_OF(n + 3)
#define C16(n) C4(n), C4(n + 4), C4(n + 8), C4(n + 12)
#define C64(n) C16(n), C16(n + 16), C16(n + 32), C16(n + 48)
static const unsigned char cls[256] = {C64(0), C64(64), C64(128), C64(192)};

/* Length of the scheme before the ':' at S[len], or 0 if S has none. */
static size_t scheme_len(tc_str s) {
  const unsigned char *p = (const unsigned char *)s.ptr;
  if (!s.len || !(cls[p[0]] & C_ALPHA))
    return 0;
  size_t lim = s.len < SCHEME_MAX + 1 ? s.len : SCHEME_MAX + 1, i = 1;
  while (i < lim && (cls[p[i]] & C_SCHEME))
    i++;
  return i < lim && p[i] == ':' ? i : 0;
}

static const struct {
  const char *scheme;
  size_t len;
  tc_vclass c;
} known[] = {
    {"http", 4, TC_VC_HTTP},
    {"https", 5, TC_VC_HTTPS},
    {"data", 4, TC_VC_DATA},
    {"blob", 4, TC_VC_BLOB},
    {"chrome", 6, TC_VC_CHROME},
    {"chrome-extension", 16, TC_VC_CHROME_EXTENSION},
    {"chrome-untrusted", 16, TC_VC_CHROME_UNTRUSTED},
    {"devtools", 8, TC_VC_DEVTOOLS},
    {"about", 5, TC_VC_ABOUT},
    {"file", 4, TC_VC_FILE},
};

static int has_authority(tc_str s, size_t n) {
  return s.len >= n + 3 && s.ptr[n + 1] == '/' && s.ptr[n + 2] == '/';
}

static tc_vclass scheme_class(tc_str s, size_t n) {
  for (size_t k = 0; k < sizeof known / sizeof *known; k++) {
    if (known[k].len != n)
      continue;
    size_t i = 0;
    while (i < n && (s.ptr[i] | 0x20) == known[k].scheme[i])
      i++;
    if (i == n)
      return known[k].c;
  }
  return has_authority(s, n) ? TC_VC_OTHER_SCHEME : TC_VC_OTHER;
}

tc_vclass tc_valclass_str(tc_str s) {
  if (!s.len)
    return TC_VC_EMPTY;
  const unsigned char *p = (const unsigned char *)s.ptr;
  size_t n = scheme_len(s);
  if (n) {
    tc_vclass c = scheme_class(s, n);
    if (c != TC_VC_OTHER)
      return c;
  }
  /* One pass over the digits and hex letters, stopping at anything else:
   * most strings are words and stop at once. */
  size_t sign = p[0] == '-', i = sign;
  unsigned letters = 0;
  for (; i < s.len && (cls[p[i]] & (C_DIGIT | C_HEXL)); i++)
    letters |= cls[p[i]] & C_HEXL;
  if (i == 1 && s.len > 2 && p[0] == '0' && (p[1] | 0x20) == 'x') {
    for (i = 2; i < s.len && (cls[p[i]] & (C_DIGIT | C_HEXL)); i++)
      ;
    return i == s.len ? TC_VC_HEX : TC_VC_OTHER;
  }
  if (i < s.len || s.len == sign)
    return TC_VC_OTHER;
  if (!letters)
    return TC_VC_DIGITS;
  return !sign && s.len >= 16 ? TC_VC_HEX_ID : TC_VC_OTHER;
}

typedef struct {
  char *buf;
  size_t len;
} out_t;

static void put(out_t *o, const char *p, size_t n) {
  if (n > TC_VALCLASS_CUT_MAX - o->len)
    n = TC_VALCLASS_CUT_MAX - o->len;
  memcpy(o->buf + o->len, p, n);
  o->len += n;
}

/* The bytes that end a part of a URL, as bit sets: a table, since every
 * URL value of every event is cut. */
enum {
  END_PATH = 1,  /* slash, ? and # (and backslash) end the authority */
  END_PORT = 2,  /* and : ends the host */
  END_IPV6 = 4,  /* ] */
  END_MEDIA = 8, /* ; , end a data: media type */
  END_NAME = 16, /* ? # end an about: name */
};

static const unsigned char ends[256] = {
    ['/'] = END_PATH | END_PORT,
    ['?'] = END_PATH | END_PORT | END_NAME,
    ['#'] = END_PATH | END_PORT | END_NAME,
    ['\\'] = END_PATH | END_PORT,
    [':'] = END_PORT,
    [']'] = END_IPV6,
    [';'] = END_MEDIA,
    [','] = END_MEDIA,
};

/* The index of the first byte of class END in S at or after FROM, or S.len. */
static size_t span_to(tc_str s, size_t from, unsigned end) {
  while (from < s.len && !(ends[(unsigned char)s.ptr[from]] & end))
    from++;
  return from;
}

/* "scheme://host" of S, whose scheme is N bytes and followed by "://". */
static void cut_authority(out_t *o, tc_str s, size_t n) {
  size_t start = n + 3, end = span_to(s, start, END_PATH);
  size_t host = start;
  for (size_t i = start; i < end; i++)
    if (s.ptr[i] == '@')
      host = i + 1;
  size_t stop = host;
  if (stop < end && s.ptr[stop] == '[') {
    stop = span_to(s, stop, END_IPV6);
    stop = stop < end ? stop + 1 : end;
  } else {
    stop = span_to(s, host, END_PORT);
    if (stop > end)
      stop = end;
  }
  put(o, s.ptr, n + 3);
  put(o, s.ptr + host, stop - host);
}

static void cut_url(out_t *o, tc_str s, tc_vclass c) {
  size_t n = scheme_len(s);
  if (c == TC_VC_BLOB) {
    put(o, s.ptr, n + 1);
    tc_str inner = {s.ptr + n + 1, s.len - n - 1};
    size_t m = scheme_len(inner);
    if (m && has_authority(inner, m))
      cut_authority(o, inner, m);
    return;
  }
  if (c == TC_VC_DATA || c == TC_VC_ABOUT) {
    /* A media type or an about: page name is short; anything longer is
     * not one and stays hidden. */
    size_t end = span_to(s, n + 1, c == TC_VC_DATA ? END_MEDIA : END_NAME);
    put(o, s.ptr, end - (n + 1) <= NAME_MAX_SHOWN ? end : n + 1);
    return;
  }
  if (has_authority(s, n)) {
    cut_authority(o, s, n);
    return;
  }
  put(o, s.ptr, n + 1);
}

tc_str tc_valclass_cut(tc_str s, tc_vclass c, char buf[TC_VALCLASS_CUT_MAX]) {
  if (!tc_valclass_is_url(c))
    return s;
  out_t o = {buf, 0};
  cut_url(&o, s, c);
  tc_str r = {buf, o.len};
  return r;
}

unsigned tc_valclass_num(double v) {
  unsigned f = 0;
  if (v == 0)
    f |= TC_VN_ZERO;
  if (v == -1)
    f |= TC_VN_MINUS1;
  if (v < 0)
    f |= TC_VN_NEG;
  if (isfinite(v) && v != trunc(v))
    f |= TC_VN_FRAC;
  return f;
}
