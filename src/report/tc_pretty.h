/* Re-indents one valid JSON value the way the manual prints its example
 * events: two spaces per level, one member per line, and arrays longer than
 * MAX_ITEMS cut to their first MAX_ITEMS elements followed by the string
 * "... [N more items]", and an empty object or array on one line. Input
 * that is not valid JSON, or nested deeper than 128, is written as it is. */
#ifndef TC_PRETTY_H
#define TC_PRETTY_H

#include <stddef.h>

#include "report/tc_wbuf.h"
#include "util/tc_str.h"

/* Appends the re-indented JSON to OUT. */
void tc_json_pretty(tc_wbuf *out, tc_str json, size_t max_items);

/* The same for one trace event, its keys in the manual's order (name, cat,
 * ph, ts, dur, tdur, tts, pid, tid, s, id, id2, scope, bind_id, flow_in,
 * flow_out, any others as they stand, args last). */
void tc_event_pretty(tc_wbuf *out, tc_str json, size_t max_items);

#endif
