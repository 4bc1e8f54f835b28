/* The JSON writer: commas and indentation at every nesting level, string
 * escaping (quotes, backslash, every control byte), and the one number
 * format: integers exactly, reals in the shortest %g form that reads back
 * to the same double, non-finite values as null, -0 as 0. Escaping and
 * numbers equal, byte for byte, what the stdio writer they replaced wrote
 * (tests/common/printf_ref.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "printf_ref.h"
#include "report/tc_jsonw.h"

typedef struct {
  FILE *fp;
  char *buf;
  size_t len;
  tc_jsonw w;
} sink;

static void sink_open(sink *s, int indent) {
  s->buf = NULL;
  s->len = 0;
  s->fp = open_memstream(&s->buf, &s->len);
  assert_non_null(s->fp);
  tc_jsonw_init(&s->w, s->fp, indent);
}

/* Closes the stream and compares what was written with WANT. */
static void sink_expect(sink *s, const char *want) {
  assert_int_equal(fclose(s->fp), 0);
  assert_string_equal(s->buf, want);
  free(s->buf);
}

/* One document with every kind of value, at three levels. */
static void write_sample(tc_jsonw *w) {
  tc_jsonw_obj(w);
  tc_jsonw_kint(w, "a", 1);
  tc_jsonw_karr(w, "list");
  tc_jsonw_uint(w, 2);
  tc_jsonw_str(w, "x");
  tc_jsonw_null(w);
  tc_jsonw_bool(w, 1);
  tc_jsonw_bool(w, 0);
  tc_jsonw_obj(w);
  tc_jsonw_obj_end(w);
  tc_jsonw_arr(w);
  tc_jsonw_arr_end(w);
  tc_jsonw_obj(w);
  tc_jsonw_kstr(w, "k", NULL);
  tc_jsonw_obj_end(w);
  tc_jsonw_arr_end(w);
  tc_jsonw_kraw(w, "raw", tc_str_c("{\"r\":[1,2]}"));
  tc_jsonw_kobj(w, "empty");
  tc_jsonw_obj_end(w);
  tc_jsonw_obj_end(w);
}

static void test_nesting_compact(void **state) {
  (void)state;
  sink s;
  sink_open(&s, 0);
  write_sample(&s.w);
  sink_expect(&s, "{\"a\":1,\"list\":[2,\"x\",null,true,false,{},[],{\"k\":null}],"
                  "\"raw\":{\"r\":[1,2]},\"empty\":{}}");
}

static void test_nesting_indented(void **state) {
  (void)state;
  sink s;
  sink_open(&s, 2);
  write_sample(&s.w);
  sink_expect(&s, "{\n"
                  "  \"a\": 1,\n"
                  "  \"list\": [\n"
                  "    2,\n"
                  "    \"x\",\n"
                  "    null,\n"
                  "    true,\n"
                  "    false,\n"
                  "    {},\n"
                  "    [],\n"
                  "    {\n"
                  "      \"k\": null\n"
                  "    }\n"
                  "  ],\n"
                  "  \"raw\": {\"r\":[1,2]},\n"
                  "  \"empty\": {}\n"
                  "}");
}

static void test_deep_nesting(void **state) {
  (void)state;
  enum { DEPTH = 40 };
  sink s;
  sink_open(&s, 0);
  for (int i = 0; i < DEPTH; i++) {
    tc_jsonw_arr(&s.w);
    tc_jsonw_int(&s.w, i);
  }
  for (int i = 0; i < DEPTH; i++)
    tc_jsonw_arr_end(&s.w);
  char want[DEPTH * 8] = "";
  size_t n = 0;
  for (int i = 0; i < DEPTH; i++)
    n += (size_t)snprintf(want + n, sizeof want - n, "[%d%s", i, i + 1 < DEPTH ? "," : "");
  for (int i = 0; i < DEPTH; i++)
    want[n++] = ']';
  want[n] = '\0';
  sink_expect(&s, want);
}

/* Every byte below 0x20 is escaped (short forms where JSON has them), as
 * are quote and backslash, in keys and values alike; other bytes,
 * UTF-8 included, pass through. */
static void test_escaping(void **state) {
  (void)state;
  char raw[0x20 + 8];
  for (int c = 0; c < 0x20; c++)
    raw[c] = (char)c;
  memcpy(raw + 0x20, "\"\\/\x7f\xc3\xa9z", 7);
  size_t rawlen = 0x20 + 7;
  const char *want_body = "\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007"
                          "\\b\\t\\n\\u000b\\f\\r\\u000e\\u000f"
                          "\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017"
                          "\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f"
                          "\\\"\\\\/\x7f\xc3\xa9z";
  tc_str r = {raw, rawlen};
  sink s;
  sink_open(&s, 0);
  tc_jsonw_obj(&s.w);
  tc_jsonw_keyn(&s.w, r);
  tc_jsonw_strn(&s.w, r);
  tc_jsonw_kstr(&s.w, "q\"k", "say \"hi\"");
  tc_jsonw_obj_end(&s.w);
  char want[1024];
  snprintf(want, sizeof want, "{\"%s\":\"%s\",\"q\\\"k\":\"say \\\"hi\\\"\"}", want_body,
           want_body);
  sink_expect(&s, want);

  /* tc_json_escape writes the body alone. */
  sink_open(&s, 0);
  tc_json_escape(&s.w.out, r);
  tc_wbuf_flush(&s.w.out);
  sink_expect(&s, want_body);
}

static void test_integers(void **state) {
  (void)state;
  sink s;
  sink_open(&s, 0);
  tc_jsonw_arr(&s.w);
  tc_jsonw_int(&s.w, 0);
  tc_jsonw_int(&s.w, -42);
  tc_jsonw_int(&s.w, INT64_MIN);
  tc_jsonw_int(&s.w, INT64_MAX);
  tc_jsonw_uint(&s.w, UINT64_MAX);
  tc_jsonw_arr_end(&s.w);
  sink_expect(&s, "[0,-42,-9223372036854775808,9223372036854775807,18446744073709551615]");
}

static const char *num_text(double v, char *out, size_t cap) {
  sink s;
  sink_open(&s, 0);
  tc_jsonw_num(&s.w, v);
  assert_int_equal(fclose(s.fp), 0);
  snprintf(out, cap, "%s", s.buf);
  free(s.buf);
  return out;
}

static void test_number_forms(void **state) {
  (void)state;
  static const struct {
    double v;
    const char *want;
  } cases[] = {
      {0.0, "0"},
      {-0.0, "0"},
      {1.0, "1"},
      {-3.0, "-3"},
      {123456789012.0, "123456789012"},
      {9007199254740991.0, "9007199254740991"},
      {0.1, "0.1"},
      {-2.5, "-2.5"},
      {1.0 / 3.0, "0.3333333333333333"},
      {1e-7, "1e-07"},
      {1e21, "1e+21"},
      {1e300, "1e+300"},
      {5e-324, "5e-324"},
      {1789291418105.672, "1789291418105.672"},
  };
  char buf[64];
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    assert_string_equal(num_text(cases[i].v, buf, sizeof buf), cases[i].want);
  assert_string_equal(num_text(NAN, buf, sizeof buf), "null");
  assert_string_equal(num_text(INFINITY, buf, sizeof buf), "null");
  assert_string_equal(num_text(-INFINITY, buf, sizeof buf), "null");
}

/* JSON's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static int is_json_number(const char *s) {
  if (*s == '-')
    s++;
  if (*s == '0')
    s++;
  else if (*s >= '1' && *s <= '9')
    while (*s >= '0' && *s <= '9')
      s++;
  else
    return 0;
  if (*s == '.') {
    s++;
    if (!(*s >= '0' && *s <= '9'))
      return 0;
    while (*s >= '0' && *s <= '9')
      s++;
  }
  if (*s == 'e' || *s == 'E') {
    s++;
    if (*s == '+' || *s == '-')
      s++;
    if (!(*s >= '0' && *s <= '9'))
      return 0;
    while (*s >= '0' && *s <= '9')
      s++;
  }
  return *s == '\0';
}

/* Random doubles of every magnitude: each is valid JSON, reads back to the
 * same value, and no shorter %g form would. */
static void test_numbers_round_trip(void **state) {
  (void)state;
  uint64_t x = 88172645463325252ULL;
  char buf[64];
  for (int i = 0; i < 20000; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    double v;
    memcpy(&v, &x, sizeof v);
    if (!isfinite(v))
      continue;
    if (i % 4 == 0)
      v = (double)(int64_t)(x >> 20) / 1000.0; /* trace-like values with three decimals */
    num_text(v, buf, sizeof buf);
    if (!is_json_number(buf))
      fail_msg("%.17g written as '%s', not a JSON number", v, buf);
    if (strtod(buf, NULL) != v)
      fail_msg("%.17g written as '%s', which reads back as %.17g", v, buf, strtod(buf, NULL));
    char shortest[64];
    printf_ref_num(v, shortest, sizeof shortest);
    if (strcmp(buf, shortest) != 0)
      fail_msg("%.17g written as '%s', the shortest form is '%s'", v, buf, shortest);
  }
}

static uint64_t rng = 0x2545F4914F6CDD1DULL;

static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* Text of every kind the escaper meets: ASCII runs, controls, quote and
 * backslash, valid UTF-8 of 2 to 4 bytes, and invalid sequences (a lone
 * continuation byte, a cut lead, an overlong form, a surrogate, a code point
 * above U+10FFFF, 0xFF). Returns the length written into BUF. */
static size_t random_text(char *buf, size_t cap) {
  static const char *const pieces[] = {
      "Synthetic.Wide.EventName", ".", "args.data", "\"", "\\", "\n", "\t", "\x01", "\x1f",
      "\x7f", "\xc3\xa9", "\xe6\x97\xa5", "\xf0\x9f\x98\x80", "\x80", "\xc3", "\xe6\x97",
      "\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xff", "abcdefghijklmnopqrstuvwxyz"};
  size_t n = 0, want = next() % (cap / 2);
  while (n < want) {
    const char *p = pieces[next() % (sizeof pieces / sizeof *pieces)];
    size_t k = strlen(p);
    memcpy(buf + n, p, k);
    n += k;
  }
  if (next() % 8 == 0 && n) /* a NUL byte inside */
    buf[next() % n] = '\0';
  return n;
}

/* tc_json_escape writes exactly what the escaper it replaced wrote (the
 * U+FFFD rule included), on random text and on one string longer than the
 * writer's buffer. */
static void test_escape_matches_stdio(void **state) {
  (void)state;
  enum { CAP = 600, LONG = 3 * TC_WBUF_CAP };
  char *text = malloc(LONG + CAP);
  assert_non_null(text);
  for (int round = 0; round < 100001; round++) {
    size_t n = 0;
    if (round < 100000)
      n = random_text(text, CAP);
    else
      while (n < LONG)
        n += random_text(text + n, CAP);
    tc_str t = {text, n};
    char *want = NULL;
    size_t wantlen = 0;
    FILE *ref = open_memstream(&want, &wantlen);
    assert_non_null(ref);
    printf_ref_escape(ref, t);
    assert_int_equal(fclose(ref), 0);
    sink s;
    sink_open(&s, 0);
    tc_json_escape(&s.w.out, t);
    tc_wbuf_flush(&s.w.out);
    assert_int_equal(fclose(s.fp), 0);
    assert_int_equal(s.len, wantlen);
    assert_memory_equal(s.buf, want, wantlen);
    free(s.buf);
    free(want);
  }
  free(text);
}

/* The stream holds each top-level value once it is complete, whatever its
 * size, so a caller may write between values. */
static void test_flush_per_value(void **state) {
  (void)state;
  sink s;
  sink_open(&s, 0);
  tc_jsonw_num(&s.w, 0.5);
  assert_int_equal(fflush(s.fp), 0);
  assert_string_equal(s.buf, "0.5");
  fputc(' ', s.fp);
  enum { N = 20000 };
  tc_jsonw_arr(&s.w);
  for (int i = 0; i < N; i++)
    tc_jsonw_str(&s.w, "abc");
  assert_int_equal(fflush(s.fp), 0);
  assert_true(s.len > 0 && s.len < (size_t)N * 6); /* blocks went out before the end */
  tc_jsonw_arr_end(&s.w);
  assert_int_equal(fflush(s.fp), 0);
  assert_int_equal(s.len, 4 + 1 + (size_t)N * 6);
  assert_memory_equal(s.buf + s.len - 7, ",\"abc\"]", 7);
  tc_jsonw_end(&s.w);
  assert_int_equal(fclose(s.fp), 0);
  assert_int_equal(s.buf[s.len - 1], '\n');
  free(s.buf);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_nesting_compact),  cmocka_unit_test(test_nesting_indented),
      cmocka_unit_test(test_deep_nesting),     cmocka_unit_test(test_escaping),
      cmocka_unit_test(test_integers),         cmocka_unit_test(test_number_forms),
      cmocka_unit_test(test_numbers_round_trip), cmocka_unit_test(test_escape_matches_stdio),
      cmocka_unit_test(test_flush_per_value),
  };
  return cmocka_run_group_tests_name("jsonw", tests, NULL, NULL);
}
