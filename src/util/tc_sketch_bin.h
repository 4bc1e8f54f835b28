/* The quantile sketch in the binary encoding of partial state (tc_bin).
 *
 * Written as the sketch's meaning, not its memory layout: n, the zero
 * count, the sum, min and max as IEEE bits, then the non-empty buckets
 * ascending as (bucket index, count), index i being the values in
 * (gamma^(i-1), gamma^i] of tc_sketch.h. So a change of how tc_sketch keeps
 * its buckets in memory never changes the format: this file sees them only
 * through tc_sketch_next and tc_sketch_add_bucket. */
#ifndef TC_SKETCH_BIN_H
#define TC_SKETCH_BIN_H

#include "util/tc_sketch.h"
#include "util/tc_bin.h"

void tc_sketch_encode(const tc_sketch *s, tc_bin_buf *b);

/* Reads one encoded sketch into S (initialised, empty), refusing counts
 * that do not add up to n and buckets outside [min, max]. It holds the
 * buckets as adding those values would, so never more than the input's
 * size allows. On failure S is left empty and R says
 * where and why. */
tc_err tc_sketch_decode(tc_bin_reader *r, tc_sketch *s);

#endif
