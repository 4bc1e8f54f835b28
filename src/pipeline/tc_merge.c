#include "pipeline/tc_merge.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "json/tc_parser.h"
#include "pipeline/tc_partial.h"
#include "pipeline/tc_state.h"
#include "util/tc_grow.h"
#include "util/tc_time.h"

/* A malloc'd message built by appending, in time linear in its length. */
typedef struct {
  char **text; /* where it lives: NULL until the first append */
  size_t len;
} message;

/* Appends to M; on failure the text stays as it was. */
__attribute__((format(printf, 2, 3))) static void say(message *m, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *t = n < 0 ? NULL : realloc(*m->text, m->len + (size_t)n + 1);
  if (!t)
    return;
  va_start(ap, fmt);
  vsnprintf(t + m->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  *m->text = t;
  m->len += (size_t)n;
}

static int same_str(const char *a, const char *b) {
  return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static int same_notes(const tc_corpus_note *a, uint32_t na, const tc_corpus_note *b, uint32_t nb) {
  if (na != nb)
    return 0;
  for (uint32_t i = 0; i < na; i++)
    if (strcmp(a[i].path, b[i].path) || a[i].line != b[i].line || strcmp(a[i].why, b[i].why))
      return 0;
  return 1;
}

static int same_corpus(const tc_partial_record *a, const tc_partial_record *b) {
  if (!same_str(a->settings, b->settings) || a->nshards != b->nshards ||
      a->value_sites != b->value_sites || a->nsites != b->nsites ||
      !same_notes(a->skipped, a->nskipped, b->skipped, b->nskipped) ||
      !same_notes(a->warnings, a->nwarnings, b->warnings, b->nwarnings))
    return 0;
  for (uint32_t i = 0; i < a->nsites; i++)
    if (strcmp(a->sites[i], b->sites[i]))
      return 0;
  return 1;
}

/* Reads every folder's record; *BY_SHARD[i] is the folder of shard i or -1. */
static tc_err read_records(const char *const *dirs, int ndirs, tc_partial_record *recs,
                           int **by_shard, tc_merge_why *why) {
  for (int d = 0; d < ndirs; d++) {
    char *path = tc_partial_record_path(dirs[d]);
    if (!path)
      return TC_E_NOMEM;
    tc_err e = tc_partial_record_read(path, &recs[d], &why->file);
    free(path);
    if (e)
      return e;
    if (d && !same_corpus(&recs[0], &recs[d])) {
      char what[64];
      if (!same_str(recs[0].settings, recs[d].settings))
        tc_partial_settings_differ(recs[0].settings, recs[d].settings, what, sizeof what);
      else
        snprintf(what, sizeof what, "%s",
                 recs[0].nshards != recs[d].nshards       ? "shard count"
                 : recs[0].value_sites != recs[d].value_sites ? "value-sites"
                                                          : "corpus");
      say(&(message){&why->missing, 0}, "%s and %s are shards of different runs: their %s differs", dirs[0],
          dirs[d], what);
      return TC_E_STATE_MISMATCH;
    }
  }
  uint32_t n = recs[0].nshards;
  *by_shard = malloc(n * sizeof **by_shard);
  if (!*by_shard)
    return TC_E_NOMEM;
  for (uint32_t i = 0; i < n; i++)
    (*by_shard)[i] = -1;
  for (int d = 0; d < ndirs; d++) {
    int *slot = &(*by_shard)[recs[d].shard];
    if (*slot >= 0) {
      say(&(message){&why->missing, 0}, "%s and %s both hold shard %u of %u", dirs[*slot], dirs[d],
          recs[d].shard, n);
      return TC_E_STATE_MISMATCH;
    }
    *slot = d;
  }
  return TC_OK;
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

static tc_err copy_notes(const tc_corpus_note *src, uint32_t n, tc_corpus_note **dst,
                         uint32_t *ndst) {
  *dst = calloc(n ? n : 1, sizeof **dst);
  if (!*dst)
    return TC_E_NOMEM;
  *ndst = n;
  for (uint32_t i = 0; i < n; i++) {
    (*dst)[i].line = src[i].line;
    if (!((*dst)[i].path = strdup(src[i].path)) || !((*dst)[i].why = strdup(src[i].why)))
      return TC_E_NOMEM;
  }
  return TC_OK;
}

/* Names what is missing, the first few shards without a folder and sites
 * without a partial (as the sites list of census.md: 10, then "and N
 * more"); counts all of them. */
static tc_err check_complete(const char *const *dirs, const tc_partial_record *rec,
                             const int *by_shard, tc_merge_why *why) {
  enum { SHOWN = 10 };
  message m = {&why->missing, 0};
  uint32_t shards = 0, sites = 0;
  for (uint32_t i = 0; i < rec->nshards; i++)
    if (by_shard[i] < 0 && shards++ < SHOWN)
      say(&m, "%sshard %u of %u: no state folder given", m.len ? "; " : "", i, rec->nshards);
  if (shards > SHOWN)
    say(&m, "; and %u more shards", shards - SHOWN);
  for (uint32_t s = 0; s < rec->nsites; s++) {
    int d = by_shard[tc_partial_shard_of(rec->sites[s], rec->nshards)];
    int have = 0;
    if (d >= 0) {
      char *path = tc_partial_site_path(dirs[d], rec->sites[s]);
      if (!path)
        return TC_E_NOMEM;
      /* Whether it is there; reading it (a FIFO refused) comes later. */
      struct stat st;
      have = lstat(path, &st) == 0;
      free(path);
    }
    if (!have && sites++ < SHOWN)
      say(&m, "%ssite %s (shard %u)%s", m.len ? "; " : "", rec->sites[s],
          tc_partial_shard_of(rec->sites[s], rec->nshards), d < 0 ? "" : ": no partial in its folder");
  }
  why->nmissing = sites;
  if (sites > SHOWN)
    say(&m, "; and %u more sites", sites - SHOWN);
  return shards || sites ? TC_E_STATE_INCOMPLETE : TC_OK;
}

/* Adds site S from its unit P to the corpus and the fold. */
static tc_err add_site(tc_corpus *c, size_t *traces_cap, tc_corpus_fold *fold, uint32_t s,
                       tc_site_unit *p) {
  uint32_t first = c->ntraces;
  tc_err e = tc_corpus_fold_add(fold, s, first, p);
  if (!e)
    e = TC_GROW(c->traces, *traces_cap, (size_t)first + p->ntraces + 1);
  if (e)
    return e;
  /* The corpus takes the unit's strings once the fold is done with them. */
  tc_site *site = &c->sites[s];
  site->name = p->name;
  site->status = p->status;
  site->reason = p->reason;
  site->chrome_version = p->chrome_version;
  p->name = p->status = p->reason = p->chrome_version = NULL;
  site->in_manifest = p->in_manifest;
  site->from_dir = p->from_dir;
  site->ntraces = p->ntraces;
  for (uint32_t i = 0; i < p->ntraces; i++) {
    c->traces[first + i] = (tc_trace){p->traces[i].path, s, p->traces[i].id.size};
    p->traces[i].path = NULL;
    c->bytes += p->traces[i].id.size;
  }
  c->ntraces += p->ntraces;
  return TC_OK;
}

tc_err tc_merge_states(const char *const *dirs, int ndirs, tc_corpus *corpus,
                       tc_corpus_tables *out, char **manifest, char **job, tc_merge_why *why) {
  double t0 = tc_now_seconds();
  memset(why, 0, sizeof *why);
  memset(corpus, 0, sizeof *corpus);
  memset(out, 0, sizeof *out);
  *manifest = *job = NULL;
  tc_partial_record *recs = calloc((size_t)ndirs, sizeof *recs);
  int *by_shard = NULL;
  if (!recs)
    return TC_E_NOMEM;
  /* Held until the merge has read every folder: a run writing one of
   * them meanwhile would mix two states. */
  int *locks = malloc((size_t)ndirs * sizeof *locks);
  tc_err e = locks ? TC_OK : TC_E_NOMEM;
  for (int d = 0; !e && d < ndirs; d++)
    locks[d] = -1;
  for (int d = 0; !e && d < ndirs; d++)
    e = tc_state_lock_to_read(dirs[d], &locks[d], &why->file);
  if (!e)
    e = read_records(dirs, ndirs, recs, &by_shard, why);
  if (!e)
    e = check_complete(dirs, &recs[0], by_shard, why);
  const tc_partial_record *rec = &recs[0];
  tc_corpus_fold *fold = NULL;
  if (!e) {
    corpus->nsites = rec->nsites;
    corpus->sites = calloc(rec->nsites ? rec->nsites : 1, sizeof *corpus->sites);
    fold = tc_corpus_fold_create(strncmp(rec->settings, "metrics=on", 10) == 0);
    e = corpus->sites && fold ? TC_OK : TC_E_NOMEM;
  }
  if (!e)
    e = copy_notes(rec->skipped, rec->nskipped, &corpus->skipped, &corpus->nskipped);
  if (!e)
    e = copy_notes(rec->warnings, rec->nwarnings, &corpus->warnings, &corpus->nwarnings);
  size_t traces_cap = 0;
  for (uint32_t s = 0; !e && s < rec->nsites; s++) {
    int d = by_shard[tc_partial_shard_of(rec->sites[s], rec->nshards)];
    char *path = tc_partial_site_path(dirs[d], rec->sites[s]);
    if (!path) {
      e = TC_E_NOMEM;
      break;
    }
    tc_partial_site p;
    memset(&p, 0, sizeof p);
    e = tc_partial_site_read(path, &p, &why->file);
    if (!e && (strcmp(p.unit.name, rec->sites[s]) || !same_str(p.settings, rec->settings))) {
      tc_why_errno(&why->file, path, 0);
      snprintf(why->file.reason, sizeof why->file.reason, "%s",
               strcmp(p.unit.name, rec->sites[s]) ? "holds another site than its name says"
                                                  : "made with other settings than its shard");
      e = TC_E_BAD_BINARY;
    }
    free(path);
    if (!e)
      e = add_site(corpus, &traces_cap, fold, s, &p.unit);
    tc_partial_site_free(&p);
  }
  /* The privacy rule is the report's: a merge prints as its shards asked. */
  if (!e) {
    tc_census_scope scope = TC_SCOPE_NO_CHROME_UI;
    tc_partial_settings_scope(rec->settings, &scope);
    e = tc_corpus_fold_finish(fold, scope, rec->value_sites, out);
    fold = NULL;
  }
  tc_corpus_fold_free(fold);
  if (!e && ((rec->manifest && !(*manifest = dup_or_null(rec->manifest))) ||
             (rec->job && !(*job = dup_or_null(rec->job)))))
    e = TC_E_NOMEM;
  out->totals.threads = 1;
  out->totals.merged_folders = (unsigned)ndirs;
  out->totals.simd_kernel = tc_parser_kernel();
  out->totals.seconds = tc_now_seconds() - t0;
  for (int d = 0; d < ndirs; d++) {
    tc_partial_record_free(&recs[d]);
    if (locks && locks[d] >= 0)
      close(locks[d]);
  }
  free(locks);
  free(recs);
  free(by_shard);
  if (e) {
    tc_corpus_tables_free(out);
    tc_corpus_free(corpus);
    free(*manifest);
    free(*job);
    *manifest = *job = NULL;
  }
  return e;
}
