/* Transparent huge pages for glibc's heap: whether to ask for them, and
 * what a benchmark says about them.
 *
 * A run touches its working set afresh (chunk buffers, the parser's index,
 * each chunk's values, the sites' tables: about 55 MiB a worker), one 4 KiB
 * page fault at a time; in a paravirtualised guest a fault costs about
 * 15 us, 5-9 % of a run (bench/README.md). Where the kernel gives huge
 * pages only on request (THP "madvise", the common default), glibc asks
 * for them only when the glibc.malloc.hugetlb tunable says so, and it reads
 * tunables from the environment at start-up alone: so the program starts
 * itself once more with the tunable added (cli/main.c). A user's own
 * glibc.malloc.hugetlb, 0 included, is left as it is. */
#ifndef TC_HUGEPAGES_H
#define TC_HUGEPAGES_H

#include <stddef.h>

typedef enum { TC_THP_UNKNOWN, TC_THP_NEVER, TC_THP_MADVISE, TC_THP_ALWAYS } tc_thp_mode;

/* The mode selected in the text of /sys/kernel/mm/transparent_hugepage/
 * enabled ("always [madvise] never"); UNKNOWN for NULL or any other text. */
tc_thp_mode tc_thp_mode_parse(const char *enabled);

/* The mode of this machine's kernel (UNKNOWN where the file is missing). */
tc_thp_mode tc_thp_mode_now(void);

/* "always", "madvise", "never" or "unknown". */
const char *tc_thp_mode_name(tc_thp_mode mode);

/* The GLIBC_TUNABLES value that asks glibc for huge pages, built from
 * TUNABLES (the current value, NULL when unset) into BUF; returns 1. Returns
 * 0, BUF then meaning nothing, when there is nothing to ask: the mode is
 * not MADVISE (ALWAYS gives them unasked, NEVER and UNKNOWN cannot),
 * TUNABLES already names glibc.malloc.hugetlb, or BUF is too small. */
int tc_hugetlb_tunables(tc_thp_mode mode, const char *tunables, char *buf, size_t cap);

/* The value of glibc.malloc.hugetlb in TUNABLES (the last one set), into
 * BUF; "" when TUNABLES is NULL or does not set it. */
void tc_hugetlb_setting(const char *tunables, char *buf, size_t cap);

#endif
