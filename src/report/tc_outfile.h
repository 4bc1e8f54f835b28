/* One file of an output set (tc_outset): written straight under its final
 * name in the set's staging folder, where no reader looks, and seen in
 * OUTDIR only when the whole set is put in place. Commit makes the file
 * durable and says whether every byte reached it. */
#ifndef TC_OUTFILE_H
#define TC_OUTFILE_H

#include <stdio.h>

#include "util/tc_error.h"

typedef struct tc_outfile tc_outfile;

/* Creates DIR/NAME, which must not exist yet; NAME must be one of the set's
 * products (tc_outset_product), so the set knows every file it owns. *out
 * is released by exactly one of commit or abort. */
tc_err tc_outfile_open(const char *dir, const char *name, tc_outfile **out);

/* The stream to write to; owned by the outfile. */
FILE *tc_outfile_fp(tc_outfile *f);

/* Flushes, syncs and closes; on any failure (a write error the stream saw
 * earlier included) removes the file and returns TC_E_WRITE, and
 * tc_outfile_failure says why. Frees F either way. */
tc_err tc_outfile_commit(tc_outfile *f);

/* Removes the file and frees F. Accepts NULL. */
void tc_outfile_abort(tc_outfile *f);

/* The errno of this thread's last failed open or commit (0 if none) and
 * the name of its file (static storage of the thread, "" if none): the
 * writers return only TC_E_WRITE, and "No space left on device" or "File
 * too large" is what a person needs to read. */
int tc_outfile_failure(const char **name);

#endif
