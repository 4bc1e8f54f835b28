/* Opening, sniffing and plain reads; the codecs live in tc_stream_gzip.c and
 * tc_stream_zstd.c.
 *
 * The sniff reads only the magic bytes, so a plain file needs no input
 * buffer at all: after handing out those few bytes every read() goes
 * straight into the caller's buffer. The same small read works on pipes,
 * where seeking back is impossible. */
#include "io/tc_stream_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const unsigned char gzip_magic[] = {0x1f, 0x8b};
static const unsigned char zstd_magic[] = {0x28, 0xb5, 0x2f, 0xfd};

/* A zstd stream may begin with a skippable frame (magic 0x184D2A50 to
 * 0x184D2A5F, little-endian); `zstd -d` accepts such a file, so do we. */
static int zstd_skippable(const unsigned char *p, size_t n) {
  return n >= 4 && (p[0] & 0xf0) == 0x50 && p[1] == 0x2a && p[2] == 0x4d &&
         p[3] == 0x18;
}

static tc_format sniff(const unsigned char *p, size_t n) {
  if (n >= sizeof gzip_magic && memcmp(p, gzip_magic, sizeof gzip_magic) == 0)
    return TC_FMT_GZIP;
  if ((n >= sizeof zstd_magic && memcmp(p, zstd_magic, sizeof zstd_magic) == 0) ||
      zstd_skippable(p, n))
    return TC_FMT_ZSTD;
  return TC_FMT_PLAIN;
}

static ssize_t read_retry(int fd, void *buf, size_t n) {
  ssize_t r;
  do
    r = read(fd, buf, n);
  while (r < 0 && errno == EINTR);
  return r;
}

/* Reads the magic; several reads only on a pipe that delivers it piecemeal. */
static tc_err read_head(tc_stream *s) {
  while (s->head_len < TC_MAGIC_MAX) {
    ssize_t r = read_retry(s->fd, s->head + s->head_len, TC_MAGIC_MAX - s->head_len);
    if (r < 0)
      return TC_E_IO;
    if (r == 0)
      break;
    s->head_len += (size_t)r;
  }
  return TC_OK;
}

tc_err tc_stream_fill(tc_stream *s) {
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
    ssize_t r = read_retry(s->fd, s->ibuf + n, s->icap - n);
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

static tc_err plain_read(tc_stream *s, unsigned char *buf, size_t cap, size_t *got) {
  if (s->fd < 0) {
    size_t left = s->mem_len - (size_t)s->out_bytes;
    size_t n = cap < left ? cap : left;
    if (n)
      memcpy(buf, s->mem + s->out_bytes, n);
    *got = n;
    return TC_OK;
  }
  size_t n = s->head_len - s->head_pos;
  if (n > cap)
    n = cap;
  memcpy(buf, s->head + s->head_pos, n);
  s->head_pos += n;
  *got = n;
  if (n == cap)
    return TC_OK;
  ssize_t r = read_retry(s->fd, buf + n, cap - n);
  if (r < 0)
    return TC_E_IO;
  *got = n + (size_t)r;
  return TC_OK;
}

static tc_err start(tc_stream *s) {
  const unsigned char *p = s->fd < 0 ? s->mem : s->head;
  size_t n = s->fd < 0 ? s->mem_len : s->head_len;
  s->fmt = sniff(p, n);
  tc_err e = TC_OK;
  if (s->fmt == TC_FMT_GZIP)
    e = tc__gzip_open(s);
  else if (s->fmt == TC_FMT_ZSTD)
    e = tc__zstd_open(s);
  if (e || s->fmt == TC_FMT_PLAIN || s->fd < 0)
    return e;
  s->ibuf = malloc(s->icap);
  return s->ibuf ? TC_OK : TC_E_NOMEM;
}

/* Takes FD whatever happens. */
static tc_err open_fd(int fd, tc_stream **out) {
  tc_stream *s = calloc(1, sizeof *s);
  if (!s) {
    close(fd);
    return TC_E_NOMEM;
  }
  s->fd = fd;
  /* Only a hint for the kernel's read-ahead; failure changes nothing. */
  (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  tc_err e = read_head(s);
  if (!e)
    e = start(s);
  if (e) {
    tc_stream_close(s);
    return e;
  }
  *out = s;
  return TC_OK;
}

tc_err tc_stream_open(const char *path, tc_stream **out) {
  *out = NULL;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  return fd < 0 ? TC_E_OPEN : open_fd(fd, out);
}

/* O_NONBLOCK makes opening a FIFO return at once, writer or not; the file
 * is then refused before any read could wait. */
tc_err tc_stream_open_regular(const char *path, tc_stream **out) {
  *out = NULL;
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return TC_E_OPEN;
  struct stat st;
  int flags = fcntl(fd, F_GETFL);
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || flags < 0 ||
      fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
    close(fd);
    return TC_E_NOT_REGULAR;
  }
  return open_fd(fd, out);
}

tc_err tc_stream_open_mem(const void *data, size_t len, tc_stream **out) {
  *out = NULL;
  tc_stream *s = calloc(1, sizeof *s);
  if (!s)
    return TC_E_NOMEM;
  s->fd = -1;
  s->mem = data;
  s->mem_len = len;
  tc_err e = start(s);
  if (e) {
    tc_stream_close(s);
    return e;
  }
  *out = s;
  return TC_OK;
}

tc_err tc_stream_read(tc_stream *s, void *buf, size_t cap, size_t *got) {
  *got = 0;
  if (s->err)
    return s->err;
  /* *got == 0 would read as the end of the stream. */
  if (cap == 0)
    return TC_E_USAGE;
  size_t n = 0;
  tc_err e;
  if (s->fmt == TC_FMT_GZIP)
    e = tc__gzip_read(s, buf, cap, &n);
  else if (s->fmt == TC_FMT_ZSTD)
    e = tc__zstd_read(s, buf, cap, &n);
  else
    e = plain_read(s, buf, cap, &n);
  s->out_bytes += n;
  *got = n;
  /* Decoded bytes go out first; the error waits for the next call. */
  s->err = e;
  return n ? TC_OK : e;
}

tc_format tc_stream_format(const tc_stream *s) { return s->fmt; }

const char *tc_format_name(tc_format f) {
  switch (f) {
  case TC_FMT_GZIP:
    return "gzip";
  case TC_FMT_ZSTD:
    return "zstd";
  case TC_FMT_PLAIN:
    break;
  }
  return "plain";
}

uint64_t tc_stream_in_bytes(const tc_stream *s) {
  if (s->fmt == TC_FMT_PLAIN)
    return s->out_bytes;
  return s->src_bytes - (s->win_len - s->win_pos);
}

uint64_t tc_stream_out_bytes(const tc_stream *s) { return s->out_bytes; }


void tc_stream_close(tc_stream *s) {
  if (!s)
    return;
  if (s->fmt == TC_FMT_GZIP)
    tc__gzip_close(s);
  else if (s->fmt == TC_FMT_ZSTD)
    tc__zstd_close(s);
  if (s->fd >= 0)
    close(s->fd);
  free(s->ibuf);
  free(s);
}
