/* The census writers (census.csv, census.json, census.md, run.json) on a
 * census result, corpus and run built here by hand, so every cell follows
 * from the numbers below: one event of 6 records on 2 of 4 sites, its
 * categories, phases, pairs and durations; one trace that was no trace. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/tc_census_report.h"
#include "util/tc_json_valid.h"

#define S(lit) {lit, sizeof lit - 1}

static char dir[] = "/tmp/tc-writers-XXXXXX";

static char *read_back(const char *name) {
  char path[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *fp = fopen(path, "rb");
  assert_non_null(fp);
  fseek(fp, 0, SEEK_END);
  long n = ftell(fp);
  rewind(fp);
  char *buf = malloc((size_t)n + 1);
  assert_non_null(buf);
  assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
  buf[n] = '\0';
  fclose(fp);
  unlink(path);
  return buf;
}

/* The event: "a,b" on 4 records and "b" on 2, so b counts 6 and a 4;
 * 4 X and 2 B records, 1 begin/end pair; durations 5, 50, 500, 5000 us
 * (nearest-rank median, rank 2 of 4: 50, a "short" event). */
static tc_res_cat cats[] = {{S("a,b"), 4}, {S("b"), 2}};
static tc_site sites[4] = {{.name = "s1", .ntraces = 1}, {.name = "s2"}, {.name = "s3"},
                           {.name = "s4"}};
static tc_trace traces[1] = {{.path = "crawl/s1/t.json", .site = 0, .size = 12}};

static void write_all(tc_res_event *ev) {
  tc_census_result r = {0};
  r.events = ev;
  r.nevents = 1;
  r.records = 6;
  tc_corpus corpus = {.sites = sites, .nsites = 4, .traces = traces, .ntraces = 1, .bytes = 12};
  tc_trace_status st[1] = {{.fatal = TC_E_NOT_TRACE, .in_bytes = 12, .out_bytes = 12}};
  st[0].shape.not_trace_offset = 3;
  tc_run_totals totals = {.threads = 2, .in_bytes = 12, .out_bytes = 12, .events = 6,
                          .traces_with_errors = 1, .seconds = 0.5, .simd_kernel = "x"};
  tc_trace_rows rows;
  tc_trace_rows_init(&rows);
  assert_int_equal(tc_trace_rows_add(&rows, 0, &st[0], NULL), TC_OK);
  tc_report_ctx ctx = {.corpus = &corpus, .census = &r, .traces = &rows, .totals = &totals,
                       .schema_path = "schema.tsv", .schema_error = "no schema here"};
  assert_int_equal(tc_write_census_csv(&ctx, dir, NULL), TC_OK);
  assert_int_equal(tc_write_census_json(&ctx, dir, NULL), TC_OK);
  assert_int_equal(tc_write_census_md(&ctx, dir, NULL), TC_OK);
  assert_int_equal(tc_write_run_json(&ctx, dir, NULL), TC_OK);
  tc_trace_rows_free(&rows);
}

static void every_writer(void **state) {
  (void)state;
  assert_non_null(mkdtemp(dir));
  tc_res_event ev = {0};
  ev.name = tc_str_c("Paint\"x"); /* a quote, doubled in CSV, escaped in JSON */
  ev.records = 6;
  ev.sites = 2;
  ev.ph[tc_phase_index(tc_str_c("X"))] = 4;
  ev.ph[tc_phase_index(tc_str_c("B"))] = 2;
  ev.pairs[TC_PAIR_BEGIN_END] = 1;
  ev.left[TC_LEFT_BROWSER_UI] = 3; /* records the scope left out, by why */
  ev.left_sites[TC_LEFT_BROWSER_UI] = 1;
  ev.left[TC_LEFT_OTHER_RENDERER] = 1;
  ev.left_sites[TC_LEFT_OTHER_RENDERER] = 1;
  ev.cats = cats;
  ev.ncats = 2;
  tc_sketch_init(&ev.dur);
  const double durs[] = {5, 50, 500, 5000};
  for (int i = 0; i < 4; i++) {
    assert_int_equal(tc_sketch_add(&ev.dur, durs[i]), TC_OK);
    for (int k = 0; k < TC_DUR_NLIMITS; k++)
      ev.dur_below[k] += durs[i] < TC_DUR_LIMITS[k];
  }
  write_all(&ev);

  char *csv = read_back("census.csv");
  char *row = strchr(csv, '\n') + 1;
  const char *head = "\"Paint\"\"x\",6,2,4,rare,1.5,\"b;a\",\"B=2;X=4\",1,0,0,0,0,4,";
  assert_memory_equal(row, head, strlen(head));
  double median, p95;
  char rest[128];
  assert_int_equal(sscanf(row + strlen(head), "%lf,%lf,%127s", &median, &p95, rest), 3);
  assert_true(median >= 50 * 0.995 && median <= 50 * 1.005); /* the sketch's bound */
  assert_true(p95 >= 5000 * 0.995 && p95 <= 5000 * 1.005);
  /* no DevTools view: its three cells empty, never false or 0 (and so the
   * undeclared list, after the categories' list); then the records left
   * out: 4 in all, 3 of Chrome's own UI, 1 of other renderers */
  assert_string_equal(rest, "short,0,,,,0,,\"[\"\"b\"\",\"\"a\"\"]\",,4,3,1");
  free(csv);

  char *json = read_back("census.json");
  assert_true(tc_json_valid(tc_str_c(json)));
  assert_non_null(strstr(json, "\"sites_total\": 4"));
  assert_non_null(strstr(json, "\"sites_with_traces\": 1"));
  assert_non_null(strstr(json, "\"name\": \"Paint\\\"x\""));
  assert_non_null(strstr(json, "\"records_outside_scope\": 4"));
  assert_non_null(strstr(json, "\"browser_ui\": {\n"));
  assert_non_null(strstr(json, "\"declared_never_observed\": null"));
  assert_non_null(strstr(json, "\"error\": \"no schema here\""));
  free(json);

  char *md = read_back("census.md");
  assert_non_null(strstr(md, "Observed 6 times on 2 of 4 sites"));
  free(md);

  char *run = read_back("run.json");
  assert_true(tc_json_valid(tc_str_c(run)));
  assert_non_null(strstr(run, "\"status\": \"failed\""));
  assert_non_null(strstr(run, "\"error_name\": \"not_trace\""));
  assert_non_null(strstr(run, "\"error_json_offset\": 3"));
  assert_non_null(strstr(run, "\"traces_with_errors\": 1"));
  free(run);
  tc_sketch_free(&ev.dur);
  assert_int_equal(rmdir(dir), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_writer),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
