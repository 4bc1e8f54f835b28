/* The value profiles of one trace (issue 14): a tc_valprof per (event name,
 * argument path), fed in trace order by the ordered fold
 * (pipeline/tc_seq.h, tc_seq_fold_values), so its state depends on the
 * trace's bytes alone, never on the chunking or the schedule; the corpus
 * merges these tables in one fixed order of the traces
 * (reduce/tc_values.h), which is what tc_topk.h asks of its sketches.
 *
 * Memory: tc_valprof's bound (tc_valprof.h) per (name, path) the trace
 * holds, plus the key text. Not thread-safe: the folding worker owns it. */
#ifndef TC_VTAB_H
#define TC_VTAB_H

#include <stdint.h>

#include "util/tc_bin.h"
#include "util/tc_error.h"
#include "util/tc_map.h"
#include "util/tc_valprof.h"

typedef struct {
  uint32_t flags;    /* TC_VP_* of every profile */
  uint64_t site;     /* the site's tag (tc_vtab_site_tag) */
  tc_map keys;       /* name length, name, path -> id */
  tc_valprof **prof; /* by id, each its own allocation (no struct moves as
                        the table grows); owned */
  size_t prof_cap;
  char *buf;         /* scratch for key text; owned */
  size_t buf_cap;
} tc_vtab;

/* The tag a site's values carry in the top-value sketches: the same for a
 * site everywhere (shards and machines included), from its name. */
uint64_t tc_vtab_site_tag(tc_str site_name);

void tc_vtab_init(tc_vtab *t, uint32_t flags, uint64_t site);
void tc_vtab_free(tc_vtab *t);

/* A table of its own allocation, as the run's stages hand them on: NULL
 * when memory fails; tc_vtab_destroy frees it and what it holds (NULL is
 * fine). */
tc_vtab *tc_vtab_new(uint32_t flags, uint64_t site);
void tc_vtab_destroy(tc_vtab *t);

/* *ID of (NAME, PATH), with an empty profile made on first sight. */
tc_err tc_vtab_key(tc_vtab *t, tc_str name, tc_str path, uint32_t *id);

/* Adds a value COUNT times in a row (tc_valprof_add_n) to the profile of
 * key ID, on the table's site. */
static inline tc_err tc_vtab_add(tc_vtab *t, uint32_t id, unsigned type, double num, tc_str str,
                                 uint64_t count) {
  return tc_valprof_add_n(t->prof[id], type, num, str, t->site, count);
}

static inline uint32_t tc_vtab_count(const tc_vtab *t) { return tc_map_count(&t->keys); }

/* The profile of NAME's PATH, or NULL (also when memory fails for the
 * key's text, in the table's scratch). */
const tc_valprof *tc_vtab_find(tc_vtab *t, tc_str name, tc_str path);

/* DST += SRC, entry by entry; SRC's values come after DST's (tc_valprof_merge). */
tc_err tc_vtab_merge(tc_vtab *dst, const tc_vtab *src);

/* The same, taking SRC's profiles instead of copying them: an entry DST
 * lacks moves over (all of them, keys and all, into an empty DST), so it
 * costs what the two share. SRC is left empty (its flags and site kept),
 * also when a merge fails; TC_E_USAGE when their flags differ, and then
 * SRC is left as it was (the caller still frees it). */
tc_err tc_vtab_absorb(tc_vtab *dst, tc_vtab *src);

/* Appends T: its entries in id order, each the name and path (length
 * prefixed) and tc_valprof_encode's profile. A table costs a fraction of
 * its live size so (sketch pages, hash tables and counters written
 * compactly). */
void tc_vtab_encode(const tc_vtab *t, tc_bin_buf *b);

/* DST += the table encoded in P (N bytes, from tc_vtab_encode), entry by
 * entry as tc_vtab_merge; TC_E_BAD_BINARY if the bytes do not decode. */
tc_err tc_vtab_merge_encoded(tc_vtab *dst, const void *p, size_t n);

/* The same from R, which is left after the table (or failed). A table
 * read into an empty DST takes the flags it was written with. */
tc_err tc_vtab_read_merge(tc_bin_reader *r, tc_vtab *dst);

/* The name, path and profile of entry ID (< tc_vtab_count). */
void tc_vtab_entry(const tc_vtab *t, uint32_t id, tc_str *name, tc_str *path,
                   const tc_valprof **prof);

#endif
