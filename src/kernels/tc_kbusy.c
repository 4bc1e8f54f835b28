/* Step 4b: bucketed busy rate.
 *
 * The top-level tasks are merged into a union first, so overlapping tasks
 * are never counted twice, and each merged interval is charged only to the
 * buckets it covers, found from its start and end: the cost is
 * tasks + buckets, never tasks x buckets. A bucket that meets an invalid
 * stretch (hidden, suspended, clock jump) is discarded. The mean is time-weighted over the valid
 * buckets; median, p95 and max take each valid bucket as one sample, except
 * a last bucket shorter than half a bucket (too short to be one) unless it
 * is the only valid one. The bucket is the job's unless the window would
 * hold more than the input justifies (tc_kfinish.c raises it then). */
#include <math.h>
#include <stdlib.h>

#include "kernels/tc_ksteps.h"

static void charge(const tc_kctx *c, double bucket_us, size_t nb, double *busy, double s,
                   double e) {
  double a = (s > c->ws ? s : c->ws) - c->ws, b = (e < c->we ? e : c->we) - c->ws;
  if (!(b > a) || nb == 0)
    return;
  size_t first = (size_t)floor(a / bucket_us), last = (size_t)floor(b / bucket_us);
  if (last > first && (double)last * bucket_us >= b)
    last--; /* ends exactly on a bucket edge */
  if (last >= nb)
    last = nb - 1;
  for (size_t i = first; i <= last; i++) {
    double bs = (double)i * bucket_us, be = bs + bucket_us;
    busy[i] += (b < be ? b : be) - (a > bs ? a : bs);
  }
}

tc_err tc__kbusy_compute(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m) {
  tc_busy_metrics *bm = &m->busy;
  if (c->task_events == 0) {
    bm->na = TC_NA_NO_TASKS;
    return TC_OK;
  }
  (void)k;
  double bucket_us = c->bucket_us;
  size_t nb = tc__kbuckets(c);
  tc_kspan *u = malloc((c->ntops + 1) * sizeof *u);
  double *busy = calloc(nb + 1, sizeof *busy);
  double *pct = malloc((nb + 1) * sizeof *pct);
  bm->series_pct = malloc((nb + 1) * sizeof *bm->series_pct);
  if (!u || !busy || !pct || !bm->series_pct) {
    free(u);
    free(busy);
    free(pct);
    return TC_E_NOMEM;
  }
  for (size_t i = 0; i < c->ntops; i++)
    u[i] = (tc_kspan){c->tops[i].s, c->tops[i].e};
  size_t nu = tc__kspans_union(u, c->ntops);
  for (size_t i = 0; i < nu; i++)
    charge(c, bucket_us, nb, busy, u[i].s, u[i].e);

  double busy_sum = 0, len_sum = 0;
  size_t npct = 0;
  for (size_t i = 0; i < nb; i++) {
    double bs, be;
    tc__kbucket(c, i, &bs, &be);
    int r = tc__kvalid_reason(c, bs, be);
    if (r >= 0) {
      m->discarded[TC_SAMPLE_BUCKET][r]++;
      bm->series_pct[i] = NAN;
      continue;
    }
    double p = tc__kround(100.0 * busy[i] / (be - bs));
    bm->series_pct[i] = p;
    busy_sum += busy[i];
    len_sum += be - bs;
    if (i + 1 < nb || be - bs >= bucket_us / 2 || npct == 0)
      pct[npct++] = p;
  }
  bm->nseries = (uint32_t)nb;
  bm->buckets = (uint32_t)npct;
  for (size_t i = 0; i < c->ntops; i++)
    bm->tasks += c->tops[i].invalid < 0;
  if (len_sum == 0) {
    bm->na = TC_NA_ALL_INVALID;
  } else {
    double mean;
    bm->mean_pct = tc__kround(100.0 * busy_sum / len_sum);
    tc__ksummary(pct, npct, &mean, &bm->p50_pct, &bm->p95_pct, &bm->max_pct);
  }
  free(u);
  free(busy);
  free(pct);
  return TC_OK;
}
