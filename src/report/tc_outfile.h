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
 * is released by exactly one of commit or abort. TC_E_WRITE with WHY (may
 * be NULL) naming the file and the errno: "No space left on device" or
 * "File too large" is what a person needs to read. */
tc_err tc_outfile_open(const char *dir, const char *name, tc_outfile **out, tc_why *why);

/* The stream to write to; owned by the outfile. */
FILE *tc_outfile_fp(tc_outfile *f);

/* Flushes, syncs and closes; on any failure (a write error the stream saw
 * earlier included) removes the file and returns TC_E_WRITE, WHY (may be
 * NULL) naming the file and the first failing call's errno. Frees F
 * either way. */
tc_err tc_outfile_commit(tc_outfile *f, tc_why *why);

/* Removes the file and frees F. Accepts NULL. */
void tc_outfile_abort(tc_outfile *f);

#endif
