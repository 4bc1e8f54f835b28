#include "util/tc_spill.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/tc_fdio.h"
#include "util/tc_grow.h"

#define TC_SPILL_BUF ((size_t)64 << 10)

void tc_spill_free(tc_spill *s) {
  if (s->fd1)
    close(s->fd1 - 1);
  free(s->ends);
  free(s->buf);
  memset(s, 0, sizeof *s);
}

static atomic_int first_errno;

const char *tc_spill_dir(void) {
  const char *dir = getenv("TMPDIR");
  return dir && *dir ? dir : "/tmp";
}

int tc_spill_errno(void) { return atomic_load(&first_errno); }

/* S's sticky failure, its errno kept if it is the process's first. */
static tc_err failed(tc_spill *s, int err) {
  int none = 0;
  atomic_compare_exchange_strong(&first_errno, &none, err ? err : EIO);
  return s->err = TC_E_SCRATCH;
}

/* An unlinked file in $TMPDIR or /tmp; -1 when none can be made. */
static int open_unlinked(void) {
  const char *dir = tc_spill_dir();
#ifdef O_TMPFILE
  int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0)
    return fd;
#endif
  char path[4096];
  if (snprintf(path, sizeof path, "%s/tracecensus-spill-XXXXXX", dir) >= (int)sizeof path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  int tmp = mkstemp(path);
  if (tmp >= 0)
    unlink(path);
  return tmp;
}

tc_err tc_spill_flush(tc_spill *s) {
  if (s->err || !s->len)
    return s->err;
  if (!s->fd1 && (s->fd1 = open_unlinked() + 1) == 0)
    return failed(s, errno);
  if (tc_write_full(s->fd1 - 1, s->buf, s->len, (int64_t)s->flushed) != 0)
    return failed(s, errno);
  s->flushed += s->len;
  s->len = 0;
  return TC_OK;
}

tc_err tc_spill_append(tc_spill *s, const void *p, size_t n) {
  if (s->err)
    return s->err;
  if (TC_GROW(s->ends, s->cap, s->n + 1))
    return s->err = TC_E_NOMEM;
  if (!s->buf && !(s->buf = malloc(TC_SPILL_BUF)))
    return s->err = TC_E_NOMEM;
  const unsigned char *b = p;
  uint64_t end = s->flushed + s->len + n;
  while (n) {
    if (s->len == TC_SPILL_BUF && tc_spill_flush(s))
      return s->err;
    size_t take = TC_SPILL_BUF - s->len < n ? TC_SPILL_BUF - s->len : n;
    memcpy(s->buf + s->len, b, take);
    s->len += take;
    b += take;
    n -= take;
  }
  s->ends[s->n++] = end;
  return TC_OK;
}

tc_err tc_spill_read(const tc_spill *s, size_t i, unsigned char **buf, size_t *cap, size_t *len) {
  if (i >= s->n)
    return TC_E_USAGE;
  uint64_t from = i ? s->ends[i - 1] : 0, to = s->ends[i];
  size_t n = (size_t)(to - from);
  if (TC_GROW(*buf, *cap, n + 1))
    return TC_E_NOMEM;
  *len = n;
  unsigned char *out = *buf;
  /* The part already on disk, then the part still in the buffer. */
  uint64_t at = from;
  while (at < to && at < s->flushed) {
    size_t want = (size_t)((to < s->flushed ? to : s->flushed) - at);
    ssize_t got = pread(s->fd1 - 1, out, want, (off_t)at);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      return TC_E_IO;
    out += got;
    at += (uint64_t)got;
  }
  if (at < to)
    memcpy(out, s->buf + (at - s->flushed), (size_t)(to - at));
  return TC_OK;
}
