/* How a trace file is recognised as unchanged between two runs (resume):
 * the same size, mtime (to the nanosecond) and xxh64 (seed 0) of its bytes
 * on disk. The hash is the dear part, so it is read only when size and
 * mtime already agree. */
#ifndef TC_FILE_ID_H
#define TC_FILE_ID_H

#include <stdint.h>

#include "util/tc_error.h"

typedef struct {
  uint64_t size;
  int64_t mtime_sec;
  uint32_t mtime_nsec;
  uint64_t hash;
} tc_file_id;

/* Reads PATH's identity; hashes it only when WANT's size and mtime are
 * the file's, else *OUT has hash 0 and returns TC_OK with *SAME 0. WANT
 * NULL: always hashes. SAME may be NULL. TC_E_OPEN, TC_E_NOT_REGULAR (a
 * FIFO or device: nothing is read, so nothing blocks) or TC_E_IO. */
tc_err tc_file_id_read(const char *path, const tc_file_id *want, tc_file_id *out, int *same);

#endif
