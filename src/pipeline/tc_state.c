#include "pipeline/tc_state.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/tc_lockfile.h"

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

static int still_valid(const tc_partial_site *ps, const tc_corpus *c, uint32_t site,
                       const char *settings) {
  const tc_site *s = &c->sites[site];
  const tc_site_unit *p = &ps->unit;
  if (!same_str(ps->settings, settings) || !same_str(p->name, s->name) ||
      !same_str(p->status, s->status) || !same_str(p->reason, s->reason) ||
      !same_str(p->chrome_version, s->chrome_version) ||
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
                       tc_site_unit *out, int *reuse, char *differ, size_t cap, tc_why *why) {
  *reuse = 0;
  differ[0] = '\0';
  tc_site_unit_init(out);
  char *path = tc_partial_site_path(dir, c->sites[site].name);
  if (!path)
    return TC_E_NOMEM;
  tc_partial_site ps;
  tc_err e = tc_partial_site_read(path, &ps, why);
  free(path);
  if (e == TC_E_OPEN && why->errnum == ENOENT) {
    tc_why_clear(why);
    return TC_OK;
  }
  if (e)
    return e;
  if (!same_str(ps.settings, settings))
    tc_partial_settings_differ(ps.settings, settings, differ, cap);
  else if (still_valid(&ps, c, site, settings)) {
    *reuse = 1;
    *out = ps.unit;
    tc_site_unit_init(&ps.unit);
  }
  tc_partial_site_free(&ps);
  return TC_OK;
}

/* Temporary files a killed run left (".NAME.tmp-PID", tc_partial.c): the
 * caller holds the folder's lock, so no live run is writing any of them. */
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

/* TC_E_STATE_OTHER_SHARD when DIR's record is of another shard of as many
 * shards as this run's: the two shards were meant to merge, and this run's
 * record would hide the other's from the merge. A record of another shard
 * count, of a whole run or one that does not read is replaced, as a fresh
 * run replaces it (its sites' partials are reused or redone alike). */
static tc_err other_shard(const char *dir, uint32_t shard, uint32_t nshards, tc_why *why) {
  if (nshards <= 1)
    return TC_OK;
  char *path = tc_partial_record_path(dir);
  if (!path)
    return TC_E_NOMEM;
  tc_partial_record old;
  tc_why ignored;
  tc_err e = TC_OK;
  if (tc_partial_record_read(path, &old, &ignored) == TC_OK) {
    if (old.nshards == nshards && old.shard != shard) {
      tc_why_errno(why, dir, 0);
      tc_why_reason(why, "it holds shard %u/%u", old.shard, old.nshards);
      e = TC_E_STATE_OTHER_SHARD;
    }
    tc_partial_record_free(&old);
  }
  free(path);
  return e;
}

/* Takes DIR's lock into *FD; -1 and the errno otherwise. */
static int lock_dir(const char *dir, int *fd, tc_why *why) {
  *fd = -1;
  int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0)
    return errno;
  *fd = tc_lockfile_take(dfd, ".tc-lock", &why->pid);
  int err = *fd < 0 ? errno : 0;
  close(dfd);
  return err;
}

tc_err tc_state_lock_to_read(const char *dir, int *lock, tc_why *why) {
  tc_why_clear(why);
  int err = lock_dir(dir, lock, why);
  /* A folder given twice: this merge holds it already (and says so). */
  if (*lock < 0 && err == EWOULDBLOCK && why->pid != (long)getpid()) {
    tc_why_errno(why, dir, 0);
    return TC_E_STATE_BUSY;
  }
  why->pid = 0;
  return TC_OK;
}

tc_err tc_state_begin(const char *dir, const tc_corpus *c, const char *settings, uint32_t shard,
                      uint32_t nshards, uint32_t value_sites, const char *manifest,
                      const char *job, int *lock, tc_why *why) {
  tc_why_clear(why);
  *lock = -1;
  if (make_dirs(dir) != 0) {
    tc_why_errno(why, dir, errno);
    return TC_E_WRITE;
  }
  int fd, err = lock_dir(dir, &fd, why);
  if (fd < 0) {
    tc_why_errno(why, dir, err == EWOULDBLOCK ? 0 : err);
    return err == EWOULDBLOCK ? TC_E_STATE_BUSY : TC_E_WRITE;
  }
  remove_leftovers(dir);
  tc_err e = other_shard(dir, shard, nshards, why);
  if (e) {
    close(fd);
    return e;
  }
  /* Borrowed for the encoder, which only reads. */
  tc_partial_record r = {
      .settings = (char *)settings,
      .shard = nshards > 1 ? shard : 0,
      .nshards = nshards > 1 ? nshards : 1,
      .nsites = c->nsites,
      .skipped = c->skipped,
      .nskipped = c->nskipped,
      .warnings = c->warnings,
      .nwarnings = c->nwarnings,
      .manifest = (char *)manifest,
      .job = (char *)job,
      .value_sites = value_sites,
  };
  r.sites = malloc((c->nsites ? c->nsites : 1) * sizeof *r.sites);
  char *path = tc_partial_record_path(dir);
  e = r.sites && path ? TC_OK : TC_E_NOMEM;
  for (uint32_t i = 0; !e && i < c->nsites; i++)
    r.sites[i] = c->sites[i].name;
  if (!e)
    e = tc_partial_record_write(path, &r, why);
  free(path);
  free(r.sites);
  if (e)
    close(fd);
  else
    *lock = fd;
  return e;
}
