/* The binary encoding of mergeable state (partial files, issue 10).
 *
 * Stable across hosts: every fixed-width integer is written little-endian
 * byte by byte and a double as its IEEE-754 bits; nothing is a struct dump.
 * Variable-length integers are LEB128 (seven bits a byte, low bits first),
 * signed ones zigzag-mapped first (0, -1, 1, -2 ... -> 0, 1, 2, 3 ...).
 * Readers accept only the shortest form of a varint, so every decoder built
 * on them can be strict: re-encoding whatever it accepted gives back the
 * same bytes.
 *
 * A section frames one table: tag (u32), version (u32), payload length
 * (u64), payload, then CRC-32 (zlib's, u32) of everything before it in the
 * section. The checksum lives only here; values inside a payload have no
 * checksum of their own.
 *
 * Writing: a tc_bin_buf grows by doubling; the first allocation failure
 * sticks and later puts do nothing, so an encoder checks tc_bin_buf.err
 * once at the end. Reading: a tc_bin_reader walks borrowed bytes and never
 * reads past their end. Its first error sticks with the byte offset and a
 * reason; every later get returns 0 (or an empty string) without moving, so
 * a decoder may check once per loop. A count read with tc_bin_get_count is
 * refused when the bytes left could not hold that many elements, so no
 * decoder allocates by an untrusted length beyond the input's own size. */
#ifndef TC_BIN_H
#define TC_BIN_H

#include <stddef.h>
#include <stdint.h>

#include "util/tc_error.h"
#include "util/tc_str.h"

/* A section tag from four ASCII letters: TC_BIN_TAG('V','P','R','F'). */
#define TC_BIN_TAG(a, b, c, d)                                                 \
  ((uint32_t)(uint8_t)(a) | (uint32_t)(uint8_t)(b) << 8 |                      \
   (uint32_t)(uint8_t)(c) << 16 | (uint32_t)(uint8_t)(d) << 24)

/* Section header bytes before the payload, and the trailing checksum. */
#define TC_BIN_SECTION_HEAD 16
#define TC_BIN_SECTION_TAIL 4

typedef struct {
  unsigned char *ptr; /* owned by the buffer until tc_bin_buf_take */
  size_t len, cap;
  tc_err err;         /* first failure; TC_OK while every put succeeded */
} tc_bin_buf;

void tc_bin_buf_init(tc_bin_buf *b);
/* Frees the bytes; the buffer is empty and usable again. */
void tc_bin_buf_free(tc_bin_buf *b);
/* Hands the bytes over: the caller frees them with free(). The buffer is
 * left empty. NULL when nothing was written or a put failed. */
unsigned char *tc_bin_buf_take(tc_bin_buf *b, size_t *len);

void tc_bin_put_u8(tc_bin_buf *b, uint8_t v);
void tc_bin_put_u32(tc_bin_buf *b, uint32_t v);
void tc_bin_put_u64(tc_bin_buf *b, uint64_t v);
void tc_bin_put_uvar(tc_bin_buf *b, uint64_t v);
void tc_bin_put_svar(tc_bin_buf *b, int64_t v);
void tc_bin_put_f64(tc_bin_buf *b, double v);
void tc_bin_put_raw(tc_bin_buf *b, const void *p, size_t n);
/* Length as a uvar, then the bytes. */
void tc_bin_put_bytes(tc_bin_buf *b, tc_str s);

/* Starts a section; returns the mark to hand to tc_bin_section_end, which
 * fills in the length and appends the checksum. Sections may nest. */
size_t tc_bin_section_begin(tc_bin_buf *b, uint32_t tag, uint32_t version);
void tc_bin_section_end(tc_bin_buf *b, size_t mark);

/* zlib's CRC-32, continued from CRC (start with 0), for any length. */
uint32_t tc_bin_crc32(uint32_t crc, const void *p, size_t n);

typedef struct {
  const unsigned char *p; /* borrowed */
  size_t len;             /* readable end: the input's, or the open section's */
  size_t pos;
  uint64_t base;          /* offset of p[0] in the file, added to err_at */
  tc_err err;             /* TC_OK, else TC_E_BAD_BINARY (sticky) */
  uint64_t err_at;        /* byte offset of the first error, base included */
  const char *why;        /* static reason for the first error */
} tc_bin_reader;

/* Reads the N bytes at P, which must outlive the reader and every string it
 * hands out. BASE is where P sits in its file, for error offsets. */
void tc_bin_reader_init(tc_bin_reader *r, const void *p, size_t n, uint64_t base);

uint8_t tc_bin_get_u8(tc_bin_reader *r);
uint32_t tc_bin_get_u32(tc_bin_reader *r);
uint64_t tc_bin_get_u64(tc_bin_reader *r);
uint64_t tc_bin_get_uvar(tc_bin_reader *r);
int64_t tc_bin_get_svar(tc_bin_reader *r);
double tc_bin_get_f64(tc_bin_reader *r);
/* N bytes in place (borrowed from the input), or NULL after an error. */
const unsigned char *tc_bin_get_raw(tc_bin_reader *r, size_t n);
/* A length-prefixed string in place; longer than MAX is an error. */
tc_str tc_bin_get_bytes(tc_bin_reader *r, size_t max);
/* A uvar count of elements that each take at least EACH (>= 1) encoded
 * bytes: more than MAX, or more than the bytes left can hold, is an error
 * (and returns 0), so a decoder may allocate that many. */
uint64_t tc_bin_get_count(tc_bin_reader *r, uint64_t max, size_t each);

/* Records an error at POS (a tc_bin_reader.pos the decoder kept before
 * reading the bad value) unless one is recorded already. WHY must be a
 * static string. */
void tc_bin_fail_at(tc_bin_reader *r, size_t pos, const char *why);

/* Fails unless every readable byte was read; returns the reader's error. */
tc_err tc_bin_finish(tc_bin_reader *r);

typedef struct {
  size_t outer_len; /* the readable end to restore on close */
  uint32_t version;
} tc_bin_section;

/* Opens a section of tag TAG: checks the header, that the payload fits the
 * input and the checksum, then limits the reader to the payload. Returns 0
 * (and leaves the reader failed) on any mismatch. The caller checks
 * S->version. */
int tc_bin_section_open(tc_bin_reader *r, uint32_t tag, tc_bin_section *s);
/* Fails unless the payload was read to its end; steps over the checksum. */
void tc_bin_section_close(tc_bin_reader *r, tc_bin_section *s);

#endif
