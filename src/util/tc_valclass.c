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

static int is_alpha(unsigned char c) { return (unsigned char)((c | 0x20) - 'a') < 26; }
static int is_digit(unsigned char c) { return (unsigned char)(c - '0') < 10; }
static int is_hex(unsigned char c) {
  return is_digit(c) || (unsigned char)((c | 0x20) - 'a') < 6;
}

/* Length of the scheme before the ':' at S[len], or 0 if S has none. */
static size_t scheme_len(tc_str s) {
  if (!s.len || !is_alpha((unsigned char)s.ptr[0]))
    return 0;
  for (size_t i = 1; i < s.len && i <= SCHEME_MAX; i++) {
    unsigned char c = (unsigned char)s.ptr[i];
    if (c == ':')
      return i;
    if (!is_alpha(c) && !is_digit(c) && c != '+' && c != '-' && c != '.')
      return 0;
  }
  return 0;
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
  if (s.len > 2 && p[0] == '0' && (p[1] | 0x20) == 'x') {
    size_t i = 2;
    while (i < s.len && is_hex(p[i]))
      i++;
    if (i == s.len)
      return TC_VC_HEX;
  }
  size_t hex = 0, digits = 0;
  for (size_t i = 0; i < s.len; i++) {
    hex += is_hex(p[i]);
    digits += is_digit(p[i]);
  }
  if (hex == s.len && s.len >= 16 && hex > digits)
    return TC_VC_HEX_ID;
  size_t sign = p[0] == '-';
  if (s.len > sign && digits == s.len - sign)
    return TC_VC_DIGITS;
  return TC_VC_OTHER;
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

/* The index of the first of STOPS in S at or after FROM, or S.len. */
static size_t span_to(tc_str s, size_t from, const char *stops) {
  while (from < s.len && !strchr(stops, s.ptr[from]))
    from++;
  return from;
}

/* "scheme://host" of S, whose scheme is N bytes and followed by "://". */
static void cut_authority(out_t *o, tc_str s, size_t n) {
  size_t start = n + 3, end = span_to(s, start, "/?#\\");
  size_t host = start;
  for (size_t i = start; i < end; i++)
    if (s.ptr[i] == '@')
      host = i + 1;
  size_t stop = host;
  if (stop < end && s.ptr[stop] == '[') {
    stop = span_to(s, stop, "]");
    stop = stop < end ? stop + 1 : end;
  } else {
    stop = span_to(s, host, ":/?#\\");
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
    size_t end = span_to(s, n + 1, c == TC_VC_DATA ? ";," : "?#");
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
