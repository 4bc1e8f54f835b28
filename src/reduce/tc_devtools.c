#include "reduce/tc_devtools.h"

#include <stdlib.h>
#include <string.h>

#include "kernels/tc_kevent.h"

#define SCALARS (TC_JT_NULL | TC_JT_BOOL | TC_JT_NUMBER | TC_JT_STRING)

/* Args are sorted, so all paths extending P directly follow it. */
static int has_child(const tc_res_event *e, size_t i) {
  tc_str p = e->args[i].path;
  for (size_t j = i + 1; j < e->nargs; j++) {
    tc_str q = e->args[j].path;
    if (q.len <= p.len || memcmp(q.ptr, p.ptr, p.len) != 0)
      return 0;
    if (q.ptr[p.len] == '.' || q.ptr[p.len] == '[')
      return 1;
  }
  return 0;
}

static int is_leaf(const tc_res_event *e, size_t i) {
  return (e->args[i].types & SCALARS) || !has_child(e, i);
}

static int recorded(const tc_res_event *e, const tc_schema *s) {
  for (size_t c = 0; c < e->ncats; c++) {
    size_t pos = 0;
    tc_str one;
    while (tc_str_next_field(e->cats[c].cat, ',', &pos, &one))
      if (tc_schema_records_category(s, one))
        return 1;
  }
  return 0;
}

static int by_name(const void *key, const void *ev) {
  return tc_str_cmp(*(const tc_str *)key, ((const tc_res_event *)ev)->name);
}

tc_err tc_devtools_compute(const tc_census_result *r, const tc_schema *s, tc_devtools *out) {
  memset(out, 0, sizeof *out);
  size_t total = 0;
  for (size_t i = 0; i < r->nevents; i++)
    total += r->events[i].nargs;
  out->events = calloc(r->nevents ? r->nevents : 1, sizeof *out->events);
  out->paths_ = calloc(total ? total : 1, sizeof *out->paths_);
  out->never_observed = calloc(tc_schema_nevents(s) + 1, sizeof *out->never_observed);
  if (!out->events || !out->paths_ || !out->never_observed) {
    tc_devtools_free(out);
    return TC_E_NOMEM;
  }
  size_t used = 0;
  for (size_t i = 0; i < r->nevents; i++) {
    const tc_res_event *e = &r->events[i];
    tc_devtools_view *v = &out->events[i];
    v->known = tc_schema_knows(s, e->name);
    v->recorded = recorded(e, s);
    v->undeclared = out->paths_ + used;
    if (!v->known)
      continue;
    for (size_t a = 0; a < e->nargs; a++)
      if (is_leaf(e, a) && !tc_schema_declares(s, e->name, e->args[a].path))
        out->paths_[used + v->nundeclared++] = e->args[a].path;
    used += v->nundeclared;
  }
  for (size_t i = 0; i < tc_schema_nevents(s); i++) {
    tc_str name = tc_schema_event(s, i);
    /* bsearch's array must not be NULL even when empty (every trace bad). */
    if (!r->nevents || !bsearch(&name, r->events, r->nevents, sizeof *r->events, by_name))
      out->never_observed[out->nnever++] = name;
  }
  return TC_OK;
}

void tc_devtools_free(tc_devtools *d) {
  free(d->events);
  free(d->paths_);
  free(d->never_observed);
  memset(d, 0, sizeof *d);
}
