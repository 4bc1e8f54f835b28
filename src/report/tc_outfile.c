#define _GNU_SOURCE /* fopencookie */
#include "report/tc_outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/tc_outset.h"

/* The stream writes through our own functions (fopencookie) so the first
 * failing write's errno is kept: glibc drops a buffer it failed to write
 * and leaves only the error flag, and errno is long overwritten by the
 * time a writer finishes. */
struct tc_outfile {
  FILE *fp;
  int fd;
  int err; /* errno of the first failed write, sync or close */
  char *path;
  const char *name;
};

static tc_err failed(tc_why *why, const char *path, int errnum) {
  tc_why_errno(why, path, errnum);
  return TC_E_WRITE;
}

static ssize_t put(void *cookie, const char *buf, size_t n) {
  tc_outfile *f = cookie;
  for (size_t done = 0; done < n;) {
    ssize_t w = write(f->fd, buf + done, n - done);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      if (!f->err)
        f->err = w < 0 ? errno : EIO;
      /* 0, never -1: fopencookie(3) says a write function must not return
       * a negative value, and glibc's fwrite of a block larger than the
       * stream's buffer takes -1 as a huge count and reads past the
       * caller's bytes. */
      return 0;
    }
    done += (size_t)w;
  }
  return (ssize_t)n;
}

static int finish(void *cookie) {
  tc_outfile *f = cookie;
  int r = close(f->fd);
  if (r != 0 && !f->err)
    f->err = errno;
  f->fd = -1;
  return r;
}

tc_err tc_outfile_open(const char *dir, const char *name, tc_outfile **out, tc_why *why) {
  *out = NULL;
  if (!tc_outset_product(name))
    return failed(why, name, EINVAL);
  tc_outfile *f = calloc(1, sizeof *f);
  size_t n = strlen(dir) + strlen(name) + 2;
  if (!f || !(f->path = malloc(n))) {
    free(f);
    return TC_E_NOMEM;
  }
  snprintf(f->path, n, "%s/%s", dir, name);
  f->name = name;
  f->fd = open(f->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  cookie_io_functions_t io = {.write = put, .close = finish};
  if (f->fd < 0 || !(f->fp = fopencookie(f, "w", io))) {
    int err = errno;
    if (f->fd >= 0) {
      close(f->fd);
      unlink(f->path);
    }
    failed(why, f->path, err);
    free(f->path);
    free(f);
    return TC_E_WRITE;
  }
  setvbuf(f->fp, NULL, _IOFBF, 1 << 16);
  *out = f;
  return TC_OK;
}

FILE *tc_outfile_fp(tc_outfile *f) { return f->fp; }

tc_err tc_outfile_commit(tc_outfile *f, tc_why *why) {
  if (fflush(f->fp) != 0 && !f->err)
    f->err = EIO;
  if (!f->err && fsync(f->fd) != 0)
    f->err = errno;
  fclose(f->fp);
  f->fp = NULL;
  if (!f->err) {
    free(f->path);
    free(f);
    return TC_OK;
  }
  tc_err e = failed(why, f->path, f->err);
  tc_outfile_abort(f);
  return e;
}

void tc_outfile_abort(tc_outfile *f) {
  if (!f)
    return;
  if (f->fp)
    fclose(f->fp);
  unlink(f->path);
  free(f->path);
  free(f);
}
