/* The metrics writers (metrics.csv, metrics.json, metrics.md) on
 * reductions of records built through the kernels (tests/kernels/kevents.h):
 * n/a as an empty cell with its reason, unreadable traces and sites without
 * a trace listed with their reasons, never measured as 0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kevents.h"
#include "metrics_set.h"
#include "reduce/tc_metrics_reduction.h"
#include "report/tc_report_html.h"
#include "util/tc_error.h"
#include "metrics_rows.h"

/* n/a is an empty cell with its reason beside it, never a 0. */
static void csv_na_cells_are_empty_with_reason(void **state) {
  (void)state;
  tc_metrics_set *s = tc_metrics_set_create();
  assert_int_equal(tc_metrics_set_add(s, trace_with("x", "x.json", -1)), TC_OK);
  tc_metrics_reduction *r;
  assert_int_equal(tc_metrics_reduce(s, &r), TC_OK);
  char *csv = report_of(r, tc_write_metrics_csv);
  assert_non_null(strstr(csv, ",,,,,no_task_events,"));
  assert_null(strstr(csv, ",0,no_task_events"));
  free(csv);
  tc_metrics_reduction_free(r);
  tc_metrics_set_free(s);
}

/* The cells of the line of TEXT that starts with PREFIX (no quoted cells),
 * split in place into CELLS; returns how many. */
static size_t csv_cells(char *text, const char *prefix, char **cells, size_t max) {
  char *line = strncmp(text, prefix, strlen(prefix)) == 0 ? text : NULL;
  if (!line) {
    char want[256];
    snprintf(want, sizeof want, "\n%s", prefix);
    line = strstr(text, want);
    assert_non_null(line);
    line++;
  }
  char *end = strchr(line, '\n');
  assert_non_null(end);
  *end = '\0';
  assert_null(strchr(line, '"'));
  size_t n = 0;
  for (char *c = line;; c++) {
    assert_true(n < max);
    cells[n++] = c;
    c = strchr(c, ',');
    if (!c)
      break;
    *c = '\0';
  }
  return n;
}

/* One good site and one unreadable trace: the unreadable one is n/a
 * throughout in the object, has a row whose every cell is empty except its
 * name, its reasons and its error, is counted in all three reports and adds
 * nothing to the corpus. */
static void unreadable_trace_keeps_its_row(void **state) {
  (void)state;
  tc_metrics_set *s = tc_metrics_set_create();
  tc_trace_metrics *u = unreadable_trace("b.com", "b/1.json", TC_E_NOT_TRACE);
  assert_string_equal(u->error, "not a trace: expected a JSON array or an object");
  assert_int_equal(u->main_na, TC_NA_TRACE_UNREADABLE);
  assert_int_equal(u->window_na, TC_NA_TRACE_UNREADABLE);
  size_t nf;
  const tc_metric_field *fields = tc_metric_fields(&nf);
  for (size_t f = 0; f < nf; f++)
    assert_true(isnan(tc_metric_value(u, &fields[f])));
  for (int g = 0; g < TC_GROUP_COUNT_; g++)
    assert_int_equal(tc_metric_group_na(u, (tc_metric_group)g), TC_NA_TRACE_UNREADABLE);
  assert_int_equal(tc_metrics_set_add(s, u), TC_OK);
  assert_int_equal(tc_metrics_set_add(s, trace_with("a.com", "a/1.json", 150)), TC_OK);
  tc_metrics_reduction *r;
  assert_int_equal(tc_metrics_reduce(s, &r), TC_OK);
  assert_int_equal(r->ntraces, 2);
  assert_int_equal(r->ntraces_unreadable, 1);
  assert_int_equal(r->nsites, 2);
  for (int g = 0; g < TC_GROUP_COUNT_; g++) {
    assert_int_equal(r->na_traces[g][TC_NA_TRACE_UNREADABLE], 1);
    assert_int_equal(reduced_site(r, 1)->na[g], TC_NA_TRACE_UNREADABLE);
    assert_int_equal(reduced_site(r, 1)->measured[g], 0);
  }
  for (size_t f = 0; f < r->nfields; f++) {
    assert_true(isnan(reduced_site(r, 1)->values[f]));
    assert_true(r->corpus[f].n <= 1); /* a.com's value alone, if it measured it */
  }
  assert_int_equal(r->corpus[field_index(r, "tbt_ms")].n, 1);

  char *csv = report_of(r, tc_write_metrics_csv);
  char *head[160], *row[160];
  char *csv2 = strdup(csv);
  size_t nh = csv_cells(csv, "site,", head, 160);
  size_t nr = csv_cells(csv2, "b.com,", row, 160);
  assert_int_equal(nh, nr);
  assert_string_equal(head[nh - 1], "error");
  for (size_t c = 0; c < nh; c++) {
    const char *col = head[c], *want = "";
    size_t len = strlen(col);
    if (!strcmp(col, "site"))
      want = "b.com";
    else if (!strcmp(col, "trace"))
      want = "b/1.json";
    else if (!strcmp(col, "error"))
      want = "not a trace: expected a JSON array or an object";
    else if (!strcmp(col, "main_rule") || !strcmp(col, "window_rule"))
      want = "none";
    else if (len > 3 && !strcmp(col + len - 3, "_na"))
      want = "trace_unreadable";
    if (strcmp(row[c], want) != 0)
      fail_msg("column %s: got '%s', want '%s'", col, row[c], want);
  }
  free(csv);
  free(csv2);

  char *json = report_of(r, tc_write_metrics_json);
  assert_non_null(strstr(json, "\"trace\": \"b/1.json\",\n   \"flags\": [],\n   \"error\": "
                               "\"not a trace: expected a JSON array or an object\",\n"));
  assert_non_null(strstr(json, "\"trace\": \"a/1.json\",\n   \"flags\": [],\n   \"error\": null,\n"));
  assert_non_null(strstr(json, "\"traces\": 2,\n  \"traces_unreadable\": 1,\n"
                               "  \"sites_without_trace\": 0,\n"));
  assert_non_null(strstr(json, "\"busy\": {\n    \"trace_unreadable\": 1\n   }"));
  free(json);

  char *md = report_of(r, tc_write_metrics_md);
  assert_non_null(strstr(md, "\n2 traces from 2 sites. 1 trace could not be read: every "
                             "metric n/a (see Unreadable traces).\n"));
  assert_non_null(strstr(md, "## Unreadable traces\n"));
  assert_non_null(strstr(md, "\n| b.com | b/1.json | not a trace: expected a JSON array or "
                             "an object |\n"));
  assert_non_null(strstr(md, "\n| busy | the trace could not be read (its error says why) | "
                             "trace_unreadable | 1 |\n"));
  /* Every n/a cell of the Sites table names its reason. */
  assert_non_null(strstr(md, "\n| b.com | 1 | n/a (trace_unreadable) | n/a (trace_unreadable) |"));
  assert_null(strstr(md, "Sites without a trace"));
  free(md);
  tc_metrics_reduction_free(r);
  tc_metrics_set_free(s);
}

/* Every trace of c.com unreadable: the site is listed, n/a with
 * trace_unreadable, with both traces, and measures nothing. */
static void site_with_only_unreadable_traces(void **state) {
  (void)state;
  tc_metrics_set *s = tc_metrics_set_create();
  assert_int_equal(tc_metrics_set_add(s, unreadable_trace("c.com", "c/2.json", TC_E_OPEN)), TC_OK);
  assert_int_equal(tc_metrics_set_add(s, unreadable_trace("c.com", "c/1.json", TC_E_NO_EVENTS)),
                   TC_OK);
  tc_metrics_reduction *r;
  assert_int_equal(tc_metrics_reduce(s, &r), TC_OK);
  assert_int_equal(r->nsites, 1);
  const tc_site_metrics *c = reduced_site(r, 0);
  assert_string_equal(c->site, "c.com");
  assert_int_equal(c->ntraces, 2);
  assert_int_equal(c->unreadable, 2);
  assert_null(c->no_trace_reason);
  for (int g = 0; g < TC_GROUP_COUNT_; g++)
    assert_int_equal(c->na[g], TC_NA_TRACE_UNREADABLE);
  for (size_t f = 0; f < r->nfields; f++) {
    assert_true(isnan(c->values[f]));
    assert_int_equal(r->corpus[f].n, 0);
  }
  char *json = report_of(r, tc_write_metrics_json);
  assert_non_null(strstr(json, "\"site\": \"c.com\",\n   \"traces\": [\n    \"c/1.json\",\n"
                               "    \"c/2.json\"\n   ],\n   \"traces_unreadable\": 2,\n"
                               "   \"no_trace_reason\": null,\n"));
  assert_non_null(strstr(json, "\"na\": {\n    \"busy\": \"trace_unreadable\",\n"
                               "    \"long_tasks\": \"trace_unreadable\",\n"
                               "    \"lag\": \"trace_unreadable\",\n"
                               "    \"frames\": \"trace_unreadable\",\n"
                               "    \"heap\": \"trace_unreadable\",\n"
                               "    \"user_timing\": \"trace_unreadable\",\n"
                               "    \"layout\": \"trace_unreadable\",\n"
                               "    \"iframes\": \"trace_unreadable\"\n   }"));
  assert_non_null(strstr(json, "\"error\": \"object has no traceEvents array\""));
  assert_non_null(strstr(json, "\"error\": \"cannot open file\""));
  free(json);
  char *md = report_of(r, tc_write_metrics_md);
  assert_non_null(strstr(md, "\n2 traces from 1 sites. 2 traces could not be read"));
  assert_non_null(strstr(md, "\n| c.com | c/1.json | object has no traceEvents array |\n"
                             "| c.com | c/2.json | cannot open file |\n"));
  assert_non_null(strstr(md, "\n| c.com | 2 | n/a (trace_unreadable) | n/a (trace_unreadable) |"));
  free(md);
  tc_metrics_reduction_free(r);
  tc_metrics_set_free(s);
}

/* m.com: an unreadable trace (sorting first) and a good one with a 150 ms
 * task. The site reports the good trace's values, its reasons for what it
 * did not measure (not trace_unreadable), and lists both traces. */
static void mixed_site_reports_its_readable_trace(void **state) {
  (void)state;
  tc_metrics_set *s = tc_metrics_set_create();
  assert_int_equal(tc_metrics_set_add(s, trace_with("m.com", "m/1.json", 150)), TC_OK);
  assert_int_equal(tc_metrics_set_add(s, unreadable_trace("m.com", "m/0.json", TC_E_NOT_TRACE)),
                   TC_OK);
  tc_trace_metrics *alone = trace_with("m.com", "m/1.json", 150);
  tc_metrics_reduction *r;
  assert_int_equal(tc_metrics_reduce(s, &r), TC_OK);
  assert_int_equal(r->nsites, 1);
  const tc_site_metrics *m = reduced_site(r, 0);
  assert_int_equal(m->ntraces, 2);
  assert_int_equal(m->unreadable, 1);
  assert_string_equal(reduced_trace(r, 0)->trace, "m/0.json");
  for (size_t f = 0; f < r->nfields; f++) {
    double want = tc_metric_value(alone, &r->fields[f]);
    if (isnan(want))
      assert_true(isnan(m->values[f]));
    else
      NEAR(m->values[f], want);
    assert_int_equal(r->corpus[f].n, !isnan(want) && !r->fields[f].can_be_negative);
  }
  NEAR(m->values[field_index(r, "tbt_ms")], 100);
  for (int g = 0; g < TC_GROUP_COUNT_; g++) {
    tc_na na = tc_metric_group_na(alone, (tc_metric_group)g);
    assert_int_equal(m->na[g], na);
    assert_int_equal(m->measured[g], na == TC_NA_NONE);
  }
  assert_int_equal(m->na[TC_GROUP_FRAMES], TC_NA_NO_LAYER_TREE);
  char *json = report_of(r, tc_write_metrics_json);
  assert_non_null(strstr(json, "\"site\": \"m.com\",\n   \"traces\": [\n    \"m/0.json\",\n"
                               "    \"m/1.json\"\n   ],\n   \"traces_unreadable\": 1,\n"));
  free(json);
  char *md = report_of(r, tc_write_metrics_md);
  assert_non_null(strstr(md, "\n| m.com | 2 |"));
  assert_non_null(strstr(md, "\n2 traces from 1 sites. 1 trace could not be read"));
  free(md);
  tc_trace_metrics_free(alone);
  tc_metrics_reduction_free(r);
  tc_metrics_set_free(s);
}

/* z.com and d.com left no trace; a.com is registered too but has a trace,
 * so its trace speaks for it; d.com is registered twice and keeps the
 * bytewise-first reason. Sites without trace are listed, n/a with no_trace
 * and their reason, have no CSV row and are in no distribution. */
static void sites_without_trace_are_listed_not_measured(void **state) {
  (void)state;
  tc_metrics_set *s = tc_metrics_set_create();
  assert_int_equal(tc_metrics_set_add_site_without_trace(s, "z.com", "navigation timeout"), TC_OK);
  assert_int_equal(tc_metrics_set_add_site_without_trace(s, "d.com", "net::ERR_NAME"), TC_OK);
  assert_int_equal(tc_metrics_set_add_site_without_trace(s, "d.com", "dns failure"), TC_OK);
  assert_int_equal(tc_metrics_set_add_site_without_trace(s, "a.com", "late"), TC_OK);
  assert_int_equal(tc_metrics_set_add(s, trace_with("a.com", "a/1.json", 150)), TC_OK);
  tc_metrics_reduction *r;
  assert_int_equal(tc_metrics_reduce(s, &r), TC_OK);
  assert_int_equal(r->ntraces, 1);
  assert_int_equal(r->nsites, 3);
  assert_int_equal(r->nsites_without_trace, 2);
  assert_string_equal(reduced_site(r, 0)->site, "a.com");
  assert_null(reduced_site(r, 0)->no_trace_reason);
  assert_int_equal(reduced_site(r, 0)->ntraces, 1);
  assert_string_equal(reduced_site(r, 1)->site, "d.com");
  assert_string_equal(reduced_site(r, 1)->no_trace_reason, "dns failure");
  assert_string_equal(reduced_site(r, 2)->site, "z.com");
  assert_string_equal(reduced_site(r, 2)->no_trace_reason, "navigation timeout");
  for (size_t i = 1; i < 3; i++) {
    assert_int_equal(reduced_site(r, i)->ntraces, 0);
    for (int g = 0; g < TC_GROUP_COUNT_; g++) {
      assert_int_equal(reduced_site(r, i)->na[g], TC_NA_NO_TRACE);
      assert_int_equal(r->na_traces[g][TC_NA_NO_TRACE], 0);
    }
    for (size_t f = 0; f < r->nfields; f++)
      assert_true(isnan(reduced_site(r, i)->values[f]));
  }
  assert_int_equal(r->corpus[field_index(r, "tbt_ms")].n, 1);

  /* A row for every site of the crawl: n/a throughout, the crawl's reason
   * as its error. */
  char *csv = report_of(r, tc_write_metrics_csv);
  char *head[160], *row[160];
  char *csv2 = strdup(csv);
  size_t nh = csv_cells(csv, "site,", head, 160);
  size_t nr = csv_cells(csv2, "z.com,", row, 160);
  assert_int_equal(nh, nr);
  for (size_t c = 0; c < nh; c++) {
    const char *col = head[c], *want = "";
    size_t len = strlen(col);
    if (!strcmp(col, "site"))
      want = "z.com";
    else if (!strcmp(col, "error"))
      want = "navigation timeout";
    else if (!strcmp(col, "main_rule") || !strcmp(col, "window_rule"))
      want = "none";
    else if (len > 3 && !strcmp(col + len - 3, "_na"))
      want = "no_trace";
    if (strcmp(row[c], want) != 0)
      fail_msg("column %s: got '%s', want '%s'", col, row[c], want);
  }
  free(csv);
  free(csv2);
  csv = report_of(r, tc_write_metrics_csv);
  assert_non_null(strstr(csv, "\nd.com,"));
  assert_true(strstr(csv, "\na.com,") < strstr(csv, "\nd.com,"));
  assert_true(strstr(csv, "\nd.com,") < strstr(csv, "\nz.com,"));
  free(csv);
  char *json = report_of(r, tc_write_metrics_json);
  assert_non_null(strstr(json, "\"site\": \"z.com\",\n   \"traces\": [],\n"
                               "   \"traces_unreadable\": 0,\n"
                               "   \"no_trace_reason\": \"navigation timeout\",\n"));
  assert_non_null(strstr(json, "\"user_timing\": \"no_trace\",\n"));
  assert_non_null(strstr(json, "\"sites\": 3,\n  \"traces\": 1,\n  \"traces_unreadable\": 0,\n"
                               "  \"sites_without_trace\": 2,\n"));
  assert_null(strstr(json, "\"late\""));
  assert_null(strstr(json, "net::ERR_NAME"));
  free(json);
  char *md = report_of(r, tc_write_metrics_md);
  assert_non_null(strstr(md, "\n1 traces from 1 sites. 2 more sites of the crawl left no "
                             "trace: every metric n/a (see Sites without a trace).\n"));
  assert_non_null(strstr(md, "\n| d.com | dns failure |\n| z.com | navigation timeout |\n"));
  assert_non_null(strstr(md, "\n| z.com | 0 | n/a (no_trace) | n/a (no_trace) |"));
  assert_null(strstr(md, "Unreadable traces"));
  free(md);
  tc_metrics_reduction_free(r);
  tc_metrics_set_free(s);
}

/* report.html draws the first TC_HTML_MAX_TIMELINES busy-rate plots, whole
 * sites, and counts what it left out: here 190 one-trace sites, a site
 * without a trace, a site of 20 traces that does not fit and 5 more sites. */
static size_t count_of(const char *text, const char *what) {
  size_t n = 0;
  for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
    n++;
  return n;
}

static void timelines_are_bounded(void **state) {
  (void)state;
  tc_metrics_set *s = tc_metrics_set_create();
  char site[32], path[48];
  for (int i = 0; i < 190; i++) {
    snprintf(site, sizeof site, "a%03d.com", i);
    snprintf(path, sizeof path, "a%03d/1.json", i);
    assert_int_equal(tc_metrics_set_add(s, trace_with(site, path, 60)), TC_OK);
  }
  assert_int_equal(tc_metrics_set_add_site_without_trace(s, "b.com", "timeout"), TC_OK);
  for (int i = 0; i < 20; i++) {
    snprintf(path, sizeof path, "c/%02d.json", i);
    assert_int_equal(tc_metrics_set_add(s, trace_with("c.com", path, 60)), TC_OK);
  }
  for (int i = 0; i < 5; i++) {
    snprintf(site, sizeof site, "d%d.com", i);
    snprintf(path, sizeof path, "d%d/1.json", i);
    assert_int_equal(tc_metrics_set_add(s, trace_with(site, path, 60)), TC_OK);
  }
  tc_metrics_reduction *r;
  assert_int_equal(tc_metrics_reduce(s, &r), TC_OK);
  char *text = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&text, &len);
  assert_non_null(fp);
  assert_int_equal(tc_report_html_timelines(fp, r), TC_OK);
  fclose(fp);
  /* Every trace has the same TBT, so sites come in name order, b.com (n/a,
   * no trace) last: the 190 a* plots fit, c.com's 20 do not, and the cap
   * leaves out c.com, the d*.com and b.com. */
  assert_int_equal(count_of(text, "<svg"), 190);
  assert_non_null(strstr(text, "Only the first 200 plots are drawn here, so that the page stays "
                               "readable and its size bounded: 25 more traces and 1 more site "
                               "without a trace are left out."));
  free(text);
  tc_metrics_reduction_free(r);
  tc_metrics_set_free(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(csv_na_cells_are_empty_with_reason),
      cmocka_unit_test(unreadable_trace_keeps_its_row),
      cmocka_unit_test(site_with_only_unreadable_traces),
      cmocka_unit_test(mixed_site_reports_its_readable_trace),
      cmocka_unit_test(sites_without_trace_are_listed_not_measured),
      cmocka_unit_test(timelines_are_bounded),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
