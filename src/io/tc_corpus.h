/* The corpus model: what sites a crawl had and which trace files each left.
 *
 * A corpus directory holds one subdirectory per site with zero or more
 * trace files directly inside it; a file directly in the corpus directory
 * is a site of its own, named by its file name without ".gz", ".zst",
 * ".json", "__trace" or ".trace" endings. So is a trace file given as an
 * input, except that when several input files would share one site name
 * (crawl/a/trace.json crawl/b/trace.json), each is named by its folder
 * instead, with a warning. An optional manifest (TSV with a header line
 * naming at least a `site` column, optionally `status` and `reason`) lists
 * every site of the crawl, including sites whose crawl failed and so have no
 * trace: S, "of S sites", counts the union of both.
 *
 * A trace is a path: one file reached through symlinks or spelt twice is
 * one trace, but hard links (cp -al, rsync --link-dest) are separate files.
 * Whatever cannot be read — a missing input, a folder that cannot be
 * listed, a FIFO, device, dangling symlink, symlink loop or folder inside a
 * site folder, a manifest row without a site — is skipped and listed with
 * the reason; none of it is ever opened. Sites are sorted by name, traces by
 * site then path, and the notes by path, so everything downstream sees the
 * same order whatever order the inputs were given in. */
#ifndef TC_CORPUS_H
#define TC_CORPUS_H

#include <stdint.h>

#include "util/tc_error.h"

typedef struct {
  char *name;
  char *status; /* from the manifest, or NULL */
  char *reason; /* from the manifest, or NULL */
  char *chrome_version; /* the manifest's chrome_version of the site, or NULL */
  int in_manifest;
  int from_dir; /* a site folder exists for it */
  uint32_t ntraces;
} tc_site;

typedef struct {
  char *path;    /* as given or joined, usable with fopen */
  uint32_t site; /* index into sites */
  uint64_t size; /* bytes on disk */
} tc_trace;

/* Something the scan skipped or wants the user to know; all owned. */
typedef struct {
  char *path;    /* the input, folder entry or manifest */
  uint32_t line; /* manifest line, from 1; 0 when not a line */
  char *why;     /* what it is and what was done ("a FIFO, not a regular file") */
} tc_corpus_note;

typedef struct {
  tc_site *sites;
  uint32_t nsites;
  tc_trace *traces;
  uint32_t ntraces;
  uint64_t bytes; /* sum of trace sizes */
  tc_corpus_note *skipped; /* not read: an input error (exit status 1) */
  uint32_t nskipped;
  tc_corpus_note *warnings; /* read, but not as the user may think */
  uint32_t nwarnings;
} tc_corpus;

/* Lists INPUTS (corpus directories or single trace files) and, if MANIFEST
 * is not NULL, the manifest's sites. Whatever cannot be read is skipped and
 * noted in out->skipped. Only memory failure and the manifest return
 * errors: TC_E_OPEN when it cannot be opened, TC_E_BAD_MANIFEST when it has
 * no header line naming a `site` column (a UTF-8 byte order mark before it
 * is allowed). Free with tc_corpus_free. */
tc_err tc_corpus_scan(const char *const *inputs, int ninputs, const char *manifest,
                      tc_corpus *out);

void tc_corpus_free(tc_corpus *c);

/* The site name of a top-level file: malloc'd, caller frees. */
char *tc_corpus_site_of_file(const char *filename);

#endif
