/* The strict JSON check against RFC 8259's grammar and UTF-8 (RFC 3629):
 * each case is valid or not by the RFCs' text, so the expectations are
 * known by construction; and the UTF-8 length against every lead byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "util/tc_json_valid.h"

static int valid(const char *s) { return tc_json_valid((tc_str){s, strlen(s)}); }

static void values_of_every_kind(void **state) {
  (void)state;
  static const char *const good[] = {
      "0", "-0", "1", "-12", "1.5", "1e5", "1E+5", "1e-05", "-0.0e0", "123456789012345678901234",
      "\"\"", "\"a\"", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\u00e9\"", "\"\\uD83D\\uDE00\"",
      "\"\xc3\xa9\"", "\"\xf0\x9f\x98\x80\"", "true", "false", "null", "[]", "{}", "[1,2,3]",
      "{\"a\":1,\"b\":[true,{\"c\":null}]}", " \t\r\n[ 1 , { \"k\" : \"v\" } ] \n",
  };
  for (size_t i = 0; i < sizeof good / sizeof *good; i++)
    if (!valid(good[i]))
      fail_msg("refused: %s", good[i]);
}

static void what_strict_json_refuses(void **state) {
  (void)state;
  static const char *const bad[] = {
      "", " ", "01", "-", "+1", "1.", ".5", "1e", "1e+", "0x10", "NaN", "Infinity", "-Infinity",
      "\"abc", "\"\\q\"", "\"\\u00g0\"", "\"\\u12\"", "\"a\tb\"", "\"\x01\"",
      "'a'", "tru", "nul", "True", "[1,]", "[,1]", "[1 2]", "{\"a\":1,}", "{\"a\"}", "{a:1}",
      "{\"a\" 1}", "[", "]", "{", "1 2", "[] []", "{}}", "\"\xc3\"", "\"\xc0\xaf\"",
      "\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\"", "\"\xff\"", "\"\x80\"",
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    if (valid(bad[i]))
      fail_msg("accepted: %s", bad[i]);
}

/* Nesting is bounded (no stack overflow on hostile input), well beyond
 * what a trace holds: 1,000 levels pass, 100,000 fail without crashing. */
static void deep_nesting(void **state) {
  (void)state;
  size_t n = 100000;
  char *s = malloc(2 * n + 1);
  assert_non_null(s);
  memset(s, '[', n);
  memset(s + n, ']', n);
  s[2 * n] = '\0';
  assert_false(tc_json_valid((tc_str){s, 2 * n}));
  assert_true(tc_json_valid((tc_str){s + n - 1000, 2000}));
  free(s);
}

/* A NUL inside the bytes is not JSON whitespace, nor the end. */
static void embedded_nul(void **state) {
  (void)state;
  assert_false(tc_json_valid((tc_str){"[1]\0", 4}));
  assert_false(tc_json_valid((tc_str){"\"a\0b\"", 5}));
}

static void utf8_lengths(void **state) {
  (void)state;
  static const struct {
    const char *bytes;
    size_t n, want;
  } cases[] = {
      {"a", 1, 1},
      {"\xc3\xa9", 2, 2},
      {"\xc3", 1, 0},                 /* cut */
      {"\xc1\xbf", 2, 0},             /* overlong 2-byte */
      {"\xe0\x9f\xbf", 3, 0},         /* overlong 3-byte */
      {"\xe2\x82\xac", 3, 3},         /* U+20AC */
      {"\xed\x9f\xbf", 3, 3},         /* U+D7FF */
      {"\xed\xa0\x80", 3, 0},         /* U+D800, a surrogate */
      {"\xf0\x90\x80\x80", 4, 4},     /* U+10000 */
      {"\xf4\x8f\xbf\xbf", 4, 4},     /* U+10FFFF */
      {"\xf4\x90\x80\x80", 4, 0},     /* above U+10FFFF */
      {"\xf5\x80\x80\x80", 4, 0},
      {"\x80", 1, 0},                 /* continuation byte first */
      {"\xe2\x28\xa1", 3, 0},         /* bad continuation */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    assert_int_equal(tc_utf8_len((const unsigned char *)cases[i].bytes, cases[i].n),
                     cases[i].want);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(values_of_every_kind),
      cmocka_unit_test(what_strict_json_refuses),
      cmocka_unit_test(deep_nesting),
      cmocka_unit_test(embedded_nul),
      cmocka_unit_test(utf8_lengths),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
