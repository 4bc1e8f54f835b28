#include "pipeline/tc_trace_values.h"

#include <stdlib.h>

#include "util/tc_grow.h"

tc_trace_values *tc_trace_values_new(uint32_t flags, uint64_t tag) {
  tc_trace_values *v = calloc(1, sizeof *v);
  if (v) {
    v->flags = flags;
    v->tag = tag;
  }
  return v;
}

void tc_trace_values_free(tc_trace_values *v) {
  if (!v)
    return;
  for (size_t i = 0; i < v->n; i++)
    tc_vtab_destroy(v->tabs[i]);
  free(v->tabs);
  free(v->pids);
  free(v);
}

tc_vtab *tc_trace_values_of(void *ctx, int64_t pid) {
  tc_trace_values *v = ctx;
  if (v->n && v->pids[v->last] == pid)
    return v->tabs[v->last];
  for (size_t i = 0; i < v->n; i++)
    if (v->pids[i] == pid) {
      v->last = i;
      return v->tabs[i];
    }
  size_t cap = v->cap;
  tc_vtab *t = tc_vtab_new(v->flags, v->tag);
  if (!t || TC_GROW(v->tabs, cap, v->n + 1) || TC_GROW(v->pids, v->cap, v->n + 1)) {
    tc_vtab_destroy(t);
    return NULL;
  }
  v->tabs[v->n] = t;
  v->pids[v->n] = pid;
  v->last = v->n++;
  return t;
}
