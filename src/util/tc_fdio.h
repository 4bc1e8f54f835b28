/* Whole reads and writes on file descriptors. */
#ifndef TC_FDIO_H
#define TC_FDIO_H

#include <stddef.h>
#include <stdint.h>

#include "util/tc_error.h"

/* Writes all N bytes at P to FD, going on after short writes and EINTR:
 * 0, or -1 with errno set (a write that wrote nothing counts as failed).
 * AT < 0 writes at the file's offset (write); AT >= 0 at that offset
 * (pwrite), which also leaves the file offset alone. */
int tc_write_full(int fd, const void *p, size_t n, int64_t at);

/* Reads PATH whole, for the files the tool reads back (partials, shard
 * records, its own outputs for diff): anyone can put a FIFO or a device
 * where such a file should be, so PATH is opened without blocking and
 * refused unless fstat says it is a regular file. On TC_OK *OUT (malloc'd,
 * the caller frees it; never NULL) holds its *LEN bytes. Errors: TC_E_OPEN
 * (WHY's errnum), TC_E_NOT_REGULAR, TC_E_IO (a read failed, errnum set, or
 * the file shrank while read), TC_E_NOMEM; WHY's path is PATH. */
tc_err tc_read_regular(const char *path, unsigned char **out, size_t *len, tc_why *why);

#endif
