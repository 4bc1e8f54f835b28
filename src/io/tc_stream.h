/* Decompressed byte streams over trace files.
 *
 * The format is recognised by magic bytes, never by the file name: gzip
 * (1f 8b, several members allowed), zstd (28 b5 2f fd, several frames
 * allowed, skippable frames skipped), anything else is read as plain bytes.
 * A file that starts with a zstd skippable frame is zstd too, as for
 * `zstd -d`. Zero bytes after the last gzip member are padding and skipped;
 * anything else there is TC_E_CORRUPT (gzip itself only warns).
 * A stream never holds more than one fixed-size input buffer, so a trace of
 * any size streams through in bounded memory. */
#ifndef TC_STREAM_H
#define TC_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "util/tc_error.h"

typedef enum { TC_FMT_PLAIN, TC_FMT_GZIP, TC_FMT_ZSTD } tc_format;

typedef struct tc_stream tc_stream;

/* Opens PATH and sniffs its format. On success *out owns the file; release
 * it with tc_stream_close. */
tc_err tc_stream_open(const char *path, tc_stream **out);

/* Same, for a path that must be a regular file: anything else (a FIFO,
 * a device) is TC_E_NOT_REGULAR without a byte read, so it cannot block. */
tc_err tc_stream_open_regular(const char *path, tc_stream **out);

/* Same, over LEN bytes at DATA, which the caller keeps alive and unchanged
 * until tc_stream_close (used by tests and fuzzers). */
tc_err tc_stream_open_mem(const void *data, size_t len, tc_stream **out);

/* Reads up to CAP decompressed bytes into BUF. *GOT == 0 with TC_OK means
 * the end of the stream. A compressed stream that stops inside a frame or
 * member returns TC_E_TRUNCATED (after handing out every byte that could be
 * decoded); damaged data returns TC_E_CORRUPT (for zstd, the bytes decoded
 * in the failing call are withheld, since libzstd does not report them).
 * Errors stick: every later call returns the same code. CAP == 0 is
 * TC_E_USAGE, since *GOT == 0 would read as the end. */
tc_err tc_stream_read(tc_stream *s, void *buf, size_t cap, size_t *got);

tc_format tc_stream_format(const tc_stream *s);
const char *tc_format_name(tc_format f);

/* Bytes consumed from the file / produced so far. */
uint64_t tc_stream_in_bytes(const tc_stream *s);
uint64_t tc_stream_out_bytes(const tc_stream *s);

/* Accepts NULL. */
void tc_stream_close(tc_stream *s);

#endif
