/* The census writers' shared text: thousands separators, the phase
 * sentence and the category split. The sentence must reproduce the one the
 * manual prints for every entry that states N, sites and S with a single
 * kind of record (read at test time from tests/oracle/manual_entries.tsv,
 * argv[1]), and the manual's mixed form for
 * HTMLDocumentParser::PumpTokenizerIfPossible. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manual_tsv.h"
#include "report/tc_census_report.h"

static const char *tsv_path;

/* ---- tc_fmt_thousands --------------------------------------------------- */

static void test_thousands(void **state) {
  (void)state;
  static const struct {
    uint64_t v;
    const char *want;
  } cases[] = {
      {0, "0"},
      {7, "7"},
      {999, "999"},
      {1000, "1,000"},
      {145565, "145,565"},
      {999999, "999,999"},
      {1015746, "1,015,746"},
      {UINT64_MAX, "18,446,744,073,709,551,615"},
  };
  char buf[32];
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tc_fmt_thousands(cases[i].v, buf, sizeof buf);
    assert_string_equal(buf, cases[i].want);
  }
}

/* A short buffer is never overrun and always ends with a NUL. */
static void test_thousands_short_buffer(void **state) {
  (void)state;
  char buf[40];
  for (size_t cap = 1; cap <= 30; cap++) {
    memset(buf, '#', sizeof buf);
    tc_fmt_thousands(UINT64_MAX, buf, cap);
    assert_true(strlen(buf) < cap);
    for (size_t i = cap; i < sizeof buf; i++)
      assert_int_equal(buf[i], '#');
  }
}

/* ---- tc_phase_sentence -------------------------------------------------- */

static void set_ph(tc_res_event *e, char letter, uint64_t n) {
  e->ph[tc_phase_index((tc_str){&letter, 1})] = n;
}

static void set_ph_args(tc_res_event *e, char letter, uint64_t n) {
  e->ph_args[tc_phase_index((tc_str){&letter, 1})] = n;
}

static void test_sentence_mixed(void **state) {
  (void)state;
  tc_res_event e;
  memset(&e, 0, sizeof e);
  e.records = 145565;
  e.sites = 182;
  set_ph(&e, 'X', 59689);
  set_ph(&e, 's', 42935);
  set_ph(&e, 'f', 42935);
  e.pairs[TC_PAIR_FLOW] = 42935;
  char buf[512];
  tc_phase_sentence(&e, 300, buf, sizeof buf);
  assert_string_equal(buf, "Observed 145,565 times on 182 of 300 sites: 59,689 complete slices "
                           "and 42,935 flow pairs.");

  /* The manual's PumpTokenizerIfPossible: the slices carry args.parser,
   * the flow records nothing, and the sentence says so for that group. */
  set_ph_args(&e, 'X', 59689);
  tc_phase_sentence(&e, 300, buf, sizeof buf);
  assert_string_equal(buf, "Observed 145,565 times on 182 of 300 sites: 59,689 complete slices "
                           "and 42,935 flow pairs, which carry no arguments.");
  /* One flow record with an argument: the group carries some. */
  set_ph_args(&e, 'f', 1);
  tc_phase_sentence(&e, 300, buf, sizeof buf);
  assert_string_equal(buf, "Observed 145,565 times on 182 of 300 sites: 59,689 complete slices "
                           "and 42,935 flow pairs.");
  /* Only the flows carry any: the clause moves to the slices. */
  set_ph_args(&e, 'X', 0);
  tc_phase_sentence(&e, 300, buf, sizeof buf);
  assert_string_equal(buf, "Observed 145,565 times on 182 of 300 sites: 59,689 complete slices, "
                           "which carry no arguments, and 42,935 flow pairs.");

  /* Three kinds: commas, then "and" before the last. */
  memset(&e, 0, sizeof e);
  e.records = 7;
  e.sites = 2;
  set_ph(&e, 'X', 3);
  e.pairs[TC_PAIR_BEGIN_END] = 1;
  set_ph(&e, 'i', 1);
  set_ph(&e, 'I', 1);
  tc_phase_sentence(&e, 5, buf, sizeof buf);
  assert_string_equal(buf, "Observed 7 times on 2 of 5 sites: 3 complete slices, 1 begin/end pair "
                           "and 2 instants.");

  /* Singular forms everywhere. */
  memset(&e, 0, sizeof e);
  e.records = 1;
  e.sites = 1;
  e.pairs[TC_PAIR_ASYNC_UNPAIRED] = 1;
  set_ph(&e, 'C', 1);
  tc_phase_sentence(&e, 1, buf, sizeof buf);
  assert_string_equal(buf, "Observed 1 time on 1 of 1 site: 1 unpaired async record and 1 counter.");
  set_ph_args(&e, 'C', 1);
  tc_phase_sentence(&e, 1, buf, sizeof buf);
  assert_string_equal(buf, "Observed 1 time on 1 of 1 site: 1 unpaired async record, which "
                           "carries no arguments, and 1 counter.");
}

/* One kind of record alone gets no breakdown, whichever kind it is. */
static void test_sentence_single_kind(void **state) {
  (void)state;
  static const char letters[] = "XtnTpIiRCMPNOD";
  char buf[512];
  for (const char *l = letters; *l; l++) {
    tc_res_event e;
    memset(&e, 0, sizeof e);
    e.records = 3119;
    e.sites = 182;
    set_ph(&e, *l, 3119);
    tc_phase_sentence(&e, 300, buf, sizeof buf);
    assert_string_equal(buf, "Observed 3,119 times on 182 of 300 sites.");
  }
  for (int k = 0; k < TC_PAIR_COUNT; k++) {
    tc_res_event e;
    memset(&e, 0, sizeof e);
    e.records = 20;
    e.sites = 3;
    e.pairs[k] = 10;
    tc_phase_sentence(&e, 4, buf, sizeof buf);
    assert_string_equal(buf, "Observed 20 times on 3 of 4 sites.");
  }
}

static void test_sentence_manual_entries(void **state) {
  (void)state;
  manual_tsv t;
  manual_tsv_open(&t, tsv_path);
  int c_n = manual_tsv_col(&t, "records"), c_m = manual_tsv_col(&t, "sites"),
      c_s = manual_tsv_col(&t, "sites_total"), c_sent = manual_tsv_col(&t, "phase_sentence");
  int checked = 0, mixed = 0;
  while (manual_tsv_next(&t)) {
    char **f = t.f;
    if (!*f[c_n] || !*f[c_m] || !*f[c_s] || !*f[c_sent])
      continue;
    if (strchr(f[c_sent], ':')) {
      mixed++; /* a breakdown: needs the phase counts, which the TSV lacks */
      continue;
    }
    tc_res_event e;
    memset(&e, 0, sizeof e);
    e.records = manual_tsv_count(&t, c_n);
    e.sites = manual_tsv_count(&t, c_m);
    set_ph(&e, 'X', e.records);
    char buf[512];
    tc_phase_sentence(&e, (uint32_t)manual_tsv_count(&t, c_s), buf, sizeof buf);
    if (strcmp(buf, f[c_sent]) != 0)
      fail_msg("line %d: manual '%s', tc_phase_sentence '%s'", t.lineno, f[c_sent], buf);
    checked++;
  }
  manual_tsv_close(&t);
  print_message("%d manual sentences reproduced (%d with a breakdown tested separately)\n", checked,
                mixed);
  assert_true(checked > 0);
}

/* Cut anywhere, the sentence is a NUL-terminated prefix of the whole. */
static void test_sentence_short_buffer(void **state) {
  (void)state;
  tc_res_event e;
  memset(&e, 0, sizeof e);
  e.records = 145565;
  e.sites = 182;
  set_ph(&e, 'X', 59689);
  e.pairs[TC_PAIR_FLOW] = 42935;
  e.pairs[TC_PAIR_FLOW_UNPAIRED] = 6;
  char full[512], buf[600];
  tc_phase_sentence(&e, 300, full, sizeof full);
  size_t len = strlen(full);
  for (size_t cap = 1; cap <= len + 2; cap++) {
    memset(buf, '#', sizeof buf);
    tc_phase_sentence(&e, 300, buf, cap);
    size_t got = strlen(buf);
    assert_true(got < cap);
    assert_memory_equal(buf, full, got);
    for (size_t i = cap; i < sizeof buf; i++)
      assert_int_equal(buf[i], '#');
  }
}

/* ---- tc_split_categories ------------------------------------------------ */

static tc_res_cat cat(const char *text, uint64_t records) {
  tc_res_cat c = {tc_str_c(text), records};
  return c;
}

static void test_split_categories(void **state) {
  (void)state;
  tc_res_cat cats[] = {cat("blink,devtools.timeline", 5), cat("devtools.timeline", 3),
                       cat(" v8 , blink ", 2), cat("blink", 1), cat("toplevel", 8)};
  tc_res_event e;
  memset(&e, 0, sizeof e);
  e.cats = cats;
  e.ncats = sizeof cats / sizeof *cats;
  tc_res_cat *out;
  size_t n = tc_split_categories(&e, &out);
  /* blink 5+2+1, devtools.timeline 5+3, toplevel 8, v8 2; ties by text. */
  static const struct {
    const char *cat;
    uint64_t records;
  } want[] = {{"blink", 8}, {"devtools.timeline", 8}, {"toplevel", 8}, {"v8", 2}};
  assert_int_equal(n, 4);
  for (size_t i = 0; i < n; i++) {
    if (!tc_str_eqc(out[i].cat, want[i].cat))
      fail_msg("entry %zu: '%.*s', want '%s'", i, (int)out[i].cat.len, out[i].cat.ptr, want[i].cat);
    assert_int_equal(out[i].records, want[i].records);
  }
  /* The entries point into the event's own strings. */
  assert_true(out[3].cat.ptr > cats[2].cat.ptr && out[3].cat.ptr < cats[2].cat.ptr + 12);
  free(out);
}

/* "a,a" names one category, and an empty cat or field names none. */
static void test_split_categories_once_per_record(void **state) {
  (void)state;
  tc_res_cat cats[] = {cat("a,a", 3), cat("", 2), cat("b,,a", 1)};
  tc_res_event e;
  memset(&e, 0, sizeof e);
  e.cats = cats;
  e.ncats = 3;
  tc_res_cat *out;
  size_t n = tc_split_categories(&e, &out);
  assert_int_equal(n, 2);
  assert_true(tc_str_eqc(out[0].cat, "a") && out[0].records == 4);
  assert_true(tc_str_eqc(out[1].cat, "b") && out[1].records == 1);
  free(out);
}

/* Many categories: all are kept, the largest first, whatever order the cat
 * strings come in. */
static void test_split_categories_keeps_all_largest_first(void **state) {
  (void)state;
  tc_res_cat cats[] = {cat("x", 10), cat("a,b", 6), cat("b,c", 6)};
  tc_res_event e;
  memset(&e, 0, sizeof e);
  e.cats = cats;
  e.ncats = 3;
  tc_res_cat *out;
  size_t n = tc_split_categories(&e, &out);
  /* b 12, x 10, a 6, c 6 */
  assert_int_equal(n, 4);
  assert_true(tc_str_eqc(out[0].cat, "b") && out[0].records == 12);
  assert_true(tc_str_eqc(out[1].cat, "x") && out[1].records == 10);
  assert_true(tc_str_eqc(out[2].cat, "a") && out[2].records == 6);
  assert_true(tc_str_eqc(out[3].cat, "c") && out[3].records == 6);
  free(out);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s MANUAL_ENTRIES_TSV\n", argv[0]);
    return 2;
  }
  tsv_path = argv[1];
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_thousands),
      cmocka_unit_test(test_thousands_short_buffer),
      cmocka_unit_test(test_sentence_mixed),
      cmocka_unit_test(test_sentence_single_kind),
      cmocka_unit_test(test_sentence_manual_entries),
      cmocka_unit_test(test_sentence_short_buffer),
      cmocka_unit_test(test_split_categories),
      cmocka_unit_test(test_split_categories_keeps_all_largest_first),
      cmocka_unit_test(test_split_categories_once_per_record),
  };
  return cmocka_run_group_tests_name("census_text", tests, NULL, NULL);
}
