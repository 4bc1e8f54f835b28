/* Whole writes to a file descriptor. */
#ifndef TC_FDIO_H
#define TC_FDIO_H

#include <stddef.h>
#include <stdint.h>

/* Writes all N bytes at P to FD, going on after short writes and EINTR:
 * 0, or -1 with errno set (a write that wrote nothing counts as failed).
 * AT < 0 writes at the file's offset (write); AT >= 0 at that offset
 * (pwrite), which also leaves the file offset alone. */
int tc_write_full(int fd, const void *p, size_t n, int64_t at);

#endif
