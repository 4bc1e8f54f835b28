/* Splitting a trace's decompressed bytes into chunks of whole events.
 *
 * The chunker is fed the stream piece by piece and finds where each event
 * (an element of the top-level array, or of "traceEvents" in the object
 * form) starts and ends, tracking only strings, nesting depth and bracket
 * kinds, so it runs far faster than the parser behind it. Complete events
 * are copied into the current chunk as one JSON array ("[ev,ev,...]") with
 * parser padding after it, so a chunk can be parsed in one call and handed
 * to any worker.
 *
 * A stream whose first bytes are a Perfetto protobuf trace (io/tc_sniff.h)
 * is read by proto/tc_proto.h instead, whose events fill the chunks the
 * same way (see the end of tc_chunker.c); one whose first bytes are
 * something else recognisable (a zip, an image, gzip inside gzip, ...)
 * is refused with the error that names it.
 *
 * Accepted like Chrome and Perfetto accept them: an array with no closing
 * bracket, trailing or repeated commas, an object whose traceEvents is not
 * the first member, a traceEvents key given twice (both arrays' events
 * count, indexed on from the first), a key spelt with escapes. Elements that
 * are not objects, events larger than the limit, and an event cut off by the
 * end of the stream are recorded as errors with their index and byte
 * offset, and scanning goes on. Data after the trace's end is counted in
 * the shape (values, offset, size) and never read as events.
 *
 * So are events with mismatched brackets (TC_E_BAD_BRACKETS, which wins
 * over TC_E_EVENT_TOO_BIG): a closer of the wrong kind, at one of the outer
 * 64 levels, ends the event there, outside strings. The closers and spaces
 * right after it are taken as its own (in "{"a":[1}]}," the "]}" is), and
 * scanning goes on in the events array at the next byte, so the events that
 * follow are found. The cost: a broken last event takes the array's "]" too,
 * so the trace is reported unterminated, or in the object form the members
 * after the array are read as elements (not objects). Other members of the
 * top-level object end the same way as events. Deeper than 64 levels
 * bracket kinds are not checked. */
#ifndef TC_CHUNKER_H
#define TC_CHUNKER_H

#include <stddef.h>
#include <stdint.h>

#include "util/tc_error.h"
#include "util/tc_str.h"

/* Bytes of readable padding after every chunk's JSON (simdjson needs 64). */
#define TC_JSON_PADDING 64

typedef struct {
  uint32_t start, end; /* byte range of the event in the chunk's buffer */
  uint64_t offset;     /* byte offset of its '{' in the decompressed trace */
  uint64_t index;      /* ordinal of the element in the events array, from 0 */
} tc_chunk_event;

/* A chunk owns all its memory; free it with tc_chunk_free from any thread. */
typedef struct {
  char *buf; /* "[" events joined by "," "]", then TC_JSON_PADDING bytes */
  size_t len, cap;
  tc_chunk_event *events;
  uint32_t nevents, events_cap;
  uint32_t seq; /* 0, 1, 2, ... in trace order */
} tc_chunk;

void tc_chunk_free(tc_chunk *c);

typedef struct {
  uint64_t index;  /* element index, or the count of elements so far */
  uint64_t offset; /* byte offset in the decompressed trace */
  tc_err code;
} tc_chunk_error;

typedef struct tc_chunker tc_chunker;

/* A chunk holds at most this many events, so that a trace of tiny events
 * ({"ph":"X"} is 10 bytes) costs no more per chunk in event records, here
 * and in the parser's output, than real events of a few hundred bytes. */
#define TC_CHUNK_MAX_EVENTS 16384

/* TARGET: emit a chunk once it holds at least this many bytes of events
 * (or TC_CHUNK_MAX_EVENTS events).
 * MAX_EVENT: larger events are skipped and reported (bounds memory). */
tc_chunker *tc_chunker_create(size_t target, size_t max_event);
void tc_chunker_free(tc_chunker *ch);

/* Consumes DATA[*pos .. n), advancing *pos. Stops early when a chunk is full:
 * then *ready receives it (the caller owns it) and the caller feeds the
 * rest of DATA again. Returns an error only for a stream that is not a trace
 * at all (TC_E_NOT_TRACE, or a TC_E_NOT_TRACE_* naming what it is; a
 * stream whose first byte may start a binary format is held for up to
 * TC_SNIFF_HEAD bytes first, so the error may come from a later feed or
 * from finish) or when memory fails; per-event problems go to the error
 * list. */
tc_err tc_chunker_feed(tc_chunker *ch, const char *data, size_t n, size_t *pos, tc_chunk **ready);

/* Ends the stream: *last receives the final partial chunk (or NULL if it has
 * no events). Records a cut-off event, and returns TC_E_NO_EVENTS for an
 * object without traceEvents (TC_E_NOT_TRACE_HAR when it has a top-level
 * "log": a HAR file) or TC_E_EMPTY_TRACE for a stream of nothing but
 * spaces (or a byte order mark); or a feed's error for a stream shorter
 * than the held head. */
tc_err tc_chunker_finish(tc_chunker *ch, tc_chunk **last);

/* Errors recorded so far (at most TC_CHUNKER_MAX_ERRORS kept; the count is
 * exact). Valid until the next feed/finish. */
#define TC_CHUNKER_MAX_ERRORS 100
const tc_chunk_error *tc_chunker_errors(const tc_chunker *ch, uint64_t *count, size_t *kept);

/* Elements seen in the events array so far. */
uint64_t tc_chunker_elements(const tc_chunker *ch);

/* What the chunker learnt about the trace's shape. */
typedef struct {
  int object_form;     /* {"traceEvents": [...]} rather than a bare array */
  int unterminated;    /* the events array (or object) was never closed */
  int trailing_bytes;  /* non-space bytes after the trace ended */
  int cut_event;       /* the stream ended inside an event: the trace is truncated */
  int metadata_cut;    /* metadata longer than the kept limit */
  uint32_t events_arrays; /* traceEvents arrays read (a repeated key adds its events) */
  uint64_t trailing_offset; /* of the first non-space byte after the trace */
  uint64_t trailing_size;   /* bytes from there to the end of the stream */
  uint64_t trailing_values; /* JSON values in them, none of them read */
  uint64_t not_trace_offset; /* where TC_E_NOT_TRACE stopped the scan */
  tc_str metadata;     /* raw JSON of the first "metadata" member, or empty;
                          valid until tc_chunker_free */
  int perfetto;        /* a Perfetto protobuf trace, read as JSON events:
                          offsets count its decompressed protobuf bytes */
} tc_trace_shape;

void tc_chunker_shape(const tc_chunker *ch, tc_trace_shape *out);

/* The metadata the shape names, made the caller's to free: NUL-terminated,
 * or NULL when there is none (or no memory to copy a Perfetto trace's).
 * A JSON trace's is handed over, not copied: the chunker and a shape read
 * before then no longer hold it. */
char *tc_chunker_take_metadata(tc_chunker *ch);

#endif
