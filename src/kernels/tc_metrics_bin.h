/* One trace's metrics in the binary encoding of partial state (tc_bin):
 * every field of tc_trace_metrics in declaration order, counts as uvars,
 * timestamps and values as IEEE bits (NaN kept), enums checked against
 * their ranges, strings length-prefixed after a presence byte (NULL is not
 * ""), arrays as a count then their elements. One walk over the struct
 * serves both directions, so the encoder and the decoder cannot drift
 * apart. The version of the layout is the partial file's. */
#ifndef TC_METRICS_BIN_H
#define TC_METRICS_BIN_H

#include "kernels/tc_metrics.h"
#include "util/tc_bin.h"

void tc_metrics_encode(const tc_trace_metrics *m, tc_bin_buf *b);

/* Reads one encoded object into a new *OUT (caller frees with
 * tc_trace_metrics_free). On failure *OUT is NULL and R says where and
 * why. */
tc_err tc_metrics_decode(tc_bin_reader *r, tc_trace_metrics **out);

#endif
