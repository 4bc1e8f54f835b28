/* Text and ids for HTML. Names in traces are arbitrary bytes (an event
 * name may hold a C++ lambda's signature, a site name anything a crawl
 * wrote), so escaping also repairs what would make the markup ill-formed:
 * invalid UTF-8 (by the JSON checker's RFC 3629 rule) and control
 * characters, which the HTML parser reports and inline SVG's XML rules
 * forbid. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/tc_census_report.h"
#include "report/tc_html.h"
#include "report/tc_line.h"
#include "util/tc_json_valid.h"
#include "util/tc_numfmt.h"

#define TC_REPLACEMENT "\xEF\xBF\xBD" /* U+FFFD */

/* The entity for a byte HTML gives meaning to, or NULL. Quotes matter only
 * inside attribute values; element text (TEXT_ONLY) keeps them as they are,
 * which for a pretty-printed JSON example is a fifth of its bytes. */
static const char *entity(unsigned c, int text_only) {
  static const char *const ent[128] = {
      ['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;", ['"'] = "&quot;", ['\''] = "&#39;"};
  if (text_only && (c == '"' || c == '\''))
    return NULL;
  return c < 128 ? ent[c] : NULL;
}

/* ASCII bytes written as they are: printable but for those with an entity,
 * and tab, newline and carriage return. */
static int plain_ascii(unsigned c, int text_only) {
  return (c >= 0x20 && c < 0x7F && !entity(c, text_only)) || c == '\t' || c == '\n' || c == '\r';
}

/* The escaper proper: hands runs of plain bytes and the entities between
 * them to PUT, so one loop serves a stream and a writer's buffer. */
static void escape_to(void (*put)(void *ctx, const void *p, size_t n), void *ctx, tc_str s,
                      int text_only) {
  const unsigned char *p = (const unsigned char *)s.ptr;
  size_t i = 0, run = 0; /* run: start of the bytes written as they are */
  while (i < s.len) {
    unsigned c = p[i];
    if (c < 0x80 && plain_ascii(c, text_only)) {
      i++;
      continue;
    }
    size_t n = tc_utf8_len(p + i, s.len - i);
    /* C1 controls are the two-byte sequences C2 80 .. C2 9F. */
    int control = c < 0x80 ? !entity(c, 0) : n == 2 && c == 0xC2 && p[i + 1] < 0xA0;
    if (n && !control && c >= 0x80) {
      i += n;
      continue;
    }
    if (i > run)
      put(ctx, p + run, i - run);
    const char *ent = entity(c, text_only);
    const char *rep = ent && n ? ent : TC_REPLACEMENT;
    put(ctx, rep, strlen(rep));
    i += n ? n : 1;
    run = i;
  }
  if (i > run)
    put(ctx, p + run, i - run);
}

/* What tc_html_escape writes to a stream, gathered so the stream gets it
 * in blocks, not a call per entity. */
typedef struct {
  FILE *fp;
  size_t len;
  char buf[1024];
} esc_out;

static void esc_put(void *ctx, const void *p, size_t n) {
  esc_out *o = ctx;
  if (n > sizeof o->buf - o->len) {
    fwrite(o->buf, 1, o->len, o->fp);
    o->len = 0;
    if (n > sizeof o->buf) { /* a long run: straight through */
      fwrite(p, 1, n, o->fp);
      return;
    }
  }
  memcpy(o->buf + o->len, p, n);
  o->len += n;
}

static void escape_fp(FILE *fp, tc_str s, int text_only) {
  esc_out o;
  o.fp = fp;
  o.len = 0;
  escape_to(esc_put, &o, s, text_only);
  if (o.len)
    fwrite(o.buf, 1, o.len, fp);
}

void tc_html_escape(FILE *fp, tc_str s) { escape_fp(fp, s, 0); }

void tc_html_escape_text(FILE *fp, tc_str s) { escape_fp(fp, s, 1); }

static void wbuf_put(void *ctx, const void *p, size_t n) { tc_wbuf_put(ctx, p, n); }

void tc_html_escape_wbuf(tc_wbuf *b, tc_str s) { escape_to(wbuf_put, b, s, 0); }

void tc_html_escape_c(FILE *fp, const char *s) {
  if (s)
    tc_html_escape(fp, tc_str_c(s));
}

/* The id's text of NAME's bytes from *AT into BUF (CAP >= 3), as far as
 * whole bytes' forms fit; returns its length. */
static size_t id_part(tc_str name, size_t *at, char *buf, size_t cap) {
  static const char hex[] = "0123456789abcdef";
  size_t o = 0;
  for (; *at < name.len && o + 3 <= cap; (*at)++) {
    unsigned char c = (unsigned char)name.ptr[*at];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-') {
      buf[o++] = (char)c;
    } else {
      buf[o++] = '_';
      buf[o++] = hex[c >> 4];
      buf[o++] = hex[c & 15];
    }
  }
  return o;
}

void tc_html_id(FILE *fp, const char *prefix, tc_str name) {
  fputs(prefix, fp);
  fputc('-', fp);
  char buf[256];
  for (size_t at = 0, n; (n = id_part(name, &at, buf, sizeof buf)) > 0;)
    fwrite(buf, 1, n, fp);
}

void tc_html_id_wbuf(tc_wbuf *b, const char *prefix, tc_str name) {
  tc_wbuf_puts(b, prefix);
  tc_wbuf_putc(b, '-');
  char buf[256];
  for (size_t at = 0, n; (n = id_part(name, &at, buf, sizeof buf)) > 0;)
    tc_wbuf_put(b, buf, n);
}

void tc_html_fmt_num(double v, int decimals, char *buf, size_t cap) {
  tc_line l;
  tc_line_init(&l, buf, cap);
  tc_line_fixed(&l, v, decimals);
  tc_line_end(&l);
}
