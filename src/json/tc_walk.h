/* The plain On-Demand walk: the baseline `tracecensus bench --baseline`
 * measures the census against, in the same process.
 *
 * It does what a straightforward simdjson program over a trace does, and
 * no more: decompress the whole file into one padded buffer (tc_stream),
 * parse it as one document, and for every event of the array (or of
 * traceEvents) read name, cat and ph into hash tables with counts, ts and
 * dur as numbers, pid and tid as integers, and every argument key path
 * (args.a.b, arrays as []) into a hash table with counts. No chunking, no
 * threads, no census rules, no reports. Not a validator: a file that is not
 * strict JSON stops its walk (TC_E_BAD_EVENT).
 *
 * The value walk does the same and also reads every scalar under args as a
 * value profile needs it: strings unescaped, numbers parsed, booleans and
 * nulls told apart. It is the fair anchor for the census, which reads every
 * value; the key-only walk skips them.
 *
 * A Perfetto protobuf trace (io/tc_sniff.h) is walked by protobuf-c alone
 * (proto/tc_proto_unpack.h), which reads every field, so both walks are
 * that one there; its events are then the packets unpacked, its bytes
 * protobuf's. */
#ifndef TC_WALK_H
#define TC_WALK_H

#include <stdint.h>

#include "util/tc_error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tc_walk tc_walk;

/* What the walk read, summed over the files given to it. */
typedef struct {
  uint64_t json_bytes; /* decompressed (of protobuf, for a Perfetto trace) */
  uint64_t events;     /* elements of the events array that were objects
                          (packets unpacked, for a Perfetto trace) */
  uint64_t names, cats, paths; /* distinct */
  uint64_t values;             /* scalars read under args (the value walk) */
} tc_walk_stats;

/* NULL if memory fails. The tables persist over tc_walk_file calls.
 * READ_VALUES nonzero makes it the value walk. */
tc_walk *tc_walk_create(int read_values);
void tc_walk_free(tc_walk *w);

/* Walks the trace at PATH, adding to the tables. */
tc_err tc_walk_file(tc_walk *w, const char *path);

void tc_walk_stats_get(const tc_walk *w, tc_walk_stats *out);

#ifdef __cplusplus
}
#endif

#endif
