/* The compressed side of a stream: the window the codecs pull their input
 * from, refilled from the file or handed the memory block (see
 * tc_stream_impl.h). Apart from tc_stream.c, which calls the codecs, so
 * that the codecs and the opener do not call each other in a circle. */
#include "io/tc_stream_impl.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

ssize_t tc__read_retry(int fd, void *buf, size_t n) {
  ssize_t r;
  do
    r = read(fd, buf, n);
  while (r < 0 && errno == EINTR);
  return r;
}

tc_err tc__stream_fill(tc_stream *s) {
  s->win_pos = s->win_len = 0;
  if (s->src_eof)
    return TC_OK;
  if (s->fd < 0) {
    /* The first fill hands the whole block over; the second finds the end. */
    if (s->src_bytes == s->mem_len) {
      s->src_eof = 1;
      return TC_OK;
    }
    s->win = s->mem;
    s->win_len = s->mem_len;
  } else {
    size_t n = s->head_len - s->head_pos;
    memcpy(s->ibuf, s->head + s->head_pos, n);
    s->head_pos = s->head_len;
    ssize_t r = tc__read_retry(s->fd, s->ibuf + n, s->icap - n);
    if (r < 0)
      return TC_E_IO;
    s->win = s->ibuf;
    s->win_len = n + (size_t)r;
  }
  if (s->win_len == 0)
    s->src_eof = 1;
  s->src_bytes += s->win_len;
  return TC_OK;
}
