/* What a run learnt about its input beside the tables: what happened to
 * each trace file and the run's totals. The pipeline fills them (tc_run);
 * the writers (run.json, census.md) and the command line read them. Plain
 * data, so the report stage needs no pipeline header to read a run. */
#ifndef TC_RUN_FACTS_H
#define TC_RUN_FACTS_H

#include <stddef.h>
#include <stdint.h>

#include "io/tc_stream.h"
#include "json/tc_chunker.h"
#include "util/tc_error.h"

#define TC_TRACE_MAX_ERRORS 20

/* What happened to one trace file. */
typedef struct {
  tc_err fatal;          /* could not be read at all (open, not a trace, ...) */
  tc_err stream_err;     /* the stream ended badly (truncated, corrupt) */
  uint64_t stream_offset;/* decompressed offset where it did */
  tc_format format;
  uint64_t in_bytes, out_bytes;
  uint64_t elements;     /* elements of the events array */
  uint64_t events;       /* event records parsed and counted */
  uint64_t bad_events;   /* elements skipped, with the reasons below */
  uint64_t lenient_events; /* counted events that only Perfetto's rules read */
  tc_chunk_error errors[TC_TRACE_MAX_ERRORS]; /* the first ones, by index */
  size_t nerrors;
  tc_trace_shape shape;  /* metadata points into meta below */
  char *meta;            /* the metadata JSON, or NULL: while the trace runs
                            its own copy; read back from tc_trace_rows, the
                            rows' one copy of that block */
  uint64_t chunks;
} tc_trace_status;

/* A process of a trace that the census scope left out, for run.json. */
#define TC_LEFT_URLS 3
typedef struct {
  int64_t pid;
  uint8_t why;              /* TC_LEFT_* (census/tc_census.h) */
  uint8_t kind;             /* tc_proc_kind (procs/tc_procmap.h) */
  uint64_t records;         /* its records the census did not count */
  char *name;               /* its process_name, or NULL */
  char *urls[TC_LEFT_URLS]; /* the first outermost documents it committed,
                               by time, NULL-padded */
} tc_left_proc;

/* A trace's processes left out, by pid; the list owns its strings. */
typedef struct {
  tc_left_proc *v;
  uint32_t n;
} tc_left_list;

/* Frees what L holds and empties it; accepts NULL. */
void tc_left_list_free(tc_left_list *l);

/* The run's totals over every trace, and how it ran. */
typedef struct {
  unsigned threads;
  uint64_t in_bytes, out_bytes, events, bad_events;
  uint64_t proto_bytes; /* of out_bytes, those of Perfetto protobuf traces */
  uint32_t traces_with_errors;
  uint32_t traces_failed; /* of them, those not read at all (fatal) */
  double seconds;
  const char *simd_kernel; /* static */
  /* State folders a merge folded (0 for a run that read the traces): a
   * merge reads no trace, so it has no throughput to report. */
  unsigned merged_folders;
} tc_run_totals;

/* What OUT decompressed bytes of which PROTO were protobuf are of, for the
 * lines people read: "JSON", "protobuf" or "JSON and protobuf". */
static inline const char *tc_decompressed_unit(uint64_t out, uint64_t proto) {
  return !proto ? "JSON" : proto == out ? "protobuf" : "JSON and protobuf";
}

#endif
