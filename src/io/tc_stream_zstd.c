/* zstd through the streaming decoder, following zstd's
 * examples/streaming_decompression.c: feed every input byte to
 * ZSTD_decompressStream, which walks from frame to frame and skips skippable
 * frames on its own, and remember its last answer. That answer is 0 only
 * when a frame has ended and been flushed completely, so if the input runs
 * out while it is not 0 the file was cut inside a frame.
 *
 * The window limit is zstd's largest (2 GiB, windowLog 31) rather than its
 * default 128 MiB, so a file written by `zstd --long=31` decodes, as with
 * `zstd -d --long=31`. The decoder's buffer is the frame's window or its
 * declared content size, whichever is smaller, and only the part that output
 * has passed through is ever touched: a trace being read holds at most
 * min(2 GiB, its decompressed size) here. When ZSTD_decompressStream fails
 * it does not say how much it wrote in that call, so those bytes are
 * withheld; they belong to the damaged frame anyway. */
#include "io/tc_stream_impl.h"

#include <stdlib.h>
#include <zstd.h>
#include <zstd_errors.h>

typedef struct {
  ZSTD_DCtx *dctx;
  size_t last; /* last hint from ZSTD_decompressStream; 0 between frames */
} zstd_state;

tc_err tc__zstd_open(tc_stream *s) {
  zstd_state *z = malloc(sizeof *z);
  if (!z)
    return TC_E_NOMEM;
  z->dctx = ZSTD_createDCtx();
  ZSTD_bounds wl = ZSTD_dParam_getBounds(ZSTD_d_windowLogMax);
  if (!z->dctx || ZSTD_isError(wl.error) ||
      ZSTD_isError(ZSTD_DCtx_setParameter(z->dctx, ZSTD_d_windowLogMax, wl.upperBound))) {
    ZSTD_freeDCtx(z->dctx);
    free(z);
    return TC_E_NOMEM;
  }
  /* Nonzero: the magic promised a frame, so an input that stops here is
   * truncated. */
  z->last = 1;
  s->codec = z;
  s->icap = ZSTD_DStreamInSize();
  return TC_OK;
}

static tc_err zstd_error(size_t ret) {
  return ZSTD_getErrorCode(ret) == ZSTD_error_memory_allocation ? TC_E_NOMEM
                                                                 : TC_E_CORRUPT;
}

tc_err tc__zstd_read(tc_stream *s, unsigned char *buf, size_t cap, size_t *got) {
  zstd_state *z = s->codec;
  ZSTD_outBuffer out = {buf, cap, 0};
  tc_err e = TC_OK;
  while (out.pos < cap) {
    if (s->win_pos == s->win_len && (e = tc_stream_fill(s)))
      break;
    int at_eof = s->win_pos == s->win_len;
    if (at_eof && z->last == 0)
      break;
    /* At the end of the input the decoder still runs once with no input: it
     * may hold output that did not fit into the previous buffer. */
    ZSTD_inBuffer in = {s->win, s->win_len, s->win_pos};
    size_t before = out.pos;
    size_t ret = ZSTD_decompressStream(z->dctx, &out, &in);
    s->win_pos = in.pos;
    if (ZSTD_isError(ret)) {
      e = zstd_error(ret);
      break;
    }
    z->last = ret;
    if (at_eof && out.pos == before) {
      e = TC_E_TRUNCATED;
      break;
    }
  }
  *got = out.pos;
  return e;
}

void tc__zstd_close(tc_stream *s) {
  zstd_state *z = s->codec;
  if (!z)
    return;
  ZSTD_freeDCtx(z->dctx);
  free(z);
  s->codec = NULL;
}
