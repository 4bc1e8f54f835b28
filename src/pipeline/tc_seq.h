/* The ordered part of a chunk's results: the events that must be seen in
 * trace order (begin/end, flow and async pairing, the metric kernels), copied
 * out of the parser so they outlive it, plus the chunk's per-thread time
 * extents and every argument value for the value profiles (tc_vtab), whose
 * top values must be fed in trace order to come out the same whatever the
 * chunking and schedule (tc_topk.h). A tc_seq is filled by one worker and folded later, in chunk
 * order, by whichever worker completes the sequence. */
#ifndef TC_SEQ_H
#define TC_SEQ_H

#include <stddef.h>
#include <stdint.h>

#include "census/tc_vtab.h"
#include "kernels/tc_kernels.h"
#include "json/tc_event.h"
#include "util/tc_arena.h"
#include "util/tc_error.h"

typedef struct {
  int64_t pid, tid;
  double min_ts, max_ts, max_end; /* earliest ts, latest ts, latest ts + dur */
  uint64_t events;
} tc_thread_span;

/* An (event name, argument path) of the chunk's values; the texts live in
 * the seq's vtext. */
typedef struct {
  uint64_t name_off, path_off;
  uint32_t name_len, path_len;
} tc_seq_vkey;

/* One argument value (tc_leaf) in trace order. */
typedef struct {
  double num;       /* NUMBER, and BOOL as 0/1 */
  int64_t pid;      /* its event's process (TC_NO_ID: none) */
  uint64_t str_off; /* STRING: its bytes in vtext */
  uint32_t str_len;
  uint32_t key;     /* index into vkeys */
  uint8_t type;     /* one TC_JT_* bit */
  uint32_t count;   /* the value this many times in a row of its profile */
} tc_seq_val;

typedef struct {
  tc_kevent *events; /* strings and args point into the blocks below */
  size_t nevents, events_cap;
  tc_ktask_event *tasks; /* task slices for the kernels, compact; by index too */
  size_t ntasks, tasks_cap;
  tc_thread_span *spans;
  size_t nspans, spans_cap;
  size_t last_span; /* index of the span used last */
  tc_arena arena; /* copied strings and args */
  tc_seq_vkey *vkeys;
  size_t nvkeys, vkeys_cap;
  tc_seq_val *vals;
  size_t nvals, vals_cap;
  char *vtext; /* key and string value bytes, appended: one growing block */
  size_t vtext_len, vtext_cap;
} tc_seq;

void tc_seq_init(tc_seq *s);
void tc_seq_free(tc_seq *s);

/* Appends a deep copy of EV (strings and args). */
tc_err tc_seq_push(tc_seq *s, const tc_kevent *ev);

/* Appends a compact task slice (see tc_kernels_task_kind). */
tc_err tc_seq_push_task(tc_seq *s, const tc_ktask_event *t);

/* Makes room for N more events and as many task slices (a chunk's events
 * are one or the other or neither), so a chunk is routed without regrowing:
 * the doubling from 64 copied each array eight times per chunk. */
tc_err tc_seq_reserve(tc_seq *s, size_t n);

/* Makes room for NVALS more values and TEXT_BYTES more bytes of their
 * strings and keys, so a chunk's values are copied without regrowing. */
tc_err tc_seq_vals_reserve(tc_seq *s, size_t nvals, size_t text_bytes);

/* Appends an (event name, argument path) for values; *KEY gets its index. */
tc_err tc_seq_vkey_add(tc_seq *s, tc_str name, tc_str path, uint32_t *key);

/* Appends a value of key KEY of an event of process PID: TYPE one TC_JT_*
 * bit, NUM and STR as tc_leaf has them (STR copied). */
tc_err tc_seq_val_add(tc_seq *s, uint32_t key, int64_t pid, unsigned type, double num,
                      tc_str str);

/* Whether the value at index AT (of the same key) is this one, of the same
 * process: then it counts once more, and nothing is appended. The caller
 * asks only of the last value of the key, so that the pair is in a row of
 * its profile whatever table TAB_OF gives the process (below); two thirds
 * of a real trace's values repeat the one before them so. */
int tc_seq_val_again(tc_seq *s, size_t at, int64_t pid, unsigned type, double num, tc_str str);

/* Text at OFF, LEN in vtext (valid until the seq changes). */
static inline tc_str tc_seq_vtext(const tc_seq *s, uint64_t off, uint32_t len) {
  return (tc_str){s->vtext + off, len};
}

/* Adds S's values to the trace's value profiles, after every value folded
 * into them before: each value to the table TAB_OF gives its process (the
 * same table for every process, or one per process, as the census scope
 * needs). NULL from TAB_OF is out of memory. */
tc_err tc_seq_fold_values(const tc_seq *s, tc_vtab *(*tab_of)(void *ctx, int64_t pid), void *ctx);

/* Widens the extent of thread (pid, tid) to cover [ts, end] and counts the
 * event. */
tc_err tc_seq_span(tc_seq *s, int64_t pid, int64_t tid, double ts, double end);

#endif
