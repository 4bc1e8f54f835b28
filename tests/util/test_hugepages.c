/* The decision to ask glibc for huge pages and the tunables it builds:
 * only where the kernel gives them on request, never over a user's own
 * glibc.malloc.hugetlb, other tunables kept, and the setting read back as
 * glibc reads it (name=value pairs between colons, the last one wins). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "util/tc_hugepages.h"

static void test_modes(void **state) {
  (void)state;
  assert_int_equal(tc_thp_mode_parse("always [madvise] never\n"), TC_THP_MADVISE);
  assert_int_equal(tc_thp_mode_parse("[always] madvise never\n"), TC_THP_ALWAYS);
  assert_int_equal(tc_thp_mode_parse("always madvise [never]\n"), TC_THP_NEVER);
  assert_int_equal(tc_thp_mode_parse("always madvise never\n"), TC_THP_UNKNOWN);
  assert_int_equal(tc_thp_mode_parse(NULL), TC_THP_UNKNOWN);
  assert_string_equal(tc_thp_mode_name(TC_THP_MADVISE), "madvise");
  assert_string_equal(tc_thp_mode_name(TC_THP_UNKNOWN), "unknown");
}

static void test_asks_only_on_request(void **state) {
  (void)state;
  char buf[128];
  assert_int_equal(tc_hugetlb_tunables(TC_THP_MADVISE, NULL, buf, sizeof buf), 1);
  assert_string_equal(buf, "glibc.malloc.hugetlb=1");
  assert_int_equal(tc_hugetlb_tunables(TC_THP_MADVISE, "", buf, sizeof buf), 1);
  assert_string_equal(buf, "glibc.malloc.hugetlb=1");
  assert_int_equal(tc_hugetlb_tunables(TC_THP_ALWAYS, NULL, buf, sizeof buf), 0);
  assert_int_equal(tc_hugetlb_tunables(TC_THP_NEVER, NULL, buf, sizeof buf), 0);
  assert_int_equal(tc_hugetlb_tunables(TC_THP_UNKNOWN, NULL, buf, sizeof buf), 0);
}

static void test_keeps_other_tunables_and_a_users_own(void **state) {
  (void)state;
  char buf[128];
  assert_int_equal(tc_hugetlb_tunables(TC_THP_MADVISE, "glibc.malloc.tcache_count=7", buf, sizeof buf), 1);
  assert_string_equal(buf, "glibc.malloc.tcache_count=7:glibc.malloc.hugetlb=1");
  /* The restarted process sees its own request: no second restart. */
  assert_int_equal(tc_hugetlb_tunables(TC_THP_MADVISE, buf, buf, sizeof buf), 0);
  assert_int_equal(tc_hugetlb_tunables(TC_THP_MADVISE, "glibc.malloc.hugetlb=0", buf, sizeof buf), 0);
  /* Too small for the request: nothing is asked rather than a cut value. */
  char tiny[22];
  assert_int_equal(tc_hugetlb_tunables(TC_THP_MADVISE, NULL, tiny, sizeof tiny), 0);
  char fits[23];
  assert_int_equal(tc_hugetlb_tunables(TC_THP_MADVISE, NULL, fits, sizeof fits), 1);
}

static void test_setting_read_back(void **state) {
  (void)state;
  char v[16];
  tc_hugetlb_setting(NULL, v, sizeof v);
  assert_string_equal(v, "");
  tc_hugetlb_setting("glibc.malloc.tcache_count=7", v, sizeof v);
  assert_string_equal(v, "");
  tc_hugetlb_setting("glibc.malloc.hugetlb=1", v, sizeof v);
  assert_string_equal(v, "1");
  tc_hugetlb_setting("glibc.malloc.hugetlb=0:glibc.malloc.tcache_count=7:glibc.malloc.hugetlb=2", v,
                     sizeof v);
  assert_string_equal(v, "2");
  tc_hugetlb_setting("xglibc.malloc.hugetlb=1:glibc.malloc.hugetlb=", v, sizeof v);
  assert_string_equal(v, "");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_modes),
      cmocka_unit_test(test_asks_only_on_request),
      cmocka_unit_test(test_keeps_other_tunables_and_a_users_own),
      cmocka_unit_test(test_setting_read_back),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
