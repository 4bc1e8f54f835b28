#include "reduce/tc_values.h"

#include <pthread.h>
#include <stdlib.h>

struct tc_vcorpus {
  pthread_mutex_t mu;  /* guards everything below */
  tc_vtab *all;        /* traces [0, next) merged */
  /* by trace: offered while an earlier one was not, waiting for it, as
   * tc_vtab_encode wrote it (a fraction of the live table) */
  struct waiting {
    unsigned char *bytes; /* owned; NULL for a trace that left no values */
    size_t len;
  } *pending;
  uint8_t *offered;    /* by trace */
  uint32_t ntraces, next;
  tc_err err;
};

static void vtab_drop(tc_vtab *t) {
  if (t) {
    tc_vtab_free(t);
    free(t);
  }
}

tc_vcorpus *tc_vcorpus_create(uint32_t ntraces, uint32_t flags) {
  tc_vcorpus *c = calloc(1, sizeof *c);
  if (!c)
    return NULL;
  c->ntraces = ntraces;
  c->all = malloc(sizeof *c->all);
  c->pending = calloc(ntraces ? ntraces : 1, sizeof *c->pending);
  c->offered = calloc(ntraces ? ntraces : 1, 1);
  if (!c->all || !c->pending || !c->offered) {
    free(c->all);
    free(c->pending);
    free(c->offered);
    free(c);
    return NULL;
  }
  tc_vtab_init(c->all, flags, 0);
  pthread_mutex_init(&c->mu, NULL);
  return c;
}

void tc_vcorpus_free(tc_vcorpus *c) {
  if (!c)
    return;
  for (uint32_t i = 0; i < c->ntraces; i++)
    free(c->pending[i].bytes);
  vtab_drop(c->all);
  free(c->pending);
  free(c->offered);
  pthread_mutex_destroy(&c->mu);
  free(c);
}

/* The table of a trace that must wait, encoded; the live one is freed. */
static tc_err park(struct waiting *w, tc_vtab *t) {
  tc_bin_buf b;
  tc_bin_buf_init(&b);
  tc_vtab_encode(t, &b);
  vtab_drop(t);
  w->bytes = tc_bin_buf_take(&b, &w->len);
  return w->bytes ? TC_OK : TC_E_NOMEM;
}

tc_err tc_vcorpus_offer(tc_vcorpus *c, uint32_t trace, tc_vtab *t) {
  /* Encoding a waiting table needs no lock: no one else touches it. */
  struct waiting w = {NULL, 0};
  pthread_mutex_lock(&c->mu);
  int now = trace == c->next;
  pthread_mutex_unlock(&c->mu);
  tc_err pe = !now && t ? park(&w, t) : TC_OK;
  pthread_mutex_lock(&c->mu);
  if (pe && !c->err)
    c->err = pe;
  if (now) {
    if (t && !c->err)
      c->err = tc_vtab_merge(c->all, t);
    vtab_drop(t);
    c->next++;
  } else {
    c->pending[trace] = w;
    c->offered[trace] = 1;
  }
  while (c->next < c->ntraces && c->offered[c->next]) {
    struct waiting *x = &c->pending[c->next++];
    if (x->bytes && !c->err)
      c->err = tc_vtab_merge_encoded(c->all, x->bytes, x->len);
    free(x->bytes);
    *x = (struct waiting){NULL, 0};
  }
  tc_err e = c->err;
  pthread_mutex_unlock(&c->mu);
  return e;
}

tc_err tc_census_take_values(tc_census_result *r, tc_vcorpus *c) {
  tc_err e = c->err;
  if (!e && c->next != c->ntraces)
    e = TC_E_USAGE;
  if (!e) {
    r->values = c->all;
    c->all = NULL;
    for (size_t i = 0; i < r->nevents; i++) {
      tc_res_event *re = &r->events[i];
      for (size_t a = 0; a < re->nargs; a++)
        re->args[a].values = tc_vtab_find(r->values, re->name, re->args[a].path);
    }
  }
  tc_vcorpus_free(c);
  return e;
}
