#include "reduce/tc_values.h"

#include <pthread.h>
#include <stdlib.h>

struct tc_vcorpus {
  pthread_mutex_t mu;  /* guards everything below */
  tc_vtab *all;        /* traces [0, next) merged */
  tc_vtab **pending;   /* by trace: offered, waiting for an earlier one */
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
    vtab_drop(c->pending[i]);
  vtab_drop(c->all);
  free(c->pending);
  free(c->offered);
  pthread_mutex_destroy(&c->mu);
  free(c);
}

tc_err tc_vcorpus_offer(tc_vcorpus *c, uint32_t trace, tc_vtab *t) {
  pthread_mutex_lock(&c->mu);
  c->pending[trace] = t;
  c->offered[trace] = 1;
  while (c->next < c->ntraces && c->offered[c->next]) {
    tc_vtab *x = c->pending[c->next];
    c->pending[c->next++] = NULL;
    if (x && !c->err)
      c->err = tc_vtab_merge(c->all, x);
    vtab_drop(x);
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
