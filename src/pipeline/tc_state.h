/* The state folder of a run (--state DIR): which sites can be read back
 * instead of run, and the partial of a site the run just finished.
 *
 * Reuse rule: a site's partial is reused when it reads cleanly, was made
 * with the same settings (tc_partial_settings), and lists exactly the
 * site's traces now, each with the same size, mtime and xxh64 of its bytes
 * (tc_file_id; the hash is read only when size and mtime agree). A site
 * whose crawl status or reason changed in the manifest is run again too.
 * A partial that is corrupt or of another format version is an error
 * naming the file and offset, never silently replaced. */
#ifndef TC_STATE_H
#define TC_STATE_H

#include "io/tc_corpus.h"
#include "pipeline/tc_partial.h"

/* Reads SITE's partial in DIR into the unit *OUT and sets *REUSE when it
 * may stand for the site; *REUSE 0 (and *OUT empty) when there is none or
 * it is stale. A partial made with other settings is stale, and the first
 * setting that differs is named in DIFFER (CAP bytes; "" otherwise).
 * Errors: the partial is unreadable (WHY says where). */
tc_err tc_state_lookup(const char *dir, const tc_corpus *c, uint32_t site, const char *settings,
                       tc_site_unit *out, int *reuse, char *differ, size_t cap, tc_why *why);

/* Takes DIR for this run, creating it and its parents if needed: one run
 * at a time may use a state folder, so it is locked (DIR/.tc-lock, held
 * until *LOCK is closed; TC_E_STATE_BUSY, WHY's pid the holder, when
 * another run has it). Then removes the temporary files killed runs left
 * in it (under the lock, every one is a dead run's) and writes
 * DIR/shard.tcr for a run with SETTINGS (tc_partial_settings) of shard
 * SHARD of NSHARDS (1: the whole corpus) over C (every site of the whole
 * corpus), printing values by VALUE_SITES (--value-sites). MANIFEST and
 * JOB may be NULL. On failure *LOCK is -1 and nothing is held. */
tc_err tc_state_begin(const char *dir, const tc_corpus *c, const char *settings, uint32_t shard,
                      uint32_t nshards, uint32_t value_sites, const char *manifest,
                      const char *job, int *lock, tc_why *why);

/* Takes DIR's lock (as tc_state_begin does) for a merge that reads it, so
 * no run writes the folder while it is read. DIR is not made; a folder
 * whose lock cannot be made (it is missing, or not ours to write) is read
 * without it, *LOCK -1, as no run can write it either. TC_E_STATE_BUSY,
 * WHY's pid the holder, when a run has it; a folder this process holds
 * already (given twice) is TC_OK with *LOCK -1. */
tc_err tc_state_lock_to_read(const char *dir, int *lock, tc_why *why);

#endif
