/* Internal to src/kernels (hence tc__): what tc_kernels_feed keeps of a trace, and the
 * helpers the metric files share. Not for use outside this folder.
 *
 * Feed only copies: per-thread task, Layout and script intervals (B/E
 * matched on the fly), thread names, compositor frames, counters, marks and
 * lifecycle events, each with its pid and timestamp. Which process is the
 * page is the trace's process map's to say (procs/tc_procmap.h). Finish
 * sorts and decides; see tc_kfinish.c for the order of the steps. */
#ifndef TC_KSTATE_H
#define TC_KSTATE_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/tc_kernels.h"
#include "util/tc_arena.h"
#include "util/tc_grow.h"

/* ---- growable arrays ---------------------------------------------------- */

/* A vector grown by tc_grow (doubling, new elements zeroed). */
#define TC_KVEC(T)                                                             \
  struct {                                                                     \
    T *v;                                                                      \
    size_t n, cap;                                                             \
  }

/* Appends VAL to *VEC: TC_OK, or TC_E_NOMEM with *VEC unchanged. */
#define tc__kvec_push(vec, val)                                                 \
  (TC_GROW((vec)->v, (vec)->cap, (vec)->n + 1)                                 \
       ? TC_E_NOMEM                                                            \
       : ((vec)->v[(vec)->n++] = (val), TC_OK))

/* qsort that accepts an empty, NULL array (qsort's pointer must not be
 * NULL even for no elements). */
void tc__ksort(void *v, size_t n, size_t elsz, int (*cmp)(const void *, const void *));

/* ---- copied strings ----------------------------------------------------- */

/* Strings feed keeps go to tc_kernels.strings, a tc_arena freed with the
 * kernels. Options and results are freed one by one, so they are copied
 * with this: a malloc'd copy of S, which may be NULL (then NULL, no error);
 * sets *NOMEM when memory fails. The caller frees. */
char *tc__kdup(const char *s, int *nomem);

/* ---- intervals ---------------------------------------------------------- */

typedef struct {
  double s, e;
} tc_kspan;

/* Sorts and merges overlapping or touching spans in place; returns the new
 * count. */
size_t tc__kspans_union(tc_kspan *v, size_t n);

/* The first of the sorted, merged spans V whose end is >= X (their ends are
 * sorted too); N when none is. */
size_t tc__kspans_first_ending(const tc_kspan *v, size_t n, double x);

/* Length of [s,e) covered by the sorted, merged spans V. */
double tc__kspans_cover(const tc_kspan *v, size_t n, double s, double e);

/* Whether [s,e] meets one of the sorted, merged spans V. A zero-length span
 * (a clock step at one instant) meets every sample that contains it. */
int tc__kspans_meet(const tc_kspan *v, size_t n, double s, double e);

/* ---- statistics --------------------------------------------------------- */

/* Nearest-rank quantile of the N sorted values V: rank ceil(q*n). */
double tc__kquantile(const double *sorted, size_t n, double q);

/* Sorts V and fills mean, p50, p95, max, each through tc__kround; NaN for a
 * statistic with fewer samples than tc_min_samples asks. */
void tc__ksummary(double *v, size_t n, double *mean, double *p50, double *p95,
                 double *max);

/* Rounds away float noise below a nanosecond / a millionth of a percent, so
 * reports are stable across platforms' last bits. */
double tc__kround(double v);

/* ---- what feed collects ------------------------------------------------- */

enum {
  TC_KTASK_UNBOUNDED = 1 << 0, /* no end in the trace: closed at the thread's last event */
  TC_KTASK_OPEN = 1 << 1,      /* a B still waiting for its E */
};

typedef struct {
  double s, e;   /* e < s means the end came before the start: clock went back */
  uint8_t name;  /* which task name (tc_kernels.c), to pair B with E */
  uint8_t flags;
} tc_ktask;

/* The compact slices the kernels take besides tasks (tc_ktask_event.kind):
 * kinds below TC_KKIND_LAYOUT are task names. */
enum { TC_KKIND_LAYOUT = 6, TC_KKIND_SCRIPT = 7 };

typedef TC_KVEC(tc_ktask) tc_ktask_vec;
typedef TC_KVEC(uint32_t) tc_kindex_vec;

typedef struct {
  int64_t pid, tid;
  uint8_t role; /* tc_thread_role (procs/tc_procmap.h) */
  uint8_t has_span;
  /* Named by thread_name metadata as neither renderer nor browser main: its
   * tasks can never count, so none are kept (bounds memory on long traces). */
  uint8_t ignored;
  double min_ts, max_end;
  tc_ktask_vec tasks;
  tc_kindex_vec open; /* indices into tasks of B events awaiting E, innermost last */
  /* Layout and script slices (name TC_KKIND_*), paired the same way. */
  tc_ktask_vec slices;
  tc_kindex_vec slices_open;
} tc_kthread;

typedef struct {
  int64_t pid;
  const char *frame; /* NULL in old traces (sessionId instead) */
  int64_t layer_tree;
} tc_klayer_tree;

typedef struct {
  int64_t pid, layer_tree;
  double ts;
  int value; /* DrawFrame: unused; NeedsBeginFrameChanged: needsBeginFrame */
} tc_kframe_ev;

typedef struct {
  int64_t pid;
  double ts;
  double value;
} tc_ksample;

typedef struct {
  int64_t pid;
  const char *name;
  const char *id;
  double ts;
  uint64_t index; /* file order, to pair begins and ends deterministically */
  uint8_t begin;
} tc_kasync;

typedef struct {
  int64_t pid;
  const char *name;
  double ts;
} tc_kmark;

typedef struct {
  int64_t pid;
  double ts;
  uint8_t on; /* hidden / suspended from here (1), or shown / resumed (0) */
} tc_kswitch;

struct tc_kernels {
  double bucket_ms, refresh_hz;
  char *start_mark, *end_mark;
  int nomem;
  tc_arena strings; /* copies of the strings feed keeps */

  /* The trace's own extent over every thread, and what was fed. */
  int has_span;
  double first_ts, last_ts;
  uint64_t events; /* events of the trace with a timestamp */

  TC_KVEC(tc_kthread) threads;
  uint32_t *slots; /* open-addressing index into threads, by (pid, tid) */
  size_t nslots;

  TC_KVEC(tc_klayer_tree) layer_trees;
  TC_KVEC(tc_kframe_ev) draws;
  TC_KVEC(tc_kframe_ev) needs_begin_frame;
  TC_KVEC(tc_ksample) heap;
  TC_KVEC(tc_kasync) async;
  TC_KVEC(tc_kmark) marks;
  TC_KVEC(tc_kswitch) visibility;
  TC_KVEC(tc_kswitch) power;
};

#endif
