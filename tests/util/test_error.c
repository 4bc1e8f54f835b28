/* Error codes: every code has a message and a stable name, the names are
 * the enum's own in lower case, distinct, and never empty; values outside
 * the enum are named "unknown". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "util/tc_error.h"

static void names_are_the_enum_in_lower_case(void **state) {
  (void)state;
  /* spelt out: these are the contract run.json readers match on */
  assert_string_equal(tc_err_name(TC_OK), "ok");
  assert_string_equal(tc_err_name(TC_E_NOMEM), "nomem");
  assert_string_equal(tc_err_name(TC_E_NOT_TRACE), "not_trace");
  assert_string_equal(tc_err_name(TC_E_EVENT_TOO_BIG), "event_too_big");
  assert_string_equal(tc_err_name(TC_E_TRUNCATED_JSON), "truncated_json");
  assert_string_equal(tc_err_name(TC_E_TRAILING_DATA), "trailing_data");
  assert_string_equal(tc_err_name(TC_E_NO_SITES), "no_sites");
}

static void every_code_has_a_distinct_snake_case_name(void **state) {
  (void)state;
  for (int a = 0; a < TC_E_COUNT_; a++) {
    const char *n = tc_err_name((tc_err)a);
    assert_true(strlen(n) > 0);
    assert_true(n[0] >= 'a' && n[0] <= 'z');
    for (const char *p = n; *p; p++)
      assert_true((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_');
    assert_string_not_equal(tc_strerror((tc_err)a), "unknown error");
    for (int b = 0; b < a; b++)
      assert_string_not_equal(n, tc_err_name((tc_err)b));
  }
}

static void outside_the_enum_is_unknown(void **state) {
  (void)state;
  assert_string_equal(tc_err_name(TC_E_COUNT_), "unknown");
  assert_string_equal(tc_err_name((tc_err)-1), "unknown");
  assert_string_equal(tc_strerror(TC_E_COUNT_), "unknown error");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(names_are_the_enum_in_lower_case),
      cmocka_unit_test(every_code_has_a_distinct_snake_case_name),
      cmocka_unit_test(outside_the_enum_is_unknown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
