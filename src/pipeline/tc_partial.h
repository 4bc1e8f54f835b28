/* Partial state: what a run keeps of each finished site so that a later
 * run can reuse it (resume) and `tracecensus merge` can add shards up.
 *
 * The unit is a site: a site's traces are always in one unit, so "sites"
 * counts stay simple and a site's metrics median is computed from one
 * partial. A site partial holds everything the outputs need of the site:
 * the site as the corpus scan found it (name, manifest status and reason),
 * per trace its identity (path, size, mtime, content hash), its status as
 * run.json and the problem lines report it (format, bytes, events, skipped
 * events with index and offset, stream error, shape, metadata), its metrics
 * (kernels/tc_metrics_bin.h), and the site's census tables
 * (reduce/tc_site_census.h: per event name the phase counts, records with
 * arguments per phase, pair counts, categories, argument paths with types,
 * the duration sketch (util/tc_sketch_bin.h) with exact counts below the
 * class limits, and the example candidate). The DevTools view is computed
 * from the merged tables and the schema, so it needs nothing more here.
 * A shard record holds the run's settings, its shard I of N, the names of
 * every site of the whole corpus (so a merge can name what is missing),
 * the corpus scan's notes, and the manifest and job paths.
 *
 * File layout (tc_bin encoding: little-endian, LEB128 varints):
 *   8 bytes  magic "TCPART\r\n"
 *   u32      format version (TC_PARTIAL_VERSION)
 *   u32      kind: 1 site partial, 2 shard record
 *   section  tag "SITE" or "SHRD", version TC_PARTIAL_VERSION: payload
 *            length, payload, CRC-32 of the section (tc_bin.h)
 * and nothing after it. Every list in a payload is in a total order of its
 * content (events by name, categories and paths by text, traces by path,
 * sites by name), which the decoder checks, so equal state gives equal
 * bytes. Error codes (tc_err) are stored by number; tc_error.h only ever
 * appends codes. Another format version, a wrong magic, a bad checksum or
 * any value out of place is refused with the file's byte offset and what
 * was wrong there (tc_state_why).
 *
 * Files are written atomically: into a temporary file beside the target
 * (".NAME.tmp-PID"), synced, then renamed over it, so a partial exists
 * whole or not at all whatever kills the run (SIGKILL, power loss). */
#ifndef TC_PARTIAL_H
#define TC_PARTIAL_H

#include <stdint.h>

#include "kernels/tc_metrics.h"
#include "io/tc_corpus.h"
#include "pipeline/tc_run.h"
#include "reduce/tc_site_census.h"
#include "util/tc_bin.h"

#define TC_PARTIAL_VERSION 3u

/* How a trace file is recognised as unchanged: same path, size, mtime (to
 * the nanosecond) and xxh64 (seed 0) of its bytes on disk. */
typedef struct {
  uint64_t size;
  int64_t mtime_sec;
  uint32_t mtime_nsec;
  uint64_t hash;
} tc_file_id;

/* Reads PATH's identity; hashes it only when WANT (size, mtime) differ
 * from the file's, else *OUT has hash 0 and returns TC_OK with *SAME 0.
 * WANT NULL: always hashes. */
tc_err tc_file_id_read(const char *path, const tc_file_id *want, tc_file_id *out, int *same);

typedef struct {
  char *path;                /* owned */
  tc_file_id id;
  tc_trace_status status;    /* status.meta owned */
  tc_trace_metrics *metrics; /* owned; NULL with no metrics */
} tc_partial_trace;

typedef struct {
  char *settings;            /* tc_partial_settings text; owned */
  char *name, *status, *reason; /* as tc_site; owned, status and reason may be NULL */
  int in_manifest, from_dir;
  uint32_t ntraces;
  tc_partial_trace *traces;  /* by path */
  tc_site_census census;
  tc_vtab *values;           /* the traces' value profiles, merged in trace order; owned */
} tc_partial_site;

void tc_partial_site_free(tc_partial_site *p);

typedef struct {
  char *settings;
  uint32_t shard, nshards;
  uint32_t nsites;
  char **sites;              /* every site of the whole corpus, by name */
  tc_corpus_note *skipped, *warnings;
  uint32_t nskipped, nwarnings;
  char *manifest, *job;      /* may be NULL */
} tc_partial_record;

void tc_partial_record_free(tc_partial_record *r);

/* The settings that change what a site's partial holds, as text compared
 * byte for byte (metrics on or off, bucket_ms, refresh_hz, window marks).
 * Malloc'd; NULL when out of memory. */
char *tc_partial_settings(const tc_run_opts *o);

/* The shard of SITE among N: xxh64 (seed 0) of its name modulo N. A site's
 * shard depends on nothing but its name and N, so adding sites to a crawl
 * moves no other site. */
uint32_t tc_partial_shard_of(const char *site, uint32_t n);

/* The file of SITE in DIR: DIR/site-<xxh64 of the name, 16 hex>.tcp.
 * Malloc'd; NULL when out of memory. */
char *tc_partial_site_path(const char *dir, const char *site);
/* DIR/shard.tcr. Malloc'd. */
char *tc_partial_record_path(const char *dir);

tc_err tc_partial_site_write(const char *path, const tc_partial_site *p, tc_state_why *why);
tc_err tc_partial_record_write(const char *path, const tc_partial_record *r, tc_state_why *why);

/* TC_E_OPEN (errnum ENOENT: no such partial), TC_E_NOT_PARTIAL,
 * TC_E_PARTIAL_VERSION, TC_E_BAD_BINARY (offset and reason set), or
 * TC_E_NOMEM. *OUT is filled on TC_OK only. */
tc_err tc_partial_site_read(const char *path, tc_partial_site *out, tc_state_why *why);
tc_err tc_partial_record_read(const char *path, tc_partial_record *out, tc_state_why *why);

/* The bytes themselves (for tests and the fuzz target); the caller frees
 * *BYTES with free(). */
tc_err tc_partial_site_encode(const tc_partial_site *p, unsigned char **bytes, size_t *len);
tc_err tc_partial_site_decode(const unsigned char *bytes, size_t len, tc_partial_site *out,
                              tc_state_why *why);
tc_err tc_partial_record_encode(const tc_partial_record *r, unsigned char **bytes, size_t *len);
tc_err tc_partial_record_decode(const unsigned char *bytes, size_t len, tc_partial_record *out,
                                tc_state_why *why);

#endif
