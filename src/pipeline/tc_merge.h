/* `tracecensus merge`: the partial state of a census's shards added up
 * into what one run over the whole corpus would have made.
 *
 * Every STATEDIR holds one shard's record (tc_partial.h) and its sites'
 * partials. The records must agree (same settings, same shard count, the
 * same corpus: its site list and scan notes), and no shard may come twice.
 * Every site of the corpus must have its partial in the folder of its own
 * shard (tc_partial_shard_of); otherwise nothing is merged and the missing
 * shards and sites are named, so a lost shard never shows as a smaller S.
 * Sites are folded in corpus order through the corpus fold (reduce/
 * tc_corpus_fold.h), the path the one-machine run takes, so the tables and
 * metrics are the same bytes whatever order the folders are given in. */
#ifndef TC_MERGE_H
#define TC_MERGE_H

#include "io/tc_corpus.h"
#include "reduce/tc_corpus_fold.h"
#include "util/tc_error.h"

typedef struct {
  tc_why file;        /* a record or partial that could not be read */
  char *missing;      /* TC_E_STATE_INCOMPLETE: what is missing, in words
                         ("shard 2 of 4 (no folder given); sites a, b"), or
                         TC_E_STATE_MISMATCH: which folders disagree;
                         malloc'd, caller frees */
  uint32_t nmissing;  /* sites without a partial */
} tc_merge_why;

/* On TC_OK *CORPUS (tc_corpus_free), *OUT (tc_corpus_tables_free; its
 * totals' seconds the merge's own), *MANIFEST and *JOB (free; NULL when
 * the run had none) are the caller's. */
tc_err tc_merge_states(const char *const *dirs, int ndirs, tc_corpus *corpus,
                       tc_corpus_tables *out, char **manifest, char **job, tc_merge_why *why);

#endif
