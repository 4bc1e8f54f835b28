/* A progress line on stderr ("traces 12/300, 120.4/340.2 MB on disk (23.1
 * MB/s), ETA 0:10"), redrawn four times a second by a thread of its own,
 * only when stderr is a terminal. Bytes are the trace files' own (compressed
 * where they are), the unit the end-of-run line also gives beside the JSON
 * it decompressed to: the JSON total is not known until every file is read. */
#ifndef TC_PROGRESS_H
#define TC_PROGRESS_H

#include <stdint.h>

#include "pipeline/tc_run.h"

typedef struct tc_progress_view tc_progress_view;

/* NULL (and nothing shown) when stderr is not a terminal. */
tc_progress_view *tc_progress_start(tc_progress *p, uint64_t total_bytes, uint64_t total_traces);

/* Stops the thread and clears the line. Accepts NULL. */
void tc_progress_stop(tc_progress_view *v);

#endif
