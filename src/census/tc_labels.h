/* The manual's words for how common and how long an event is.
 *
 * Usage is read off records per surveyed site, N / S. The thresholds sit in
 * the gaps between the labels of every manual entry that states N and S
 * (tests/census/test_labels.c checks all of them):
 *   rare < 2 <= low < 5 <= moderate < 300 <= high < 3000 <= very high.
 *
 * Duration is read off the nearest-rank median (rank ceil(n/2)) of the
 * event's "dur" over the corpus:
 *   very short < 10 us <= short < 100 us <= typical < 1 ms <= long.
 * The census keeps exact counts below each limit, so the class is exact
 * even where the median itself comes from a sketch. */
#ifndef TC_LABELS_H
#define TC_LABELS_H

#include <stdint.h>

/* Static string; "n/a" when S is 0. */
const char *tc_usage_label(uint64_t records, uint64_t sites_total);

#define TC_DUR_NLIMITS 3
extern const double TC_DUR_LIMITS[TC_DUR_NLIMITS]; /* microseconds */

/* The class of N durations of which BELOW[i] are < TC_DUR_LIMITS[i];
 * static string, "n/a" when N is 0. */
const char *tc_duration_class(uint64_t n, const uint64_t below[TC_DUR_NLIMITS]);

#endif
