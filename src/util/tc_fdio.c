#include "util/tc_fdio.h"

#include <errno.h>
#include <unistd.h>

int tc_write_full(int fd, const void *p, size_t n, int64_t at) {
  const unsigned char *b = p;
  while (n) {
    ssize_t w = at < 0 ? write(fd, b, n) : pwrite(fd, b, n, (off_t)at);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      if (w == 0)
        errno = EIO;
      return -1;
    }
    b += w;
    n -= (size_t)w;
    if (at >= 0)
      at += w;
  }
  return 0;
}
