/* tc_trim_due: the first look records the working set and never trims; a
 * footprint that holds within a sixteenth of it never trims; one that grows
 * past that trims at every look while it stays past; an unknown size trims
 * at every look, as before the pacer. And the resident size it is fed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include "util/tc_sysinfo.h"
#include "util/tc_trim.h"

static void test_first_look_records(void **state) {
  (void)state;
  tc_trim_pacer p = {0};
  assert_int_equal(tc_trim_due(&p, 56000), 0);
  assert_int_equal(p.first_kib, 56000);
}

static void test_steady_footprint_never_trims(void **state) {
  (void)state;
  tc_trim_pacer p = {0};
  /* 24 sites of real traces at -T 1 looked at 54.9, 56.0, 55.9, 55.9 MiB;
   * then the edge, a sixteenth above the first look, and a fall. */
  tc_trim_due(&p, 56218);
  const uint64_t looks[] = {57344, 57242, 57242, 56218 + 56218 / 16, 1};
  for (size_t i = 0; i < sizeof looks / sizeof *looks; i++)
    assert_int_equal(tc_trim_due(&p, looks[i]), 0);
  assert_int_equal(p.first_kib, 56218);
}

static void test_growth_trims_while_it_lasts(void **state) {
  (void)state;
  tc_trim_pacer p = {0};
  tc_trim_due(&p, 8000);
  assert_int_equal(tc_trim_due(&p, 8500), 0);
  assert_int_equal(tc_trim_due(&p, 8501), 1);
  assert_int_equal(tc_trim_due(&p, 12000), 1);
  assert_int_equal(tc_trim_due(&p, 8200), 0); /* trimmed back: the reference stays */
  assert_int_equal(tc_trim_due(&p, 8501), 1);
  assert_int_equal(p.first_kib, 8000);
}

static void test_unknown_size_trims_every_look(void **state) {
  (void)state;
  tc_trim_pacer p = {0};
  assert_int_equal(tc_trim_due(&p, 0), 1);
  assert_int_equal(tc_trim_due(&p, 0), 1);
  assert_int_equal(p.first_kib, 0);
  assert_int_equal(tc_trim_due(&p, 500), 0); /* the first known size is the first look */
  assert_int_equal(p.first_kib, 500);
}

/* tc_rss_kib against the kernel's own VmRSS line, around pages this test
 * touches: the two readings must agree and follow the touch. Agree within
 * 1 MiB: the kernel folds each thread's page counts into the process's
 * only every 64 faults, so two readings a moment apart may differ. */
static uint64_t vmrss_kib(void) {
  FILE *fp = fopen("/proc/self/status", "r");
  assert_non_null(fp);
  char line[256];
  unsigned long long kib = 0;
  while (fgets(line, sizeof line, fp))
    if (sscanf(line, "VmRSS: %llu kB", &kib) == 1)
      break;
  fclose(fp);
  return kib;
}

static void test_rss_reads_the_resident_size(void **state) {
  (void)state;
  uint64_t before = tc_rss_kib();
  assert_true(before > 0);
  uint64_t kernel = vmrss_kib();
  assert_true(before <= kernel + 1024 && kernel <= before + 1024);
  enum { MIB = 1 << 20 };
  volatile char *block = malloc(32 * MIB);
  assert_non_null(block);
  for (size_t i = 0; i < 32 * MIB; i += 4096)
    block[i] = 1;
  uint64_t after = tc_rss_kib();
  assert_true(after >= before + 31 * 1024);
  kernel = vmrss_kib();
  assert_true(after <= kernel + 1024 && kernel <= after + 1024);
  free((void *)block);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_first_look_records),
      cmocka_unit_test(test_steady_footprint_never_trims),
      cmocka_unit_test(test_growth_trims_while_it_lasts),
      cmocka_unit_test(test_unknown_size_trims_every_look),
      cmocka_unit_test(test_rss_reads_the_resident_size),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
