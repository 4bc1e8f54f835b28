/* One trace's value profiles while it is read: a table per process, so the
 * site's extraction can leave out the processes the census scope does not
 * count, as it leaves out their records (tc_site_window.c). Processes keep
 * the order of their first value, so the site's profiles are folded in an
 * order that depends on the trace alone. Every scope splits alike, scope
 * `all` too: the top-value sketches of tables merged differ (within their
 * stated bounds) from one table fed every value, so a scope that leaves
 * nothing out of a trace gives the very bytes of scope `all`. One owner. */
#ifndef TC_TRACE_VALUES_H
#define TC_TRACE_VALUES_H

#include <stddef.h>
#include <stdint.h>

#include "census/tc_vtab.h"

typedef struct {
  int64_t *pids;   /* by table: its process */
  tc_vtab **tabs;  /* owned */
  size_t n, cap;
  size_t last;     /* the table asked for last */
  uint32_t flags;  /* the tables' TC_VP_* */
  uint64_t tag;    /* the tables' site tag (tc_vtab_site_tag) */
} tc_trace_values;

/* Empty tables of FLAGS and site TAG. */
tc_trace_values *tc_trace_values_new(uint32_t flags, uint64_t tag);
void tc_trace_values_free(tc_trace_values *v); /* accepts NULL */

/* The table of process PID (made on first sight); NULL when out of memory.
 * CTX is the tc_trace_values: the form tc_seq_fold_values asks for. */
tc_vtab *tc_trace_values_of(void *ctx, int64_t pid);

#endif
