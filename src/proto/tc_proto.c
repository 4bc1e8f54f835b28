/* The reader's front: one packet at a time, unpacked by protobuf-c into the
 * packet's allocator, then handed to the part that knows its kind.
 *
 * Order inside a packet follows Perfetto's: a SEQ_INCREMENTAL_STATE_CLEARED
 * flag first (so the packet's own interned data and defaults survive it),
 * then TracePacketDefaults and InternedData, then the packet's content.
 * Every packet's timestamp is read, event or not, because an incremental
 * clock counts from the previous packet that used it. */
#include <stdlib.h>
#include <string.h>

#include "proto/tc_proto_impl.h"
#include "util/tc_json_valid.h"

#define SEQ_INCREMENTAL_STATE_CLEARED 1u
#define BOOTTIME 6u

tc_proto *tc_proto_create(const tc_proto_sink *sink) {
  tc_proto *r = calloc(1, sizeof *r);
  if (!r)
    return NULL;
  r->sink = *sink;
  tc__palloc_init(&r->alloc);
  tc__pclocks_init(&r->clocks);
  return r;
}

void tc_proto_free(tc_proto *r) {
  if (!r)
    return;
  tc_arena_free(&r->alloc.arena);
  tc__pseqs_free(&r->seqs);
  tc__ptracks_free(&r->tracks);
  tc__pflows_free(r);
  tc_imap_free(&r->flow_ids);
  tc_imap_free(&r->bind_ids);
  tc__pbuf_free(&r->out);
  tc__pbuf_free(&r->head);
  tc__pbuf_free(&r->extra);
  tc__pbuf_free(&r->args);
  tc__pbuf_free(&r->scratch);
  tc__pbuf_free(&r->meta);
  free(r->pkt);
  free(r);
}

void tc__proto_skip(tc_proto *r, uint64_t offset, tc_err code) {
  r->sink.skip(r->sink.ctx, offset, code);
}

void tc__proto_emit(tc_proto *r) {
  if (r->fail)
    return;
  if (r->out.oom) {
    r->fail = TC_E_NOMEM;
    return;
  }
  r->fail = r->sink.event(r->sink.ctx, r->out.p, r->out.len, r->offset);
}

/* One member of Chrome's metadata object: KEY (LEN bytes) and the value
 * WRITE puts after it. Past TC_PROTO_META_MAX the member is taken back and
 * the metadata marked cut. */
static void meta_member(tc_proto *r, const void *key, size_t len,
                        void (*write)(tc_pbuf *m, const void *x), const void *x) {
  tc_pbuf *m = &r->meta;
  if (r->meta_cut)
    return;
  size_t before = m->len;
  if (m->len)
    m->p[m->len - 1] = ','; /* the closing brace makes way */
  else
    tc__pbuf_put(m, "{", 1);
  tc__pbuf_str(m, key, len);
  tc__pbuf_put(m, ":", 1);
  write(m, x);
  tc__pbuf_put(m, "}", 1);
  if (m->oom || m->len > TC_PROTO_META_MAX) {
    r->meta_cut = 1;
    m->oom = 0;
    m->len = before;
    if (m->len)
      m->p[m->len - 1] = '}';
  }
}

static void chrome_value(tc_pbuf *m, const void *x) {
  const Tcpb__ChromeMetadata *v = x;
  tc_str json = {(const char *)v->json_value.data, v->json_value.len};
  if (v->has_string_value)
    tc__pbuf_str(m, v->string_value.data, v->string_value.len);
  else if (v->has_int_value)
    tc__pbuf_i64(m, v->int_value);
  else if (v->has_bool_value)
    tc__pbuf_puts(m, v->bool_value ? "true" : "false");
  else if (v->has_json_value && tc_json_valid(json))
    tc__pbuf_put(m, json.ptr, json.len);
  else
    tc__pbuf_str(m, json.ptr, json.len);
}

static void string_value(tc_pbuf *m, const void *x) {
  const ProtobufCBinaryData *b = x;
  tc__pbuf_str(m, b->data, b->len);
}

/* ChromeEventBundle.metadata as the members of one JSON object, as Chrome's
 * JSON export writes its "metadata" (command_line, user-agent, ...), and
 * the version string of ChromeMetadataPacket as "product-version", as
 * Perfetto's trace processor names it. */
static void metadata(tc_proto *r, const Tcpb__TracePacket *p) {
  static const char version[] = "product-version";
  const Tcpb__ChromeEventBundle *b = p->chrome_events;
  for (size_t i = 0; b && i < b->n_metadata; i++) {
    const ProtobufCBinaryData *k = &b->metadata[i]->name;
    if (!b->metadata[i]->has_name)
      continue;
    if (k->len == sizeof version - 1 && memcmp(k->data, version, k->len) == 0)
      r->meta_version = 1;
    meta_member(r, k->data, k->len, chrome_value, b->metadata[i]);
  }
  /* Once: an older Chrome names its version in the bundle already. */
  const Tcpb__ChromeMetadataPacket *c = p->chrome_metadata;
  if (c && c->has_product_version && !r->meta_version) {
    r->meta_version = 1;
    meta_member(r, version, sizeof version - 1, string_value, &c->product_version);
  }
}

/* An older Chrome's ThreadDescriptor packet: the sequence's own thread,
 * for events that name no track (a track of the reader's own making). */
static void sequence_thread(tc_proto *r, tc_pseq *q, const Tcpb__ThreadDescriptor *d) {
  q->has_thread = 1;
  q->pid = d->pid;
  q->tid = d->tid;
  q->last_us = d->has_reference_timestamp_us ? d->reference_timestamp_us : 0;
  tc_ptrack *t = tc__ptrack_get(&r->tracks, (uint64_t)1 << 63 | q->id, &r->fail);
  if (t) {
    t->kind = TC_TRK_THREAD;
    t->pid = d->pid;
    t->tid = d->tid;
  }
  tc__ptrack_names(r, NULL, d);
}

/* The event's time in trace-clock ns, or an error. */
static tc_err event_time(tc_pseq *q, const Tcpb__TracePacket *p, int clock_err, int64_t packet_ns,
                         int64_t *ns) {
  const Tcpb__TrackEvent *e = p->track_event;
  if (p->has_timestamp) {
    *ns = packet_ns;
    return clock_err ? TC_E_PB_CLOCK : TC_OK;
  }
  /* The older encoding: microseconds, absolute or added to the sequence's
   * reference. */
  if (e->has_timestamp_absolute_us) {
    *ns = (int64_t)((uint64_t)e->timestamp_absolute_us * 1000u);
  } else if (e->has_timestamp_delta_us) {
    q->last_us = (int64_t)((uint64_t)q->last_us + (uint64_t)e->timestamp_delta_us);
    *ns = (int64_t)((uint64_t)q->last_us * 1000u);
  } else {
    *ns = 0;
  }
  return TC_OK;
}

void tc__proto_packet(tc_proto *r, const uint8_t *data, size_t n) {
  r->offset = r->pkt_offset;
  tc_arena_reset(&r->alloc.arena);
  Tcpb__TracePacket *p = tcpb__trace_packet__unpack(&r->alloc.pc, n, data);
  if (!p) {
    size_t at;
    tc_err code = tc__pdiag(&tcpb__trace_packet__descriptor, data, n, &at);
    /* The packet's body ends where the reader now is. */
    tc__proto_skip(r, code == TC_E_PB_BAD_PACKET ? r->offset : r->pos - n + at, code);
    return;
  }
  tc_pseq *q = tc__pseq_get(&r->seqs, p->has_trusted_packet_sequence_id
                                          ? p->trusted_packet_sequence_id
                                          : 0);
  if (!q) {
    r->fail = TC_E_NOMEM;
    return;
  }
  if ((p->has_sequence_flags && (p->sequence_flags & SEQ_INCREMENTAL_STATE_CLEARED)) ||
      (p->has_incremental_state_cleared && p->incremental_state_cleared))
    tc__pseq_clear(q);
  const Tcpb__TracePacketDefaults *d = p->trace_packet_defaults;
  if (d) {
    q->has_clock = d->has_timestamp_clock_id;
    q->clock_id = d->timestamp_clock_id;
    q->has_track = d->track_event_defaults && d->track_event_defaults->has_track_uuid;
    q->track_uuid = q->has_track ? d->track_event_defaults->track_uuid : 0;
  }
  if (p->interned_data && tc__pseq_intern(q, p->interned_data)) {
    r->fail = TC_E_NOMEM;
    return;
  }
  if (p->clock_snapshot)
    tc__pclocks_snapshot(&r->clocks, q, p->clock_snapshot);
  int64_t packet_ns = 0;
  int clock_err = 0;
  if (p->has_timestamp) {
    uint32_t clock = p->has_timestamp_clock_id ? p->timestamp_clock_id
                     : q->has_clock            ? q->clock_id
                                               : BOOTTIME;
    clock_err = tc__pclocks_convert(&r->clocks, q, clock, p->timestamp, &packet_ns) != TC_OK;
  }
  if (p->track_descriptor)
    tc__ptrack_describe(r, p->track_descriptor);
  if (p->process_descriptor)
    tc__ptrack_names(r, p->process_descriptor, NULL);
  if (p->thread_descriptor)
    sequence_thread(r, q, p->thread_descriptor);
  metadata(r, p);
  if (p->track_event) {
    int64_t ns;
    tc_err e = event_time(q, p, clock_err, packet_ns, &ns);
    if (e)
      tc__proto_skip(r, r->offset, e);
    else
      tc__pevent(r, q, p, ns);
  }
}

tc_err tc_proto_finish(tc_proto *r) {
  tc__pframe_end(r);
  tc__pevent_finish(r);
  return r->fail;
}

uint64_t tc_proto_offset(const tc_proto *r) { return r->pos; }

int tc_proto_broken(const tc_proto *r, uint64_t *offset, tc_err *code) {
  *offset = r->broken_at;
  *code = r->broken;
  return r->broken != TC_OK;
}

int tc_proto_cut(const tc_proto *r) { return r->cut; }

tc_str tc_proto_metadata(const tc_proto *r, int *cut) {
  *cut = r->meta_cut;
  tc_str s = {r->meta.p, r->meta.len};
  return s;
}
