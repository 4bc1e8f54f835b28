/* The JSON writer: commas and indentation at every nesting level, string
 * escaping (quotes, backslash, every control byte), and the one number
 * format: integers exactly, reals in the shortest %g form that reads back
 * to the same double, non-finite values as null, -0 as 0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  tc_jsonw_key(w, "a");
  tc_jsonw_int(w, 1);
  tc_jsonw_key(w, "list");
  tc_jsonw_arr(w);
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
  tc_jsonw_key(w, "k");
  tc_jsonw_str(w, NULL);
  tc_jsonw_obj_end(w);
  tc_jsonw_arr_end(w);
  tc_jsonw_key(w, "raw");
  tc_jsonw_raw(w, tc_str_c("{\"r\":[1,2]}"));
  tc_jsonw_key(w, "empty");
  tc_jsonw_obj(w);
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
  tc_jsonw_key(&s.w, "q\"k");
  tc_jsonw_str(&s.w, "say \"hi\"");
  tc_jsonw_obj_end(&s.w);
  char want[1024];
  snprintf(want, sizeof want, "{\"%s\":\"%s\",\"q\\\"k\":\"say \\\"hi\\\"\"}", want_body,
           want_body);
  sink_expect(&s, want);

  /* tc_json_escape writes the body alone. */
  sink_open(&s, 0);
  tc_json_escape(s.fp, r);
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
    if (v != floor(v) || fabs(v) >= 9007199254740992.0) {
      char shortest[64];
      for (int prec = 1; prec <= 17; prec++) {
        snprintf(shortest, sizeof shortest, "%.*g", prec, v);
        if (strtod(shortest, NULL) == v)
          break;
      }
      if (strcmp(buf, shortest) != 0)
        fail_msg("%.17g written as '%s', the shortest form is '%s'", v, buf, shortest);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_nesting_compact),  cmocka_unit_test(test_nesting_indented),
      cmocka_unit_test(test_deep_nesting),     cmocka_unit_test(test_escaping),
      cmocka_unit_test(test_integers),         cmocka_unit_test(test_number_forms),
      cmocka_unit_test(test_numbers_round_trip),
  };
  return cmocka_run_group_tests_name("jsonw", tests, NULL, NULL);
}
