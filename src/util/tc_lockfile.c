#include "util/tc_lockfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

int tc_lockfile_take(int dirfd, const char *name, long *holder) {
  *holder = 0;
  for (;;) {
    int fd = openat(dirfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0)
      return -1;
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
      int err = errno;
      char buf[32] = {0};
      if (err == EWOULDBLOCK && pread(fd, buf, sizeof buf - 1, 0) > 0)
        *holder = strtol(buf, NULL, 10);
      close(fd);
      errno = err;
      return -1;
    }
    struct stat a, b;
    if (fstat(fd, &a) == 0 && fstatat(dirfd, name, &b, AT_SYMLINK_NOFOLLOW) == 0 &&
        a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
      char pid[32];
      int len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
      if (ftruncate(fd, 0) == 0 && pwrite(fd, pid, (size_t)len, 0) < 0) {
        /* The pid only improves a turned-away run's message; the lock holds anyway. */
      }
      return fd;
    }
    close(fd);
  }
}
