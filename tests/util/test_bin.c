/* tc_bin: the exact bytes of every encoding (little-endian, LEB128, zigzag,
 * IEEE bits), round trips at the edges of every type, and a reader that
 * refuses truncated, overlong and corrupted input with the offset of the
 * bad value, never reading past the end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/tc_bin.h"

static void expect_bytes(const tc_bin_buf *b, const char *hex) {
  size_t n = strlen(hex) / 2;
  assert_int_equal(b->err, TC_OK);
  assert_int_equal(b->len, n);
  for (size_t i = 0; i < n; i++) {
    unsigned v;
    char two[3] = {hex[2 * i], hex[2 * i + 1], 0};
    v = (unsigned)strtoul(two, NULL, 16);
    assert_int_equal(b->ptr[i], v);
  }
}

static void test_layout(void **state) {
  (void)state;
  tc_bin_buf b;
  tc_bin_buf_init(&b);
  tc_bin_put_u32(&b, 0x04030201);
  expect_bytes(&b, "01020304");
  tc_bin_buf_free(&b);
  tc_bin_put_u64(&b, 0x0807060504030201ULL);
  expect_bytes(&b, "0102030405060708");
  tc_bin_buf_free(&b);
  tc_bin_put_uvar(&b, 0);
  tc_bin_put_uvar(&b, 127);
  tc_bin_put_uvar(&b, 128);
  tc_bin_put_uvar(&b, 300);
  expect_bytes(&b, "007f8001ac02");
  tc_bin_buf_free(&b);
  tc_bin_put_uvar(&b, UINT64_MAX);
  expect_bytes(&b, "ffffffffffffffffff01");
  tc_bin_buf_free(&b);
  tc_bin_put_svar(&b, 0);
  tc_bin_put_svar(&b, -1);
  tc_bin_put_svar(&b, 1);
  tc_bin_put_svar(&b, -2);
  tc_bin_put_svar(&b, -64);
  tc_bin_put_svar(&b, 64);
  expect_bytes(&b, "000102037f8001");
  tc_bin_buf_free(&b);
  tc_bin_put_f64(&b, 1.0);
  tc_bin_put_f64(&b, -0.0);
  expect_bytes(&b, "000000000000f03f0000000000000080");
  tc_bin_buf_free(&b);
  tc_str s = {"ab", 2};
  tc_bin_put_bytes(&b, s);
  tc_bin_put_bytes(&b, tc_str_c(""));
  expect_bytes(&b, "02616200");
  tc_bin_buf_free(&b);
}

static void test_round_trip_edges(void **state) {
  (void)state;
  static const uint64_t us[] = {0, 1, 127, 128, 16383, 16384, 1ULL << 32, (1ULL << 63) - 1,
                                1ULL << 63, UINT64_MAX - 1, UINT64_MAX};
  static const int64_t ss[] = {0, 1, -1, 63, -64, 64, -65, INT32_MIN, INT32_MAX, INT64_MIN,
                               INT64_MAX, INT64_MIN + 1};
  const double ds[] = {0.0, -0.0, 1.5, -1e300, 5e-324, INFINITY, -INFINITY, NAN, 1.7976931348623157e308};
  tc_bin_buf b;
  tc_bin_buf_init(&b);
  for (size_t i = 0; i < sizeof us / sizeof *us; i++) {
    tc_bin_put_uvar(&b, us[i]);
    tc_bin_put_u64(&b, us[i]);
    tc_bin_put_u32(&b, (uint32_t)us[i]);
    tc_bin_put_u8(&b, (uint8_t)us[i]);
  }
  for (size_t i = 0; i < sizeof ss / sizeof *ss; i++)
    tc_bin_put_svar(&b, ss[i]);
  for (size_t i = 0; i < sizeof ds / sizeof *ds; i++)
    tc_bin_put_f64(&b, ds[i]);
  tc_bin_reader r;
  tc_bin_reader_init(&r, b.ptr, b.len, 0);
  for (size_t i = 0; i < sizeof us / sizeof *us; i++) {
    assert_true(tc_bin_get_uvar(&r) == us[i]);
    assert_true(tc_bin_get_u64(&r) == us[i]);
    assert_true(tc_bin_get_u32(&r) == (uint32_t)us[i]);
    assert_true(tc_bin_get_u8(&r) == (uint8_t)us[i]);
  }
  for (size_t i = 0; i < sizeof ss / sizeof *ss; i++)
    assert_true(tc_bin_get_svar(&r) == ss[i]);
  for (size_t i = 0; i < sizeof ds / sizeof *ds; i++) {
    double d = tc_bin_get_f64(&r);
    assert_memory_equal(&d, &ds[i], sizeof d);
  }
  assert_int_equal(tc_bin_finish(&r), TC_OK);
  tc_bin_buf_free(&b);
}

/* Reads HEX as one uvar and expects an error at offset 0 with WHY. */
static void expect_bad_uvar(const unsigned char *p, size_t n, const char *why) {
  tc_bin_reader r;
  tc_bin_reader_init(&r, p, n, 1000);
  assert_true(tc_bin_get_uvar(&r) == 0);
  assert_int_equal(r.err, TC_E_BAD_BINARY);
  assert_true(r.err_at == 1000);
  assert_string_equal(r.why, why);
}

static void test_varint_rejects(void **state) {
  (void)state;
  static const unsigned char overlong[] = {0x80, 0x00};
  expect_bad_uvar(overlong, 2, "varint not in its shortest form");
  static const unsigned char overlong2[] = {0xff, 0x80, 0x00};
  expect_bad_uvar(overlong2, 3, "varint not in its shortest form");
  static const unsigned char big10[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
  expect_bad_uvar(big10, 10, "varint exceeds 64 bits");
  static const unsigned char eleven[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x81, 0x01};
  expect_bad_uvar(eleven, 11, "varint exceeds 64 bits");
  static const unsigned char open[] = {0x80, 0x80};
  expect_bad_uvar(open, 2, "input ends inside a varint");
  expect_bad_uvar(open, 0, "input ends inside a varint");
}

/* Every strict prefix of a well-formed stream fails, at an offset inside
 * it, and the error sticks: later gets give 0 and do not move. */
static void test_truncation(void **state) {
  (void)state;
  tc_bin_buf b;
  tc_bin_buf_init(&b);
  tc_bin_put_u32(&b, 7);
  tc_bin_put_uvar(&b, 1ULL << 40);
  tc_bin_put_bytes(&b, tc_str_c("hello"));
  tc_bin_put_f64(&b, 2.5);
  tc_bin_put_u8(&b, 9);
  for (size_t cut = 0; cut < b.len; cut++) {
    tc_bin_reader r;
    tc_bin_reader_init(&r, b.ptr, cut, 0);
    tc_bin_get_u32(&r);
    tc_bin_get_uvar(&r);
    tc_str s = tc_bin_get_bytes(&r, 100);
    tc_bin_get_f64(&r);
    tc_bin_get_u8(&r);
    assert_int_equal(r.err, TC_E_BAD_BINARY);
    assert_true(r.err_at <= cut);
    assert_true(r.pos <= cut);
    assert_non_null(s.ptr);
    size_t pos = r.pos;
    uint64_t at = r.err_at;
    assert_true(tc_bin_get_u64(&r) == 0);
    assert_true(tc_bin_get_uvar(&r) == 0);
    assert_null(tc_bin_get_raw(&r, 1));
    assert_int_equal(r.pos, pos);
    assert_true(r.err_at == at);
  }
  tc_bin_buf_free(&b);
}

static void test_counts_and_strings(void **state) {
  (void)state;
  tc_bin_buf b;
  tc_bin_buf_init(&b);
  tc_bin_put_uvar(&b, 5); /* five elements of at least 2 bytes: needs 10 */
  tc_bin_put_raw(&b, "123456789", 9);
  tc_bin_reader r;
  tc_bin_reader_init(&r, b.ptr, b.len, 0);
  assert_true(tc_bin_get_count(&r, 100, 2) == 0);
  assert_string_equal(r.why, "count larger than the rest of the input can hold");
  tc_bin_reader_init(&r, b.ptr, b.len, 0);
  assert_true(tc_bin_get_count(&r, 100, 1) == 5);
  tc_bin_reader_init(&r, b.ptr, b.len, 0);
  assert_true(tc_bin_get_count(&r, 4, 1) == 0);
  assert_string_equal(r.why, "count above the format's limit");
  tc_bin_buf_free(&b);

  tc_bin_put_bytes(&b, tc_str_c("abcdef"));
  tc_bin_reader_init(&r, b.ptr, b.len, 0);
  tc_bin_get_bytes(&r, 5);
  assert_string_equal(r.why, "string longer than the format allows");
  tc_bin_reader_init(&r, b.ptr, b.len - 1, 0);
  tc_bin_get_bytes(&r, 10);
  assert_string_equal(r.why, "input ends inside a value");
  tc_bin_reader_init(&r, b.ptr, b.len, 0);
  tc_str s = tc_bin_get_bytes(&r, 6);
  assert_true(tc_str_eqc(s, "abcdef"));
  assert_ptr_equal(s.ptr, (const char *)b.ptr + 1);
  assert_int_equal(tc_bin_finish(&r), TC_OK);
  tc_bin_buf_free(&b);

  tc_bin_put_u8(&b, 1);
  tc_bin_put_u8(&b, 2);
  tc_bin_reader_init(&r, b.ptr, b.len, 40);
  tc_bin_get_u8(&r);
  assert_int_equal(tc_bin_finish(&r), TC_E_BAD_BINARY);
  assert_true(r.err_at == 41);
  assert_string_equal(r.why, "trailing bytes after the last value");
  tc_bin_buf_free(&b);
}

static void test_crc(void **state) {
  (void)state;
  /* The CRC-32 check value of the catalogue (zlib's polynomial). */
  assert_true(tc_bin_crc32(0, "123456789", 9) == 0xCBF43926u);
  uint32_t c = tc_bin_crc32(0, "1234", 4);
  assert_true(tc_bin_crc32(c, "56789", 5) == 0xCBF43926u);
}

#define TAG_A TC_BIN_TAG('T', 'S', 'T', 'A')
#define TAG_B TC_BIN_TAG('T', 'S', 'T', 'B')

static void make_sections(tc_bin_buf *b) {
  tc_bin_buf_init(b);
  tc_bin_put_u8(b, 0xEE); /* a byte before, so offsets are not all from 0 */
  size_t outer = tc_bin_section_begin(b, TAG_A, 3);
  tc_bin_put_uvar(b, 12345);
  size_t inner = tc_bin_section_begin(b, TAG_B, 1);
  tc_bin_put_bytes(b, tc_str_c("inner"));
  tc_bin_section_end(b, inner);
  tc_bin_put_u32(b, 77);
  tc_bin_section_end(b, outer);
}

/* Returns the reader's error after reading the sections made above. */
static tc_err read_sections(const unsigned char *p, size_t n, tc_bin_reader *r) {
  tc_bin_reader_init(r, p, n, 0);
  tc_bin_get_u8(r);
  tc_bin_section a, b;
  if (!tc_bin_section_open(r, TAG_A, &a))
    return r->err;
  if (a.version != 3)
    return TC_E_USAGE;
  if (tc_bin_get_uvar(r) != 12345 && !r->err)
    return TC_E_USAGE;
  if (tc_bin_section_open(r, TAG_B, &b)) {
    tc_str s = tc_bin_get_bytes(r, 10);
    if (!r->err && !tc_str_eqc(s, "inner"))
      return TC_E_USAGE;
    tc_bin_section_close(r, &b);
  }
  if (tc_bin_get_u32(r) != 77 && !r->err)
    return TC_E_USAGE;
  tc_bin_section_close(r, &a);
  return tc_bin_finish(r);
}

static void test_sections(void **state) {
  (void)state;
  tc_bin_buf b;
  make_sections(&b);
  tc_bin_reader r;
  assert_int_equal(read_sections(b.ptr, b.len, &r), TC_OK);
  assert_int_equal(b.len, 1 + 2 * (TC_BIN_SECTION_HEAD + TC_BIN_SECTION_TAIL) + 2 + 6 + 4);
  /* Any one byte changed anywhere in the sections: the checksum (or the
   * header check) catches it, never a crash or a wrong value. */
  for (size_t i = 1; i < b.len; i++) {
    for (int bit = 0; bit < 8; bit++) {
      b.ptr[i] ^= (unsigned char)(1 << bit);
      assert_int_equal(read_sections(b.ptr, b.len, &r), TC_E_BAD_BINARY);
      assert_true(r.err_at < b.len);
      b.ptr[i] ^= (unsigned char)(1 << bit);
    }
  }
  for (size_t cut = 1; cut < b.len; cut++) {
    assert_int_equal(read_sections(b.ptr, cut, &r), TC_E_BAD_BINARY);
    if (cut < 1 + TC_BIN_SECTION_HEAD) {
      assert_true(r.err_at >= 1 && r.err_at <= cut);
      assert_string_equal(r.why, "input ends inside a value");
    } else {
      assert_true(r.err_at == 1);
      assert_string_equal(r.why, "section longer than the input");
    }
  }
  /* A section of another kind. */
  tc_bin_reader_init(&r, b.ptr, b.len, 0);
  tc_bin_get_u8(&r);
  tc_bin_section s;
  assert_false(tc_bin_section_open(&r, TAG_B, &s));
  assert_string_equal(r.why, "section of another kind where this one was expected");
  tc_bin_buf_free(&b);
}

/* A payload not read to its end is an error at the first unread byte. */
static void test_section_leftover(void **state) {
  (void)state;
  tc_bin_buf b;
  tc_bin_buf_init(&b);
  size_t m = tc_bin_section_begin(&b, TAG_A, 1);
  tc_bin_put_u8(&b, 1);
  tc_bin_put_u8(&b, 2);
  tc_bin_section_end(&b, m);
  tc_bin_reader r;
  tc_bin_reader_init(&r, b.ptr, b.len, 0);
  tc_bin_section s;
  assert_true(tc_bin_section_open(&r, TAG_A, &s));
  tc_bin_get_u8(&r);
  tc_bin_section_close(&r, &s);
  assert_int_equal(r.err, TC_E_BAD_BINARY);
  assert_true(r.err_at == TC_BIN_SECTION_HEAD + 1);
  /* Inside the section the reader stops at its end. */
  tc_bin_reader_init(&r, b.ptr, b.len, 0);
  assert_true(tc_bin_section_open(&r, TAG_A, &s));
  assert_null(tc_bin_get_raw(&r, 3));
  tc_bin_buf_free(&b);
}

static void test_take(void **state) {
  (void)state;
  tc_bin_buf b;
  tc_bin_buf_init(&b);
  size_t n;
  assert_null(tc_bin_buf_take(&b, &n));
  assert_int_equal(n, 0);
  for (int i = 0; i < 100000; i++)
    tc_bin_put_uvar(&b, (uint64_t)i * 977);
  size_t len = b.len;
  unsigned char *p = tc_bin_buf_take(&b, &n);
  assert_non_null(p);
  assert_int_equal(n, len);
  assert_null(b.ptr);
  assert_int_equal(b.len, 0);
  tc_bin_reader r;
  tc_bin_reader_init(&r, p, n, 0);
  for (int i = 0; i < 100000; i++)
    assert_true(tc_bin_get_uvar(&r) == (uint64_t)i * 977);
  assert_int_equal(tc_bin_finish(&r), TC_OK);
  free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_layout),          cmocka_unit_test(test_round_trip_edges),
      cmocka_unit_test(test_varint_rejects),  cmocka_unit_test(test_truncation),
      cmocka_unit_test(test_counts_and_strings), cmocka_unit_test(test_crc),
      cmocka_unit_test(test_sections),        cmocka_unit_test(test_section_leftover),
      cmocka_unit_test(test_take),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
