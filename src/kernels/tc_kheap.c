/* Step 5b: JS heap from UpdateCounters args.data.jsHeapSizeUsed in the main
 * renderer(s).
 *
 * Samples are sparse, so the value at any moment is the latest sample at or
 * before it (forward fill). The start is the value at the window start (the
 * last sample before it, else the first inside), the end the last sample
 * inside; the series holds, per bucket of the busy-rate grid, the value at
 * the bucket's end. Heap samples are not discarded for validity: a hidden
 * page's heap is still its heap. */
#include <math.h>
#include <stdlib.h>

#include "kernels/tc_ksteps.h"

static int sample_cmp(const void *pa, const void *pb) {
  const tc_ksample *a = pa, *b = pb;
  if (a->ts != b->ts)
    return a->ts < b->ts ? -1 : 1;
  return (a->value > b->value) - (a->value < b->value);
}

tc_err tc__kheap_compute(tc_kernels *k, tc_kctx *c, tc_trace_metrics *m) {
  tc_heap_metrics *h = &m->heap;
  size_t n = 0;
  for (size_t i = 0; i < k->heap.n; i++)
    if (tc__kctx_is_main_pid(c, k->heap.v[i].pid) && k->heap.v[i].ts <= c->we)
      k->heap.v[n++] = k->heap.v[i];
  tc__ksort(k->heap.v, n, sizeof *k->heap.v, sample_cmp);
  const tc_ksample *s = k->heap.v;
  size_t first = 0; /* first sample inside the window */
  while (first < n && s[first].ts < c->ws)
    first++;
  if (n == 0) {
    h->na = TC_NA_NO_HEAP;
    return TC_OK;
  }
  h->samples = (uint32_t)(n - first);
  h->start_bytes = first > 0 ? s[first - 1].value : s[first].value;
  h->end_bytes = s[n - 1].value;
  h->growth_bytes = h->end_bytes - h->start_bytes;
  h->max_bytes = h->start_bytes;
  for (size_t i = first; i < n; i++)
    if (s[i].value > h->max_bytes)
      h->max_bytes = s[i].value;

  size_t nb = tc__kbuckets(c);
  h->series_bytes = malloc((nb + 1) * sizeof *h->series_bytes);
  if (!h->series_bytes)
    return TC_E_NOMEM;
  h->nseries = (uint32_t)nb;
  size_t next = 0, filled = 0;
  double sum = 0;
  for (size_t b = 0; b < nb; b++) {
    double bs, be;
    tc__kbucket(c, b, &bs, &be);
    while (next < n && s[next].ts <= be)
      next++;
    h->series_bytes[b] = next > 0 ? s[next - 1].value : NAN;
    if (next > 0) {
      sum += s[next - 1].value;
      filled++;
    }
  }
  h->mean_bytes = filled ? sum / (double)filled : NAN;
  return TC_OK;
}
