#include "reduce/tc_site_lists.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

tc_err tc__each_spilled(const tc_spill *sp, size_t size, void (*visit)(void *ctx, const void *rec),
                        void *ctx) {
  unsigned char *buf = NULL; /* malloc'd: aligned for any record */
  size_t cap = 0, len;
  tc_err e = TC_OK;
  for (size_t s = 0; !e && s < tc_spill_count(sp); s++) {
    if ((e = tc_spill_read(sp, s, &buf, &cap, &len)))
      break;
    for (size_t i = 0; i < len / size; i++)
      visit(ctx, buf + i * size);
  }
  free(buf);
  return e;
}

static int cmp_site(const void *a, const void *b) {
  uint32_t x = ((const tc_res_site *)a)->site, y = ((const tc_res_site *)b)->site;
  return (x > y) - (x < y);
}

typedef struct {
  size_t (*slot)(void *ctx, const void *rec, tc_res_site *out);
  void *ctx;
  size_t nslots;
  size_t *at;       /* pass 0: each list's length; pass 1: where its next goes */
  tc_res_site *all; /* NULL in pass 0 */
} gather;

static void gather_one(void *ctx, const void *rec) {
  gather *g = ctx;
  tc_res_site s;
  size_t k = g->slot(g->ctx, rec, &s);
  if (k >= g->nslots)
    return;
  if (g->all)
    g->all[g->at[k]++] = s;
  else
    g->at[k]++;
}

tc_err tc__site_lists(const tc_spill *sp, size_t size, size_t nslots,
                      size_t (*slot)(void *ctx, const void *rec, tc_res_site *out), void *ctx,
                      tc_res_site **all, size_t *off) {
  *all = NULL;
  size_t *at = calloc(nslots + 1, sizeof *at);
  if (!at)
    return TC_E_NOMEM;
  gather g = {slot, ctx, nslots, at, NULL};
  tc_err e = tc__each_spilled(sp, size, gather_one, &g);
  if (!e) {
    off[0] = 0;
    for (size_t k = 0; k < nslots; k++) {
      off[k + 1] = off[k] + at[k];
      at[k] = off[k];
    }
    if (!(g.all = malloc((off[nslots] ? off[nslots] : 1) * sizeof *g.all)))
      e = TC_E_NOMEM;
  }
  if (!e)
    e = tc__each_spilled(sp, size, gather_one, &g);
  for (size_t k = 0; !e && k < nslots; k++)
    qsort(g.all + off[k], off[k + 1] - off[k], sizeof *g.all, cmp_site);
  free(at);
  if (e)
    free(g.all);
  else
    *all = g.all;
  return e;
}
