#include "util/tc_fdio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
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

static tc_err read_fd(int fd, size_t size, unsigned char *buf, tc_why *why) {
  size_t got = 0;
  while (got < size) {
    ssize_t r = read(fd, buf + got, size - got);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0) {
      why->errnum = r < 0 ? errno : 0;
      return TC_E_IO;
    }
    got += (size_t)r;
  }
  return TC_OK;
}

tc_err tc_read_regular(const char *path, unsigned char **out, size_t *len, tc_why *why) {
  *out = NULL;
  *len = 0;
  tc_why_errno(why, path, 0);
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    why->errnum = errno;
    return TC_E_OPEN;
  }
  struct stat st;
  tc_err e = TC_OK;
  unsigned char *buf = NULL;
  if (fstat(fd, &st) != 0) {
    why->errnum = errno;
    e = TC_E_IO;
  } else if (!S_ISREG(st.st_mode)) {
    e = TC_E_NOT_REGULAR;
  } else if ((uint64_t)st.st_size >= SIZE_MAX || !(buf = malloc(st.st_size ? (size_t)st.st_size : 1))) {
    e = TC_E_NOMEM;
  } else {
    e = read_fd(fd, (size_t)st.st_size, buf, why);
  }
  close(fd);
  if (e) {
    free(buf);
    return e;
  }
  *out = buf;
  *len = (size_t)st.st_size;
  return TC_OK;
}
