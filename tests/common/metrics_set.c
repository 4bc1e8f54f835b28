#include "metrics_set.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/tc_grow.h"
#include "util/tc_str.h"

static tc_str str_of(const char *s) {
  return tc_str_c(s ? s : "");
}

typedef struct {
  char *site, *reason;
} no_trace;

struct tc_metrics_set {
  pthread_mutex_t lock; /* guards every field below */
  tc_trace_metrics **traces;
  size_t n, cap;
  no_trace *empty; /* sites without trace, in the order registered */
  size_t nempty, capempty;
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
  for (size_t i = 0; i < s->nempty; i++) {
    free(s->empty[i].site);
    free(s->empty[i].reason);
  }
  free(s->empty);
  pthread_mutex_destroy(&s->lock);
  free(s);
}

/* Appends under the lock held by the caller; all or nothing. */
static tc_err append(tc_metrics_set *s, tc_trace_metrics **v, size_t n,
                     const no_trace *empty, size_t nempty) {
  if (TC_GROW(s->traces, s->cap, s->n + n) || TC_GROW(s->empty, s->capempty, s->nempty + nempty))
    return TC_E_NOMEM;
  if (n)
    memcpy(s->traces + s->n, v, n * sizeof *v);
  s->n += n;
  if (nempty)
    memcpy(s->empty + s->nempty, empty, nempty * sizeof *empty);
  s->nempty += nempty;
  return TC_OK;
}

tc_err tc_metrics_set_add(tc_metrics_set *s, tc_trace_metrics *m) {
  pthread_mutex_lock(&s->lock);
  tc_err e = append(s, &m, 1, NULL, 0);
  pthread_mutex_unlock(&s->lock);
  if (e)
    tc_trace_metrics_free(m);
  return e;
}

static char *dup_or_null(const char *s, int *nomem) {
  if (!s)
    return NULL;
  char *d = strdup(s);
  *nomem |= !d;
  return d;
}

tc_err tc_metrics_set_add_site_without_trace(tc_metrics_set *s, const char *site,
                                             const char *reason) {
  int nomem = 0;
  no_trace v = {dup_or_null(site ? site : "", &nomem), dup_or_null(reason, &nomem)};
  tc_err e = TC_E_NOMEM;
  if (!nomem) {
    pthread_mutex_lock(&s->lock);
    e = append(s, NULL, 0, &v, 1);
    pthread_mutex_unlock(&s->lock);
  }
  if (e) {
    free(v.site);
    free(v.reason);
  }
  return e;
}

size_t tc_metrics_set_count(const tc_metrics_set *s) {
  return s->n;
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
  if (!a->error != !b->error)
    return a->error ? 1 : -1;
  return a->error ? strcmp(a->error, b->error) : 0;
}

/* Site, then reason (none first): a site registered twice keeps its first. */
static int no_trace_cmp(const void *pa, const void *pb) {
  const no_trace *a = *(const no_trace *const *)pa, *b = *(const no_trace *const *)pb;
  int r = tc_str_cmp(str_of(a->site), str_of(b->site));
  if (r || !a->reason != !b->reason)
    return r ? r : (a->reason ? 1 : -1);
  return a->reason ? strcmp(a->reason, b->reason) : 0;
}

/* The sites of the sorted traces T and of the sorted sites without trace V
 * in one bytewise order: a site with traces is reported from them, and a
 * site registered twice without any by its first reason. */
static tc_err add_sorted(tc_metrics_reduction *r, const tc_trace_metrics **t, size_t nt,
                         const no_trace **v, size_t nv) {
  size_t i = 0, k = 0;
  tc_err e = TC_OK;
  while (!e && (i < nt || k < nv)) {
    tc_str ts = i < nt ? str_of(t[i]->site) : (tc_str){NULL, 0};
    tc_str vs = k < nv ? str_of(v[k]->site) : (tc_str){NULL, 0};
    int c = i == nt ? 1 : k == nv ? -1 : tc_str_cmp(ts, vs);
    if (c <= 0) {
      size_t j = i;
      while (j < nt && tc_str_eq(str_of(t[j]->site), ts))
        j++;
      e = tc_metrics_reduction_add_site(r, t[i]->site, t + i, j - i, NULL);
      i = j;
    } else {
      e = tc_metrics_reduction_add_site(r, v[k]->site, NULL, 0, v[k]->reason);
    }
    /* Every registration of a site already reported is skipped. */
    tc_str done = c <= 0 ? ts : vs;
    while (k < nv && tc_str_eq(str_of(v[k]->site), done))
      k++;
  }
  return e;
}

tc_err tc_metrics_reduce(const tc_metrics_set *s, tc_metrics_reduction **out) {
  *out = NULL;
  tc_metrics_reduction *r = tc_metrics_reduction_create();
  const tc_trace_metrics **t = malloc((s->n + 1) * sizeof *t);
  const no_trace **v = malloc((s->nempty + 1) * sizeof *v);
  tc_err e = r && t && v ? TC_OK : TC_E_NOMEM;
  if (!e) {
    if (s->n)
      memcpy(t, s->traces, s->n * sizeof *t);
    qsort(t, s->n, sizeof *t, trace_cmp);
    for (size_t i = 0; i < s->nempty; i++)
      v[i] = &s->empty[i];
    qsort(v, s->nempty, sizeof *v, no_trace_cmp);
    e = add_sorted(r, t, s->n, v, s->nempty);
  }
  if (!e)
    e = tc_metrics_reduction_seal(r);
  free(t);
  free(v);
  if (e)
    tc_metrics_reduction_free(r);
  else
    *out = r;
  return e;
}

