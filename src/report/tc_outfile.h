/* Atomic output files: written under a temporary name in the destination
 * folder and renamed over the final name only when complete, so a reader
 * (or a crash) never sees half a report. */
#ifndef TC_OUTFILE_H
#define TC_OUTFILE_H

#include <stdio.h>

#include "util/tc_error.h"

typedef struct tc_outfile tc_outfile;

/* Creates DIR (and parents) if needed and opens a temporary file beside
 * DIR/NAME. *out is released by exactly one of commit or abort. */
tc_err tc_outfile_open(const char *dir, const char *name, tc_outfile **out);

/* The stream to write to; owned by the outfile. */
FILE *tc_outfile_fp(tc_outfile *f);

/* Flushes, syncs and renames onto the final name; on any failure (a write
 * error seen by the stream included) removes the temporary file and
 * returns TC_E_WRITE. Frees F either way. */
tc_err tc_outfile_commit(tc_outfile *f);

/* Removes the temporary file and frees F. Accepts NULL. */
void tc_outfile_abort(tc_outfile *f);

/* mkdir -p. */
tc_err tc_mkdirs(const char *dir);

#endif
