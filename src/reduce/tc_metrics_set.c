#include "reduce/tc_metrics_set.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/tc_str.h"

struct tc_metrics_set {
  pthread_mutex_t lock; /* guards traces, n, cap */
  tc_trace_metrics **traces;
  size_t n, cap;
};

tc_metrics_set *tc_metrics_set_create(void) {
  tc_metrics_set *s = calloc(1, sizeof *s);
  if (!s)
    return NULL;
  if (pthread_mutex_init(&s->lock, NULL) != 0) {
    free(s);
    return NULL;
  }
  return s;
}

void tc_metrics_set_free(tc_metrics_set *s) {
  if (!s)
    return;
  for (size_t i = 0; i < s->n; i++)
    tc_trace_metrics_free(s->traces[i]);
  free(s->traces);
  pthread_mutex_destroy(&s->lock);
  free(s);
}

/* Appends under the lock held by the caller. */
static tc_err append(tc_metrics_set *s, tc_trace_metrics **v, size_t n) {
  if (s->n + n > s->cap) {
    size_t cap = s->cap ? s->cap : 64;
    while (cap < s->n + n)
      cap *= 2;
    tc_trace_metrics **nv = realloc(s->traces, cap * sizeof *nv);
    if (!nv)
      return TC_E_NOMEM;
    s->traces = nv;
    s->cap = cap;
  }
  if (n)
    memcpy(s->traces + s->n, v, n * sizeof *v);
  s->n += n;
  return TC_OK;
}

tc_err tc_metrics_set_add(tc_metrics_set *s, tc_trace_metrics *m) {
  pthread_mutex_lock(&s->lock);
  tc_err e = append(s, &m, 1);
  pthread_mutex_unlock(&s->lock);
  if (e)
    tc_trace_metrics_free(m);
  return e;
}

tc_err tc_metrics_set_merge(tc_metrics_set *dst, tc_metrics_set *src) {
  pthread_mutex_lock(&dst->lock);
  tc_err e = append(dst, src->traces, src->n);
  pthread_mutex_unlock(&dst->lock);
  if (!e)
    src->n = 0;
  return e;
}

size_t tc_metrics_set_count(const tc_metrics_set *s) {
  return s->n;
}

static tc_str str_of(const char *s) {
  return tc_str_c(s ? s : "");
}

/* Site, then trace path; duplicates of both fall back to what was measured,
 * so even they come out in one order. */
static int trace_cmp(const void *pa, const void *pb) {
  const tc_trace_metrics *a = *(const tc_trace_metrics *const *)pa;
  const tc_trace_metrics *b = *(const tc_trace_metrics *const *)pb;
  int r = tc_str_cmp(str_of(a->site), str_of(b->site));
  if (!r)
    r = tc_str_cmp(str_of(a->trace), str_of(b->trace));
  if (r)
    return r;
  size_t nf;
  const tc_metric_field *f = tc_metric_fields(&nf);
  for (size_t i = 0; i < nf; i++) {
    double x = tc_metric_value(a, &f[i]), y = tc_metric_value(b, &f[i]);
    if (isnan(x) != isnan(y))
      return isnan(x) ? 1 : -1;
    if (!isnan(x) && x != y)
      return x < y ? -1 : 1;
  }
  return 0;
}

static int dbl_cmp(const void *pa, const void *pb) {
  double a = *(const double *)pa, b = *(const double *)pb;
  return (a > b) - (a < b);
}

void tc_metrics_reduction_free(tc_metrics_reduction *r) {
  if (!r)
    return;
  for (size_t i = 0; i < r->nsites; i++)
    free(r->sites[i].values);
  free(r->sites);
  if (r->corpus)
    for (size_t i = 0; i < r->nfields; i++)
      tc_sketch_free(&r->corpus[i]);
  free(r->corpus);
  free(r->traces);
  free(r);
}

static tc_err reduce_site(tc_metrics_reduction *r, tc_site_metrics *site, double *scratch) {
  const tc_trace_metrics **t = r->traces + site->first;
  for (int g = 0; g < TC_GROUP_COUNT_; g++) {
    site->na[g] = tc_metric_group_na(t[0], (tc_metric_group)g);
    for (size_t i = 0; i < site->ntraces; i++)
      site->measured[g] += tc_metric_group_na(t[i], (tc_metric_group)g) == TC_NA_NONE;
    if (site->measured[g])
      site->na[g] = TC_NA_NONE;
  }
  site->values = malloc(r->nfields * sizeof *site->values);
  if (!site->values)
    return TC_E_NOMEM;
  for (size_t f = 0; f < r->nfields; f++) {
    size_t n = 0;
    for (size_t i = 0; i < site->ntraces; i++) {
      double v = tc_metric_value(t[i], &r->fields[f]);
      if (!isnan(v))
        scratch[n++] = v;
    }
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

tc_err tc_metrics_reduce(const tc_metrics_set *s, tc_metrics_reduction **out) {
  *out = NULL;
  tc_metrics_reduction *r = calloc(1, sizeof *r);
  if (!r)
    return TC_E_NOMEM;
  r->fields = tc_metric_fields(&r->nfields);
  r->ntraces = s->n;
  r->traces = malloc((s->n + 1) * sizeof *r->traces);
  r->sites = calloc(s->n + 1, sizeof *r->sites);
  r->corpus = calloc(r->nfields, sizeof *r->corpus);
  double *scratch = malloc((s->n + 1) * sizeof *scratch);
  tc_err e = TC_E_NOMEM;
  if (!r->traces || !r->sites || !r->corpus || !scratch)
    goto fail;
  if (s->n) {
    memcpy(r->traces, s->traces, s->n * sizeof *r->traces);
    qsort(r->traces, r->ntraces, sizeof *r->traces, trace_cmp);
  }
  for (size_t i = 0; i < r->ntraces; i++)
    for (int g = 0; g < TC_GROUP_COUNT_; g++)
      r->na_traces[g][tc_metric_group_na(r->traces[i], (tc_metric_group)g)]++;
  for (size_t i = 0; i < r->ntraces;) {
    size_t j = i;
    while (j < r->ntraces &&
           tc_str_eq(str_of(r->traces[j]->site), str_of(r->traces[i]->site)))
      j++;
    tc_site_metrics *site = &r->sites[r->nsites++];
    site->site = r->traces[i]->site ? r->traces[i]->site : "";
    site->first = i;
    site->ntraces = j - i;
    if ((e = reduce_site(r, site, scratch)))
      goto fail;
    i = j;
  }
  free(scratch);
  *out = r;
  return TC_OK;
fail:
  free(scratch);
  tc_metrics_reduction_free(r);
  return e;
}
