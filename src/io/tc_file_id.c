#include "io/tc_file_id.h"

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/tc_xxh64.h"

tc_err tc_file_id_read(const char *path, const tc_file_id *want, tc_file_id *out, int *same) {
  memset(out, 0, sizeof *out);
  if (same)
    *same = 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return TC_E_OPEN;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return TC_E_NOT_REGULAR;
  }
  out->size = (uint64_t)st.st_size;
  out->mtime_sec = (int64_t)st.st_mtim.tv_sec;
  out->mtime_nsec = (uint32_t)st.st_mtim.tv_nsec;
  if (want && (want->size != out->size || want->mtime_sec != out->mtime_sec ||
               want->mtime_nsec != out->mtime_nsec)) {
    close(fd);
    return TC_OK;
  }
  tc_err e = TC_OK;
  if (out->size == 0) {
    out->hash = tc_xxh64("", 0, 0);
  } else {
    void *p = mmap(NULL, (size_t)out->size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      e = TC_E_IO;
    } else {
      madvise(p, (size_t)out->size, MADV_SEQUENTIAL);
      out->hash = tc_xxh64(p, (size_t)out->size, 0);
      munmap(p, (size_t)out->size);
    }
  }
  close(fd);
  if (!e && same)
    *same = !want || want->hash == out->hash;
  return e;
}
