/* The corpus model: what sites a crawl had and which trace files each left.
 *
 * A corpus directory holds one subdirectory per site with zero or more
 * trace files directly inside it; a file directly in the corpus directory
 * is a site of its own, named by its file name without ".gz", ".zst",
 * ".json", "__trace" or ".trace" endings. An optional manifest (TSV with a
 * header line naming at least a `site` column, optionally `status` and
 * `reason`) lists every site of the crawl, including sites whose crawl failed
 * and so have no trace: S, "of S sites", counts the union of both. Sites are
 * sorted by name and traces by site then path, so everything downstream
 * sees the same order whatever order the inputs were given in. */
#ifndef TC_CORPUS_H
#define TC_CORPUS_H

#include <stdint.h>

#include "util/tc_error.h"

typedef struct {
  char *name;
  char *status; /* from the manifest, or NULL */
  char *reason; /* from the manifest, or NULL */
  int in_manifest;
  int from_dir; /* a site folder exists for it */
  uint32_t ntraces;
} tc_site;

typedef struct {
  char *path;    /* as given or joined, usable with fopen */
  uint32_t site; /* index into sites */
  uint64_t size; /* bytes on disk */
  uint64_t dev, ino; /* the file itself: one file reached by two paths is one trace */
} tc_trace;

typedef struct {
  tc_site *sites;
  uint32_t nsites;
  tc_trace *traces;
  uint32_t ntraces;
  uint64_t bytes;  /* sum of trace sizes */
  char *problem;   /* first input that could not be listed, or NULL */
} tc_corpus;

/* Lists INPUTS (corpus directories or single trace files) and, if MANIFEST
 * is not NULL, the manifest's sites. Unreadable inputs are skipped and named
 * in out->problem; only memory failure and a bad manifest return errors.
 * Free with tc_corpus_free. */
tc_err tc_corpus_scan(const char *const *inputs, int ninputs, const char *manifest,
                      tc_corpus *out);

void tc_corpus_free(tc_corpus *c);

/* The site name of a top-level file: malloc'd, caller frees. */
char *tc_corpus_site_of_file(const char *filename);

#endif
