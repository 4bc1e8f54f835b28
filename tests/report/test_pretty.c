/* The re-indenter against the manual itself: every example event printed
 * in ../shared/seeds/chrome-trace-event-manual.txt (argv[1]) is compacted
 * here, its keys sorted as Chrome's JSON export writes them, and
 * tc_event_pretty must bring it back exactly as the manual prints it: the
 * manual's key order, its layout, its "... [N more items]" marks standing for
 * N elided elements, with one deliberate difference (issue 8): an empty
 * object stays on one line, "args": {}, where the manual opens and closes
 * it on two. The examples with one-line arrays or empty objects are checked
 * apart. Then small cases: empty arrays, elision, strings that look like
 * syntax, and input that is not JSON, which is written as it is. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/tc_pretty.h"

/* The manual's examples cut arrays of objects after three elements, as
 * the census markdown does (TC_EXAMPLE_ITEMS). */
#define MANUAL_ITEMS 3

static const char *manual_path;

/* Runs one of the two pretty-printers into a string the caller frees. */
static char *run_pretty(void (*fn)(tc_wbuf *, tc_str, size_t), const char *json, size_t len,
                        size_t max_items) {
  char *buf = NULL;
  size_t n = 0;
  FILE *fp = open_memstream(&buf, &n);
  assert_non_null(fp);
  tc_wbuf out;
  tc_wbuf_init(&out, fp);
  fn(&out, (tc_str){json, len}, max_items);
  tc_wbuf_flush(&out);
  assert_int_equal(fclose(fp), 0);
  return buf;
}

static char *pretty(const char *json, size_t len, size_t max_items) {
  return run_pretty(tc_json_pretty, json, len, max_items);
}

static char *event_pretty(const char *json, size_t max_items) {
  return run_pretty(tc_event_pretty, json, strlen(json), max_items);
}

static void expect_pretty(const char *json, size_t max_items, const char *want) {
  char *got = pretty(json, strlen(json), max_items);
  assert_string_equal(got, want);
  free(got);
}

/* ---- the manual's examples ---------------------------------------------- */

typedef struct {
  int line;   /* of the opening brace, from 1 */
  char *text; /* "{" ... "}", lines joined with "\n" */
  int other_layout; /* an array on one line, or an empty object on two */
} example;

static example *examples;
static size_t nexamples;

/* An array opened and continued on the same line, outside strings. */
static int has_inline_array(const char *line) {
  int in_str = 0;
  for (const char *p = line; *p && *p != '\n'; p++) {
    if (in_str) {
      if (*p == '\\' && p[1])
        p++;
      else if (*p == '"')
        in_str = 0;
    } else if (*p == '"') {
      in_str = 1;
    } else if (*p == '[' && p[1] != '\n' && p[1] != '\0') {
      return 1;
    }
  }
  return 0;
}

/* "{" ending one line and "}" alone (but for indentation) on the next. */
static int empty_on_two_lines(const char *prev, const char *line) {
  size_t n = strlen(prev);
  if (n < 2 || prev[n - 2] != '{')
    return 0;
  line += strspn(line, " ");
  return strcmp(line, "}\n") == 0 || strcmp(line, "},\n") == 0 || strcmp(line, "}") == 0;
}

static int load_examples(void) {
  FILE *fp = fopen(manual_path, "rb");
  if (!fp)
    return -1;
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  int lineno = 0;
  example cur = {0};
  size_t len = 0, tcap = 0, prev = 0;
  while ((n = getline(&line, &cap, fp)) > 0) {
    lineno++;
    if (!cur.text && strcmp(line, "{\n") != 0)
      continue;
    if (!cur.text) {
      cur.line = lineno;
      tcap = 4096;
      cur.text = malloc(tcap);
      len = 0;
      prev = 0;
    }
    if (len + (size_t)n + 1 > tcap) {
      tcap = (len + (size_t)n + 1) * 2;
      cur.text = realloc(cur.text, tcap);
    }
    if (!cur.text)
      return -1;
    cur.other_layout |= has_inline_array(line);
    if (len)
      cur.other_layout |= empty_on_two_lines(cur.text + prev, line);
    prev = len;
    memcpy(cur.text + len, line, (size_t)n);
    len += (size_t)n;
    cur.text[len] = '\0';
    if (strcmp(line, "}\n") == 0 || strcmp(line, "}") == 0) {
      if (cur.text[len - 1] == '\n')
        cur.text[--len] = '\0';
      examples = realloc(examples, (nexamples + 1) * sizeof *examples);
      if (!examples)
        return -1;
      examples[nexamples++] = cur;
      memset(&cur, 0, sizeof cur);
    }
  }
  free(line);
  free(cur.text);
  fclose(fp);
  return 0;
}

/* Drops whitespace outside strings and turns each "... [N more items]"
 * element back into N elements, so the text holds the whole array the
 * manual cut. */
static char *compact_and_expand(const char *s) {
  static const char mark[] = "\"... [";
  size_t cap = strlen(s) + 1, n = 0;
  char *out = malloc(cap);
  assert_non_null(out);
  int in_str = 0;
  for (const char *p = s; *p; p++) {
    static const char tail[] = " more items]\"";
    char *end = NULL;
    unsigned long more = 0;
    if (!in_str && strncmp(p, mark, sizeof mark - 1) == 0)
      more = strtoul(p + sizeof mark - 1, &end, 10);
    if (end && end > p + sizeof mark - 1 && strncmp(end, tail, sizeof tail - 1) == 0) {
      size_t need = n + 2 * more + 1;
      if (need > cap) {
        cap = need + strlen(p) + 1;
        out = realloc(out, cap);
        assert_non_null(out);
      }
      for (unsigned long k = 0; k < more; k++) {
        if (k)
          out[n++] = ',';
        out[n++] = '0';
      }
      p = end + sizeof tail - 2;
      continue;
    }
    if (n + 3 > cap) {
      cap = cap * 2 + 2;
      out = realloc(out, cap);
      assert_non_null(out);
    }
    if (in_str) {
      out[n++] = *p;
      if (*p == '\\' && p[1])
        out[n++] = *++p;
      else if (*p == '"')
        in_str = 0;
    } else if (*p == '"') {
      in_str = 1;
      out[n++] = *p;
    } else if (*p != ' ' && *p != '\n' && *p != '\r' && *p != '\t') {
      out[n++] = *p;
    }
  }
  out[n] = '\0';
  return out;
}

/* The members of a compact top-level object, sorted by key, as Chrome's
 * JSON export orders them. */
typedef struct {
  const char *p;
  size_t n;
} span;

static int span_cmp(const void *a, const void *b) {
  const span *x = a, *y = b;
  int r = strncmp(x->p, y->p, x->n < y->n ? x->n : y->n);
  return r ? r : (x->n > y->n) - (x->n < y->n);
}

static char *sort_members(const char *compact) {
  size_t len = strlen(compact), n = 0;
  span m[64];
  const char *start = compact + 1;
  int depth = 0, in_str = 0;
  for (const char *p = compact + 1; p < compact + len - 1; p++) {
    if (in_str) {
      if (*p == '\\')
        p++;
      else if (*p == '"')
        in_str = 0;
    } else if (*p == '"') {
      in_str = 1;
    } else if (*p == '{' || *p == '[') {
      depth++;
    } else if (*p == '}' || *p == ']') {
      depth--;
    } else if (*p == ',' && depth == 0) {
      assert_true(n < 64);
      m[n++] = (span){start, (size_t)(p - start)};
      start = p + 1;
    }
  }
  assert_true(n < 64);
  m[n++] = (span){start, (size_t)(compact + len - 1 - start)};
  qsort(m, n, sizeof *m, span_cmp);
  char *out = malloc(len + 1);
  assert_non_null(out);
  size_t o = 0;
  out[o++] = '{';
  for (size_t i = 0; i < n; i++) {
    if (i)
      out[o++] = ',';
    memcpy(out + o, m[i].p, m[i].n);
    o += m[i].n;
  }
  out[o++] = '}';
  out[o] = '\0';
  return out;
}

/* The manual's text with each empty object on one line ("{" ending a line
 * and "}" alone on the next become "{}"). */
static char *one_line_empty_objects(const char *text) {
  char *out = strdup(text);
  assert_non_null(out);
  char *w = out;
  for (const char *p = text; *p;) {
    if (p[0] == '{' && p[1] == '\n') {
      const char *q = p + 2 + strspn(p + 2, " ");
      if (*q == '}') {
        *w++ = '{';
        *w++ = '}';
        p = q + 1;
        continue;
      }
    }
    *w++ = *p++;
  }
  *w = '\0';
  return out;
}

static void report_first_difference(const example *ex, const char *want, const char *got) {
  const char *a = want, *b = got;
  int line = ex->line;
  while (*a && *a == *b) {
    line += *a == '\n';
    a++;
    b++;
  }
  print_message("manual line %d: manual has '%.60s', tc_event_pretty wrote '%.60s'\n", line, a, b);
}

/* Checks the examples with (OTHER = 1) or without the layouts above;
 * returns how many did not come back as printed. */
static int check_examples(int other, int *checked) {
  int bad = 0;
  *checked = 0;
  for (size_t i = 0; i < nexamples; i++) {
    const example *ex = &examples[i];
    if (ex->other_layout != other)
      continue;
    (*checked)++;
    char *compact = compact_and_expand(ex->text);
    char *sorted = sort_members(compact);
    char *got = event_pretty(sorted, MANUAL_ITEMS);
    char *want = one_line_empty_objects(ex->text);
    if (strcmp(got, want) != 0) {
      bad++;
      report_first_difference(ex, want, got);
    }
    free(want);
    free(got);
    free(sorted);
    free(compact);
  }
  return bad;
}

static void test_manual_examples(void **state) {
  (void)state;
  int checked;
  int bad = check_examples(0, &checked);
  print_message("%d manual examples in the common layout, %d differ\n", checked, bad);
  assert_true(checked > 0);
  assert_int_equal(bad, 0);
}

/* The manual prints an array of scalars on one line, ["a", "b", ...], cut
 * after eight elements; an empty object comes out as {} (see above). */
static void test_manual_other_layouts(void **state) {
  (void)state;
  int checked;
  int bad = check_examples(1, &checked);
  print_message("%d manual examples with one-line arrays or two-line empty objects, %d differ\n",
                checked, bad);
  assert_true(checked > 0);
  assert_int_equal(bad, 0);
}

/* ---- small cases -------------------------------------------------------- */

static void test_layout(void **state) {
  (void)state;
  expect_pretty("{\"a\":1,\"b\":{\"c\":[{\"d\":2.50},{\"e\":null}]},\"f\":\"x\",\"g\":true}", 10,
                "{\n"
                "  \"a\": 1,\n"
                "  \"b\": {\n"
                "    \"c\": [\n"
                "      {\n"
                "        \"d\": 2.50\n"
                "      },\n"
                "      {\n"
                "        \"e\": null\n"
                "      }\n"
                "    ]\n"
                "  },\n"
                "  \"f\": \"x\",\n"
                "  \"g\": true\n"
                "}");
  /* Existing whitespace of any kind is replaced, not added to. */
  expect_pretty(" {\t\"a\" :\r\n 1 ,\n\n \"b\":{ \"c\" : 2 } } ", 10,
                "{\n  \"a\": 1,\n  \"b\": {\n    \"c\": 2\n  }\n}");
}

/* Empty arrays and objects stay on one line. */
static void test_empty_containers(void **state) {
  (void)state;
  expect_pretty("[]", 3, "[]");
  expect_pretty("[\n]", 3, "[]");
  expect_pretty("{\"a\":[ ],\"b\":[[]]}", 3, "{\n  \"a\": [],\n  \"b\": [\n    []\n  ]\n}");
  expect_pretty("{\"args\":{ }}", 3, "{\n  \"args\": {}\n}");
}

/* An event's keys in the manual's order, unknown keys in their own order
 * before args; what is not an object of members is left to tc_json_pretty. */
static void test_event_key_order(void **state) {
  (void)state;
  char *got = event_pretty("{\"args\":{},\"tid\":2,\"zz\":0,\"ph\":\"X\",\"aa\":1,\"name\":\"n\","
                           "\"cat\":\"c\",\"pid\":1,\"ts\":5,\"dur\":3}",
                           3);
  assert_string_equal(got, "{\n  \"name\": \"n\",\n  \"cat\": \"c\",\n  \"ph\": \"X\",\n  \"ts\": 5,\n"
                           "  \"dur\": 3,\n  \"pid\": 1,\n  \"tid\": 2,\n  \"zz\": 0,\n  \"aa\": 1,\n"
                           "  \"args\": {}\n}");
  free(got);
  static const char *const other[] = {"[1,2]", "{}", "{\"a\":1", "{\"a\":1} x", "\"s\""};
  for (size_t i = 0; i < sizeof other / sizeof *other; i++) {
    char *a = event_pretty(other[i], 3), *b = pretty(other[i], strlen(other[i]), 3);
    assert_string_equal(a, b);
    free(a);
    free(b);
  }
}

/* Elided elements are skipped whole, even when their strings hold
 * brackets, quotes and commas; objects are never cut. */
static void test_elision(void **state) {
  (void)state;
  expect_pretty("[{\"a\":1},{\"s\":\"]}\\\"[{,\"},{\"n\":[[{\"m\":0}]]},{\"t\":\"x,y\"},{\"u\":0}]",
                1, "[\n  {\n    \"a\": 1\n  },\n  \"... [4 more items]\"\n]");
  expect_pretty("[{\"i\":0},{\"i\":1}]", 2,
                "[\n  {\n    \"i\": 0\n  },\n  {\n    \"i\": 1\n  }\n]");
  expect_pretty("[{\"i\":0},{\"i\":1},{\"i\":2}]", 2,
                "[\n  {\n    \"i\": 0\n  },\n  {\n    \"i\": 1\n  },\n  \"... [1 more items]\"\n]");
  expect_pretty("{\"a\":1,\"b\":2,\"c\":3}", 1, "{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3\n}");
  /* Nested arrays are cut each at their own level. */
  expect_pretty("{\"x\":[{\"y\":[{\"i\":0},{\"i\":1},{\"i\":2}]},{\"i\":3}]}", 1,
                "{\n"
                "  \"x\": [\n"
                "    {\n"
                "      \"y\": [\n"
                "        {\n"
                "          \"i\": 0\n"
                "        },\n"
                "        \"... [2 more items]\"\n"
                "      ]\n"
                "    },\n"
                "    \"... [1 more items]\"\n"
                "  ]\n"
                "}");
}

static void test_strings_verbatim(void **state) {
  (void)state;
  expect_pretty("{\"k\\\"ey\":\"v\\\\n\\u00e9 {[,:]}\",\"u\":\"\xc3\xa9\"}", 3,
                "{\n  \"k\\\"ey\": \"v\\\\n\\u00e9 {[,:]}\",\n  \"u\": \"\xc3\xa9\"\n}");
  /* A quote after an even run of backslashes ends the string; after an odd
   * run it is part of it. */
  expect_pretty("{\"a\\\\\":\"b\\\\\\\"c\\\\\\\\\"}", 3,
                "{\n  \"a\\\\\": \"b\\\\\\\"c\\\\\\\\\"\n}");
}

static void expect_as_is(const char *bad) {
  char *got = pretty(bad, strlen(bad), 3);
  if (strcmp(got, bad) != 0)
    fail_msg("input '%s' came out as '%s'", bad, got);
  free(got);
}

static void test_invalid_as_is(void **state) {
  (void)state;
  static const char *const bad[] = {
      "",           "[{}",         "{\"a\":1",  "{\"a\" 1}",      "{\"a\":1,}", "[1 2]",
      "\"abc",      "{\"a\":\"x}", "{a:1}",     "[{\"a\":1},{\"b\"]", "{\"a\":[1,2}",
      "{\"a\":\"\\", "[\"\\\"]",
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    expect_as_is(bad[i]);
}

/* Not JSON either: an empty value, an unclosed container, bytes after the
 * value. Each must come out exactly as it went in. */
static void test_invalid_as_is_more(void **state) {
  (void)state;
  static const char *const bad[] = {"{\"a\":}", "[1,]", "[,]", "{} x", "{}}", "}", "]", "[", "{ "};
  int wrong = 0;
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char *got = pretty(bad[i], strlen(bad[i]), 3);
    if (strcmp(got, bad[i]) != 0) {
      print_message("'%s' came out as '%s'\n", bad[i], got);
      wrong++;
    }
    free(got);
  }
  assert_int_equal(wrong, 0);
}

static int free_examples(void **state) {
  (void)state;
  for (size_t i = 0; i < nexamples; i++)
    free(examples[i].text);
  free(examples);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s MANUAL_TXT\n", argv[0]);
    return 2;
  }
  manual_path = argv[1];
  if (load_examples() != 0) {
    fprintf(stderr, "cannot read %s\n", manual_path);
    return 2;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_manual_examples),
      cmocka_unit_test(test_manual_other_layouts),
      cmocka_unit_test(test_layout),
      cmocka_unit_test(test_empty_containers),
      cmocka_unit_test(test_event_key_order),
      cmocka_unit_test(test_elision),
      cmocka_unit_test(test_strings_verbatim),
      cmocka_unit_test(test_invalid_as_is),
      cmocka_unit_test(test_invalid_as_is_more),
  };
  return cmocka_run_group_tests_name("pretty", tests, NULL, free_examples);
}
