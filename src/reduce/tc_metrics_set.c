#include "reduce/tc_metrics_set.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/tc_grow.h"
#include "util/tc_str.h"

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

static int site_cmp(const void *pa, const void *pb) {
  const tc_site_metrics *a = pa, *b = pb;
  return tc_str_cmp(str_of(a->site), str_of(b->site));
}

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

void tc_metrics_reduction_free(tc_metrics_reduction *r) {
  if (!r)
    return;
  for (size_t i = 0; i < r->nsites; i++) {
    free(r->sites[i].values);
    free(r->sites[i].values_na);
  }
  free(r->sites);
  if (r->corpus)
    for (size_t i = 0; i < r->nfields; i++)
      tc_sketch_free(&r->corpus[i]);
  free(r->corpus);
  free(r->traces);
  free(r);
}

/* A readable trace's reason says more than trace_unreadable does, so the
 * first readable trace speaks for an unmeasured group. */
static tc_na site_na(const tc_trace_metrics **t, size_t n, tc_metric_group g) {
  for (size_t i = 0; i < n; i++)
    if (!unreadable(t[i]))
      return tc_metric_group_na(t[i], g);
  return TC_NA_TRACE_UNREADABLE;
}

static tc_err reduce_site(tc_metrics_reduction *r, tc_site_metrics *site, double *scratch) {
  const tc_trace_metrics **t = r->traces + site->first;
  for (size_t i = 0; i < site->ntraces; i++)
    site->unreadable += unreadable(t[i]);
  for (int g = 0; g < TC_GROUP_COUNT_; g++) {
    for (size_t i = 0; i < site->ntraces; i++)
      site->measured[g] += tc_metric_group_na(t[i], (tc_metric_group)g) == TC_NA_NONE;
    site->na[g] = site->measured[g] ? TC_NA_NONE
                  : site->ntraces   ? site_na(t, site->ntraces, (tc_metric_group)g)
                                    : TC_NA_NO_TRACE;
  }
  site->values = malloc(r->nfields * sizeof *site->values);
  site->values_na = malloc(r->nfields * sizeof *site->values_na);
  if (!site->values || !site->values_na)
    return TC_E_NOMEM;
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

/* Adds the registered sites without trace that have no traces either, one
 * per site, to the sites with traces already in R (in order), then puts
 * them all in order. */
static tc_err add_sites_without_trace(tc_metrics_reduction *r, const tc_metrics_set *s,
                                      double *scratch) {
  const no_trace **v = malloc((s->nempty + 1) * sizeof *v);
  if (!v)
    return TC_E_NOMEM;
  for (size_t i = 0; i < s->nempty; i++)
    v[i] = &s->empty[i];
  if (s->nempty)
    qsort(v, s->nempty, sizeof *v, no_trace_cmp);
  size_t with_traces = r->nsites;
  tc_err e = TC_OK;
  for (size_t i = 0; i < s->nempty && !e; i++) {
    tc_site_metrics key = {.site = v[i]->site};
    if ((i && tc_str_eq(str_of(v[i]->site), str_of(v[i - 1]->site))) ||
        (with_traces && bsearch(&key, r->sites, with_traces, sizeof key, site_cmp)))
      continue;
    tc_site_metrics *site = &r->sites[r->nsites++];
    site->site = v[i]->site;
    site->no_trace_reason = v[i]->reason;
    site->first = r->ntraces;
    r->nsites_without_trace++;
    e = reduce_site(r, site, scratch);
  }
  free(v);
  if (r->nsites_without_trace)
    qsort(r->sites, r->nsites, sizeof *r->sites, site_cmp);
  return e;
}

tc_err tc_metrics_reduce(const tc_metrics_set *s, tc_metrics_reduction **out) {
  *out = NULL;
  tc_metrics_reduction *r = calloc(1, sizeof *r);
  if (!r)
    return TC_E_NOMEM;
  r->fields = tc_metric_fields(&r->nfields);
  r->ntraces = s->n;
  r->traces = malloc((s->n + 1) * sizeof *r->traces);
  r->sites = calloc(s->n + s->nempty + 1, sizeof *r->sites);
  r->corpus = calloc(r->nfields, sizeof *r->corpus);
  double *scratch = malloc((s->n + 1) * sizeof *scratch);
  tc_err e = TC_E_NOMEM;
  if (!r->traces || !r->sites || !r->corpus || !scratch)
    goto fail;
  if (s->n) {
    memcpy(r->traces, s->traces, s->n * sizeof *r->traces);
    qsort(r->traces, r->ntraces, sizeof *r->traces, trace_cmp);
  }
  for (size_t i = 0; i < r->ntraces; i++) {
    r->ntraces_unreadable += unreadable(r->traces[i]);
    for (int g = 0; g < TC_GROUP_COUNT_; g++)
      r->na_traces[g][tc_metric_group_na(r->traces[i], (tc_metric_group)g)]++;
  }
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
  if ((e = add_sites_without_trace(r, s, scratch)))
    goto fail;
  free(scratch);
  *out = r;
  return TC_OK;
fail:
  free(scratch);
  tc_metrics_reduction_free(r);
  return e;
}
