/* One walk over a struct for both directions of the tc_bin encoding: with
 * B set each call writes the field, with R set it reads the field back
 * into place (allocating what it points to). A type's encoder and decoder
 * are then one function, so they cannot drift apart. Decoding failures
 * stick in R (tc_bin.h): the walk may go on, every later field reads as 0
 * or NULL, and the caller checks R once at the end and frees what was
 * allocated. */
#ifndef TC_BIN_CODEC_H
#define TC_BIN_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "util/tc_bin.h"

typedef struct {
  tc_bin_buf *b;    /* encoding */
  tc_bin_reader *r; /* decoding */
} tc_codec;

void tc_codec_u64(tc_codec *c, uint64_t *v);
void tc_codec_u32(tc_codec *c, uint32_t *v);
void tc_codec_i64(tc_codec *c, int64_t *v);
void tc_codec_f64(tc_codec *c, double *v);
/* V when encoding; the value read, at most MAX, when decoding. */
unsigned tc_codec_small(tc_codec *c, unsigned v, unsigned max);
#define TC_CODEC_ENUM(c, field, count)                                         \
  ((field) = (__typeof__(field))tc_codec_small((c), (unsigned)(field), (count) - 1))
/* A NUL-terminated string or NULL (not ""), malloc'd on decode; at most
 * MAX bytes, no NUL inside. */
void tc_codec_str(tc_codec *c, char **s, size_t max);
/* A count N, then on decode room (zeroed) for that many elements of ELEM
 * bytes, each encoded in at least EACH bytes; returns the count (0 after a
 * failure, *ARR then NULL). */
uint32_t tc_codec_array(tc_codec *c, void **arr, uint32_t n, size_t elem, size_t each);

#endif
