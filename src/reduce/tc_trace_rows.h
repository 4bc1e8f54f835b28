/* What happened to each trace (tc_trace_status), kept as one record per
 * trace on disk (util/tc_spill.h) from the moment its site is folded until
 * the writers read it back, so a run holds 12 bytes per trace, not a status.
 * The rows are the traces the run folded, in the order folded: the whole
 * corpus for a run or a merge, a shard's sites for a shard run; each row
 * names its trace in the corpus, and whoever walks the traces walks the rows.
 * Each distinct metadata block is kept once, in memory (tc_map): a record
 * refers to its block by number, and the rows count how many traces carry
 * each block and which trace carries it first (run.json writes a block
 * once, with that trace; census.md counts Chrome versions by block).
 *
 * Threads: add from one thread; after tc_trace_rows_seal, read from any
 * number at once. */
#ifndef TC_TRACE_ROWS_H
#define TC_TRACE_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "reduce/tc_run_facts.h"
#include "util/tc_bin_codec.h"
#include "util/tc_map.h"
#include "util/tc_spill.h"

#define TC_NO_BLOCK UINT32_MAX

typedef struct {
  tc_spill rows;          /* one record per trace, in the order added */
  uint32_t *trace;        /* by row: its index in the corpus */
  tc_map metas;           /* each distinct metadata block once */
  uint32_t *block_first;  /* by block: the first row that carries it */
  uint32_t *block_traces; /* by block: how many traces carry it */
  size_t first_cap, traces_cap, trace_cap;
} tc_trace_rows;

/* Zeroed rows are empty ones; init zeroes rows that are not. */
void tc_trace_rows_init(tc_trace_rows *t);
void tc_trace_rows_free(tc_trace_rows *t);

static inline size_t tc_trace_rows_count(const tc_trace_rows *t) { return tc_spill_count(&t->rows); }
static inline size_t tc_trace_rows_blocks(const tc_trace_rows *t) { return tc_map_count(&t->metas); }

/* Appends ST, the status of the corpus's trace TRACE, with the processes the
 * census scope left out of the trace (LEFT, may be NULL: none), as row
 * tc_trace_rows_count(T). Its metadata
 * (st->meta, may be NULL) is interned and ST's copy freed: ST is left
 * without metadata. TC_E_NOMEM or TC_E_WRITE (the records), T then only fit
 * to be freed. */
tc_err tc_trace_rows_add(tc_trace_rows *t, uint32_t trace, tc_trace_status *st,
                         const tc_left_list *left);

/* Row I's trace: its index in the corpus. */
static inline uint32_t tc_trace_rows_trace(const tc_trace_rows *t, size_t i) { return t->trace[i]; }

/* Makes every record readable from any thread. */
tc_err tc_trace_rows_seal(tc_trace_rows *t);

/* Row I into *OUT, its block in *BLOCK (TC_NO_BLOCK: none; may be NULL)
 * and its processes left out in *LEFT (may be NULL; the caller frees it
 * with tc_left_list_free): out->meta and out->shape.metadata point into T,
 * valid while T lives.
 * *BUF (*CAP bytes) is the caller's scratch, grown as needed and freed by
 * the caller. TC_E_IO or TC_E_BAD_BINARY when the record cannot be read
 * back; *OUT is then zeroed. */
tc_err tc_trace_rows_get(const tc_trace_rows *t, size_t i, tc_trace_status *out, uint32_t *block,
                         tc_left_list *left, unsigned char **buf, size_t *cap);

/* A left list in both directions, as the rows and partial files have it. */
void tc_left_list_codec(tc_codec *c, tc_left_list *l);

/* Block B's metadata text (tc_map_key of the rows' map). */
static inline tc_str tc_trace_rows_block(const tc_trace_rows *t, uint32_t b) {
  return tc_map_key(&t->metas, b);
}

/* Every field of a status but its metadata, in the order partial files
 * have them, in both directions (util/tc_bin_codec.h); META, when not
 * NULL, walks the metadata in its place. One walk for the partial files
 * and the rows. */
void tc_trace_status_codec(tc_codec *c, tc_trace_status *st,
                           void (*meta)(tc_codec *c, tc_trace_status *st));

#endif
