/* TrackEvents to the JSON events Chrome's own JSON export writes for them
 * (Perfetto's export_json.cc, as Chromium 156 runs it):
 *
 *   thread track:   a slice -> `X` with dur, written when it ends, or `I`
 *                   with "s":"t" when it lasted 0 ns; an instant -> `I` "t"
 *   process track:  the same with "s":"p" and the pid as tid
 *   global track:   the same with "s":"g" and no pid or tid (uuid 0, or a
 *                   track no descriptor describes)
 *   child track:    (an async track: a descriptor with a parent and neither
 *                   thread nor process) a slice -> `b` and `e`, or `n` when
 *                   it lasted 0 ns; an instant -> `n`; "id2":{"local":uuid}
 *   counter:        `C`, named by its track, the value as args.value
 *   legacy events:  by their phase: B, E, I and i, X (with duration_us) as
 *                   above, any other letter written as it is, with its ids
 *                   (id, id2, scope) and args
 *   flows:          each link of a flow (flow_ids, terminating_flow_ids,
 *                   and LegacyEvent.bind_id) -> an `s` at the earlier step
 *                   and an `f` ("bp":"e") at the later, both named and
 *                   categorised as the earlier step, with one id
 *
 * A legacy event on the global track (Chrome 156 writes its marks, R, with
 * track_uuid 0) goes to its sequence's own track, the writing thread.
 * ts and dur are microseconds, nanoseconds divided by 1000 with the rest
 * dropped, as Chrome's export writes them. A slice's end takes its begin's
 * name, categories and args, and adds the end's own args. An end with no
 * open begin on its track, and a TrackEvent with neither a type nor a
 * legacy phase, are not events (Perfetto drops them too). */
#include <stdlib.h>
#include <string.h>

#include "proto/tc_proto_impl.h"
#include "util/tc_grow.h"

enum { K_NONE, K_BEGIN, K_END, K_INSTANT, K_COUNTER, K_COMPLETE, K_RAW };

static int kind_of(const Tcpb__TrackEvent *e, int *phase) {
  const Tcpb__LegacyEvent *lg = e->legacy_event;
  *phase = lg && lg->has_phase ? lg->phase : 0;
  if (e->has_type && e->type >= 1 && e->type <= 4)
    return e->type == 1 ? K_BEGIN : e->type == 2 ? K_END : e->type == 3 ? K_INSTANT : K_COUNTER;
  switch (*phase) {
  case 0:
    return K_NONE;
  case 'B':
    return K_BEGIN;
  case 'E':
    return K_END;
  case 'I':
  case 'i':
    return K_INSTANT;
  case 'X':
    return K_COMPLETE;
  default:
    return K_RAW;
  }
}

static void fail(tc_proto *r, tc_err e) {
  if (!r->fail)
    r->fail = e;
}

/* "name":..,"cat":.. of E into r->head. */
static tc_err head(tc_proto *r, const tc_pseq *q, const Tcpb__TrackEvent *e) {
  tc_pbuf *h = &r->head, *s = &r->scratch;
  h->len = s->len = 0;
  const Tcpb__LegacyEvent *lg = e->legacy_event;
  tc__pbuf_puts(h, "\"name\":");
  if (e->has_name) {
    tc__pbuf_str(h, e->name.data, e->name.len);
  } else if (e->has_name_iid || (lg && lg->has_name_iid)) {
    const tc_pival *v = tc__pseq_lookup(q, TC_PI_NAME, e->has_name_iid ? e->name_iid : lg->name_iid);
    if (!v)
      return TC_E_PB_INTERNED;
    tc__pbuf_str(h, v->a.ptr, v->a.len);
  } else {
    tc__pbuf_puts(h, "\"\"");
  }
  for (size_t i = 0; i < e->n_category_iids; i++) {
    const tc_pival *v = tc__pseq_lookup(q, TC_PI_CAT, e->category_iids[i]);
    if (!v)
      return TC_E_PB_INTERNED;
    if (s->len)
      tc__pbuf_put(s, ",", 1);
    tc__pbuf_put(s, v->a.ptr, v->a.len);
  }
  for (size_t i = 0; i < e->n_categories; i++) {
    if (s->len)
      tc__pbuf_put(s, ",", 1);
    tc__pbuf_put(s, e->categories[i].data, e->categories[i].len);
  }
  r->cat_at = h->len;
  tc__pbuf_puts(h, ",\"cat\":");
  tc__pbuf_str(h, s->p ? s->p : "", s->len);
  return h->oom || s->oom ? TC_E_NOMEM : TC_OK;
}

/* The legacy event's ids and scope, as Chrome's export writes them. */
static void extra(tc_proto *r, const Tcpb__LegacyEvent *lg) {
  tc_pbuf *x = &r->extra;
  x->len = 0;
  if (!lg)
    return;
  if (lg->has_unscoped_id) {
    tc__pbuf_puts(x, ",\"id\":");
    tc__pbuf_hex(x, lg->unscoped_id);
  }
  if (lg->has_local_id || lg->has_global_id) {
    tc__pbuf_puts(x, lg->has_local_id ? ",\"id2\":{\"local\":" : ",\"id2\":{\"global\":");
    tc__pbuf_hex(x, lg->has_local_id ? lg->local_id : lg->global_id);
    tc__pbuf_puts(x, "}");
  }
  if (lg->has_id_scope) {
    tc__pbuf_puts(x, ",\"scope\":");
    tc__pbuf_str(x, lg->id_scope.data, lg->id_scope.len);
  }
}

static tc_pwhere global(void) {
  tc_pwhere w = {TC_TRK_UNKNOWN, 0, 0, 0, 0};
  return w;
}

/* Writes `{HEAD EXTRA,"ph":PH,"ts":TS` into r->out. */
static void open_event(tc_proto *r, const char *hd, size_t hn, const char *ex, size_t xn,
                       const char *ph, int64_t ts) {
  tc_pbuf *o = &r->out;
  o->len = 0;
  tc__pbuf_put(o, "{", 1);
  tc__pbuf_put(o, hd, hn);
  tc__pbuf_put(o, ex, xn);
  tc__pbuf_puts(o, ",\"ph\":\"");
  tc__pbuf_puts(o, ph);
  tc__pbuf_puts(o, "\",\"ts\":");
  tc__pbuf_i64(o, ts / 1000);
}

static void where_fields(tc_pbuf *o, tc_pwhere w) {
  if (w.has_pid) {
    tc__pbuf_puts(o, ",\"pid\":");
    tc__pbuf_i64(o, w.pid);
  }
  if (w.has_tid) {
    tc__pbuf_puts(o, ",\"tid\":");
    tc__pbuf_i64(o, w.tid);
  }
}

static void scope_field(tc_pbuf *o, tc_pwhere w) {
  tc__pbuf_puts(o, w.scope == TC_TRK_THREAD    ? ",\"s\":\"t\""
                   : w.scope == TC_TRK_PROCESS ? ",\"s\":\"p\""
                                               : ",\"s\":\"g\"");
}

static void id2_field(tc_pbuf *o, uint64_t uuid) {
  tc__pbuf_puts(o, ",\"id2\":{\"local\":");
  tc__pbuf_hex(o, uuid);
  tc__pbuf_puts(o, "}");
}

/* `,"args":{A1,A2}}` and the event goes out. */
static void close_event(tc_proto *r, const char *a1, size_t n1, const char *a2, size_t n2) {
  tc_pbuf *o = &r->out;
  tc__pbuf_puts(o, ",\"args\":{");
  tc__pbuf_put(o, a1, n1);
  if (n1 && n2)
    tc__pbuf_put(o, ",", 1);
  tc__pbuf_put(o, a2, n2);
  tc__pbuf_puts(o, "}}");
  tc__proto_emit(r);
}

/* ---- flows ---- */

/* One step of a flow at an event with HEAD (its name and categories), TS
 * and W: links it to the flow's previous step, if any, with an s/f pair. */
static void flow_step(tc_proto *r, int legacy, uint64_t id, int terminating, const char *hd,
                      size_t hn, int64_t ts, tc_pwhere w) {
  tc_imap *m = legacy ? &r->bind_ids : &r->flow_ids;
  if (m->count >= TC_PROTO_MAX_FLOWS && tc_imap_find(m, id) == UINT32_MAX)
    tc__pflows_free(r);
  uint32_t k;
  int inserted;
  /* Room first, so that a failure leaves the key out of the map too. */
  if (TC_GROW(r->flows, r->flows_cap, 2 * (size_t)m->count + 2) ||
      tc_imap_intern(m, id, &k, &inserted)) {
    fail(r, TC_E_NOMEM);
    return;
  }
  struct tc_pflow *f = &r->flows[2 * (size_t)k + (size_t)legacy];
  if (f->live) {
    static const char *const ph[2] = {"s", "f"};
    for (int i = 0; i < 2; i++) {
      open_event(r, f->head, f->head_len, "", 0, ph[i], i ? ts : f->ts);
      where_fields(&r->out, i ? w : f->where);
      tc__pbuf_puts(&r->out, i ? ",\"bp\":\"e\",\"id\":" : ",\"id\":");
      tc__pbuf_u64(&r->out, r->next_flow);
      close_event(r, "", 0, "", 0);
    }
    r->next_flow++;
  }
  free(f->head);
  f->head = NULL;
  f->live = 0;
  if (terminating)
    return;
  if (!(f->head = malloc(hn ? hn : 1))) {
    fail(r, TC_E_NOMEM);
    return;
  }
  if (hn)
    memcpy(f->head, hd, hn);
  f->head_len = hn;
  f->ts = ts;
  f->where = w;
  f->live = 1;
}

static void flows(tc_proto *r, const Tcpb__TrackEvent *e, const char *hd, size_t hn, int64_t ts,
                  tc_pwhere w) {
  for (size_t i = 0; i < e->n_flow_ids; i++)
    flow_step(r, 0, e->flow_ids[i], 0, hd, hn, ts, w);
  for (size_t i = 0; i < e->n_flow_ids_old; i++)
    flow_step(r, 0, e->flow_ids_old[i], 0, hd, hn, ts, w);
  for (size_t i = 0; i < e->n_terminating_flow_ids; i++)
    flow_step(r, 0, e->terminating_flow_ids[i], 1, hd, hn, ts, w);
  for (size_t i = 0; i < e->n_terminating_flow_ids_old; i++)
    flow_step(r, 0, e->terminating_flow_ids_old[i], 1, hd, hn, ts, w);
  const Tcpb__LegacyEvent *lg = e->legacy_event;
  if (lg && lg->has_bind_id)
    /* FLOW_IN (1) ends the flow here; FLOW_OUT and FLOW_INOUT go on. */
    flow_step(r, 1, lg->bind_id, lg->has_flow_direction && lg->flow_direction == 1, hd, hn, ts,
              w);
}

void tc__pflows_free(tc_proto *r) {
  for (size_t i = 0; i < r->flows_cap; i++)
    free(r->flows[i].head);
  free(r->flows);
  r->flows = NULL;
  r->flows_cap = 0;
  tc_imap_free(&r->flow_ids);
  tc_imap_free(&r->bind_ids);
}

/* ---- slices ---- */

/* A slice's or instant's record when it is whole: X or I on a thread,
 * process or global track, b and e or n on a child track. */
static void whole(tc_proto *r, const tc_ptrack *t, tc_pwhere w, const tc_pslice *s, int64_t end,
                  const char *more, size_t more_len) {
  const char *hd = s->text, *ex = s->text + s->head_len, *args = ex + s->extra_len;
  int64_t dur = end - s->ts;
  if (w.scope == TC_TRK_CHILD) {
    open_event(r, hd, s->head_len, ex, s->extra_len, dur ? "b" : "n", s->ts);
    where_fields(&r->out, w);
    id2_field(&r->out, t ? t->uuid : 0);
    close_event(r, args, s->args_len, more, more_len);
    if (!dur)
      return;
    open_event(r, hd, s->head_len, ex, s->extra_len, "e", end);
    where_fields(&r->out, w);
    id2_field(&r->out, t ? t->uuid : 0);
    close_event(r, "", 0, "", 0);
    return;
  }
  open_event(r, hd, s->head_len, ex, s->extra_len, dur ? "X" : "I", s->ts);
  if (dur) {
    tc__pbuf_puts(&r->out, ",\"dur\":");
    tc__pbuf_i64(&r->out, dur / 1000);
  }
  where_fields(&r->out, w);
  if (!dur)
    scope_field(&r->out, w);
  close_event(r, args, s->args_len, more, more_len);
}

/* A begin (or a slice's end) written as it is: B or E, b or e. */
static void half(tc_proto *r, const tc_ptrack *t, tc_pwhere w, const tc_pslice *s, int end,
                 int64_t ts, const char *args, size_t args_len) {
  int child = w.scope == TC_TRK_CHILD;
  open_event(r, s->text, s->head_len, s->text + s->head_len, s->extra_len,
             child ? (end ? "e" : "b") : (end ? "E" : "B"), ts);
  where_fields(&r->out, w);
  if (child)
    id2_field(&r->out, t ? t->uuid : 0);
  close_event(r, args, args_len, "", 0);
}

/* The current event's head, extra and args as an open slice on T. */
static void begin(tc_proto *r, tc_ptrack *t, tc_pwhere w, int64_t ts) {
  tc_pslice s = {ts, NULL, r->head.len, r->extra.len, r->args.len, 0};
  size_t keep = s.head_len + s.extra_len + s.args_len;
  int over = !t || t->nopen >= TC_PROTO_MAX_DEPTH ||
             r->tracks.open_bytes + keep > TC_PROTO_MAX_OPEN_BYTES;
  if (over) {
    s.args_len = 0; /* written now: only the head is kept, for the end */
    keep = s.head_len + s.extra_len;
  }
  if (!(s.text = malloc(keep + 1))) {
    fail(r, TC_E_NOMEM);
    return;
  }
  /* A buffer never written to has no bytes (p may be NULL): copy what is. */
  if (s.head_len)
    memcpy(s.text, r->head.p, s.head_len);
  if (s.extra_len)
    memcpy(s.text + s.head_len, r->extra.p, s.extra_len);
  if (s.args_len)
    memcpy(s.text + s.head_len + s.extra_len, r->args.p, s.args_len);
  if (over) {
    s.emitted = 1;
    half(r, t, w, &s, 0, ts, r->args.p, r->args.len);
  }
  if (!t || TC_GROW(t->open, t->open_cap, (size_t)t->nopen + 1)) {
    free(s.text);
    if (t)
      fail(r, TC_E_NOMEM);
    return;
  }
  t->open[t->nopen++] = s;
  r->tracks.open_bytes += keep;
}

static void end(tc_proto *r, const tc_pseq *q, const Tcpb__TrackEvent *e, tc_ptrack *t,
                tc_pwhere w, int64_t ts) {
  if (!t || !t->nopen)
    return;
  tc_pslice s = t->open[--t->nopen];
  r->tracks.open_bytes -= s.head_len + s.extra_len + s.args_len;
  r->args.len = 0;
  tc_err err = tc__pargs(r, q, e);
  if (err) {
    /* The slice still ends here; the end's own args are what is lost. */
    tc__proto_skip(r, r->offset, err);
    r->args.len = 0;
    if (err == TC_E_NOMEM)
      fail(r, err);
  }
  if (s.emitted)
    half(r, t, w, &s, 1, ts, r->args.p, r->args.len);
  else
    whole(r, t, w, &s, ts, r->args.p, r->args.len);
  flows(r, e, s.text, s.head_len, s.ts, w);
  free(s.text);
}

/* ---- one TrackEvent ---- */

/* The current event as a slice at TS whose text is in r->scratch (until
 * its next use); 0 if memory failed. */
static int current(tc_proto *r, int64_t ts, tc_pslice *s) {
  tc_pslice c = {ts, NULL, r->head.len, r->extra.len, r->args.len, 0};
  tc_pbuf *x = &r->scratch;
  x->len = 0;
  tc__pbuf_put(x, r->head.p, r->head.len);
  tc__pbuf_put(x, r->extra.p, r->extra.len);
  tc__pbuf_put(x, r->args.p, r->args.len);
  if (x->oom) {
    fail(r, TC_E_NOMEM);
    return 0;
  }
  c.text = x->p;
  *s = c;
  return 1;
}

static void instant(tc_proto *r, tc_ptrack *t, tc_pwhere w, int64_t ts) {
  tc_pslice s;
  if (current(r, ts, &s))
    whole(r, t, w, &s, ts, "", 0);
}

static void counter(tc_proto *r, const Tcpb__TrackEvent *e, const tc_ptrack *t, tc_pwhere w,
                    int64_t ts) {
  if (t && t->kind == TC_TRK_COUNTER && (t->counter_type == 1 || t->counter_type == 2))
    return; /* thread time and instruction counts: tts and tdur, not events */
  if (!e->has_counter_value && !e->has_double_counter_value)
    return;
  if (t && t->name) {
    /* Named by its track: "name" replaced, "cat" kept. */
    tc_pbuf *x = &r->scratch;
    x->len = 0;
    tc__pbuf_puts(x, "\"name\":");
    tc__pbuf_puts(x, t->name);
    tc__pbuf_put(x, r->head.p + r->cat_at, r->head.len - r->cat_at);
    r->head.len = 0;
    tc__pbuf_put(&r->head, x->p, x->len);
  }
  open_event(r, r->head.p, r->head.len, "", 0, "C", ts);
  where_fields(&r->out, w);
  tc__pbuf_puts(&r->out, ",\"args\":{\"value\":");
  if (e->has_counter_value)
    tc__pbuf_i64(&r->out, e->counter_value);
  else
    tc__pbuf_num(&r->out, e->double_counter_value);
  tc__pbuf_puts(&r->out, "}}");
  tc__proto_emit(r);
}

static void raw(tc_proto *r, int phase, tc_pwhere w, int64_t ts) {
  char ph[2] = {phase >= 0x20 && phase < 0x7f ? (char)phase : '\0', '\0'};
  open_event(r, r->head.p, r->head.len, r->extra.p, r->extra.len, ph, ts);
  where_fields(&r->out, w);
  close_event(r, r->args.p, r->args.len, "", 0);
}

static void complete(tc_proto *r, const Tcpb__LegacyEvent *lg, tc_ptrack *t, tc_pwhere w,
                     int64_t ts) {
  int64_t dur = lg->has_duration_us ? lg->duration_us : 0;
  tc_pslice s;
  if (!current(r, ts, &s))
    return;
  if (dur < 0)
    half(r, t, w, &s, 0, ts, r->args.p, r->args.len);
  else
    whole(r, t, w, &s, ts + dur * 1000, "", 0);
}

/* Legacy instants name their scope; typed ones take their track's. */
static tc_pwhere legacy_scope(const Tcpb__LegacyEvent *lg, tc_pwhere w) {
  int scope = lg && lg->has_instant_event_scope ? lg->instant_event_scope : 0;
  if (scope == 1)
    return global();
  if (scope == 2 && w.has_pid) {
    w.scope = TC_TRK_PROCESS;
    w.tid = w.pid;
  } else if (scope == 3 || (scope == 0 && lg && w.scope == TC_TRK_THREAD)) {
    w.scope = TC_TRK_THREAD;
  }
  return w;
}

void tc__pevent(tc_proto *r, tc_pseq *q, const Tcpb__TracePacket *p, int64_t ts) {
  const Tcpb__TrackEvent *e = p->track_event;
  const Tcpb__LegacyEvent *lg = e->legacy_event;
  int phase;
  int kind = kind_of(e, &phase);
  if (kind == K_NONE)
    return;
  uint64_t own = q->has_track ? q->track_uuid : q->has_thread ? (uint64_t)1 << 63 | q->id : 0;
  uint64_t uuid = e->has_track_uuid ? e->track_uuid : own;
  tc_ptrack *t = tc__ptrack_get(&r->tracks, uuid, &r->fail);
  tc_pwhere w = t ? tc__ptrack_where(&r->tracks, t) : global();
  if (lg && w.scope == TC_TRK_UNKNOWN && own && uuid != own) {
    /* A legacy event on the global track (Chrome's marks name track 0)
     * belongs to the thread that wrote it, as in Chrome's JSON. */
    t = tc__ptrack_get(&r->tracks, own, &r->fail);
    w = t ? tc__ptrack_where(&r->tracks, t) : global();
  }
  if (lg && lg->has_pid_override) {
    w.has_pid = 1;
    w.pid = lg->pid_override;
  }
  if (lg && lg->has_tid_override) {
    w.has_tid = 1;
    w.tid = lg->tid_override;
  }
  if (kind == K_END) {
    end(r, q, e, t, w, ts);
    return;
  }
  r->args.len = 0;
  tc_err err = head(r, q, e);
  if (!err)
    err = tc__pargs(r, q, e);
  if (err) {
    tc__proto_skip(r, r->offset, err);
    if (err == TC_E_NOMEM)
      fail(r, err);
    return;
  }
  extra(r, lg);
  switch (kind) {
  case K_BEGIN:
    begin(r, t, w, ts);
    break;
  case K_INSTANT:
    instant(r, t, legacy_scope(lg, w), ts);
    break;
  case K_COUNTER:
    counter(r, e, t, w, ts);
    return;
  case K_COMPLETE:
    complete(r, lg, t, w, ts);
    break;
  default:
    raw(r, phase, w, ts);
    return;
  }
  flows(r, e, r->head.p, r->head.len, ts, w);
}

void tc__pevent_finish(tc_proto *r) {
  tc_ptracks *tr = &r->tracks;
  for (size_t i = 0; i < tr->ids.count; i++) {
    tc_ptrack *t = &tr->v[i];
    tc_pwhere w = tc__ptrack_where(tr, t);
    for (uint32_t j = 0; j < t->nopen; j++) {
      tc_pslice *s = &t->open[j];
      if (!s->emitted)
        half(r, t, w, s, 0, s->ts, s->text + s->head_len + s->extra_len, s->args_len);
      free(s->text);
    }
    t->nopen = 0;
  }
  tr->open_bytes = 0;
}
