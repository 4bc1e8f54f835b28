/* Tracks: what a TrackDescriptor says of a track uuid (a thread, a process,
 * a counter, or a child of another track: an async track), and the
 * `M` events Chrome's JSON carries for names (thread_name, process_name
 * with args.name), which the metric kernels and the process map use to
 * find renderers and their main threads. A name is written once, when a
 * descriptor first gives one, although Chrome repeats its descriptors on
 * every sequence at every incremental-state reset. Tracks are trace-global (a uuid means the same track on every
 * sequence), so they survive resets. */
#include <stdlib.h>
#include <string.h>

#include "proto/tc_proto_impl.h"
#include "util/tc_grow.h"
#include "util/tc_str.h"

/* Parent links followed: a cycle or a longer chain ends the walk. */
#define MAX_PARENTS 32

void tc__ptracks_free(tc_ptracks *t) {
  for (size_t i = 0; i < t->ids.count; i++) {
    tc_ptrack *k = &t->v[i];
    free(k->name);
    for (uint32_t j = 0; j < k->nopen; j++)
      free(k->open[j].text);
    free(k->open);
  }
  tc_imap_free(&t->ids);
  free(t->v);
  tc_imap_free(&t->named_pids);
  tc_imap_free(&t->named_tids);
  memset(t, 0, sizeof *t);
}

tc_ptrack *tc__ptrack_find(const tc_ptracks *t, uint64_t uuid) {
  uint32_t k = tc_imap_find(&t->ids, uuid);
  return k == UINT32_MAX ? NULL : &t->v[k];
}

tc_ptrack *tc__ptrack_get(tc_ptracks *t, uint64_t uuid, tc_err *err) {
  tc_ptrack *found = tc__ptrack_find(t, uuid);
  if (found || t->ids.count >= TC_PROTO_MAX_TRACKS)
    return found;
  /* Room first, so that a failure leaves the key out of the map too. */
  uint32_t k;
  int inserted;
  if (TC_GROW(t->v, t->cap, (size_t)t->ids.count + 1) ||
      tc_imap_intern(&t->ids, uuid, &k, &inserted)) {
    *err = TC_E_NOMEM;
    return NULL;
  }
  t->v[k].uuid = uuid;
  return &t->v[k];
}

tc_pwhere tc__ptrack_where(const tc_ptracks *t, const tc_ptrack *track) {
  tc_pwhere w = {TC_TRK_UNKNOWN, 0, 0, 0, 0};
  int child = 0;
  const tc_ptrack *x = track;
  for (int depth = 0; x && depth < MAX_PARENTS; depth++) {
    if (x->kind == TC_TRK_THREAD || x->kind == TC_TRK_PROCESS) {
      w.scope = child ? TC_TRK_CHILD : x->kind;
      w.has_pid = w.has_tid = 1;
      w.pid = x->pid;
      /* Process-scoped events carry the pid as tid, as Chrome's JSON does. */
      w.tid = x->kind == TC_TRK_THREAD ? x->tid : x->pid;
      return w;
    }
    if (!x->has_parent)
      break;
    child = 1;
    x = tc__ptrack_find(t, x->parent);
  }
  if (child)
    w.scope = TC_TRK_CHILD;
  return w;
}

/* Writes an M event naming PID (and TID when IS_THREAD) NAME, the first
 * time a non-empty name is given for it. Chrome gives a process several
 * (its own, "Renderer", and the Perfetto SDK's, its command line); its JSON
 * export writes one per process, the one given first, as this does. */
static void name_event(tc_proto *r, int is_thread, int32_t pid, int64_t tid,
                       ProtobufCBinaryData name) {
  tc_ptracks *t = &r->tracks;
  if (!name.len)
    return;
  uint64_t key = is_thread ? (uint64_t)(uint32_t)pid << 32 | (uint32_t)tid : (uint32_t)pid;
  uint32_t k;
  int inserted;
  if (tc_imap_intern(is_thread ? &t->named_tids : &t->named_pids, key, &k, &inserted)) {
    r->fail = TC_E_NOMEM;
    return;
  }
  if (!inserted)
    return;
  tc_pbuf *o = &r->out;
  o->len = 0;
  tc__pbuf_puts(o, is_thread ? "{\"name\":\"thread_name\"" : "{\"name\":\"process_name\"");
  tc__pbuf_puts(o, ",\"cat\":\"__metadata\",\"ph\":\"M\",\"ts\":0,\"pid\":");
  tc__pbuf_i64(o, pid);
  tc__pbuf_puts(o, ",\"tid\":");
  tc__pbuf_i64(o, is_thread ? tid : 0);
  tc__pbuf_puts(o, ",\"args\":{\"name\":");
  tc__pbuf_str(o, name.data, name.len);
  tc__pbuf_puts(o, "}}");
  tc__proto_emit(r);
}

void tc__ptrack_names(tc_proto *r, const Tcpb__ProcessDescriptor *p,
                      const Tcpb__ThreadDescriptor *t) {
  if (p && p->has_pid && p->has_process_name)
    name_event(r, 0, p->pid, 0, p->process_name);
  if (t && t->has_pid && t->has_tid && t->has_thread_name)
    name_event(r, 1, t->pid, t->tid, t->thread_name);
}

void tc__ptrack_describe(tc_proto *r, const Tcpb__TrackDescriptor *d) {
  tc_ptrack *t = tc__ptrack_get(&r->tracks, d->has_uuid ? d->uuid : 0, &r->fail);
  if (!t)
    return;
  if (d->has_parent_uuid) {
    t->parent = d->parent_uuid;
    t->has_parent = 1;
  }
  if (d->thread) {
    t->kind = TC_TRK_THREAD;
    t->pid = d->thread->pid;
    t->tid = d->thread->tid;
  } else if (d->process) {
    t->kind = TC_TRK_PROCESS;
    t->pid = d->process->pid;
  } else if (d->counter) {
    t->kind = TC_TRK_COUNTER;
    t->counter_type = d->counter->has_type ? d->counter->type : 0;
  }
  const ProtobufCBinaryData *name = d->has_name ? &d->name : d->has_static_name ? &d->static_name : NULL;
  if (name) {
    tc_pbuf *b = &r->args;
    b->len = 0;
    tc__pbuf_str(b, name->data, name->len);
    char *keep = b->oom ? NULL : tc_str_dup((tc_str){b->p, b->len});
    if (!keep) {
      r->fail = TC_E_NOMEM;
      return;
    }
    free(t->name);
    t->name = keep;
  }
  tc__ptrack_names(r, d->process, d->thread);
}
