/* Internal to src/io: the stream object the format back ends share.
 *
 * Compressed input reaches a decoder through one window of unconsumed bytes.
 * For a file the window is the stream's single fixed input buffer, refilled
 * by one large read() at a time; for a memory stream it is the caller's whole
 * block, so nothing is copied before the decoder sees it. A back end fills
 * the caller's buffer as far as it can and reports why it stopped. */
#ifndef TC_STREAM_IMPL_H
#define TC_STREAM_IMPL_H

#include "io/tc_stream.h"

/* Longest magic the sniffer looks at (zstd's four bytes). */
#define TC_MAGIC_MAX 4

struct tc_stream {
  tc_format fmt;
  int fd; /* -1 for a memory stream */
  const unsigned char *mem;
  size_t mem_len;

  /* Bytes read from the file to sniff the format, not yet passed on. */
  unsigned char head[TC_MAGIC_MAX];
  size_t head_len, head_pos;

  unsigned char *ibuf; /* files only; owned */
  size_t icap;         /* set by the back end's open: its preferred size */
  const unsigned char *win; /* unconsumed input is win[win_pos, win_len) */
  size_t win_len, win_pos;
  int src_eof;
  uint64_t src_bytes; /* everything ever put in the window */

  uint64_t out_bytes;
  tc_err err; /* sticky: once set, every later read returns it */

  void *codec; /* back end state, owned by the back end */
};

/* Called when the window is empty: refills it from the file or the memory
 * block, or sets src_eof and leaves it empty. */
tc_err tc_stream_fill(tc_stream *s);

/* The back ends, internal to src/io (hence tc__). A back end's read puts
 * up to CAP bytes at BUF and sets *GOT. TC_OK means it stopped because BUF
 * is full or the stream ended cleanly (*GOT < CAP);
 * any other code means the stream cannot go on after those *GOT bytes. */
tc_err tc__gzip_open(tc_stream *s);
tc_err tc__gzip_read(tc_stream *s, unsigned char *buf, size_t cap, size_t *got);
void tc__gzip_close(tc_stream *s);

tc_err tc__zstd_open(tc_stream *s);
tc_err tc__zstd_read(tc_stream *s, unsigned char *buf, size_t cap, size_t *got);
void tc__zstd_close(tc_stream *s);

#endif
