/* tc_xxh64 against the reference implementation: every expected value
 * below was computed by Debian's libxxhash 0.8.1 (XXH64 through ctypes) over
 * bytes i*7+3, lengths on both sides of every stripe and lane boundary,
 * seeds 0 and 0x9E3779B97F4A7C15; plus the published value of the empty
 * input. The sketches' state depends on these bits on every host. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "util/tc_xxh64.h"

static const struct {
  size_t len;
  uint64_t seed, want;
} vectors[] = {
    {0, 0, 0xef46db3751d8e999ULL},
    {0, 0x9E3779B97F4A7C15ULL, 0xc4349fc93c010000ULL},
    {1, 0, 0x1f25c8d0bc1f4bb6ULL},
    {1, 0x9E3779B97F4A7C15ULL, 0x79826bcd749d267aULL},
    {3, 0, 0x31d2363f52e564c9ULL},
    {3, 0x9E3779B97F4A7C15ULL, 0x78efd77575e26575ULL},
    {4, 0, 0x9bb64b7d66ee9fdaULL},
    {4, 0x9E3779B97F4A7C15ULL, 0x6f0a6c97d68bf353ULL},
    {7, 0, 0x9a7b149959ce60d8ULL},
    {7, 0x9E3779B97F4A7C15ULL, 0xd97ede93c9d66a0dULL},
    {8, 0, 0xdab99d95c6f90092ULL},
    {8, 0x9E3779B97F4A7C15ULL, 0xa2f1e28437a78a1bULL},
    {9, 0, 0x170bb6bf975b4c02ULL},
    {9, 0x9E3779B97F4A7C15ULL, 0x9c9a3cd83532d84fULL},
    {15, 0, 0x1b47cb8243cc8e32ULL},
    {15, 0x9E3779B97F4A7C15ULL, 0xe2ec50a544faec61ULL},
    {16, 0, 0x434850232b787be2ULL},
    {16, 0x9E3779B97F4A7C15ULL, 0x93351859a7286376ULL},
    {31, 0, 0xa2aa5f33cc4a6119ULL},
    {31, 0x9E3779B97F4A7C15ULL, 0x755437271d1d0a84ULL},
    {32, 0, 0x23c3c17ef790fd97ULL},
    {32, 0x9E3779B97F4A7C15ULL, 0xbf624b932c090428ULL},
    {33, 0, 0x50a7cfc7ba588784ULL},
    {33, 0x9E3779B97F4A7C15ULL, 0x7aceaf1e9d34ea35ULL},
    {63, 0, 0x5e3e54b431c7493cULL},
    {63, 0x9E3779B97F4A7C15ULL, 0x2c8ddce5c85d0d9dULL},
    {64, 0, 0x0eb64b3ef6eeb01fULL},
    {64, 0x9E3779B97F4A7C15ULL, 0x4af341f14e3a6fc9ULL},
    {100, 0, 0xa61f8d4c170fe531ULL},
    {100, 0x9E3779B97F4A7C15ULL, 0xf6d8f65c625abb4fULL},
    {200, 0, 0xa6cb3c09bc829b24ULL},
    {200, 0x9E3779B97F4A7C15ULL, 0x17e5f0aa6728f859ULL},
};

static void test_reference_vectors(void **state) {
  (void)state;
  unsigned char b[200];
  for (int i = 0; i < 200; i++)
    b[i] = (unsigned char)(i * 7 + 3);
  for (size_t i = 0; i < sizeof vectors / sizeof *vectors; i++)
    assert_true(tc_xxh64(b, vectors[i].len, vectors[i].seed) == vectors[i].want);
  assert_true(tc_xxh64("", 0, 0) == 0xEF46DB3751D8E999ULL);
  assert_true(tc_xxh64("abc", 3, 0) == 0x44BC2CF5AD770999ULL);
}

/* Unaligned input: the lanes are read byte by byte. */
static void test_unaligned(void **state) {
  (void)state;
  unsigned char b[260];
  for (int i = 0; i < 260; i++)
    b[i] = (unsigned char)((i - 1) * 7 + 3);
  for (size_t i = 0; i < sizeof vectors / sizeof *vectors; i++)
    assert_true(tc_xxh64(b + 1, vectors[i].len, vectors[i].seed) == vectors[i].want);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_reference_vectors),
      cmocka_unit_test(test_unaligned),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
