/* tc_jtree, the reader of tracecensus's own outputs: a known document read
 * back value by value, and every truncation and single-byte change of a
 * small census-like document accepted exactly when the strict JSON check
 * of util/ (tc_json_valid, an independent implementation) accepts it, with
 * the offset of a refusal inside the input. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "json/tc_jtree.h"
#include "util/tc_json_valid.h"

static const char seed[] =
    "{\"tool\": \"tracecensus\", \"sites_total\": 35, \"events\": [{\"name\": \"A\\u00e9\\n\","
    " \"records\": 102, \"ratio\": 2.914285714285714, \"neg\": -1e-7, \"args\": [], \"k\": true,"
    " \"f\": false, \"z\": null, \"o\": {\"p\": [\"x\", {}]}}]}\n";

static void reads_values(void **state) {
  (void)state;
  tc_jtree *t;
  tc_why why;
  assert_int_equal(tc_jtree_parse(seed, strlen(seed), &t, &why), TC_OK);
  const tc_jval *root = tc_jtree_root(t), *ev = tc_jget(root, "events");
  assert_int_equal(root->type, TC_JOBJ);
  assert_int_equal(root->n, 3);
  tc_str s;
  double v;
  assert_true(tc_jstr(tc_jget(root, "tool"), &s) && tc_str_eqc(s, "tracecensus"));
  assert_true(tc_jnum(tc_jget(root, "sites_total"), &v) && v == 35);
  assert_int_equal(ev->type, TC_JARR);
  assert_int_equal(ev->n, 1);
  const tc_jval *e = &ev->u.items[0];
  assert_true(tc_jstr(tc_jget(e, "name"), &s) && tc_str_eqc(s, "A\xc3\xa9\n"));
  assert_true(tc_jnum(tc_jget(e, "records"), &v) && v == 102);
  assert_true(tc_jnum(tc_jget(e, "ratio"), &v) && v == 2.914285714285714);
  assert_true(tc_jnum(tc_jget(e, "neg"), &v) && v == -1e-7);
  assert_int_equal(tc_jget(e, "args")->type, TC_JARR);
  assert_int_equal(tc_jget(e, "args")->n, 0);
  assert_int_equal(tc_jget(e, "k")->type, TC_JBOOL);
  assert_int_equal(tc_jget(e, "k")->u.boolean, 1);
  assert_int_equal(tc_jget(e, "f")->u.boolean, 0);
  assert_int_equal(tc_jget(e, "z")->type, TC_JNULL);
  const tc_jval *p = tc_jget(tc_jget(e, "o"), "p");
  assert_int_equal(p->n, 2);
  assert_int_equal(p->u.items[1].type, TC_JOBJ);
  /* Missing keys, wrong types and non-objects answer NULL or 0. */
  assert_null(tc_jget(e, "nope"));
  assert_null(tc_jget(p, "x"));
  assert_null(tc_jget(NULL, "x"));
  assert_false(tc_jnum(tc_jget(e, "name"), &v));
  assert_false(tc_jstr(tc_jget(e, "records"), &s));
  tc_jtree_free(t);
}

/* Whether every number outside the strings of valid JSON S is within a
 * double's range: simdjson refuses one that is not (2e999), and no
 * tracecensus output holds one. */
static int numbers_finite(const char *s, size_t n) {
  char num[64];
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '"') {
      for (i++; s[i] != '"'; i++)
        i += s[i] == '\\';
      continue;
    }
    if (s[i] != '-' && (s[i] < '0' || s[i] > '9'))
      continue;
    size_t k = 0;
    while (i < n && strchr("-+.eE0123456789", s[i]) && k < sizeof num - 1)
      num[k++] = s[i++];
    num[k] = '\0';
    if (isinf(strtod(num, NULL)))
      return 0;
  }
  return 1;
}

/* Whether tc_jtree should accept S: strict JSON whose value is an object
 * or an array, its numbers within range. */
static int acceptable(const char *s, size_t n) {
  size_t i = 0;
  while (i < n && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r'))
    i++;
  return i < n && (s[i] == '{' || s[i] == '[') && tc_json_valid((tc_str){s, n}) &&
         numbers_finite(s, n);
}

static void check(const char *s, size_t n) {
  tc_jtree *t = NULL;
  tc_why why;
  tc_err e = tc_jtree_parse(s, n, &t, &why);
  if (acceptable(s, n)) {
    assert_int_equal(e, TC_OK);
    assert_non_null(t);
  } else {
    assert_int_equal(e, TC_E_BAD_JSON);
    assert_null(t);
    assert_true(!why.has_offset || why.offset <= n);
    assert_true(why.reason[0] != 0);
  }
  tc_jtree_free(t);
}

static void malformed_refused_like_the_strict_check(void **state) {
  (void)state;
  size_t n = strlen(seed);
  char *buf = malloc(n);
  assert_non_null(buf);
  for (size_t cut = 0; cut <= n; cut++) {
    memcpy(buf, seed, cut);
    check(buf, cut);
  }
  static const char bytes[] = "{}[],:\"\\ 0-.eatnu\x01\x80\xff";
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < sizeof bytes - 1; k++) {
      memcpy(buf, seed, n);
      buf[i] = bytes[k];
      check(buf, n);
    }
  free(buf);
  /* The shapes a broken output takes, each named. */
  static const char *const bad[] = {"", " ", "1", "\"s\"", "null", "{} {}", "[1,]", "{\"a\":1,}",
                                    "{\"a\" 1}", "[01]", "[\"\\q\"]", "[tru]", "{\"a\":1}]"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    check(bad[i], strlen(bad[i]));
}

static void depth_is_bounded(void **state) {
  (void)state;
  enum { D = TC_JTREE_MAX_DEPTH + 1 };
  char *s = malloc(2 * D);
  assert_non_null(s);
  for (int depth = TC_JTREE_MAX_DEPTH; depth <= D; depth++) {
    memset(s, '[', (size_t)depth);
    memset(s + depth, ']', (size_t)depth);
    tc_jtree *t = NULL;
    tc_why why;
    tc_err e = tc_jtree_parse(s, 2 * (size_t)depth, &t, &why);
    assert_int_equal(e, depth <= TC_JTREE_MAX_DEPTH ? TC_OK : TC_E_BAD_JSON);
    tc_jtree_free(t);
  }
  free(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(reads_values),
      cmocka_unit_test(malformed_refused_like_the_strict_check),
      cmocka_unit_test(depth_is_bounded),
  };
  return cmocka_run_group_tests_name("jtree", tests, NULL, NULL);
}
