/* Shared helpers of the kernels: sorting, string copies, intervals, stats. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/tc_kstate.h"

void tc__ksort(void *v, size_t n, size_t elsz, int (*cmp)(const void *, const void *)) {
  if (n > 1)
    qsort(v, n, elsz, cmp);
}

char *tc__kdup(const char *s, int *nomem) {
  if (!s)
    return NULL;
  char *d = strdup(s);
  if (!d)
    *nomem = 1;
  return d;
}

static int span_cmp(const void *pa, const void *pb) {
  const tc_kspan *a = pa, *b = pb;
  if (a->s != b->s)
    return a->s < b->s ? -1 : 1;
  if (a->e != b->e)
    return a->e < b->e ? -1 : 1;
  return 0;
}

size_t tc__kspans_union(tc_kspan *v, size_t n) {
  if (n == 0)
    return 0;
  tc__ksort(v, n, sizeof *v, span_cmp);
  size_t out = 0;
  for (size_t i = 1; i < n; i++) {
    if (v[i].s <= v[out].e) {
      if (v[i].e > v[out].e)
        v[out].e = v[i].e;
    } else {
      v[++out] = v[i];
    }
  }
  return out + 1;
}

size_t tc__kspans_first_ending(const tc_kspan *v, size_t n, double x) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (v[mid].e < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

double tc__kspans_cover(const tc_kspan *v, size_t n, double s, double e) {
  double sum = 0;
  for (size_t i = tc__kspans_first_ending(v, n, s); i < n && v[i].s < e; i++) {
    double a = v[i].s > s ? v[i].s : s;
    double b = v[i].e < e ? v[i].e : e;
    if (b > a)
      sum += b - a;
  }
  return sum;
}

int tc__kspans_meet(const tc_kspan *v, size_t n, double s, double e) {
  for (size_t i = tc__kspans_first_ending(v, n, s); i < n && v[i].s <= e; i++) {
    if (v[i].e > v[i].s) {
      if (v[i].s < e && s < v[i].e)
        return 1;
    } else if (s < v[i].s && v[i].s < e) {
      return 1;
    }
  }
  return 0;
}

double tc__kquantile(const double *sorted, size_t n, double q) {
  if (n == 0)
    return NAN;
  size_t rank = (size_t)ceil(q * (double)n);
  if (rank < 1)
    rank = 1;
  if (rank > n)
    rank = n;
  return sorted[rank - 1];
}

static int dbl_cmp(const void *pa, const void *pb) {
  double a = *(const double *)pa, b = *(const double *)pb;
  return (a > b) - (a < b);
}

void tc__ksummary(double *v, size_t n, double *mean, double *p50, double *p95,
                 double *max) {
  if (n == 0) {
    *mean = *p50 = *p95 = *max = NAN;
    return;
  }
  tc__ksort(v, n, sizeof *v, dbl_cmp);
  double sum = 0;
  for (size_t i = 0; i < n; i++)
    sum += v[i];
  *mean = tc__kround(sum / (double)n);
  *p50 = n >= tc_min_samples(0.5) ? tc__kround(tc__kquantile(v, n, 0.5)) : NAN;
  *p95 = n >= tc_min_samples(0.95) ? tc__kround(tc__kquantile(v, n, 0.95)) : NAN;
  *max = tc__kround(v[n - 1]);
}

double tc__kround(double v) {
  if (!isfinite(v))
    return v;
  double r = round(v * 1e6) / 1e6;
  return r == 0 ? 0 : r; /* no "-0" in reports */
}
