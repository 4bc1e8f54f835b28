/* The manual's words for how common and how long an event is.
 *
 * Usage is read off records per surveyed site, N / S. The thresholds sit in
 * the gaps between the labels of every manual entry that states N and S
 * (tests/census/test_labels.c checks all of them):
 *   rare < 2 <= low < 5 <= moderate < 300 <= high < 3000 <= very high.
 *
 * Duration is read off the median of the event's "dur" over the corpus:
 *   very short < 10 us <= short < 100 us <= typical < 1 ms <= long. */
#ifndef TC_LABELS_H
#define TC_LABELS_H

#include <stdint.h>

/* Static string; "n/a" when S is 0. */
const char *tc_usage_label(uint64_t records, uint64_t sites_total);

/* Static string for a median duration in microseconds. */
const char *tc_duration_label(double median_us);

#endif
