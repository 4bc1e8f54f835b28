/* The output folder as one set.
 *
 * A run writes its files into a fresh staging folder beside OUTDIR and puts
 * them in place in one step once every one is complete and synced:
 * renameat2(RENAME_EXCHANGE) swaps the staging folder and OUTDIR, so a
 * reader opening OUTDIR/x gets a file of the previous set or of the new one,
 * never a mix (a reader that wants every file from one set opens OUTDIR once
 * and reads relative to it). The previous set, now under the staging name,
 * is then removed. Where the filesystem cannot exchange (NFS, some FUSE
 * filesystems) OUTDIR is moved aside and the staging folder renamed in its
 * place: for that instant a reader finds no OUTDIR, still never a mix.
 *
 * Names beside OUTDIR, in its parent P:
 *   P/.NAME.tc-lock          flock'd from begin to commit or abort, so a
 *                            second run into OUTDIR fails at begin
 *   P/.NAME.tc-new-XXXXXX    the staging folder
 *   P/.NAME.tc-old-XXXXXX    OUTDIR moved aside (only without exchange)
 * OUTDIR only ever holds a complete set, so what a killed run leaves needs
 * no guessing: the next begin, holding the lock, discards every staging and
 * moved-aside folder, except that a moved-aside OUTDIR is put back when
 * OUTDIR is missing (a run killed between the two renames).
 *
 * Files in OUTDIR that tracecensus does not write (a README, another tool's
 * output) are kept: hard-linked into the new set before the swap; folders
 * (which cannot be linked) and files that cannot be linked are moved over
 * right after it. A product file the new run does not write (metrics.* of
 * a --no-metrics run) is dropped with the previous set.
 *
 * Not for interruption mid-call: a caller that cleans up from a signal
 * handler blocks its signals around begin, commit and abort, and calls
 * tc_outset_discard_signal from the handler at any other time. */
#ifndef TC_OUTSET_H
#define TC_OUTSET_H

#include "util/tc_error.h"

typedef struct tc_outset tc_outset;

/* Begin and commit fill a tc_why (util/tc_error.h) on failure: path, the
 * errno of the call that failed, the pid holding the lock (TC_E_OUT_BUSY),
 * the reason OUTDIR cannot be replaced (TC_E_OUT_UNSAFE). On success its
 * path names a leftover that could not be removed (a warning), or is
 * empty. */

/* Resolves OUTDIR (a symlink to a folder means the folder; missing parents
 * are created), takes its lock, cleans what an earlier killed run left and
 * creates the staging folder. Errors: TC_E_OUT_BUSY, TC_E_OUT_NOT_DIR,
 * TC_E_OUT_UNSAFE (OUTDIR is the root, a mount point, or holds the current
 * directory), TC_E_WRITE, TC_E_NOMEM; nothing is changed then but the
 * cleaning of a killed run's leftovers. *out is released by exactly one of
 * commit or abort. */
tc_err tc_outset_begin(const char *outdir, tc_outset **out, tc_why *why);

/* The staging folder to write the set's files into (tc_outfile); valid
 * until commit or abort. */
const char *tc_outset_dir(const tc_outset *s);

/* Leftovers of killed runs that begin removed. */
unsigned tc_outset_recovered(const tc_outset *s);

/* Puts the staging folder in place of OUTDIR, removes the previous set and
 * releases the lock. On failure (TC_E_WRITE) OUTDIR is as it was and the
 * staging folder is removed. Frees S either way. */
tc_err tc_outset_commit(tc_outset *s, tc_why *why);

/* Removes the staging folder, releases the lock, frees S; OUTDIR is as it
 * was. Accepts NULL. */
void tc_outset_abort(tc_outset *s);

/* For a signal handler that then ends the process: removes the staging
 * folder and the lock file with async-signal-safe calls only, leaving S
 * itself for the exit. */
void tc_outset_discard_signal(tc_outset *s);

/* Whether NAME is a file tracecensus writes into OUTDIR (census.json,
 * census.csv, census_args.csv, census.md, run.json, host.json, metrics.csv,
 * metrics.json, metrics.md, report.html;
 * diff.md, diff.json, diff.csv, diff.html). */
int tc_outset_product(const char *name);

#endif
