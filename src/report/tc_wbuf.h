/* A writer-owned output buffer in front of a stdio stream. Report writers
 * append here with memcpy and hand the stream whole blocks, instead of
 * paying a locked stdio call per character or per field. Nothing reaches
 * the stream before tc_wbuf_flush (or a full buffer); a write error is
 * left on the stream, where tc_outfile_commit sees it. */
#ifndef TC_WBUF_H
#define TC_WBUF_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/tc_str.h"

#define TC_WBUF_CAP 65536

typedef struct {
  FILE *fp; /* borrowed */
  size_t len;
  char buf[TC_WBUF_CAP];
} tc_wbuf;

void tc_wbuf_init(tc_wbuf *b, FILE *fp);

/* Hands everything buffered to the stream in one fwrite. */
void tc_wbuf_flush(tc_wbuf *b);

/* The part of tc_wbuf_put for a write that does not fit. */
void tc_wbuf_put_long(tc_wbuf *b, const void *p, size_t n);

static inline void tc_wbuf_put(tc_wbuf *b, const void *p, size_t n) {
  if (n > TC_WBUF_CAP - b->len) {
    tc_wbuf_put_long(b, p, n);
    return;
  }
  if (n) /* P may be NULL then */
    memcpy(b->buf + b->len, p, n);
  b->len += n;
}

static inline void tc_wbuf_putc(tc_wbuf *b, char c) {
  if (b->len == TC_WBUF_CAP)
    tc_wbuf_flush(b);
  b->buf[b->len++] = c;
}

static inline void tc_wbuf_puts(tc_wbuf *b, const char *s) { tc_wbuf_put(b, s, strlen(s)); }

static inline void tc_wbuf_str(tc_wbuf *b, tc_str s) { tc_wbuf_put(b, s.ptr, s.len); }

/* N bytes of room at the end (N <= TC_WBUF_CAP), for a caller that writes
 * there and then adds what it used to b->len. */
static inline char *tc_wbuf_room(tc_wbuf *b, size_t n) {
  if (n > TC_WBUF_CAP - b->len)
    tc_wbuf_flush(b);
  return b->buf + b->len;
}

void tc_wbuf_u64(tc_wbuf *b, uint64_t v);
void tc_wbuf_i64(tc_wbuf *b, int64_t v);
/* tc_numfmt_num's text; nothing for a non-finite V. */
void tc_wbuf_num(tc_wbuf *b, double v);
/* printf's %.{precision}g and %.{precision}f (see tc_numfmt.h). */
void tc_wbuf_g(tc_wbuf *b, double v, int precision);
void tc_wbuf_fixed(tc_wbuf *b, double v, int precision);

/* Text copied from input (names, paths, URLs) as UTF-8, each byte of an
 * invalid sequence as U+FFFD; with CSV_QUOTED, each '"' doubled for a
 * quoted CSV cell. */
void tc_wbuf_text(tc_wbuf *b, tc_str s, int csv_quoted);
/* S up to its first NUL byte, as printf's %.*s writes it. */
void tc_wbuf_str_to_nul(tc_wbuf *b, tc_str s);

#endif
