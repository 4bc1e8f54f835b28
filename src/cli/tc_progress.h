/* A progress line on stderr ("traces 12/300  1.2/3.4 GB  230 MB/s  ETA 0:10"),
 * redrawn four times a second by a thread of its own, only when stderr is a
 * terminal. */
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
