#define _GNU_SOURCE /* fopencookie */
#include "report/tc_html_ascii.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/tc_json_valid.h"

typedef struct {
  FILE *to;
  unsigned char part[4]; /* a character cut by the end of a write */
  size_t npart;
} ascii_out;

static void put_ref(FILE *to, uint32_t cp) {
  char buf[16];
  int n = snprintf(buf, sizeof buf, "&#%u;", (unsigned)cp);
  fwrite(buf, 1, (size_t)n, to);
}

/* The sequence's length by its first byte, or 0 when it cannot start one. */
static size_t lead_len(unsigned char c) {
  if (c >= 0xC2 && c <= 0xDF)
    return 2;
  if (c >= 0xE0 && c <= 0xEF)
    return 3;
  return c >= 0xF0 && c <= 0xF4 ? 4 : 0;
}

/* The character at P (N bytes of valid UTF-8, tc_utf8_len's answer). */
static uint32_t code_point(const unsigned char *p, size_t n) {
  uint32_t cp = p[0] & (0x7F >> n);
  for (size_t i = 1; i < n; i++)
    cp = cp << 6 | (p[i] & 0x3F);
  return cp;
}

/* Whether P[1 .. N-1] are all continuation bytes. */
static int continues(const unsigned char *p, size_t n) {
  for (size_t i = 1; i < n; i++)
    if ((p[i] & 0xC0) != 0x80)
      return 0;
  return 1;
}

static ssize_t ascii_write(void *cookie, const char *buf, size_t size) {
  ascii_out *o = cookie;
  const unsigned char *p = (const unsigned char *)buf;
  size_t i = 0;
  if (o->npart) { /* the character the last write cut */
    size_t want = lead_len(o->part[0]);
    while (o->npart < want && i < size && (p[i] & 0xC0) == 0x80)
      o->part[o->npart++] = p[i++];
    if (o->npart < want && i == size)
      return (ssize_t)size;
    size_t len = tc_utf8_len(o->part, o->npart);
    put_ref(o->to, len == o->npart ? code_point(o->part, len) : 0xFFFD);
    o->npart = 0;
  }
  while (i < size) {
    size_t run = i;
    while (i < size && p[i] < 0x80)
      i++;
    if (i > run)
      fwrite(p + run, 1, i - run, o->to);
    if (i == size)
      break;
    size_t want = lead_len(p[i]), left = size - i;
    if (want > left && continues(p + i, left)) {
      memcpy(o->part, p + i, left);
      o->npart = left;
      break;
    }
    size_t len = want && want <= left ? tc_utf8_len(p + i, want) : 0;
    put_ref(o->to, len ? code_point(p + i, len) : 0xFFFD);
    i += len ? len : 1;
  }
  return ferror(o->to) ? -1 : (ssize_t)size;
}

static int ascii_close(void *cookie) {
  ascii_out *o = cookie;
  if (o->npart)
    put_ref(o->to, 0xFFFD);
  int bad = ferror(o->to);
  free(o);
  return bad ? EOF : 0;
}

FILE *tc_html_ascii_open(FILE *to) {
  ascii_out *o = calloc(1, sizeof *o);
  if (!o)
    return NULL;
  o->to = to;
  cookie_io_functions_t io = {.write = ascii_write, .close = ascii_close};
  FILE *fp = fopencookie(o, "w", io);
  if (!fp)
    free(o);
  return fp;
}
