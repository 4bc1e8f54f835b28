/* The JSON text builder of the reader: events are written into one buffer
 * reused for every event, so after the first few packets writing an event
 * allocates nothing. A failed growth is remembered (oom) rather than
 * returned at every call; the event's writer checks it once. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/tc_proto_impl.h"
#include "util/tc_grow.h"
#include "util/tc_json_valid.h"

void tc__pbuf_free(tc_pbuf *b) {
  free(b->p);
  memset(b, 0, sizeof *b);
}

static int reserve(tc_pbuf *b, size_t n) {
  if (!b->oom && (n > SIZE_MAX - b->len || TC_GROW(b->p, b->cap, b->len + n)))
    b->oom = 1;
  return !b->oom;
}

void tc__pbuf_put(tc_pbuf *b, const void *p, size_t n) {
  if (n && reserve(b, n)) {
    memcpy(b->p + b->len, p, n);
    b->len += n;
  }
}

void tc__pbuf_puts(tc_pbuf *b, const char *s) { tc__pbuf_put(b, s, strlen(s)); }

void tc__pbuf_str(tc_pbuf *b, const void *data, size_t n) {
  static const char hex[] = "0123456789abcdef";
  const unsigned char *p = data;
  /* Worst case: every byte an escape of six, or U+FFFD's three. */
  if (n > (SIZE_MAX - 2) / 6 || !reserve(b, 6 * n + 2)) {
    b->oom = 1;
    return;
  }
  char *o = b->p + b->len;
  *o++ = '"';
  for (size_t i = 0; i < n;) {
    /* Runs of bytes that need nothing (most of a trace's text) in one copy. */
    size_t j = i;
    while (j < n && p[j] >= 0x20 && p[j] < 0x80 && p[j] != '"' && p[j] != '\\')
      j++;
    memcpy(o, p + i, j - i);
    o += j - i;
    if ((i = j) == n)
      break;
    unsigned char c = p[i];
    if (c >= 0x80) {
      size_t k = tc_utf8_len(p + i, n - i);
      if (k) {
        memcpy(o, p + i, k);
        o += k;
        i += k;
      } else {
        memcpy(o, "\xEF\xBF\xBD", 3);
        o += 3;
        i++;
      }
      continue;
    }
    if (c == '"' || c == '\\') {
      *o++ = '\\';
      *o++ = (char)c;
    } else if (c < 0x20) {
      memcpy(o, "\\u00", 4);
      o[4] = hex[c >> 4];
      o[5] = hex[c & 15];
      o += 6;
    } else {
      *o++ = (char)c;
    }
    i++;
  }
  *o++ = '"';
  b->len = (size_t)(o - b->p);
}

void tc__pbuf_u64(tc_pbuf *b, uint64_t v) {
  /* Two digits per division: timestamps have sixteen. */
  static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                              "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                              "8081828384858687888990919293949596979899";
  char t[20];
  size_t n = sizeof t;
  while (v >= 100) {
    unsigned d = (unsigned)(v % 100) * 2;
    v /= 100;
    t[--n] = pairs[d + 1];
    t[--n] = pairs[d];
  }
  if (v >= 10) {
    t[--n] = pairs[v * 2 + 1];
    t[--n] = pairs[v * 2];
  } else {
    t[--n] = (char)('0' + v);
  }
  tc__pbuf_put(b, t + n, sizeof t - n);
}

void tc__pbuf_i64(tc_pbuf *b, int64_t v) {
  if (v < 0)
    tc__pbuf_put(b, "-", 1);
  /* The magnitude in unsigned arithmetic: -INT64_MIN does not fit. */
  tc__pbuf_u64(b, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
}

void tc__pbuf_hex(tc_pbuf *b, uint64_t v) {
  char t[20];
  size_t n = 0;
  do {
    t[n++] = "0123456789abcdef"[v & 15];
    v >>= 4;
  } while (v);
  char o[22] = "\"0x";
  for (size_t i = 0; i < n; i++)
    o[3 + i] = t[n - 1 - i];
  o[3 + n] = '"';
  tc__pbuf_put(b, o, n + 4);
}

void tc__pbuf_num(tc_pbuf *b, double v) {
  if (isnan(v)) {
    tc__pbuf_puts(b, "\"NaN\"");
  } else if (isinf(v)) {
    tc__pbuf_puts(b, v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
  } else {
    /* 17 significant digits read back as the same double; the census
     * reads numbers as doubles, so no digit it could see is lost. */
    char t[32];
    int n = snprintf(t, sizeof t, "%.17g", v);
    tc__pbuf_put(b, t, n > 0 ? (size_t)n : 0);
  }
}
