/* The usage and duration words. Usage must give back the label of every
 * manual entry that states N records and S sites: they are read at test
 * time from tests/oracle/manual_entries.tsv (argv[1]), which
 * tests/oracle/manual_usage.py extracts from the manual. The thresholds are
 * then pinned at their exact edges. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manual_tsv.h"
#include "census/tc_labels.h"

static const char *tsv_path;

static void test_every_manual_entry(void **state) {
  (void)state;
  manual_tsv t;
  manual_tsv_open(&t, tsv_path);
  int c_name = manual_tsv_col(&t, "name"), c_n = manual_tsv_col(&t, "records"),
      c_s = manual_tsv_col(&t, "sites_total"), c_usage = manual_tsv_col(&t, "usage");
  int with_ns = 0, checked = 0, unlabelled = 0;
  while (manual_tsv_next(&t)) {
    char **f = t.f;
    if (!*f[c_n] || !*f[c_s])
      continue;
    with_ns++;
    if (!*f[c_usage]) {
      /* The manual states N and S but prints no usage word here. */
      unlabelled++;
      print_message("line %d (%s): N and S but no usage label in the manual\n", t.lineno,
                    *f[c_name] ? f[c_name] : "no name");
      continue;
    }
    uint64_t records = manual_tsv_count(&t, c_n), sites = manual_tsv_count(&t, c_s);
    const char *got = tc_usage_label(records, sites);
    if (strcmp(got, f[c_usage]) != 0)
      fail_msg("line %d (%s): N=%llu S=%llu: manual says '%s', tc_usage_label says '%s'", t.lineno,
               f[c_name], (unsigned long long)records, (unsigned long long)sites, f[c_usage], got);
    checked++;
  }
  manual_tsv_close(&t);
  print_message("%d manual entries state N and S; %d labels reproduced, %d without a label\n",
                with_ns, checked, unlabelled);
  assert_true(checked > 0);
  assert_int_equal(checked + unlabelled, with_ns);
}

/* N/S exactly at each threshold takes the upper word, one record below it
 * the lower one. */
static void test_usage_edges(void **state) {
  (void)state;
  static const struct {
    uint64_t per_site_num, per_site_den; /* the threshold as a fraction */
    const char *below, *at;
  } edges[] = {
      {2, 1, "rare", "low"},
      {5, 1, "low", "moderate"},
      {300, 1, "moderate", "high"},
      {3000, 1, "high", "very high"},
  };
  static const uint64_t site_counts[] = {1, 3, 7, 300, 1000003};
  for (size_t e = 0; e < sizeof edges / sizeof *edges; e++)
    for (size_t k = 0; k < sizeof site_counts / sizeof *site_counts; k++) {
      uint64_t s = site_counts[k];
      uint64_t at = edges[e].per_site_num * s / edges[e].per_site_den;
      assert_string_equal(tc_usage_label(at, s), edges[e].at);
      assert_string_equal(tc_usage_label(at - 1, s), edges[e].below);
    }
  assert_string_equal(tc_usage_label(0, 300), "rare");
  assert_string_equal(tc_usage_label(UINT64_MAX, 1), "very high");
  /* With no surveyed site there is no rate. */
  assert_string_equal(tc_usage_label(0, 0), "n/a");
  assert_string_equal(tc_usage_label(12345, 0), "n/a");
}

/* The class of a single duration V. */
static const char *class_of_one(double v) {
  uint64_t below[TC_DUR_NLIMITS];
  for (int k = 0; k < TC_DUR_NLIMITS; k++)
    below[k] = v < TC_DUR_LIMITS[k];
  return tc_duration_class(1, below);
}

static void test_duration_edges(void **state) {
  (void)state;
  static const struct {
    double edge;
    const char *below, *at;
  } edges[] = {{10, "very short", "short"}, {100, "short", "typical"}, {1000, "typical", "long"}};
  for (size_t e = 0; e < sizeof edges / sizeof *edges; e++) {
    assert_string_equal(class_of_one(edges[e].edge), edges[e].at);
    assert_string_equal(class_of_one(nextafter(edges[e].edge, 0)), edges[e].below);
  }
  assert_string_equal(class_of_one(0), "very short");
  assert_string_equal(class_of_one(1e12), "long");
  assert_string_equal(tc_duration_class(0, (uint64_t[]){0, 0, 0}), "n/a");
}

/* The median is the value of rank ceil(n/2): {50, 100, 200} is typical and
 * {500, 1000, 2000} long, exactly at the limits the sketch would blur. */
static void test_duration_median_rank(void **state) {
  (void)state;
  assert_string_equal(tc_duration_class(3, (uint64_t[]){0, 1, 3}), "typical");
  assert_string_equal(tc_duration_class(3, (uint64_t[]){0, 0, 1}), "long");
  /* n = 4: rank 2; two values below 10 make it very short. */
  assert_string_equal(tc_duration_class(4, (uint64_t[]){2, 2, 4}), "very short");
  assert_string_equal(tc_duration_class(4, (uint64_t[]){1, 2, 4}), "short");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s MANUAL_ENTRIES_TSV\n", argv[0]);
    return 2;
  }
  tsv_path = argv[1];
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_manual_entry),
      cmocka_unit_test(test_usage_edges),
      cmocka_unit_test(test_duration_edges),
      cmocka_unit_test(test_duration_median_rank),
  };
  return cmocka_run_group_tests_name("labels", tests, NULL, NULL);
}
