/* The conventions of the core library (everything under src/ but cli/),
 * stated once here, where every module's header includes them.
 *
 * Errors. A function that can fail returns tc_err (TC_OK == 0); it never
 * prints, never exits, and leaves its out-parameters as its header says
 * (most: zeroed or untouched on failure). Where a failure has a place (a
 * file, a byte offset in it, the errno of a system call, a lock's holder),
 * the function also takes a tc_why *WHY, which it fills on failure only;
 * the caller words the message from the code and WHY. One X-macro drives
 * the enum, its message table and its stable names, so a code can never
 * lack a message or a name. Partial state files store codes by number
 * (pipeline/tc_partial.h): add new codes at the end only.
 *
 * Ownership. What a function returns or fills is the caller's unless its
 * header says "borrowed" or "valid until"; "malloc'd" means the caller
 * frees it with free(), anything else with the type's own *_free. Every
 * *_free accepts NULL (and a zeroed struct), so cleanup needs no checks.
 * Inputs are borrowed: a function keeps no pointer to them past its return
 * unless its header says so.
 *
 * Threads. An object is used by one thread at a time unless its header
 * names the lock or the atomic that makes it shareable. */
#ifndef TC_ERROR_H
#define TC_ERROR_H

#include <stdint.h>

#define TC_ERRNO_MAP(X)                                                        \
  X(OK, "success")                                                             \
  X(NOMEM, "out of memory")                                                    \
  X(IO, "read error")                                                          \
  X(OPEN, "cannot open file")                                                  \
  X(TRUNCATED, "compressed stream is truncated")                               \
  X(CORRUPT, "compressed stream is corrupt")                                   \
  X(NOT_TRACE, "not a trace: expected a JSON array or an object")              \
  X(NO_EVENTS, "object has no traceEvents array")                              \
  X(BAD_EVENT, "event is not valid JSON")                                      \
  X(NOT_OBJECT, "event is not a JSON object")                                  \
  X(EVENT_TOO_BIG, "event exceeds the maximum event size")                     \
  X(TRUNCATED_JSON, "trace ends inside an event")                              \
  X(BAD_JOB, "invalid job file")                                               \
  X(BAD_MANIFEST, "sites manifest has no header line with a `site` column")    \
  X(BAD_SCHEMA, "invalid DevTools schema file")                                \
  X(WRITE, "cannot write output")                                              \
  X(USAGE, "invalid arguments")                                                \
  X(BAD_BRACKETS, "mismatched brackets in event")                              \
  X(OUT_BUSY, "another run is writing this output folder")                     \
  X(OUT_NOT_DIR, "output path exists and is not a folder")                     \
  X(OUT_UNSAFE, "output folder cannot be replaced as a whole")                 \
  X(EMPTY_TRACE, "trace is empty (no JSON at all)")                             \
  X(EMPTY_EVENT, "event is an empty object")                                   \
  X(TRAILING_DATA, "data after the end of the trace")                          \
  X(NOT_REGULAR, "not a regular file")                                         \
  X(BAD_BINARY, "corrupt or truncated binary state")                           \
  X(NO_INPUT, "no INPUT exists")                                               \
  X(NO_SITES, "no sites found")                                                \
  X(NOT_PARTIAL, "not a tracecensus partial state file")                       \
  X(PARTIAL_VERSION, "partial state file of another format version")           \
  X(STATE_MISMATCH, "state folders of runs with other settings or shard counts") \
  X(STATE_INCOMPLETE, "state folders do not hold every site")                  \
  X(INTERRUPTED, "interrupted")                                                \
  X(BAD_JSON, "not valid JSON")                                                \
  X(BAD_OUTPUT, "not a tracecensus output of a known format")                \
  X(NOT_TRACE_PROTOBUF, "not a trace: protobuf data that is not a Perfetto trace") \
  X(NOT_TRACE_GZIP, "not a trace: gzip data inside the decompressed stream (compressed twice)") \
  X(NOT_TRACE_ZSTD, "not a trace: zstd data inside the decompressed stream (compressed twice)") \
  X(NOT_TRACE_ZIP, "not a trace: a zip archive")                              \
  X(NOT_TRACE_PNG, "not a trace: a PNG image")                                \
  X(NOT_TRACE_JPEG, "not a trace: a JPEG image")                              \
  X(NOT_TRACE_GIF, "not a trace: a GIF image")                                \
  X(NOT_TRACE_PDF, "not a trace: a PDF document")                             \
  X(NOT_TRACE_BINARY, "not a trace: binary data, neither JSON nor a Perfetto trace") \
  X(NOT_TRACE_HAR, "not a trace: a HAR file (JSON with \"log\" and no traceEvents)") \
  X(PB_TRUNCATED, "Perfetto trace ends inside a packet")                      \
  X(PB_VARINT, "Perfetto trace: malformed varint")                            \
  X(PB_WIRE_TYPE, "Perfetto trace: wrong protobuf wire type")                 \
  X(PB_LENGTH, "Perfetto trace: a field runs past the end of its message")    \
  X(PB_TOO_BIG, "Perfetto packet exceeds the packet size limit")              \
  X(PB_BAD_PACKET, "Perfetto packet does not unpack")                         \
  X(PB_INTERNED, "Perfetto event refers to an interned id never defined on its sequence") \
  X(PB_CLOCK, "Perfetto timestamp in a clock with no known path to the trace clock") \
  X(PB_DEPTH, "Perfetto debug annotations nested too deep")                  \
  X(STATE_BUSY, "another run is using this state folder")                     \
  X(STATE_OTHER_SHARD, "this state folder holds another shard of the run (give each shard a folder of its own)") \
  X(SCRATCH, "cannot write the run's scratch records")

typedef enum {
#define TC_ERR_ENUM(name, msg) TC_E_##name,
  TC_ERRNO_MAP(TC_ERR_ENUM)
#undef TC_ERR_ENUM
  TC_E_COUNT_
} tc_err;

#define TC_OK TC_E_OK

/* Static message for a code; never NULL. English for people: it may be
 * reworded. */
const char *tc_strerror(tc_err e);

/* Static, stable name of a code for machines: the enum's name in lower
 * case ("nomem", "not_trace", "trailing_data"), "unknown" for a value
 * outside the enum. Names are never reused or renamed; run.json writes
 * them beside the messages. Thread-safe. */
const char *tc_err_name(tc_err e);

/* Where and why a call failed, beside its tc_err (see the conventions
 * above). Each field is empty (0, "") when the failure has no such thing. */
typedef struct {
  char path[4096];    /* the file or folder it failed on */
  uint64_t offset;    /* where in PATH, when has_offset: a byte offset */
  int has_offset;
  int errnum;         /* errno of the system call that failed */
  long pid;           /* the process that holds a lock (TC_E_OUT_BUSY) */
  char reason[256];   /* what was wrong there, in words for a person */
} tc_why;

/* Empties W. Accepts NULL. */
void tc_why_clear(tc_why *w);

/* Sets W's path (cut to fit) and errnum; the rest is left as it is.
 * Accepts NULL W and PATH. */
void tc_why_errno(tc_why *w, const char *path, int errnum);

/* Sets W's offset and reason (cut to fit); the rest is left as it is.
 * Accepts NULL W and REASON. */
void tc_why_at(tc_why *w, uint64_t offset, const char *reason);

/* Sets W's reason from a format (cut to fit). Accepts NULL W. */
void tc_why_reason(tc_why *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
