/* metrics.json: everything the CSV has, plus what does not fit a row: the
 * bucket series, each long task, every renderer, user-timing names, the
 * sites with their traces, the corpus distributions and the rules. Numbers
 * of an n/a group are null; its "na" says why. A null statistic of a
 * measured group (too few samples) has its reason in the group's
 * "field_na", keyed like the null. A trace's "error" says why it could not
 * be read (null when it was); a site's "no_trace_reason" why the crawl left
 * it without trace (null when it has traces). The corpus's "sites" counts
 * every listed site, "sites_without_trace" included. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/tc_metrics_report.h"
#include "report/tc_jsonw.h"

static const double corpus_q[] = {0.5, 0.75, 0.9, 0.95, 0.99};
static const char *const corpus_qname[] = {"p50", "p75", "p90", "p95", "p99"};

static void key_num(tc_jsonw *w, const char *k, double v) {
  tc_jsonw_knum(w, k, v);
}

/* A number of a group that may be n/a. */
static void key_val(tc_jsonw *w, tc_na na, const char *k, double v) {
  key_num(w, k, na ? NAN : v);
}

static void key_na(tc_jsonw *w, tc_na na) {
  tc_jsonw_kstr(w, "na", na ? tc_na_code(na) : NULL);
}

/* Opens the object KEY of a group and says first whether it is n/a. */
static void group(tc_jsonw *w, const char *k, tc_na na) {
  tc_jsonw_kobj(w, k);
  key_na(w, na);
}

/* A measure's mean, median, p95 and max over its N samples, keyed mean_ms,
 * p50_ms, ..., then "field_na" for those too few samples leave null. */
static void summary(tc_jsonw *w, uint32_t n, double mean, double p50, double p95, double max) {
  static const char *const key[] = {"mean_ms", "p50_ms", "p95_ms", "max_ms"};
  static const double q[] = {0, 0.5, 0.95, 0};
  const double v[] = {mean, p50, p95, max};
  int few = 0;
  for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
    key_num(w, key[i], n >= tc_min_samples(q[i]) ? v[i] : NAN);
    few |= n < tc_min_samples(q[i]);
  }
  if (!few)
    return;
  tc_jsonw_kobj(w, "field_na");
  for (size_t i = 0; i < sizeof v / sizeof *v; i++)
    if (n < tc_min_samples(q[i])) {
      tc_jsonw_kstr(w, key[i], tc_na_code(TC_NA_TOO_FEW_SAMPLES));
    }
  tc_jsonw_obj_end(w);
}

/* The group's statistics as its fields say (tc_metric_value, so null
 * exactly where the CSV is empty), and "field_na" for the nulls of a
 * measured group. */
static void stats(tc_jsonw *w, const tc_trace_metrics *m, tc_metric_group g) {
  size_t nf;
  const tc_metric_field *f = tc_metric_fields(&nf);
  int few = 0;
  for (size_t i = 0; i < nf; i++) {
    if (f[i].group != g || !f[i].stat_n)
      continue;
    key_num(w, f[i].key, tc_metric_value(m, &f[i]));
    few |= !tc_metric_group_na(m, g) && tc_metric_field_na(m, &f[i]);
  }
  if (!few)
    return;
  tc_jsonw_kobj(w, "field_na");
  for (size_t i = 0; i < nf; i++) {
    tc_na na = f[i].group == g && f[i].stat_n ? tc_metric_field_na(m, &f[i]) : TC_NA_NONE;
    if (na) {
      tc_jsonw_kstr(w, f[i].key, tc_na_code(na));
    }
  }
  tc_jsonw_obj_end(w);
}

/* A group that holds nothing but its fields. */
static void fields_only(tc_jsonw *w, const tc_trace_metrics *m, tc_metric_group g) {
  size_t nf;
  const tc_metric_field *f = tc_metric_fields(&nf);
  group(w, tc_metric_group_code(g), tc_metric_group_na(m, g));
  for (size_t i = 0; i < nf; i++)
    if (f[i].group == g)
      key_num(w, f[i].key, tc_metric_value(m, &f[i]));
  tc_jsonw_obj_end(w);
}

static void long_task_list(tc_jsonw *w, const char *key, const tc_long_task *t, uint32_t n) {
  tc_jsonw_karr(w, key);
  for (uint32_t i = 0; i < n; i++) {
    tc_jsonw_obj(w);
    key_num(w, "start_us", t[i].start_us);
    key_num(w, "dur_us", t[i].dur_us);
    tc_jsonw_kbool(w, "clipped", t[i].clipped);
    tc_jsonw_obj_end(w);
  }
  tc_jsonw_arr_end(w);
}

/* Starts an element of a per-name list with its name and count; the caller
 * adds what else it has and closes the object. */
static void name_count(tc_jsonw *w, const char *name, uint32_t count) {
  tc_jsonw_obj(w);
  tc_jsonw_kstr(w, "name", name);
  tc_jsonw_kuint(w, "count", count);
}

static void series(tc_jsonw *w, tc_na na, const char *k, const double *v, uint32_t n) {
  tc_jsonw_karr(w, k);
  for (uint32_t i = 0; !na && i < n; i++)
    tc_jsonw_num(w, v[i]);
  tc_jsonw_arr_end(w);
}

static void main_thread(tc_jsonw *w, const tc_trace_metrics *m) {
  group(w, "main_thread", m->main_na);
  tc_jsonw_kstr(w, "rule", tc_main_rule_code(m->main_rule));
  tc_jsonw_kstr(w, "rule_text", tc_main_rule_text(m->main_rule));
  tc_jsonw_kstr(w, "frame", m->main_frame);
  tc_jsonw_kstr(w, "url", m->main_url);
  tc_jsonw_kstr(w, "url_na", m->main_url ? NULL : tc_na_code(m->main_url_na));
  tc_jsonw_karr(w, "threads");
  for (uint32_t i = 0; i < m->nmain; i++) {
    tc_jsonw_obj(w);
    tc_jsonw_kint(w, "pid", m->main_threads[i].pid);
    tc_jsonw_kint(w, "tid", m->main_threads[i].tid);
    tc_jsonw_obj_end(w);
  }
  tc_jsonw_arr_end(w);
  tc_jsonw_obj_end(w);
}

static void window(tc_jsonw *w, const tc_trace_metrics *m) {
  group(w, "window", m->window_na);
  tc_jsonw_kstr(w, "rule", tc_window_rule_code(m->window_rule));
  key_num(w, "start_us", m->window_start_us);
  key_num(w, "end_us", m->window_end_us);
  key_val(w, m->window_na, "dur_ms", (m->window_end_us - m->window_start_us) / 1e3);
  tc_jsonw_obj_end(w);

  tc_jsonw_kobj(w, "clamps");
  key_val(w, m->window_na, "trace_span_ms", m->trace_span_ms);
  key_val(w, m->window_na, "tasks_clipped", m->clamped_tasks);
  tc_jsonw_kbool(w, "window_end_clipped", m->window_end_clamped);
  key_num(w, "bucket_ms_requested", m->busy.bucket_ms_requested);
  tc_jsonw_kbool(w, "bucket_raised", m->busy.bucket_ms > m->busy.bucket_ms_requested);
  tc_jsonw_obj_end(w);

  tc_jsonw_kobj(w, "validity");
  key_val(w, m->window_na, "hidden_ms", m->hidden_ms);
  key_val(w, m->window_na, "suspended_ms", m->suspended_ms);
  key_val(w, m->window_na, "clock_jump_ms", m->clock_jump_ms);
  tc_jsonw_kobj(w, "discarded");
  for (int k = 0; k < TC_SAMPLE_COUNT_; k++) {
    tc_jsonw_kobj(w, tc_sample_kind_code((tc_sample_kind)k));
    for (int why = 0; why < TC_INVALID_COUNT_; why++) {
      tc_jsonw_kuint(w, tc_invalid_reason_code((tc_invalid_reason)why), m->discarded[k][why]);
    }
    tc_jsonw_obj_end(w);
  }
  tc_jsonw_obj_end(w);
  tc_jsonw_obj_end(w);
}

static void busy_and_tasks(tc_jsonw *w, const tc_trace_metrics *m) {
  const tc_busy_metrics *b = &m->busy;
  group(w, "busy", b->na);
  key_num(w, "bucket_ms", b->bucket_ms);
  key_val(w, b->na, "tasks", b->tasks);
  key_val(w, b->na, "mean_pct", b->mean_pct);
  key_val(w, b->na, "buckets", b->buckets);
  stats(w, m, TC_GROUP_BUSY);
  series(w, b->na, "series_pct", b->series_pct, b->nseries);
  tc_jsonw_obj_end(w);

  const tc_long_metrics *l = &m->long_tasks;
  group(w, "long_tasks", l->na);
  key_val(w, l->na, "count", l->count);
  key_val(w, l->na, "tbt_ms", l->tbt_ms);
  stats(w, m, TC_GROUP_LONG_TASKS);
  key_val(w, l->na, "unbounded", l->unbounded);
  long_task_list(w, "tasks", l->tasks, l->na ? 0 : l->count);
  tc_jsonw_obj_end(w);

  const tc_lag_metrics *g = &m->lag;
  group(w, "lag", g->na);
  key_val(w, g->na, "p50_ms", g->p50_ms);
  key_val(w, g->na, "p90_ms", g->p90_ms);
  key_val(w, g->na, "p99_ms", g->p99_ms);
  key_val(w, g->na, "mean_ms", g->mean_ms);
  key_val(w, g->na, "max_ms", g->max_ms);
  key_val(w, g->na, "long_task_share_pct", g->long_share_pct);
  key_val(w, g->na, "valid_ms", g->valid_ms);
  tc_jsonw_obj_end(w);
}

static void frames_heap_ut(tc_jsonw *w, const tc_trace_metrics *m) {
  const tc_frame_metrics *f = &m->frames;
  group(w, "frames", f->na);
  key_num(w, "budget_ms", f->budget_ms);
  /* Draws were counted (zero included) once the page's layer tree was known. */
  int counted = f->na == TC_NA_NONE || f->na == TC_NA_NO_FRAMES ||
                f->na == TC_NA_NOT_CONTINUOUS || f->na == TC_NA_ALL_INVALID;
  key_num(w, "draws", counted ? f->draws : NAN);
  key_val(w, f->na, "intervals", f->intervals);
  stats(w, m, TC_GROUP_FRAMES);
  key_val(w, f->na, "over_budget", f->over_budget);
  key_val(w, f->na, "missed_vsyncs", f->missed_vsyncs);
  tc_jsonw_karr(w, "by_vsyncs");
  for (int i = 0; !f->na && i < TC_VSYNC_BINS; i++)
    tc_jsonw_uint(w, f->by_vsyncs[i]);
  tc_jsonw_arr_end(w);
  tc_jsonw_obj_end(w);

  const tc_heap_metrics *h = &m->heap;
  group(w, "heap", h->na);
  key_val(w, h->na, "samples", h->samples);
  key_val(w, h->na, "start_bytes", h->start_bytes);
  key_val(w, h->na, "end_bytes", h->end_bytes);
  key_val(w, h->na, "growth_bytes", h->growth_bytes);
  key_val(w, h->na, "max_bytes", h->max_bytes);
  key_val(w, h->na, "mean_bytes", h->mean_bytes);
  series(w, h->na, "series_bytes", h->series_bytes, h->nseries);
  tc_jsonw_obj_end(w);

  const tc_ut_metrics *u = &m->user_timing;
  group(w, "user_timing", u->na);
  tc_jsonw_karr(w, "measures");
  for (uint32_t i = 0; i < u->nmeasures; i++) {
    const tc_ut_measure *g = &u->measures[i];
    name_count(w, g->name, g->count);
    summary(w, g->count, g->mean_ms, g->p50_ms, g->p95_ms, g->max_ms);
    tc_jsonw_obj_end(w);
  }
  tc_jsonw_arr_end(w);
  tc_jsonw_karr(w, "unclosed");
  for (uint32_t i = 0; i < u->nunclosed; i++) {
    name_count(w, u->unclosed[i].name, u->unclosed[i].count);
    tc_jsonw_obj_end(w);
  }
  tc_jsonw_arr_end(w);
  tc_jsonw_obj_end(w);

  fields_only(w, m, TC_GROUP_LAYOUT);
  fields_only(w, m, TC_GROUP_IFRAMES);
}

/* Every renderer's main thread over the page's window, by role then pid. */
static void renderers(tc_jsonw *w, const tc_trace_metrics *m) {
  tc_jsonw_karr(w, "renderers");
  for (uint32_t i = 0; i < m->nrenderers; i++) {
    const tc_renderer_metrics *r = &m->renderers[i];
    tc_jsonw_obj(w);
    tc_jsonw_kint(w, "pid", r->pid);
    tc_jsonw_kint(w, "tid", r->tid);
    tc_jsonw_kstr(w, "role", tc_renderer_role_code(r->role));
    tc_jsonw_kstr(w, "url", r->url);
    tc_jsonw_kstr(w, "url_na", r->url ? NULL : tc_na_code(TC_NA_NO_URL));
    key_na(w, r->na);
    key_val(w, r->na, "tasks", r->tasks);
    key_val(w, r->na, "long_tasks", r->long_count);
    key_val(w, r->na, "tbt_ms", r->tbt_ms);
    key_num(w, "long_task_max_ms", r->na || !r->long_count ? NAN : r->long_max_ms);
    if (!r->na && !r->long_count) {
      tc_jsonw_kobj(w, "field_na");
      tc_jsonw_kstr(w, "long_task_max_ms", tc_na_code(TC_NA_NO_LONG_TASKS));
      tc_jsonw_obj_end(w);
    }
    long_task_list(w, "long_task_list", r->long_tasks, r->na ? 0 : r->long_count);
    tc_jsonw_obj_end(w);
  }
  tc_jsonw_arr_end(w);
}

static void trace(tc_jsonw *w, const tc_trace_metrics *m) {
  tc_jsonw_obj(w);
  tc_jsonw_kname(w, "site", tc_str_c(m->site ? m->site : ""));
  tc_jsonw_kstr(w, "trace", m->trace ? m->trace : "");
  tc_jsonw_karr(w, "flags");
  if (m->flags & TC_TRACE_TRUNCATED)
    tc_jsonw_str(w, "truncated");
  if (m->flags & TC_TRACE_PARSE_ERRORS)
    tc_jsonw_str(w, "parse_errors");
  tc_jsonw_arr_end(w);
  tc_jsonw_kstr(w, "error", m->error);
  main_thread(w, m);
  window(w, m);
  busy_and_tasks(w, m);
  frames_heap_ut(w, m);
  renderers(w, m);
  tc_jsonw_obj_end(w);
}

static void site(tc_jsonw *w, const tc_metrics_reduction *r, tc_metrics_cursor *c,
                 const tc_site_metrics *s) {
  tc_jsonw_obj(w);
  tc_jsonw_kname(w, "site", tc_str_c(s->site));
  tc_jsonw_karr(w, "traces");
  for (size_t i = 0; i < s->ntraces; i++) {
    const tc_trace_metrics *m = tc_metrics_cursor_trace(c, s->first + i);
    tc_jsonw_str(w, m->trace ? m->trace : "");
  }
  tc_jsonw_arr_end(w);
  tc_jsonw_kuint(w, "traces_unreadable", s->unreadable);
  tc_jsonw_kstr(w, "no_trace_reason", s->no_trace_reason);
  tc_jsonw_kobj(w, "values");
  for (size_t f = 0; f < r->nfields; f++)
    key_num(w, r->fields[f].column, s->values[f]);
  tc_jsonw_obj_end(w);
  tc_jsonw_kobj(w, "values_na");
  for (size_t f = 0; f < r->nfields; f++)
    if (s->values_na[f]) {
      tc_jsonw_kstr(w, r->fields[f].column, tc_na_code(s->values_na[f]));
    }
  tc_jsonw_obj_end(w);
  tc_jsonw_kobj(w, "na");
  for (int g = 0; g < TC_GROUP_COUNT_; g++) {
    tc_jsonw_kstr(w, tc_metric_group_code((tc_metric_group)g),
                  s->na[g] ? tc_na_code(s->na[g]) : NULL);
  }
  tc_jsonw_obj_end(w);
  tc_jsonw_kobj(w, "measured");
  for (int g = 0; g < TC_GROUP_COUNT_; g++) {
    tc_jsonw_kuint(w, tc_metric_group_code((tc_metric_group)g), s->measured[g]);
  }
  tc_jsonw_obj_end(w);
  tc_jsonw_obj_end(w);
}

static void corpus(tc_jsonw *w, const tc_metrics_reduction *r) {
  tc_jsonw_kobj(w, "corpus");
  tc_jsonw_kstr(w, "unit", "page view: one per site, its median trace");
  tc_jsonw_kuint(w, "sites", r->nsites);
  tc_jsonw_kuint(w, "traces", r->ntraces);
  tc_jsonw_kuint(w, "traces_unreadable", r->ntraces_unreadable);
  tc_jsonw_kuint(w, "sites_without_trace", r->nsites_without_trace);
  key_num(w, "relative_error", TC_SKETCH_ALPHA);
  tc_jsonw_kobj(w, "na_traces");
  for (int g = 0; g < TC_GROUP_COUNT_; g++) {
    tc_jsonw_kobj(w, tc_metric_group_code((tc_metric_group)g));
    for (int na = 1; na < TC_NA_COUNT_; na++) {
      if (!r->na_traces[g][na])
        continue;
      tc_jsonw_kuint(w, tc_na_code((tc_na)na), r->na_traces[g][na]);
    }
    tc_jsonw_obj_end(w);
  }
  tc_jsonw_obj_end(w);
  tc_jsonw_kobj(w, "metrics");
  for (size_t f = 0; f < r->nfields; f++) {
    const tc_sketch *s = &r->corpus[f];
    if (r->fields[f].can_be_negative)
      continue;
    tc_jsonw_kobj(w, r->fields[f].column);
    tc_jsonw_kuint(w, "n", s->n);
    key_num(w, "min", s->n ? s->min : NAN);
    for (size_t q = 0; q < sizeof corpus_q / sizeof *corpus_q; q++)
      key_num(w, corpus_qname[q], tc_metrics_corpus_quantile(s, corpus_q[q]));
    key_num(w, "max", s->n ? s->max : NAN);
    tc_jsonw_kobj(w, "field_na");
    if (!s->n) {
      tc_jsonw_kstr(w, "min", tc_na_code(TC_NA_TOO_FEW_SAMPLES));
    }
    for (size_t q = 0; q < sizeof corpus_q / sizeof *corpus_q; q++)
      if (isnan(tc_metrics_corpus_quantile(s, corpus_q[q]))) {
        tc_jsonw_kstr(w, corpus_qname[q], tc_na_code(TC_NA_TOO_FEW_SAMPLES));
      }
    if (!s->n) {
      tc_jsonw_kstr(w, "max", tc_na_code(TC_NA_TOO_FEW_SAMPLES));
    }
    tc_jsonw_obj_end(w);
    tc_jsonw_obj_end(w);
  }
  tc_jsonw_obj_end(w);
  tc_jsonw_obj_end(w);
}

static void fill_json(const tc_metrics_reduction *r, tc_metrics_cursor *c, FILE *fp) {
  tc_jsonw w;
  tc_jsonw_init(&w, fp, 1);
  tc_jsonw_obj(&w);
  tc_jsonw_kstr(&w, "schema", "tracecensus-metrics/1");
  tc_jsonw_kobj(&w, "rules");
  for (const tc_metrics_rule *rule = tc__metrics_rules(); rule->key; rule++) {
    tc_jsonw_kstr(&w, rule->key, rule->text);
  }
  tc_jsonw_obj_end(&w);
  tc_jsonw_karr(&w, "traces");
  for (size_t i = 0; i < r->ntraces; i++)
    trace(&w, tc_metrics_cursor_trace(c, i));
  tc_jsonw_arr_end(&w);
  tc_jsonw_karr(&w, "sites");
  for (size_t i = 0; i < r->nsites; i++)
    site(&w, r, c, tc_metrics_cursor_site(c, i));
  tc_jsonw_arr_end(&w);
  corpus(&w, r);
  tc_jsonw_obj_end(&w);
  tc_jsonw_end(&w);
}

tc_err tc_write_metrics_json(const tc_metrics_reduction *r, const char *outdir, tc_why *why) {
  return tc__metrics_file(r, outdir, "metrics.json", fill_json, why);
}
