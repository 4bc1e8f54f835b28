#include "pipeline/tc_state.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

static int same_str(const char *a, const char *b) {
  return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Index of SITE's first trace (traces are sorted by site). */
static uint32_t first_trace(const tc_corpus *c, uint32_t site) {
  uint32_t lo = 0, hi = c->ntraces;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (c->traces[mid].site < site)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static int still_valid(const tc_partial_site *p, const tc_corpus *c, uint32_t site,
                       const char *settings) {
  const tc_site *s = &c->sites[site];
  if (!same_str(p->settings, settings) || !same_str(p->name, s->name) ||
      !same_str(p->status, s->status) || !same_str(p->reason, s->reason) ||
      p->in_manifest != s->in_manifest || p->from_dir != s->from_dir ||
      p->ntraces != s->ntraces)
    return 0;
  uint32_t first = first_trace(c, site);
  for (uint32_t i = 0; i < p->ntraces; i++) {
    const char *path = c->traces[first + i].path;
    tc_file_id now;
    int same;
    if (strcmp(p->traces[i].path, path) != 0 ||
        tc_file_id_read(path, &p->traces[i].id, &now, &same) || !same)
      return 0;
  }
  return 1;
}

tc_err tc_state_lookup(const char *dir, const tc_corpus *c, uint32_t site, const char *settings,
                       tc_partial_site *out, int *reuse, tc_state_why *why) {
  *reuse = 0;
  memset(out, 0, sizeof *out);
  tc_site_census_init(&out->census);
  char *path = tc_partial_site_path(dir, c->sites[site].name);
  if (!path)
    return TC_E_NOMEM;
  tc_err e = tc_partial_site_read(path, out, why);
  free(path);
  if (e == TC_E_OPEN && why->errnum == ENOENT) {
    tc_site_census_init(&out->census);
    return TC_OK;
  }
  if (e)
    return e;
  if (still_valid(out, c, site, settings)) {
    *reuse = 1;
  } else {
    tc_partial_site_free(out);
    tc_site_census_init(&out->census);
  }
  return TC_OK;
}

/* Temporary files a killed run left (".NAME.tmp-PID", tc_partial.c). */
static void remove_leftovers(const char *dir) {
  DIR *d = opendir(dir);
  if (!d)
    return;
  struct dirent *de;
  while ((de = readdir(d)))
    if (de->d_name[0] == '.' && strstr(de->d_name, ".tmp-"))
      unlinkat(dirfd(d), de->d_name, 0);
  closedir(d);
}

/* mkdir -p: each missing folder of PATH. */
static int make_dirs(const char *path) {
  char *p = strdup(path);
  if (!p)
    return -1;
  int rc = 0;
  for (char *s = p + 1; !rc && *s; s++)
    if (*s == '/') {
      *s = '\0';
      rc = mkdir(p, 0777) != 0 && errno != EEXIST ? -1 : 0;
      *s = '/';
    }
  if (!rc && mkdir(p, 0777) != 0 && errno != EEXIST)
    rc = -1;
  free(p);
  return rc;
}

tc_err tc_state_begin(const char *dir, const tc_corpus *c, const tc_run_opts *o,
                      const char *manifest, const char *job, tc_state_why *why) {
  memset(why, 0, sizeof *why);
  if (make_dirs(dir) != 0) {
    snprintf(why->path, sizeof why->path, "%s", dir);
    why->errnum = errno;
    return TC_E_WRITE;
  }
  remove_leftovers(dir);
  tc_partial_record r;
  memset(&r, 0, sizeof r);
  r.shard = o->nshards > 1 ? o->shard : 0;
  r.nshards = o->nshards > 1 ? o->nshards : 1;
  r.nsites = c->nsites;
  r.skipped = c->skipped;
  r.nskipped = c->nskipped;
  r.warnings = c->warnings;
  r.nwarnings = c->nwarnings;
  /* Borrowed for the encoder, which only reads. */
  r.manifest = (char *)manifest;
  r.job = (char *)job;
  r.settings = tc_partial_settings(o);
  r.sites = malloc((c->nsites ? c->nsites : 1) * sizeof *r.sites);
  char *path = tc_partial_record_path(dir);
  tc_err e = r.settings && r.sites && path ? TC_OK : TC_E_NOMEM;
  for (uint32_t i = 0; !e && i < c->nsites; i++)
    r.sites[i] = c->sites[i].name;
  if (!e)
    e = tc_partial_record_write(path, &r, why);
  free(path);
  free(r.settings);
  free(r.sites);
  return e;
}

tc_err tc_state_fold(tc_census_fold *fold, tc_run_result *out, const tc_site *s, uint32_t site,
                     tc_partial_site *p) {
  tc_err e = tc_census_fold_add(fold, site, &p->census);
  if (!e && p->values)
    e = tc_census_fold_add_values(fold, p->values);
  for (uint32_t i = 0; !e && i < p->ntraces; i++) {
    tc_run_count_trace(&out->totals, &p->traces[i].status);
    e = tc_trace_rows_add(&out->traces, &p->traces[i].status);
  }
  tc_metrics_reduction *metrics = out->metrics;
  if (e || !metrics)
    return e;
  /* The site's traces' metrics, by path as the partial has them; sites of
   * the crawl that left no trace are n/a in the metrics, not absent. */
  const tc_trace_metrics **m = malloc((p->ntraces + 1) * sizeof *m);
  if (!m)
    return TC_E_NOMEM;
  size_t n = 0;
  for (uint32_t i = 0; i < p->ntraces; i++)
    if (p->traces[i].metrics)
      m[n++] = p->traces[i].metrics;
  if (!s->ntraces)
    e = tc_metrics_reduction_add_site(metrics, s->name, NULL, 0,
                                      s->reason ? s->reason : "no trace file in the corpus");
  else if (n)
    e = tc_metrics_reduction_add_site(metrics, s->name, m, n, NULL);
  free(m);
  return e;
}
