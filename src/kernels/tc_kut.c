/* Step 5c: user timing.
 *
 * Measures are async begin/end pairs on blink.user_timing in the main
 * renderer(s), paired on (pid, name, id) in file order, the innermost open
 * begin first. A measure belongs to the window when it begins inside it.
 * Reported per name: count, mean, median, p95, max. Unclosed: begins with no
 * end, and marks "<x>:start" with no "<x>:end" (the harness's naming). */
#include <stdlib.h>
#include <string.h>

#include "kernels/tc_ksteps.h"

static int async_cmp(const void *pa, const void *pb) {
  const tc_kasync *a = pa, *b = pb;
  if (a->pid != b->pid)
    return (a->pid > b->pid) - (a->pid < b->pid);
  int r = strcmp(a->name, b->name);
  if (r)
    return r;
  if ((r = strcmp(a->id, b->id)))
    return r;
  return (a->index > b->index) - (a->index < b->index);
}

static int same_key(const tc_kasync *a, const tc_kasync *b) {
  return a->pid == b->pid && strcmp(a->name, b->name) == 0 && strcmp(a->id, b->id) == 0;
}

typedef struct {
  const char *name;
  double ms;
} named;

static int named_cmp(const void *pa, const void *pb) {
  const named *a = pa, *b = pb;
  int r = strcmp(a->name, b->name);
  if (r)
    return r;
  return (a->ms > b->ms) - (a->ms < b->ms);
}

static int unclosed_cmp(const void *pa, const void *pb) {
  return strcmp(((const tc_ut_unclosed *)pa)->name, ((const tc_ut_unclosed *)pb)->name);
}

static int in_window(const tc_kctx *c, int64_t pid, double ts) {
  return tc__kctx_is_main_pid(c, pid) && ts >= c->ws && ts <= c->we;
}

/* Adds COUNT unclosed NAME to U, merging repeats later. */
static tc_err add_unclosed(tc_ut_metrics *u, size_t *cap, const char *name, uint32_t count) {
  tc_err e = TC_GROW(u->unclosed, *cap, u->nunclosed + 1);
  if (e)
    return e;
  char *d = strdup(name);
  if (!d)
    return TC_E_NOMEM;
  u->unclosed[u->nunclosed++] = (tc_ut_unclosed){d, count};
  return TC_OK;
}

static tc_err pair_measures(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m, named *out,
                            size_t *nout, size_t *cap) {
  tc_kasync *v = k->async.v;
  size_t n = k->async.n;
  tc__ksort(v, n, sizeof *v, async_cmp);
  size_t *open = malloc((n + 1) * sizeof *open);
  if (!open)
    return TC_E_NOMEM;
  for (size_t i = 0; i < n;) {
    size_t j = i, nopen = 0;
    for (; j < n && same_key(&v[j], &v[i]); j++) {
      if (v[j].begin) {
        open[nopen++] = j;
        continue;
      }
      if (nopen == 0)
        continue; /* an end whose begin came before the trace */
      const tc_kasync *b = &v[open[--nopen]];
      if (!in_window(c, b->pid, b->ts))
        continue;
      if (v[j].ts < b->ts) {
        m->discarded[TC_SAMPLE_MEASURE][TC_INVALID_CLOCK_BACKWARDS]++;
        continue;
      }
      int r = tc__kvalid_reason(c, b->ts, v[j].ts);
      if (r >= 0) {
        m->discarded[TC_SAMPLE_MEASURE][r]++;
        continue;
      }
      out[(*nout)++] = (named){b->name, (v[j].ts - b->ts) / 1e3};
    }
    uint32_t unclosed = 0;
    for (size_t o = 0; o < nopen; o++)
      unclosed += in_window(c, v[open[o]].pid, v[open[o]].ts);
    if (unclosed && add_unclosed(&m->user_timing, cap, v[i].name, unclosed)) {
      free(open);
      return TC_E_NOMEM;
    }
    i = j;
  }
  free(open);
  return TC_OK;
}

/* "<x>:start" marks minus "<x>:end" marks, per x, in the window. */
static tc_err unclosed_marks(tc_kernels *k, tc_kctx *c, tc_ut_metrics *u, size_t *cap) {
  static const char start[] = ":start", end[] = ":end";
  for (size_t i = 0; i < k->marks.n; i++) {
    const tc_kmark *mk = &k->marks.v[i];
    size_t len = strlen(mk->name);
    if (len < sizeof start - 1 || strcmp(mk->name + len - (sizeof start - 1), start) != 0 ||
        !in_window(c, mk->pid, mk->ts))
      continue;
    size_t prefix = len - (sizeof start - 1);
    int starts = 0, ends = 0, earlier = 0;
    for (size_t j = 0; j < k->marks.n; j++) {
      const tc_kmark *o = &k->marks.v[j];
      if (!in_window(c, o->pid, o->ts) || strncmp(o->name, mk->name, prefix) != 0)
        continue;
      if (strcmp(o->name + prefix, start) == 0) {
        starts++;
        earlier |= j < i;
      } else if (strcmp(o->name + prefix, end) == 0) {
        ends++;
      }
    }
    if (earlier || starts <= ends)
      continue; /* each name is reported once, at its first start mark */
    if (add_unclosed(u, cap, mk->name, (uint32_t)(starts - ends)))
      return TC_E_NOMEM;
  }
  return TC_OK;
}

tc_err tc__kut_compute(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m) {
  tc_ut_metrics *u = &m->user_timing;
  named *ms = malloc((k->async.n + 1) * sizeof *ms);
  if (!ms)
    return TC_E_NOMEM;
  size_t n = 0, cap = 0;
  tc_err e = pair_measures(k, c, m, ms, &n, &cap);
  if (!e)
    e = unclosed_marks(k, c, u, &cap);
  if (e) {
    free(ms);
    return e;
  }
  tc__ksort(u->unclosed, u->nunclosed, sizeof *u->unclosed, unclosed_cmp);
  size_t merged = 0;
  for (size_t i = 0; i < u->nunclosed; i++) {
    if (merged && strcmp(u->unclosed[merged - 1].name, u->unclosed[i].name) == 0) {
      u->unclosed[merged - 1].count += u->unclosed[i].count;
      free(u->unclosed[i].name);
    } else {
      u->unclosed[merged++] = u->unclosed[i];
    }
  }
  u->nunclosed = (uint32_t)merged;

  tc__ksort(ms, n, sizeof *ms, named_cmp);
  size_t groups = 0;
  for (size_t i = 0; i < n; i++)
    groups += i == 0 || strcmp(ms[i].name, ms[i - 1].name) != 0;
  u->measures = calloc(groups + 1, sizeof *u->measures);
  double *vals = malloc((n + 1) * sizeof *vals);
  if (!u->measures || !vals) {
    free(ms);
    free(vals);
    return TC_E_NOMEM;
  }
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && strcmp(ms[j].name, ms[i].name) == 0) {
      vals[j - i] = ms[j].ms;
      j++;
    }
    tc_ut_measure *g = &u->measures[u->nmeasures];
    if (!(g->name = strdup(ms[i].name))) {
      free(ms);
      free(vals);
      return TC_E_NOMEM;
    }
    u->nmeasures++;
    g->count = (uint32_t)(j - i);
    u->count += g->count;
    tc__ksummary(vals, j - i, &g->mean_ms, &g->p50_ms, &g->p95_ms, &g->max_ms);
    i = j;
  }
  if (u->nmeasures == 0)
    u->na = TC_NA_NO_MEASURES;
  free(ms);
  free(vals);
  return TC_OK;
}
