/* Timestamps to one clock. A packet's timestamp is in the clock its
 * timestamp_clock_id names (else its sequence's TracePacketDefaults, else
 * BOOTTIME); events are written in the trace clock, the first
 * ClockSnapshot's primary_trace_clock (else BOOTTIME), as Perfetto's trace
 * processor converts them.
 *
 * Supported, as Chrome and the Perfetto SDK write them: builtin clocks
 * (ids 1 to 63, in ns) linked to the trace clock by a ClockSnapshot holding
 * both, the latest such snapshot winning (the trace is read forwards, so
 * that is the one in force); sequence-scoped clocks (ids 64 to 127, at most
 * TC_PROTO_SEQ_CLOCKS per sequence) with their unit_multiplier_ns and
 * is_incremental, linked to a builtin clock by a snapshot on their own
 * sequence. Refused with TC_E_PB_CLOCK: a clock no snapshot links to the
 * trace clock in at most those two steps, and ids from 128 up (reserved by
 * Perfetto). Arithmetic wraps rather than overflows: a hostile timestamp
 * gives a wrong time, never undefined behaviour. */
#include <string.h>

#include "proto/tc_proto_impl.h"

#define BOOTTIME 6u

void tc__pclocks_init(tc_pclocks *c) {
  memset(c, 0, sizeof *c);
  c->trace_clock = BOOTTIME;
}

static int builtin(uint32_t id) { return id >= 1 && id < 64; }

/* A reading of clock CL in ns, from its unit. */
static uint64_t reading(const Tcpb__ClockSnapshot__Clock *cl) {
  uint64_t unit = cl->has_unit_multiplier_ns && cl->unit_multiplier_ns ? cl->unit_multiplier_ns : 1;
  return cl->timestamp * unit;
}

static void sequence_clock(tc_pclocks *c, tc_pseq *q, const Tcpb__ClockSnapshot *s,
                           const Tcpb__ClockSnapshot__Clock *cl) {
  unsigned k = 0;
  while (k < q->nclocks && q->clocks[k].id != cl->clock_id)
    k++;
  if (k == q->nclocks) {
    if (q->nclocks == TC_PROTO_SEQ_CLOCKS)
      return;
    q->nclocks++;
  }
  /* Its reference: the trace clock if the snapshot has it, else a builtin
   * clock linked to it, else any builtin clock. */
  const Tcpb__ClockSnapshot__Clock *ref = NULL;
  for (size_t i = 0; i < s->n_clocks; i++) {
    const Tcpb__ClockSnapshot__Clock *o = s->clocks[i];
    if (!builtin(o->clock_id))
      continue;
    int rank = o->clock_id == c->trace_clock ? 2 : c->known[o->clock_id];
    int best = !ref ? -1 : ref->clock_id == c->trace_clock ? 2 : c->known[ref->clock_id];
    if (rank > best)
      ref = o;
  }
  tc_pseqclock *x = &q->clocks[k];
  x->id = cl->clock_id;
  x->incremental = cl->has_is_incremental && cl->is_incremental;
  x->unit_ns = cl->has_unit_multiplier_ns && cl->unit_multiplier_ns ? cl->unit_multiplier_ns : 1;
  x->at = x->last = cl->timestamp;
  x->ref_clock = ref ? ref->clock_id : 0;
  x->ref_ns = ref ? reading(ref) : 0;
}

void tc__pclocks_snapshot(tc_pclocks *c, tc_pseq *q, const Tcpb__ClockSnapshot *s) {
  if (!c->trace_clock_set) {
    c->trace_clock_set = 1;
    if (s->has_primary_trace_clock && builtin((uint32_t)s->primary_trace_clock))
      c->trace_clock = (uint32_t)s->primary_trace_clock;
  }
  /* The trace clock's reading at this snapshot: its own, or through a
   * clock linked to it before. */
  int have = 0;
  uint64_t t = 0;
  for (size_t i = 0; i < s->n_clocks && !have; i++) {
    const Tcpb__ClockSnapshot__Clock *cl = s->clocks[i];
    if (cl->clock_id == c->trace_clock) {
      t = reading(cl);
      have = 1;
    }
  }
  for (size_t i = 0; i < s->n_clocks && !have; i++) {
    const Tcpb__ClockSnapshot__Clock *cl = s->clocks[i];
    if (builtin(cl->clock_id) && c->known[cl->clock_id]) {
      t = reading(cl) + (uint64_t)c->offset[cl->clock_id];
      have = 1;
    }
  }
  for (size_t i = 0; i < s->n_clocks; i++) {
    const Tcpb__ClockSnapshot__Clock *cl = s->clocks[i];
    if (builtin(cl->clock_id) && have) {
      c->offset[cl->clock_id] = (int64_t)(t - reading(cl));
      c->known[cl->clock_id] = 1;
    } else if (cl->clock_id >= 64 && cl->clock_id < 128 && q) {
      sequence_clock(c, q, s, cl);
    }
  }
}

static tc_err from_builtin(const tc_pclocks *c, uint32_t clock, uint64_t ns, int64_t *out) {
  if (clock == c->trace_clock) {
    *out = (int64_t)ns;
    return TC_OK;
  }
  if (!builtin(clock) || !c->known[clock])
    return TC_E_PB_CLOCK;
  *out = (int64_t)(ns + (uint64_t)c->offset[clock]);
  return TC_OK;
}

tc_err tc__pclocks_convert(tc_pclocks *c, tc_pseq *q, uint32_t clock, uint64_t ts, int64_t *ns) {
  if (clock < 64 || clock >= 128)
    return from_builtin(c, clock, ts, ns);
  for (unsigned k = 0; q && k < q->nclocks; k++) {
    tc_pseqclock *x = &q->clocks[k];
    if (x->id != clock)
      continue;
    uint64_t v = ts;
    if (x->incremental)
      v = x->last = x->last + ts;
    uint64_t ref = x->ref_ns + (v - x->at) * x->unit_ns;
    return x->ref_clock ? from_builtin(c, x->ref_clock, ref, ns) : TC_E_PB_CLOCK;
  }
  return TC_E_PB_CLOCK;
}
