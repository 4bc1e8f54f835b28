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
 * was wrong there (tc_why).
 *
 * Files are written atomically: into a temporary file beside the target
 * (".NAME.tmp-PID"), synced, then renamed over it, so a partial exists
 * whole or not at all whatever kills the run (SIGKILL, power loss). */
#ifndef TC_PARTIAL_H
#define TC_PARTIAL_H

#include <stdint.h>

#include "io/tc_corpus.h"
#include "census/tc_census.h"
#include "kernels/tc_kernels.h"
#include "reduce/tc_site_unit.h"
#include "util/tc_bin.h"

#define TC_PARTIAL_VERSION 3u

/* The most shards --shard accepts, and a shard record may claim. */
#define TC_PARTIAL_MAX_SHARDS 1000000u

/* A site partial: the unit and the settings it was made with. */
typedef struct {
  char *settings;            /* tc_partial_settings text; owned */
  tc_site_unit unit;
} tc_partial_site;

/* Frees what P holds and empties it; accepts NULL. */
void tc_partial_site_free(tc_partial_site *p);

typedef struct {
  char *settings;
  uint32_t shard, nshards;
  uint32_t nsites;
  char **sites;              /* every site of the whole corpus, by name */
  tc_corpus_note *skipped, *warnings;
  uint32_t nskipped, nwarnings;
  char *manifest, *job;      /* may be NULL */
  uint32_t value_sites;      /* --value-sites: how the outputs print values
                                (a merge prints as the shards asked) */
} tc_partial_record;

void tc_partial_record_free(tc_partial_record *r);

/* The settings that change what a site's partial holds or how its outputs
 * read, as text compared byte for byte: METRICS on or off, K's bucket_ms,
 * refresh_hz and window marks, the census SCOPE, and whether URLs are kept
 * whole (VALUE_FLAGS' TC_VP_WHOLE_URLS). Malloc'd; NULL when out of
 * memory. */
char *tc_partial_settings(int metrics, const tc_kernel_opts *k, tc_census_scope scope,
                          uint32_t value_flags);

/* The TC_VP_* flags of the value profiles a settings text names. */
uint32_t tc_partial_settings_value_flags(const char *settings);

/* The scope a settings text names into *OUT: 0, or -1 when it names none. */
int tc_partial_settings_scope(const char *settings, tc_census_scope *out);

/* The key of the first setting texts A and B disagree on ("scope",
 * "whole_urls", "metrics", ...) into NAME (CAP bytes); "settings" when
 * they differ in a way no key names. */
void tc_partial_settings_differ(const char *a, const char *b, char *name, size_t cap);

/* The shard of SITE among N: xxh64 (seed 0) of its name modulo N. A site's
 * shard depends on nothing but its name and N, so adding sites to a crawl
 * moves no other site. */
uint32_t tc_partial_shard_of(const char *site, uint32_t n);

/* The file of SITE in DIR: DIR/site-<xxh64 of the name, 16 hex>.tcp.
 * Malloc'd; NULL when out of memory. */
char *tc_partial_site_path(const char *dir, const char *site);
/* DIR/shard.tcr. Malloc'd. */
char *tc_partial_record_path(const char *dir);

tc_err tc_partial_site_write(const char *path, const char *settings, const tc_site_unit *u,
                             tc_why *why);
tc_err tc_partial_record_write(const char *path, const tc_partial_record *r, tc_why *why);

/* TC_E_OPEN (errnum ENOENT: no such partial), TC_E_NOT_PARTIAL,
 * TC_E_PARTIAL_VERSION, TC_E_BAD_BINARY (offset and reason set), or
 * TC_E_NOMEM; WHY names the file. *OUT is filled on TC_OK only. */
tc_err tc_partial_site_read(const char *path, tc_partial_site *out, tc_why *why);
tc_err tc_partial_record_read(const char *path, tc_partial_record *out, tc_why *why);

/* The bytes themselves (for tests and the fuzz target); the caller frees
 * *BYTES with free(). */
tc_err tc_partial_site_encode(const char *settings, const tc_site_unit *u, unsigned char **bytes,
                              size_t *len);
tc_err tc_partial_site_decode(const unsigned char *bytes, size_t len, tc_partial_site *out,
                              tc_why *why);
tc_err tc_partial_record_encode(const tc_partial_record *r, unsigned char **bytes, size_t *len);
tc_err tc_partial_record_decode(const unsigned char *bytes, size_t len, tc_partial_record *out,
                                tc_why *why);

#endif
