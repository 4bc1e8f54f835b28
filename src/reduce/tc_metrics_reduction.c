#include "reduce/tc_metrics_reduction.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/tc_metrics_bin.h"
#include "util/tc_bin.h"
#include "util/tc_grow.h"
#include "util/tc_str.h"

static int unreadable(const tc_trace_metrics *m) {
  return m->main_na == TC_NA_TRACE_UNREADABLE;
}

static int dbl_cmp(const void *pa, const void *pb) {
  double a = *(const double *)pa, b = *(const double *)pb;
  return (a > b) - (a < b);
}

double tc_metrics_corpus_quantile(const tc_sketch *s, double q) {
  return s->n >= tc_min_samples(q) ? tc_sketch_quantile(s, q) : NAN;
}

tc_metrics_reduction *tc_metrics_reduction_create(void) {
  size_t nfields;
  const tc_metric_field *fields = tc_metric_fields(&nfields);
  tc_metrics_reduction *r = calloc(1, sizeof *r + nfields * sizeof *r->corpus);
  if (!r)
    return NULL;
  r->fields = fields;
  r->nfields = nfields;
  return r;
}

void tc_metrics_reduction_free(tc_metrics_reduction *r) {
  if (!r)
    return;
  for (size_t i = 0; i < r->nfields; i++)
    tc_sketch_free(&r->corpus[i]);
  tc_spill_free(&r->trace_rows);
  tc_spill_free(&r->site_rows);
  free(r->last_site);
  free(r);
}

/* A readable trace's reason says more than trace_unreadable does, so the
 * first readable trace speaks for an unmeasured group. */
static tc_na site_na(const tc_trace_metrics *const *t, size_t n, tc_metric_group g) {
  for (size_t i = 0; i < n; i++)
    if (!unreadable(t[i]))
      return tc_metric_group_na(t[i], g);
  return TC_NA_TRACE_UNREADABLE;
}

/* The site's values from its N traces T; SITE's values arrays are the
 * caller's, nfields long. */
static tc_err reduce_site(tc_metrics_reduction *r, tc_site_metrics *site,
                          const tc_trace_metrics *const *t, double *scratch) {
  for (size_t i = 0; i < site->ntraces; i++)
    site->unreadable += unreadable(t[i]);
  for (int g = 0; g < TC_GROUP_COUNT_; g++) {
    for (size_t i = 0; i < site->ntraces; i++)
      site->measured[g] += tc_metric_group_na(t[i], (tc_metric_group)g) == TC_NA_NONE;
    site->na[g] = site->measured[g] ? TC_NA_NONE
                  : site->ntraces   ? site_na(t, site->ntraces, (tc_metric_group)g)
                                    : TC_NA_NO_TRACE;
  }
  for (size_t f = 0; f < r->nfields; f++) {
    size_t n = 0;
    tc_metric_group g = r->fields[f].group;
    site->values_na[f] = site->na[g];
    for (size_t i = 0; i < site->ntraces; i++) {
      double v = tc_metric_value(t[i], &r->fields[f]);
      if (!isnan(v))
        scratch[n++] = v;
      else if (site->values_na[f] == TC_NA_NONE && tc_metric_group_na(t[i], g) == TC_NA_NONE)
        site->values_na[f] = tc_metric_field_na(t[i], &r->fields[f]);
    }
    if (n)
      site->values_na[f] = TC_NA_NONE;
    qsort(scratch, n, sizeof *scratch, dbl_cmp);
    site->values[f] = n ? scratch[(n + 1) / 2 - 1] : NAN;
    if (n && !r->fields[f].can_be_negative) {
      tc_err e = tc_sketch_add(&r->corpus[f], site->values[f]);
      if (e)
        return e;
    }
  }
  return TC_OK;
}

/* A present-or-NULL string: a presence byte, then the bytes. */
static void put_opt(tc_bin_buf *b, const char *s) {
  tc_bin_put_u8(b, s != NULL);
  if (s)
    tc_bin_put_bytes(b, tc_str_c(s));
}

static char *get_opt(tc_bin_reader *rd, int *nomem) {
  if (!tc_bin_get_u8(rd))
    return NULL;
  char *d = tc_str_dup(tc_bin_get_bytes(rd, SIZE_MAX));
  if (!d)
    *nomem = 1;
  return d;
}

static void encode_site(const tc_metrics_reduction *r, const tc_site_metrics *s, tc_bin_buf *b) {
  put_opt(b, s->site);
  put_opt(b, s->no_trace_reason);
  tc_bin_put_uvar(b, s->first);
  tc_bin_put_uvar(b, s->ntraces);
  tc_bin_put_uvar(b, s->unreadable);
  for (int g = 0; g < TC_GROUP_COUNT_; g++) {
    tc_bin_put_u8(b, (uint8_t)s->na[g]);
    tc_bin_put_uvar(b, s->measured[g]);
  }
  for (size_t f = 0; f < r->nfields; f++) {
    tc_bin_put_f64(b, s->values[f]);
    tc_bin_put_u8(b, (uint8_t)s->values_na[f]);
  }
}

tc_err tc_metrics_reduction_add_site(tc_metrics_reduction *r, const char *site,
                                     const tc_trace_metrics *const *traces, size_t n,
                                     const char *reason) {
  site = site ? site : "";
  if (r->last_site && tc_str_cmp(tc_str_c(r->last_site), tc_str_c(site)) >= 0)
    return TC_E_USAGE;
  char *name = strdup(site);
  if (!name)
    return TC_E_NOMEM;
  free(r->last_site);
  r->last_site = name;
  tc_site_metrics sm = {.site = site,
                        .first = r->ntraces,
                        .ntraces = n,
                        .no_trace_reason = n ? NULL : reason};
  sm.values = malloc(r->nfields * sizeof *sm.values);
  sm.values_na = malloc(r->nfields * sizeof *sm.values_na);
  double *scratch = malloc((n + 1) * sizeof *scratch);
  tc_err e = sm.values && sm.values_na && scratch ? TC_OK : TC_E_NOMEM;
  if (!e)
    e = reduce_site(r, &sm, traces, scratch);
  tc_bin_buf b;
  tc_bin_buf_init(&b);
  for (size_t i = 0; !e && i < n; i++) {
    r->ntraces_unreadable += unreadable(traces[i]);
    for (int g = 0; g < TC_GROUP_COUNT_; g++)
      r->na_traces[g][tc_metric_group_na(traces[i], (tc_metric_group)g)]++;
    b.len = 0;
    tc_metrics_encode(traces[i], &b);
    e = b.err ? b.err : tc_spill_append(&r->trace_rows, b.ptr, b.len);
  }
  if (!e) {
    b.len = 0;
    encode_site(r, &sm, &b);
    e = b.err ? b.err : tc_spill_append(&r->site_rows, b.ptr, b.len);
  }
  tc_bin_buf_free(&b);
  free(sm.values);
  free(sm.values_na);
  free(scratch);
  if (!e) {
    r->ntraces += n;
    r->nsites++;
    r->nsites_without_trace += !n;
  }
  return e;
}

tc_err tc_metrics_reduction_seal(tc_metrics_reduction *r) {
  tc_err e = tc_spill_flush(&r->trace_rows);
  return e ? e : tc_spill_flush(&r->site_rows);
}

/* ---- reading back ---- */

tc_err tc_metrics_cursor_init(tc_metrics_cursor *c, const tc_metrics_reduction *r) {
  memset(c, 0, sizeof *c);
  c->r = r;
  c->site.values = malloc((r->nfields + 1) * sizeof *c->site.values);
  c->site.values_na = malloc((r->nfields + 1) * sizeof *c->site.values_na);
  if (!c->site.values || !c->site.values_na)
    return c->err = TC_E_NOMEM;
  return TC_OK;
}

static void fail(tc_metrics_cursor *c, tc_err e) {
  if (!c->err)
    c->err = e;
}

const tc_trace_metrics *tc_metrics_cursor_trace(tc_metrics_cursor *c, size_t i) {
  tc_trace_metrics_free(c->trace);
  c->trace = NULL;
  size_t len;
  tc_err e = tc_spill_read(&c->r->trace_rows, i, &c->buf, &c->cap, &len);
  if (!e) {
    tc_bin_reader rd;
    tc_bin_reader_init(&rd, c->buf, len, 0);
    e = tc_metrics_decode(&rd, &c->trace);
    if (!e)
      e = tc_bin_finish(&rd);
  }
  if (e || !c->trace) {
    fail(c, e ? e : TC_E_BAD_BINARY);
    tc_trace_metrics_free(c->trace);
    c->trace = NULL;
    memset(&c->empty_trace, 0, sizeof c->empty_trace);
    return &c->empty_trace;
  }
  return c->trace;
}

const tc_site_metrics *tc_metrics_cursor_site(tc_metrics_cursor *c, size_t i) {
  tc_site_metrics *s = &c->site;
  free(c->site_name);
  free(c->site_reason);
  c->site_name = c->site_reason = NULL;
  double *values = s->values;
  tc_na *values_na = s->values_na;
  memset(s, 0, sizeof *s);
  s->values = values;
  s->values_na = values_na;
  size_t nf = c->r->nfields;
  if (!values || !values_na)
    return s;
  size_t len;
  tc_err e = tc_spill_read(&c->r->site_rows, i, &c->buf, &c->cap, &len);
  int nomem = 0;
  if (!e) {
    tc_bin_reader rd;
    tc_bin_reader_init(&rd, c->buf, len, 0);
    s->site = c->site_name = get_opt(&rd, &nomem);
    s->no_trace_reason = c->site_reason = get_opt(&rd, &nomem);
    s->first = (size_t)tc_bin_get_uvar(&rd);
    s->ntraces = (size_t)tc_bin_get_uvar(&rd);
    s->unreadable = (uint32_t)tc_bin_get_uvar(&rd);
    for (int g = 0; g < TC_GROUP_COUNT_; g++) {
      s->na[g] = (tc_na)tc_bin_get_u8(&rd);
      s->measured[g] = (uint32_t)tc_bin_get_uvar(&rd);
    }
    for (size_t f = 0; f < nf; f++) {
      values[f] = tc_bin_get_f64(&rd);
      values_na[f] = (tc_na)tc_bin_get_u8(&rd);
    }
    e = nomem ? TC_E_NOMEM : tc_bin_finish(&rd);
  }
  if (e) {
    fail(c, e);
    free(c->site_name);
    free(c->site_reason);
    c->site_name = c->site_reason = NULL;
    memset(s, 0, sizeof *s);
    s->values = values;
    s->values_na = values_na;
    for (size_t f = 0; f < nf; f++) {
      values[f] = NAN;
      values_na[f] = TC_NA_NONE;
    }
  }
  return s;
}

tc_err tc_metrics_cursor_free(tc_metrics_cursor *c) {
  tc_err e = c->err;
  tc_trace_metrics_free(c->trace);
  free(c->site_name);
  free(c->site_reason);
  free(c->site.values);
  free(c->site.values_na);
  free(c->buf);
  memset(c, 0, sizeof *c);
  return e;
}
