/* Perfetto protobuf traces, read as the JSON events the rest of tracecensus
 * already reads.
 *
 * A Perfetto trace is a sequence of TracePacket messages (field 1 of Trace,
 * length-delimited). The reader frames the bytes it is fed into packets,
 * unpacks each with protobuf-c (from src/proto/tc_perfetto.proto), resolves
 * what a packet leans on (interned names, the sequence's defaults, clocks,
 * the track's process and thread) and hands each resulting event to a sink
 * as one JSON object, written the way Chrome's own JSON export
 * (Perfetto's export_json.cc) writes it: a slice as one complete `X` event
 * with `dur`, emitted when it ends; instants `I` with their scope; async
 * slices `b`/`e`; flows as `s`/`f` pairs; `M` thread_name and process_name
 * events from the descriptors. The README's "Perfetto protobuf traces"
 * section lists every rule.
 *
 * Memory: one packet at a time (at most TC_PROTO_PACKET_MAX bytes, copied
 * only when it straddles two feeds), plus the state a trace keeps by
 * design: each sequence's interned strings (dropped when the sequence
 * clears its incremental state), the tracks' descriptors, the slices still
 * open and the flows still pending, each capped (tc_proto_impl.h).
 *
 * Bad input is named, never fatal: a packet that does not unpack, an event
 * that refers to an interned id its sequence never defined or to a clock
 * with no path to the trace clock, a packet over the size limit, are left
 * out and reported to the sink with their byte offset; broken framing (a
 * malformed tag or length at the top level) stops the reader, which then
 * says where (tc_proto_broken); a trace cut inside a packet is reported at
 * finish (tc_proto_cut). Single-threaded: one reader per trace. */
#ifndef TC_PROTO_H
#define TC_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "util/tc_error.h"
#include "util/tc_str.h"

/* The largest packet read. Chrome's packets are a few KiB (a memory dump
 * may reach some MiB); a larger one is skipped and named, so a corrupt
 * length cannot make the reader allocate what the file does not hold. */
#define TC_PROTO_PACKET_MAX ((size_t)64 << 20)

/* Where the reader's events go. */
typedef struct {
  /* One event: LEN bytes of JSON object text at JSON, valid during the call
   * only. OFFSET is the byte offset of the packet it came from in the
   * decompressed trace. Returns TC_OK, or TC_E_NOMEM to stop the reader. */
  tc_err (*event)(void *ctx, const char *json, size_t len, uint64_t offset);
  /* A packet or event left out: CODE says why, OFFSET where (the packet's
   * first byte, or the bad byte inside it). */
  void (*skip)(void *ctx, uint64_t offset, tc_err code);
  void *ctx;
} tc_proto_sink;

typedef struct tc_proto tc_proto;

/* SINK is copied. NULL if memory fails. */
tc_proto *tc_proto_create(const tc_proto_sink *sink);

/* Accepts NULL. */
void tc_proto_free(tc_proto *r);

/* Consumes DATA[*pos .. n) up to the end of the next whole packet (so the
 * caller can act on the events of each packet before the next) or of DATA,
 * advancing *pos. Returns TC_OK; TC_E_NOMEM; or, once the framing is broken,
 * TC_E_PB_VARINT or TC_E_PB_WIRE_TYPE, after which every call consumes
 * nothing and returns the same code. */
tc_err tc_proto_feed(tc_proto *r, const unsigned char *data, size_t n, size_t *pos);

/* Ends the trace: the slices still open go out as `B` (or `b`), and a
 * trace cut inside a packet is reported to the sink as TC_E_PB_TRUNCATED.
 * Returns TC_OK or TC_E_NOMEM. */
tc_err tc_proto_finish(tc_proto *r);

/* Bytes consumed so far. */
uint64_t tc_proto_offset(const tc_proto *r);

/* 1 when broken framing stopped the reader, with the offset of the bad
 * byte in *OFFSET and its code in *CODE. */
int tc_proto_broken(const tc_proto *r, uint64_t *offset, tc_err *code);

/* 1 when the trace ended inside a packet (known after tc_proto_finish). */
int tc_proto_cut(const tc_proto *r);

/* Chrome's trace metadata (ChromeEventBundle.metadata: product-version,
 * command_line, ...) as the text of one JSON object, or empty. Valid until
 * the next feed or tc_proto_free. *CUT is set when it was longer than
 * MAX bytes and left out. */
tc_str tc_proto_metadata(const tc_proto *r, int *cut);

#endif
