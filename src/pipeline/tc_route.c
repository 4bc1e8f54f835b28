#include "pipeline/tc_route.h"

#include "kernels/tc_kernels.h"

/* The phases whose records pair up in trace order (tc_pairing). */
static int needs_order(char ph) {
  switch (ph) {
  case 'B': case 'E': case 's': case 'f': case 'b': case 'e': case 'S': case 'F':
    return 1;
  default:
    return 0;
  }
}

static tc_err route_event(const tc_chunk *c, uint32_t i, const tc_parsed *p, int kernels,
                          tc_seq *seq) {
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
  int route = kernels ? tc_kernels_route(tc_kernels_name_code(ev->name),
                                         tc_kernels_user_timing_cat(ev->cat), ph, &task)
                      : TC_KROUTE_NONE;
  if (route == TC_KROUTE_TASK) {
    tc_ktask_event t = {pid, tid, ev->ts, (ev->flags & TC_EV_HAS_DUR) ? ev->dur : -1,
                        c->events[i].index, ph, (uint8_t)task};
    return tc_seq_push_task(seq, &t);
  }
  int for_kernels = route == TC_KROUTE_EVENT;
  if (for_kernels || needs_order(ph)) {
    tc_kevent k = {ev->name, ev->cat, ph, ev->ts,
                   (ev->flags & TC_EV_HAS_DUR) ? ev->dur : -1, pid, tid, ev->id,
                   c->events[i].index, for_kernels,
                   ev->nwant ? p->wanted + ev->want_begin : NULL, ev->nwant};
    if ((e = tc_seq_push(seq, &k)))
      return e;
  }
  return TC_OK;
}

tc_err tc_route_chunk(const tc_chunk *c, const tc_parsed *p, int kernels, tc_seq *seq) {
  for (uint32_t i = 0; i < p->nevents; i++) {
    if (p->events[i].err)
      continue;
    tc_err e = route_event(c, i, p, kernels, seq);
    if (e)
      return e;
  }
  return TC_OK;
}
