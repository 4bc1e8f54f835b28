/* The DevTools schema file: what each kind of line adds, the queries over
 * it, and the line a bad file is refused at. The file is written here
 * (tests/common/schema_fixture.h), so every answer follows from its lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "census/tc_schema.h"
#include "schema_fixture.h"

static tc_schema *load_text(const char *text, tc_err want, int want_line) {
  char *path = schema_fixture_write(text);
  assert_non_null(path);
  tc_schema *s = NULL;
  int line = -1;
  assert_int_equal(tc_schema_load(path, &s, &line), want);
  assert_int_equal(line, want_line);
  unlink(path);
  free(path);
  return s;
}

static void every_kind_of_line(void **state) {
  (void)state;
  tc_schema *s = load_text(SCHEMA_FIXTURE, TC_OK, 0);
  assert_non_null(s);
  assert_string_equal(tc_schema_generator(s), "trace_engine 0.0.65, typescript 5.9.3");
  /* events, in file order */
  assert_int_equal(tc_schema_nevents(s), 3);
  assert_true(tc_str_eqc(tc_schema_event(s, 0), "Layout"));
  assert_true(tc_str_eqc(tc_schema_event(s, 2), "ParseHTML"));
  assert_true(tc_schema_knows(s, tc_str_c("Paint")));
  assert_false(tc_schema_knows(s, tc_str_c("paint")));
  /* declared paths belong to their event only */
  assert_true(tc_schema_declares(s, tc_str_c("ParseHTML"), tc_str_c("args.beginData.url")));
  assert_false(tc_schema_declares(s, tc_str_c("ParseHTML"), tc_str_c("args.beginData.frame")));
  assert_false(tc_schema_declares(s, tc_str_c("Layout"), tc_str_c("args.beginData.url")));
  /* categories */
  assert_true(tc_schema_records_category(s, tc_str_c("devtools.timeline")));
  assert_false(tc_schema_records_category(s, tc_str_c("blink")));
  tc_str titles[4];
  size_t n = tc_schema_settings_for(
      s, tc_str_c("disabled-by-default-devtools.timeline.invalidationTracking"), titles, 4);
  assert_int_equal(n, 2); /* bytewise sorted */
  assert_true(tc_str_eqc(titles[0], "Enable advanced paint instrumentation (slow)"));
  assert_true(tc_str_eqc(titles[1], "Invalidation tracking"));
  assert_int_equal(tc_schema_settings_for(
                       s, tc_str_c("disabled-by-default-devtools.timeline.invalidationTracking"),
                       titles, 1),
                   1);
  assert_int_equal(tc_schema_settings_for(s, tc_str_c("blink"), titles, 4), 0);
  assert_true(tc_str_eqc(tc_schema_all_categories_setting(s), "Show all events"));
  tc_schema_free(s);
}

static void bad_files_name_their_line(void **state) {
  (void)state;
  /* an unknown kind, a line with too few fields, too many */
  assert_null(load_text("event\tA\nfrobnicate\tx\n", TC_E_BAD_SCHEMA, 2));
  assert_null(load_text("event\tA\n\ndeclared\tA\n", TC_E_BAD_SCHEMA, 3));
  assert_null(load_text("event\tA\tB\n", TC_E_BAD_SCHEMA, 1));
  /* no event at all: refused once the whole file is read, at its last line */
  assert_null(load_text("# nothing\nrecording_category\tx\n", TC_E_BAD_SCHEMA, 2));
  /* a file that cannot be opened */
  tc_schema *s = NULL;
  int line = -1;
  assert_int_equal(tc_schema_load("/nonexistent/schema.tsv", &s, &line), TC_E_BAD_SCHEMA);
  assert_int_equal(line, 0);
  assert_null(s);
}

static void without_an_all_categories_setting(void **state) {
  (void)state;
  tc_schema *s = load_text("event\tA\r\n", TC_OK, 0); /* CRLF line ends too */
  assert_true(tc_schema_knows(s, tc_str_c("A")));
  assert_int_equal(tc_schema_all_categories_setting(s).len, 0);
  assert_string_equal(tc_schema_generator(s), "");
  tc_schema_free(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_kind_of_line),
      cmocka_unit_test(bad_files_name_their_line),
      cmocka_unit_test(without_an_all_categories_setting),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
