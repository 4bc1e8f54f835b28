#include "pipeline/tc_route.h"

#include <stdlib.h>

#include "kernels/tc_kernels.h"
#include "procs/tc_procmap.h"
#include "util/tc_grow.h"
#include "util/tc_map.h"

/* The phases whose records pair up in trace order (tc_pairing). */
static int needs_order(char ph) {
  switch (ph) {
  case 'B': case 'E': case 's': case 'f': case 'b': case 'e': case 'S': case 'F':
    return 1;
  default:
    return 0;
  }
}

struct tc_router {
  const tc_parser *parser;
  /* by parser name id: tc_kernels_name_code + 1, 0 = not yet asked */
  int16_t *name_code1;
  size_t name_code_cap;
  /* by parser name id: tc_procmap_name_code + 1, 0 = not yet asked */
  int8_t *pm_code1;
  size_t pm_code_cap;
  /* by parser cat id: tc_kernels_user_timing_cat + 1, 0 = not yet asked */
  int8_t *ut1;
  size_t ut_cap;
  tc_imap keys;  /* (parser name id << 32 | path id) -> slot */
  /* by slot: the key in the seq of the chunk being routed, valid while
   * stamp equals chunk */
  struct key_at {
    uint64_t stamp;
    uint32_t key;
    uint32_t last; /* its last value in the seq, while stamp is this chunk's */
  } *at;
  size_t at_cap;
  /* by path id: the name id + 1 and slot it had last (a path nearly always
   * belongs to one name), so most values skip the hash lookup */
  struct path_last {
    uint32_t name_id1;
    uint32_t slot;
  } *last;
  size_t last_cap;
  uint64_t chunk; /* chunks routed: the stamp of the current one */
};

tc_router *tc_router_create(const tc_parser *parser) {
  tc_router *r = calloc(1, sizeof *r);
  if (!r)
    return NULL;
  r->parser = parser;
  return r;
}

void tc_router_free(tc_router *r) {
  if (!r)
    return;
  free(r->name_code1);
  free(r->pm_code1);
  free(r->ut1);
  tc_imap_free(&r->keys);
  free(r->at);
  free(r->last);
  free(r);
}

/* The kernels' route of EV: its name's and category's classes are asked
 * once per id. */
static tc_err kernel_route(tc_router *r, const tc_event *ev, char ph, int *route, int *task) {
  tc_err e = TC_GROW(r->name_code1, r->name_code_cap, (size_t)ev->name_id + 1);
  if (!e)
    e = TC_GROW(r->ut1, r->ut_cap, (size_t)ev->cat_id + 1);
  if (e)
    return e;
  int16_t *code = &r->name_code1[ev->name_id];
  if (!*code)
    *code = (int16_t)(tc_kernels_name_code(ev->name) + 1);
  int8_t *ut = &r->ut1[ev->cat_id];
  if (!*ut)
    *ut = (int8_t)(tc_kernels_user_timing_cat(ev->cat) + 1);
  *route = tc_kernels_route(*code - 1, *ut - 1, ph, task);
  return TC_OK;
}

/* Whether the process map reads EV; its name's code is asked once per id. */
static tc_err procs_route(tc_router *r, const tc_event *ev, char ph, int *wants) {
  tc_err e = TC_GROW(r->pm_code1, r->pm_code_cap, (size_t)ev->name_id + 1);
  if (e)
    return e;
  int8_t *code = &r->pm_code1[ev->name_id];
  if (!*code)
    *code = (int8_t)(tc_procmap_name_code(ev->name) + 1);
  *wants = tc_procmap_wants(*code - 1, ph);
  return TC_OK;
}

static tc_err route_event(tc_router *r, const tc_chunk *c, uint32_t i, const tc_parsed *p,
                          int kernels, tc_seq *seq) {
  const tc_event *ev = &p->events[i];
  char ph = ev->ph.len == 1 ? ev->ph.ptr[0] : '\0';
  tc_err e;
  /* Thread extents are for the kernels' window. Metadata records carry ts 0:
   * they would stretch every thread's extent. */
  if (kernels && (ev->flags & TC_EV_HAS_TS) && ph != 'M') {
    double end = ev->ts + ((ev->flags & TC_EV_HAS_DUR) && ev->dur > 0 ? ev->dur : 0);
    if ((e = tc_seq_span(seq, ev->pid, ev->tid, ev->ts, end)))
      return e;
  }
  /* A missing pid or tid is no process or thread at all, not 0. */
  int64_t pid = (ev->flags & TC_EV_HAS_PID) ? ev->pid : TC_NO_ID;
  int64_t tid = (ev->flags & TC_EV_HAS_TID) ? ev->tid : TC_NO_ID;
  /* One classification gives both answers: task slice, wanted, or neither. */
  int task = -1;
  int route = TC_KROUTE_NONE;
  if (kernels && (e = kernel_route(r, ev, ph, &route, &task)))
    return e;
  if (route == TC_KROUTE_TASK) {
    tc_ktask_event t = {pid, tid, ev->ts, (ev->flags & TC_EV_HAS_DUR) ? ev->dur : -1,
                        c->events[i].index, ph, (uint8_t)task};
    return tc_seq_push_task(seq, &t);
  }
  int for_kernels = route == TC_KROUTE_EVENT, for_procs;
  if ((e = procs_route(r, ev, ph, &for_procs)))
    return e;
  if (for_kernels || for_procs || needs_order(ph)) {
    tc_kevent k = {ev->name, ev->cat, ph, ev->ts,
                   (ev->flags & TC_EV_HAS_DUR) ? ev->dur : -1, pid, tid, ev->id,
                   c->events[i].index, (uint8_t)for_kernels, (uint8_t)for_procs,
                   ev->nwant ? p->wanted + ev->want_begin : NULL, ev->nwant};
    if ((e = tc_seq_push(seq, &k)))
      return e;
  }
  return TC_OK;
}

tc_err tc_route_chunk(tc_router *r, const tc_chunk *c, const tc_parsed *p, int kernels,
                      tc_seq *seq) {
  tc_err e = tc_seq_reserve(seq, p->nevents);
  if (e)
    return e;
  for (uint32_t i = 0; i < p->nevents; i++) {
    if (p->events[i].err)
      continue;
    e = route_event(r, c, i, p, kernels, seq);
    if (e)
      return e;
  }
  return TC_OK;
}

static tc_err route_values(tc_router *rv, const tc_event *ev, const tc_parsed *p,
                           tc_seq *seq) {
  uint32_t name = ev->name_id;
  int64_t pid = (ev->flags & TC_EV_HAS_PID) ? ev->pid : TC_NO_ID;
  tc_err e;
  for (uint32_t k = 0; k < ev->nleaf; k++) {
    const tc_leaf *lf = &p->leaves[ev->leaf_begin + k];
    if ((e = TC_GROW(rv->last, rv->last_cap, (size_t)lf->path + 1)))
      return e;
    struct path_last *last = &rv->last[lf->path];
    uint32_t slot = last->slot;
    if (last->name_id1 != name + 1) {
      if ((e = tc_imap_intern(&rv->keys, (uint64_t)name << 32 | lf->path, &slot, NULL)) ||
          (e = TC_GROW(rv->at, rv->at_cap, (size_t)slot + 1)))
        return e;
      *last = (struct path_last){name + 1, slot};
    }
    struct key_at *at = &rv->at[slot];
    if (at->stamp != rv->chunk) {
      if ((e = tc_seq_vkey_add(seq, ev->name, tc_parser_path(rv->parser, lf->path), &at->key)))
        return e;
      at->stamp = rv->chunk;
    } else if (tc_seq_val_again(seq, at->last, pid, lf->type, lf->num, lf->str)) {
      continue;
    }
    if ((e = tc_seq_val_add(seq, at->key, pid, lf->type, lf->num, lf->str)))
      return e;
    at->last = (uint32_t)(seq->nvals - 1);
  }
  return TC_OK;
}

tc_err tc_route_chunk_values(tc_router *rv, const tc_parsed *p, tc_seq *seq) {
  rv->chunk++;
  /* Room for every value and its string at once (keys take little more). */
  size_t text = 0;
  for (size_t k = 0; k < p->nleaves; k++)
    text += p->leaves[k].str.len;
  tc_err e = tc_seq_vals_reserve(seq, p->nleaves, text + text / 8 + 4096);
  for (uint32_t i = 0; !e && i < p->nevents; i++)
    if (!p->events[i].err && p->events[i].nleaf)
      e = route_values(rv, &p->events[i], p, seq);
  return e;
}
