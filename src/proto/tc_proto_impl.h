/* Internal to src/proto: the reader's state and the parts that share it.
 *
 *   tc_proto.c     create/free, one packet's dispatch, Chrome's metadata
 *   tc_pframe.c    framing: bytes -> whole packets, the size limit
 *   tc_pdiag.c     why a packet did not unpack, and where
 *   tc_palloc.c    the per-packet allocator handed to protobuf-c
 *   tc_pseq.c      sequences: interned data, defaults, incremental state
 *   tc_pclock.c    timestamps to the trace clock, in nanoseconds
 *   tc_ptrack.c    tracks: descriptors, pid/tid, thread and process names
 *   tc_pargs.c     debug annotations -> the event's args object
 *   tc_pevent.c    TrackEvents -> JSON events: slices, instants, flows
 *   tc_pbuf.c      the JSON text builder
 *
 * Every table below grows with the trace's content, not its length, and
 * has a cap (TC_PROTO_MAX_*): past a cap the reader drops state it can
 * rebuild or stops tracking (stated beside each). */
#ifndef TC_PROTO_IMPL_H
#define TC_PROTO_IMPL_H

#include <protobuf-c/protobuf-c.h>

#include "proto/tc_perfetto.pb-c.h"
#include "proto/tc_proto.h"
#include "util/tc_arena.h"
#include "util/tc_map.h"

/* Caps, each far above what Chrome writes (a 5 s trace of a page: 68
 * sequences, 399 tracks, about 1,000 flows pending at its end) and each
 * bounding the state to some tens of MiB. Sequences: past the cap the
 * table is cleared, as a SEQ_INCREMENTAL_STATE_CLEARED on every sequence
 * would. Tracks: past the cap new tracks are not remembered (their events
 * lose pid/tid). Flows: pending flows (a flow's last step waits for a next
 * one that may never come), past the cap all are forgotten (their later
 * steps start new flows). Open slices: per track depth and bytes held, past
 * which a begin goes out at once as `B` (its end then as `E`). */
#define TC_PROTO_MAX_SEQS 4096u
#define TC_PROTO_MAX_TRACKS (1u << 17)
#define TC_PROTO_MAX_FLOWS (1u << 17)
#define TC_PROTO_MAX_DEPTH 1024u
#define TC_PROTO_MAX_OPEN_BYTES ((size_t)64 << 20)
/* Nesting of debug annotations (dicts and arrays) followed. */
#define TC_PROTO_MAX_ARG_DEPTH 64
/* Chrome's metadata kept, as the JSON reader keeps a trace's metadata. */
#define TC_PROTO_META_MAX ((size_t)1 << 20)

/* ---- JSON text (tc_pbuf.c) ---- */
typedef struct {
  char *p;
  size_t len, cap;
  int oom; /* a growth failed: the text is incomplete, report TC_E_NOMEM */
} tc_pbuf;

void tc__pbuf_free(tc_pbuf *b);
void tc__pbuf_put(tc_pbuf *b, const void *p, size_t n);
void tc__pbuf_puts(tc_pbuf *b, const char *s);
/* P[0..n) as a JSON string: quoted, escaped, each byte that is not UTF-8
 * written as U+FFFD. */
void tc__pbuf_str(tc_pbuf *b, const void *p, size_t n);
void tc__pbuf_u64(tc_pbuf *b, uint64_t v);
void tc__pbuf_i64(tc_pbuf *b, int64_t v);
/* "0x..." in lower-case hex, as Chrome's JSON writes pointers and ids. */
void tc__pbuf_hex(tc_pbuf *b, uint64_t v);
/* A double as a JSON number; NaN and the infinities as the strings
 * "NaN", "Infinity", "-Infinity" (Perfetto's JSON export writes them so). */
void tc__pbuf_num(tc_pbuf *b, double v);

/* ---- the allocator for protobuf-c (tc_palloc.c) ---- */
typedef struct {
  ProtobufCAllocator pc; /* handed to protobuf-c; allocates from the arena */
  tc_arena arena;        /* reset before each packet, freed with the reader */
} tc_palloc;

void tc__palloc_init(tc_palloc *a);

/* ---- diagnosis (tc_pdiag.c) ---- */
/* Why DATA[0..n), which protobuf-c refused as a DESC, is not one: the
 * code (PB_VARINT, PB_WIRE_TYPE, PB_LENGTH, or PB_BAD_PACKET when the walk
 * finds nothing) and *AT, the offset of the bad byte in DATA. */
tc_err tc__pdiag(const ProtobufCMessageDescriptor *desc, const uint8_t *data, size_t n,
                 size_t *at);

/* ---- sequences (tc_pseq.c) ---- */
enum { TC_PI_NAME, TC_PI_CAT, TC_PI_ANNOT, TC_PI_STRVAL, TC_PI_SRCLOC, TC_PI_KINDS };

typedef struct {
  tc_str a, b;   /* the string; for a source location file (a) and function (b) */
  uint32_t line; /* a source location's line, when has_line */
  int has_line;
} tc_pival;

typedef struct {
  tc_imap ids; /* iid -> index into v */
  tc_pival *v;
  size_t cap;
} tc_ptab;

/* A sequence-scoped clock (ids 64 to 127), as its last ClockSnapshot on
 * the sequence defined it. */
typedef struct {
  uint32_t id;
  int incremental;
  uint64_t unit_ns;   /* unit_multiplier_ns, 1 when unset */
  uint64_t last;      /* in its unit: the last timestamp read (incremental) */
  uint32_t ref_clock; /* a builtin clock in the same snapshot */
  uint64_t ref_ns;    /* ref_clock's reading in that snapshot */
  uint64_t at;        /* this clock's reading there, in its unit */
} tc_pseqclock;

#define TC_PROTO_SEQ_CLOCKS 8

typedef struct {
  uint32_t id; /* trusted_packet_sequence_id */
  tc_ptab tab[TC_PI_KINDS];
  tc_arena arena; /* the interned strings */
  int has_clock, has_track, has_thread;
  uint32_t clock_id;   /* TracePacketDefaults.timestamp_clock_id */
  uint64_t track_uuid; /* TracePacketDefaults.track_event_defaults.track_uuid */
  int32_t pid;         /* a ThreadDescriptor packet (older Chrome) */
  int64_t tid;
  int64_t last_us; /* its reference_timestamp_us plus the deltas since */
  tc_pseqclock clocks[TC_PROTO_SEQ_CLOCKS];
  unsigned nclocks;
} tc_pseq;

typedef struct {
  tc_imap ids; /* trusted_packet_sequence_id -> index into v */
  tc_pseq **v;
  size_t cap;
} tc_pseqs;

void tc__pseqs_free(tc_pseqs *s);
/* The sequence ID, created if new; NULL if memory fails. */
tc_pseq *tc__pseq_get(tc_pseqs *s, uint32_t id);
/* SEQ_INCREMENTAL_STATE_CLEARED: interned data, defaults and clocks go. */
void tc__pseq_clear(tc_pseq *q);
/* Adds a packet's InternedData to Q. */
tc_err tc__pseq_intern(tc_pseq *q, const Tcpb__InternedData *d);
/* The interned value IID of KIND, or NULL. */
const tc_pival *tc__pseq_lookup(const tc_pseq *q, int kind, uint64_t iid);

/* ---- clocks (tc_pclock.c) ---- */
typedef struct {
  uint32_t trace_clock; /* primary_trace_clock, else BOOTTIME (6) */
  int trace_clock_set;
  /* Builtin clocks (1 to 63): reading of the trace clock minus this
   * clock's, from the latest snapshot holding both. */
  int64_t offset[64];
  uint8_t known[64];
} tc_pclocks;

void tc__pclocks_init(tc_pclocks *c);
/* A ClockSnapshot on sequence Q: builtin clocks into C, sequence-scoped
 * ones into Q. */
void tc__pclocks_snapshot(tc_pclocks *c, tc_pseq *q, const Tcpb__ClockSnapshot *s);
/* Packet timestamp TS in clock CLOCK on Q, in trace-clock ns; TC_E_PB_CLOCK
 * when no snapshot links them. Advances an incremental clock. */
tc_err tc__pclocks_convert(tc_pclocks *c, tc_pseq *q, uint32_t clock, uint64_t ts, int64_t *ns);

/* ---- tracks (tc_ptrack.c) ---- */
enum { TC_TRK_UNKNOWN, TC_TRK_THREAD, TC_TRK_PROCESS, TC_TRK_COUNTER, TC_TRK_CHILD };

/* A slice begun and not yet ended: its begin's text, to be written whole
 * when it ends. */
typedef struct {
  int64_t ts;       /* trace-clock ns */
  char *text;       /* head ("name":..,"cat":..), extra (legacy id fields),
                       then args (object members; none once emitted) */
  size_t head_len, extra_len, args_len;
  int emitted;      /* already written as `B`/`b` (a cap was reached) */
} tc_pslice;

typedef struct {
  uint64_t uuid, parent;
  int has_parent;
  int kind;          /* TC_TRK_* */
  int counter_type;  /* CounterDescriptor.type: 1, 2 are thread time and instructions */
  int32_t pid;
  int64_t tid;
  char *name;        /* the track's name as JSON string text, or NULL */
  tc_pslice *open;
  uint32_t nopen;
  size_t open_cap;
} tc_ptrack;

/* Where an event on a track belongs. */
typedef struct {
  int scope;  /* TC_TRK_THREAD, TC_TRK_PROCESS, TC_TRK_CHILD (async) or TC_TRK_UNKNOWN (global) */
  int has_pid, has_tid;
  int32_t pid;
  int64_t tid;
} tc_pwhere;

typedef struct {
  tc_imap ids; /* uuid -> index into v */
  tc_ptrack *v;
  size_t cap;
  size_t open_bytes; /* held by every open slice */
  tc_imap named_pids, named_tids; /* pid, (pid, tid): those named already */
} tc_ptracks;

void tc__ptracks_free(tc_ptracks *t);
/* The track UUID, made (as TC_TRK_UNKNOWN) if new; NULL past the cap, or
 * when memory fails (then *ERR is TC_E_NOMEM). */
tc_ptrack *tc__ptrack_get(tc_ptracks *t, uint64_t uuid, tc_err *err);
tc_ptrack *tc__ptrack_find(const tc_ptracks *t, uint64_t uuid);
/* Where events on TRACK belong: its thread, or its ancestors' process. */
tc_pwhere tc__ptrack_where(const tc_ptracks *t, const tc_ptrack *track);

/* ---- the reader ---- */
struct tc_proto {
  tc_proto_sink sink;
  /* framing (tc_pframe.c) */
  uint64_t pos;         /* bytes consumed */
  int fstate;           /* what the bytes at pos are: tag, length, body, skip */
  uint64_t fval;        /* the varint being read */
  unsigned fshift;
  uint64_t pkt_offset;  /* where the current packet began (its tag) */
  uint64_t pkt_len, pkt_got;
  uint8_t *pkt;         /* a packet that straddles feeds, copied */
  size_t pkt_cap;
  uint64_t skip_left;   /* bytes of a skipped field or packet still to pass */
  tc_err broken;
  uint64_t broken_at;
  int cut;
  /* decoding */
  tc_palloc alloc;
  tc_pseqs seqs;
  tc_pclocks clocks;
  tc_ptracks tracks;
  /* flows: flow id -> pending step; flow_ids (TrackEvent.flow_ids) and
   * bind_ids (LegacyEvent.bind_id) share flows, at even and odd slots */
  tc_imap flow_ids, bind_ids;
  struct tc_pflow *flows;
  size_t flows_cap;
  uint64_t next_flow; /* the id of the next s/f pair written */
  /* output */
  tc_pbuf out;       /* one event's text */
  tc_pbuf head;      /* one event's "name":..,"cat":.. */
  size_t cat_at;     /* where ,"cat": starts in head */
  tc_pbuf extra;     /* its legacy id and scope fields, each after a comma */
  tc_pbuf args;      /* its args members */
  tc_pbuf scratch;   /* categories joined before escaping */
  uint64_t offset;   /* of the packet being handled */
  tc_err fail;       /* TC_E_NOMEM from the sink or a table */
  tc_pbuf meta;      /* Chrome's metadata, the object's members */
  int meta_cut;
  int meta_version;  /* it has a "product-version" */
};

/* A flow's last step, waiting for the next (tc_pevent.c). */
struct tc_pflow {
  int live;
  int64_t ts;
  tc_pwhere where;
  char *head; /* "name":..,"cat":.. of the step's event */
  size_t head_len;
};

/* The stream ended: reports a packet it cut (tc_pframe.c). */
void tc__pframe_end(tc_proto *r);
/* One packet's bytes, which began at r->pkt_offset. */
void tc__proto_packet(tc_proto *r, const uint8_t *data, size_t n);
/* A packet or event left out. */
void tc__proto_skip(tc_proto *r, uint64_t offset, tc_err code);
/* Writes r->out to the sink. */
void tc__proto_emit(tc_proto *r);

/* Debug annotations (and the typed fields written as args) of E into
 * r->args as object members; TC_OK, TC_E_PB_INTERNED, TC_E_PB_DEPTH,
 * TC_E_PB_BAD_PACKET (a nested annotation that does not unpack) or
 * TC_E_NOMEM. */
tc_err tc__pargs(tc_proto *r, const tc_pseq *q, const Tcpb__TrackEvent *e);

/* A TrackEvent at trace-clock TS (ns). */
void tc__pevent(tc_proto *r, tc_pseq *q, const Tcpb__TracePacket *p, int64_t ts);
/* A TrackDescriptor, or the older Process/ThreadDescriptor packets. */
void tc__ptrack_describe(tc_proto *r, const Tcpb__TrackDescriptor *d);
void tc__ptrack_names(tc_proto *r, const Tcpb__ProcessDescriptor *p, const Tcpb__ThreadDescriptor *t);
/* The end of the trace: open slices as `B`/`b`, state freed. */
void tc__pevent_finish(tc_proto *r);
void tc__pflows_free(tc_proto *r);

#endif
