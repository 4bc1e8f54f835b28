/* gzip through zlib's inflate, member after member, as `gzip -d` reads them.
 *
 * After a member ends, the next byte decides: end of input is a clean end;
 * a zero starts padding (tar and dd pad with zeros, and gzip skips them), and
 * padding must run to the end of the input; anything else must be the next
 * member's header, otherwise the stream is corrupt. Where gzip only warns
 * about trailing garbage we refuse it, because a trace followed by junk is
 * not a file we can vouch for. */
#include "io/tc_stream_impl.h"

#include <limits.h>
#include <stdlib.h>

#define ZLIB_CONST
#include <zlib.h>

/* Same as gzip's: large enough that read() and inflate() calls are rare. */
#define GZIP_INPUT_SIZE (256u * 1024u)

typedef struct {
  z_stream z;
  int in_member;
  int padding;
} gz_state;

tc_err tc__gzip_open(tc_stream *s) {
  gz_state *g = calloc(1, sizeof *g);
  if (!g)
    return TC_E_NOMEM;
  /* 16 + 15: a gzip wrapper around a deflate stream with a 32 KiB window. */
  if (inflateInit2(&g->z, 16 + MAX_WBITS) != Z_OK) {
    free(g);
    return TC_E_NOMEM;
  }
  g->in_member = 1;
  s->codec = g;
  s->icap = GZIP_INPUT_SIZE;
  return TC_OK;
}

/* Between members: skips zero padding, or starts the next member. */
static tc_err next_member(tc_stream *s, gz_state *g) {
  const unsigned char *p = s->win + s->win_pos;
  const unsigned char *end = s->win + s->win_len;
  if (!g->padding && *p != 0) {
    g->in_member = 1;
    return inflateReset(&g->z) == Z_OK ? TC_OK : TC_E_CORRUPT;
  }
  g->padding = 1;
  while (p < end && *p == 0)
    p++;
  s->win_pos = (size_t)(p - s->win);
  return p == end ? TC_OK : TC_E_CORRUPT;
}

tc_err tc__gzip_read(tc_stream *s, unsigned char *buf, size_t cap, size_t *got) {
  gz_state *g = s->codec;
  z_stream *z = &g->z;
  size_t n = 0;
  tc_err e = TC_OK;
  while (n < cap && !e) {
    if (s->win_pos == s->win_len && (e = tc_stream_fill(s)))
      break;
    if (!g->in_member) {
      if (s->win_pos == s->win_len)
        break;
      e = next_member(s, g);
      continue;
    }
    /* At the end of the input inflate still runs once with no input: it
     * may owe output it could not fit into the previous buffer. */
    size_t in_left = s->win_len - s->win_pos;
    z->next_in = s->win + s->win_pos;
    z->avail_in = in_left < UINT_MAX ? (uInt)in_left : UINT_MAX;
    z->next_out = buf + n;
    z->avail_out = cap - n < UINT_MAX ? (uInt)(cap - n) : UINT_MAX;
    uInt avail_in = z->avail_in, avail_out = z->avail_out;
    int ret = inflate(z, Z_NO_FLUSH);
    s->win_pos += avail_in - z->avail_in;
    n += avail_out - z->avail_out;
    if (ret == Z_STREAM_END)
      g->in_member = 0;
    else if (ret == Z_BUF_ERROR)
      /* No progress with room to write: the input ran out inside a member. */
      e = TC_E_TRUNCATED;
    else if (ret == Z_MEM_ERROR)
      e = TC_E_NOMEM;
    else if (ret != Z_OK)
      e = TC_E_CORRUPT;
  }
  *got = n;
  return e;
}

void tc__gzip_close(tc_stream *s) {
  gz_state *g = s->codec;
  if (!g)
    return;
  inflateEnd(&g->z);
  free(g);
  s->codec = NULL;
}
