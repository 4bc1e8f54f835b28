#include "kernels/tc_metrics_bin.h"

#include <stdlib.h>
#include <string.h>

#include "util/tc_bin_codec.h"

/* Strings longer than this (URLs, names) are refused on decode. */
#define MAX_STR ((size_t)1 << 24)

static void c_doubles(tc_codec *c, double **arr, uint32_t *n) {
  *n = tc_codec_array(c, (void **)arr, *n, sizeof **arr, 8);
  for (uint32_t i = 0; i < *n; i++)
    tc_codec_f64(c, &(*arr)[i]);
}

static void c_long_tasks(tc_codec *c, tc_long_task **arr, uint32_t *n) {
  *n = tc_codec_array(c, (void **)arr, *n, sizeof **arr, 17);
  for (uint32_t i = 0; i < *n; i++) {
    tc_codec_f64(c, &(*arr)[i].start_us);
    tc_codec_f64(c, &(*arr)[i].dur_us);
    (*arr)[i].clipped = (uint8_t)tc_codec_small(c, (*arr)[i].clipped, 1);
  }
}

static void walk(tc_codec *c, tc_trace_metrics *m) {
  tc_codec_str(c, &m->site, MAX_STR);
  tc_codec_str(c, &m->trace, MAX_STR);
  m->flags = tc_codec_small(c, m->flags, TC_TRACE_TRUNCATED | TC_TRACE_PARSE_ERRORS);
  tc_codec_str(c, &m->error, MAX_STR);

  TC_CODEC_ENUM(c, m->main_na, TC_NA_COUNT_);
  TC_CODEC_ENUM(c, m->main_rule, TC_MAIN_RULE_COUNT_);
  tc_codec_str(c, &m->main_frame, MAX_STR);
  tc_codec_str(c, &m->main_url, MAX_STR);
  TC_CODEC_ENUM(c, m->main_url_na, TC_NA_COUNT_);
  m->nmain = tc_codec_array(c, (void **)&m->main_threads, m->nmain, sizeof *m->main_threads, 2);
  for (uint32_t i = 0; i < m->nmain; i++) {
    tc_codec_i64(c, &m->main_threads[i].pid);
    tc_codec_i64(c, &m->main_threads[i].tid);
  }

  TC_CODEC_ENUM(c, m->window_na, TC_NA_COUNT_);
  TC_CODEC_ENUM(c, m->window_rule, TC_WINDOW_PAGE_COMMIT + 1);
  tc_codec_f64(c, &m->window_start_us);
  tc_codec_f64(c, &m->window_end_us);
  tc_codec_f64(c, &m->trace_span_ms);
  tc_codec_u32(c, &m->clamped_tasks);
  m->window_end_clamped = (uint8_t)tc_codec_small(c, m->window_end_clamped, 1);
  tc_codec_f64(c, &m->hidden_ms);
  tc_codec_f64(c, &m->suspended_ms);
  tc_codec_f64(c, &m->clock_jump_ms);
  for (int k = 0; k < TC_SAMPLE_COUNT_; k++)
    for (int i = 0; i < TC_INVALID_COUNT_; i++)
      tc_codec_u32(c, &m->discarded[k][i]);

  tc_busy_metrics *b = &m->busy;
  TC_CODEC_ENUM(c, b->na, TC_NA_COUNT_);
  tc_codec_f64(c, &b->bucket_ms);
  tc_codec_f64(c, &b->bucket_ms_requested);
  tc_codec_f64(c, &b->mean_pct);
  tc_codec_f64(c, &b->p50_pct);
  tc_codec_f64(c, &b->p95_pct);
  tc_codec_f64(c, &b->max_pct);
  tc_codec_u32(c, &b->buckets);
  tc_codec_u32(c, &b->tasks);
  c_doubles(c, &b->series_pct, &b->nseries);

  tc_long_metrics *l = &m->long_tasks;
  TC_CODEC_ENUM(c, l->na, TC_NA_COUNT_);
  tc_codec_f64(c, &l->tbt_ms);
  tc_codec_f64(c, &l->mean_ms);
  tc_codec_f64(c, &l->p50_ms);
  tc_codec_f64(c, &l->p95_ms);
  tc_codec_f64(c, &l->max_ms);
  tc_codec_u32(c, &l->unbounded);
  c_long_tasks(c, &l->tasks, &l->count);

  tc_lag_metrics *g = &m->lag;
  TC_CODEC_ENUM(c, g->na, TC_NA_COUNT_);
  tc_codec_f64(c, &g->p50_ms);
  tc_codec_f64(c, &g->p90_ms);
  tc_codec_f64(c, &g->p99_ms);
  tc_codec_f64(c, &g->mean_ms);
  tc_codec_f64(c, &g->max_ms);
  tc_codec_f64(c, &g->long_share_pct);
  tc_codec_f64(c, &g->valid_ms);

  tc_frame_metrics *f = &m->frames;
  TC_CODEC_ENUM(c, f->na, TC_NA_COUNT_);
  tc_codec_f64(c, &f->budget_ms);
  tc_codec_u32(c, &f->draws);
  tc_codec_u32(c, &f->intervals);
  tc_codec_f64(c, &f->mean_ms);
  tc_codec_f64(c, &f->p50_ms);
  tc_codec_f64(c, &f->p95_ms);
  tc_codec_f64(c, &f->max_ms);
  tc_codec_u32(c, &f->over_budget);
  tc_codec_u32(c, &f->missed_vsyncs);
  for (int i = 0; i < TC_VSYNC_BINS; i++)
    tc_codec_u32(c, &f->by_vsyncs[i]);

  tc_heap_metrics *h = &m->heap;
  TC_CODEC_ENUM(c, h->na, TC_NA_COUNT_);
  tc_codec_u32(c, &h->samples);
  tc_codec_f64(c, &h->start_bytes);
  tc_codec_f64(c, &h->end_bytes);
  tc_codec_f64(c, &h->growth_bytes);
  tc_codec_f64(c, &h->max_bytes);
  tc_codec_f64(c, &h->mean_bytes);
  c_doubles(c, &h->series_bytes, &h->nseries);

  tc_ut_metrics *u = &m->user_timing;
  TC_CODEC_ENUM(c, u->na, TC_NA_COUNT_);
  tc_codec_u32(c, &u->count);
  u->nmeasures = tc_codec_array(c, (void **)&u->measures, u->nmeasures, sizeof *u->measures, 34);
  for (uint32_t i = 0; i < u->nmeasures; i++) {
    tc_ut_measure *x = &u->measures[i];
    tc_codec_str(c, &x->name, MAX_STR);
    tc_codec_u32(c, &x->count);
    tc_codec_f64(c, &x->mean_ms);
    tc_codec_f64(c, &x->p50_ms);
    tc_codec_f64(c, &x->p95_ms);
    tc_codec_f64(c, &x->max_ms);
  }
  u->nunclosed = tc_codec_array(c, (void **)&u->unclosed, u->nunclosed, sizeof *u->unclosed, 2);
  for (uint32_t i = 0; i < u->nunclosed; i++) {
    tc_codec_str(c, &u->unclosed[i].name, MAX_STR);
    tc_codec_u32(c, &u->unclosed[i].count);
  }

  tc_layout_metrics *y = &m->layout;
  TC_CODEC_ENUM(c, y->na, TC_NA_COUNT_);
  tc_codec_u32(c, &y->layouts);
  tc_codec_u32(c, &y->forced);
  tc_codec_f64(c, &y->forced_ms);

  tc_iframe_metrics *fr = &m->iframes;
  TC_CODEC_ENUM(c, fr->na, TC_NA_COUNT_);
  tc_codec_u32(c, &fr->renderers);
  tc_codec_u32(c, &fr->long_tasks);
  tc_codec_f64(c, &fr->tbt_ms);

  m->nrenderers = tc_codec_array(c, (void **)&m->renderers, m->nrenderers, sizeof *m->renderers, 23);
  for (uint32_t i = 0; i < m->nrenderers; i++) {
    tc_renderer_metrics *x = &m->renderers[i];
    tc_codec_i64(c, &x->pid);
    tc_codec_i64(c, &x->tid);
    TC_CODEC_ENUM(c, x->role, TC_ROLE_COUNT_);
    tc_codec_str(c, &x->url, MAX_STR);
    TC_CODEC_ENUM(c, x->na, TC_NA_COUNT_);
    tc_codec_u32(c, &x->tasks);
    tc_codec_f64(c, &x->tbt_ms);
    tc_codec_f64(c, &x->long_max_ms);
    c_long_tasks(c, &x->long_tasks, &x->long_count);
  }
}

void tc_metrics_encode(const tc_trace_metrics *m, tc_bin_buf *b) {
  tc_codec c = {b, NULL};
  /* The walk writes back what it reads; encoding reads only. */
  walk(&c, (tc_trace_metrics *)m);
}

tc_err tc_metrics_decode(tc_bin_reader *r, tc_trace_metrics **out) {
  *out = NULL;
  tc_trace_metrics *m = calloc(1, sizeof *m);
  if (!m) {
    tc_bin_fail_at(r, r->pos, "out of memory");
    return r->err;
  }
  tc_codec c = {NULL, r};
  walk(&c, m);
  if (r->err) {
    tc_trace_metrics_free(m);
    return r->err;
  }
  *out = m;
  return TC_OK;
}
