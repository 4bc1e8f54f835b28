/* When to hand the allocator's free pages back to the system.
 *
 * A run's footprint is its working set (chunks in flight, the parser's
 * buffers, the sites being folded), which every site needs again, plus
 * the fragments that freed tables leave behind, which grow with the number
 * of sites. malloc_trim cannot tell them apart: it hands back every free
 * page, and the next sites fault the working set in again, which is dear
 * on these machines (about 15 us a fault in this paravirtualised guest;
 * a trim every 64 windows cost 648 real traces 2.5x the page faults). So
 * the first look only records the resident size, once the working set has
 * been reached; later looks trim only once the resident size has grown a
 * sixteenth past that: a run whose footprint holds steady never trims, one
 * whose fragments grow is trimmed as often as it is looked at. (An eighth
 * left 10,000 small traces' peak 3 MiB higher; at a sixteenth it is within
 * 1 MiB of trimming at every look, and 648 real traces at -T 2, whose
 * looks vary more, trimmed once in six runs.) */
#ifndef TC_TRIM_H
#define TC_TRIM_H

#include <stdint.h>

typedef struct {
  uint64_t first_kib; /* resident KiB at the first look; 0 before it */
} tc_trim_pacer;

/* One look, the resident size being RSS_KIB (0 when unknown: then every
 * look trims). Returns 1 when the caller should trim now. */
int tc_trim_due(tc_trim_pacer *p, uint64_t rss_kib);

#endif
