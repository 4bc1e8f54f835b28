/* Packet sequences (one per trace writer, named by
 * trusted_packet_sequence_id) and what a packet may take from earlier
 * packets of its sequence: interned names, categories, annotation names,
 * string values and source locations; the TracePacketDefaults; the
 * sequence's clocks. All of it is incremental state: a packet flagged
 * SEQ_INCREMENTAL_STATE_CLEARED drops it, and a later reference to what it
 * held must be re-emitted first (Perfetto's interned_data.proto). */
#include <stdlib.h>
#include <string.h>

#include "proto/tc_proto_impl.h"
#include "util/tc_grow.h"

static void tabs_init(tc_pseq *q) {
  for (int k = 0; k < TC_PI_KINDS; k++) {
    tc_imap_init(&q->tab[k].ids);
    q->tab[k].v = NULL;
    q->tab[k].cap = 0;
  }
  /* Hundreds of sequences each intern a few KiB: small blocks. */
  q->arena.block_size = 4096;
}

static void tabs_free(tc_pseq *q) {
  for (int k = 0; k < TC_PI_KINDS; k++) {
    tc_imap_free(&q->tab[k].ids);
    free(q->tab[k].v);
  }
  tc_arena_free(&q->arena);
}

/* The clocks stay: Perfetto re-bases a sequence's clocks by its next
 * ClockSnapshot, not by a reset, and so does this reader. */
void tc__pseq_clear(tc_pseq *q) {
  tabs_free(q);
  memset(&q->arena, 0, sizeof q->arena);
  tabs_init(q);
  q->has_clock = q->has_track = 0;
}

void tc__pseqs_free(tc_pseqs *s) {
  for (size_t i = 0; i < s->ids.count; i++) {
    tabs_free(s->v[i]);
    free(s->v[i]);
  }
  tc_imap_free(&s->ids);
  free(s->v);
  memset(s, 0, sizeof *s);
}

tc_pseq *tc__pseq_get(tc_pseqs *s, uint32_t id) {
  if (s->ids.count >= TC_PROTO_MAX_SEQS && tc_imap_find(&s->ids, id) == UINT32_MAX)
    tc__pseqs_free(s);
  uint32_t k = tc_imap_find(&s->ids, id);
  if (k != UINT32_MAX)
    return s->v[k];
  /* Room and the sequence first, so that a failure leaves the map as it
   * was. */
  int inserted;
  tc_pseq *q = NULL;
  if (TC_GROW(s->v, s->cap, (size_t)s->ids.count + 1) || !(q = calloc(1, sizeof *q)) ||
      tc_imap_intern(&s->ids, id, &k, &inserted)) {
    free(q);
    return NULL;
  }
  q->id = id;
  tabs_init(q);
  s->v[k] = q;
  return q;
}

static tc_err put(tc_pseq *q, int kind, uint64_t iid, tc_pival val) {
  tc_ptab *t = &q->tab[kind];
  uint32_t k;
  int inserted;
  /* Room first, so that a failure leaves the key out of the map too. */
  tc_err e = TC_GROW(t->v, t->cap, (size_t)t->ids.count + 1);
  if (!e)
    e = tc_imap_intern(&t->ids, iid, &k, &inserted);
  if (!e)
    t->v[k] = val; /* a repeated iid takes the newer value */
  return e;
}

static tc_str copy(tc_pseq *q, ProtobufCBinaryData b) {
  tc_str s = {b.len ? tc_arena_copy(&q->arena, (tc_str){(const char *)b.data, b.len}) : "", b.len};
  if (!s.ptr)
    s.len = 0;
  return s;
}

static tc_err names(tc_pseq *q, int kind, Tcpb__InternedName **v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    tc_pival val = {copy(q, v[i]->name), {"", 0}, 0, 0};
    if (v[i]->name.len && val.a.len == 0)
      return TC_E_NOMEM;
    tc_err e = put(q, kind, v[i]->iid, val);
    if (e)
      return e;
  }
  return TC_OK;
}

tc_err tc__pseq_intern(tc_pseq *q, const Tcpb__InternedData *d) {
  tc_err e = names(q, TC_PI_CAT, d->event_categories, d->n_event_categories);
  if (!e)
    e = names(q, TC_PI_NAME, d->event_names, d->n_event_names);
  if (!e)
    e = names(q, TC_PI_ANNOT, d->debug_annotation_names, d->n_debug_annotation_names);
  if (!e)
    e = names(q, TC_PI_STRVAL, d->debug_annotation_string_values,
              d->n_debug_annotation_string_values);
  for (size_t i = 0; !e && i < d->n_source_locations; i++) {
    const Tcpb__SourceLocation *s = d->source_locations[i];
    tc_pival val = {copy(q, s->file_name), copy(q, s->function_name), s->line_number,
                    s->has_line_number};
    if ((s->file_name.len && !val.a.len) || (s->function_name.len && !val.b.len))
      return TC_E_NOMEM;
    e = put(q, TC_PI_SRCLOC, s->iid, val);
  }
  return e;
}

const tc_pival *tc__pseq_lookup(const tc_pseq *q, int kind, uint64_t iid) {
  uint32_t k = tc_imap_find(&q->tab[kind].ids, iid);
  return k == UINT32_MAX ? NULL : &q->tab[kind].v[k];
}
