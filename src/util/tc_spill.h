/* Records spilled to disk: an append-only file of byte strings, read back
 * by their index, so that per-trace rows (statuses, metrics) wait for the
 * writers on disk instead of in memory. Memory is a 64 KiB write buffer and
 * 8 bytes per record; the file is unlinked from the start (O_TMPFILE, or
 * created and removed at once), in $TMPDIR or /tmp, so nothing is left
 * behind whatever ends the process, and its pages are the kernel's cache,
 * not the process's.
 *
 * Threads: appends from one thread at a time; once the last append has
 * returned (and the appender's writes are ordered before the readers', e.g.
 * by a join or a lock), any number of threads may read at once (pread
 * never moves a shared offset). */
#ifndef TC_SPILL_H
#define TC_SPILL_H

#include <stddef.h>
#include <stdint.h>

#include "util/tc_error.h"

typedef struct {
  int fd1;              /* the file's descriptor + 1; 0 until the first
                           flush, so a zeroed tc_spill is an empty one */
  uint64_t *ends;       /* ends[i]: end offset of record i */
  size_t n, cap;
  unsigned char *buf;   /* records not yet written: file offsets [flushed, flushed + len) */
  size_t len;
  uint64_t flushed;
  tc_err err;           /* first failure, sticky */
} tc_spill;

/* Where scratch files go: $TMPDIR, else /tmp. Static or the environment's. */
const char *tc_spill_dir(void);

/* The errno of the first scratch file that could not be made or written in
 * this process (TC_E_SCRATCH), 0 if none: for the message, as the error
 * surfaces far from the write that failed. Any thread. */
int tc_spill_errno(void);

/* Closes the file (which goes with it) and frees the index. */
void tc_spill_free(tc_spill *s);

/* Appends N bytes at P as record tc_spill_count(s). TC_E_NOMEM, or
 * TC_E_WRITE when the file cannot be made or written (ENOSPC in the
 * temporary folder); every later append then fails the same way. */
tc_err tc_spill_append(tc_spill *s, const void *p, size_t n);

static inline size_t tc_spill_count(const tc_spill *s) { return s->n; }

/* Writes out what the buffer holds, so that readers on other threads need
 * only the file. */
tc_err tc_spill_flush(tc_spill *s);

/* Record I into *BUF (grown with realloc as needed; *CAP its size; the
 * caller frees it), its length in *LEN. Reads the buffer directly when the
 * record is not yet flushed, so call tc_spill_flush before reading from
 * several threads. TC_E_IO when the file cannot be read back. */
tc_err tc_spill_read(const tc_spill *s, size_t i, unsigned char **buf, size_t *cap, size_t *len);

#endif
