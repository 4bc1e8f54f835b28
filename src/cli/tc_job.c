#include "cli/tc_job.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* DIR/PATH with "." and "name/.." removed by their text, so that the paths
 * a run prints and writes into run.json read as the user would write them
 * from the current directory; PATH itself when it is absolute or DIR is
 * the current directory. Malloc'd; NULL when out of memory. */
static char *from_dir(const char *dir, const char *path) {
  if (path[0] == '/' || !dir[0] || strcmp(dir, ".") == 0)
    return strdup(path);
  size_t n = strlen(dir) + strlen(path) + 2;
  char *joined = malloc(n), *out = malloc(n);
  if (!joined || !out) {
    free(joined);
    free(out);
    return NULL;
  }
  snprintf(joined, n, "%s/%s", dir, path);
  /* out holds the segments kept so far; keep[] where each starts. */
  size_t len = 0, depth = 0, *keep = malloc(n * sizeof *keep);
  if (!keep) {
    free(joined);
    free(out);
    return NULL;
  }
  if (joined[0] == '/')
    out[len++] = '/';
  for (char *save = NULL, *seg = strtok_r(joined, "/", &save); seg; seg = strtok_r(NULL, "/", &save)) {
    if (strcmp(seg, ".") == 0)
      continue;
    if (strcmp(seg, "..") == 0 && depth && strcmp(out + keep[depth - 1], "..") != 0) {
      len = keep[--depth];
      out[len] = '\0';
      continue;
    }
    if (len && out[len - 1] != '/')
      out[len++] = '/';
    keep[depth++] = len;
    len += (size_t)sprintf(out + len, "%s", seg);
  }
  if (!len)
    out[len++] = '.';
  if (len > 1 && out[len - 1] == '/' && depth)
    len--;
  out[len] = '\0';
  free(keep);
  free(joined);
  return out;
}

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t')
    s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
    s[--n] = '\0';
  return s;
}

/* Whether V is a number; its range is the core's to check. */
static int parse_double(const char *v, double *out) {
  char *end;
  errno = 0;
  double d = strtod(v, &end);
  if (errno || end == v || *end)
    return 0;
  *out = d;
  return 1;
}

static int parse_size(const char *v, size_t *out) {
  char *end;
  errno = 0;
  unsigned long long n = strtoull(v, &end, 10);
  if (errno || end == v || *end || v[0] == '-')
    return 0;
  *out = (size_t)n;
  return 1;
}

static const char *const keys[] = {"corpus",      "manifest",   "output",
                                   "schema",      "threads",    "chunk_bytes",
                                   "bucket_ms",   "refresh_hz", "window_start_mark",
                                   "window_end_mark", "state", "scope", "timings"};

/* Edit distance (insertions, deletions, substitutions, swaps of neighbours)
 * between two short keys, capped at 3: enough to tell a typo from a
 * different word. */
static int distance(const char *a, const char *b) {
  size_t n = strlen(a), m = strlen(b);
  if (n > 32 || m > 32)
    return 3;
  int d[33][33];
  for (size_t i = 0; i <= n; i++)
    d[i][0] = (int)i;
  for (size_t j = 0; j <= m; j++)
    d[0][j] = (int)j;
  for (size_t i = 1; i <= n; i++)
    for (size_t j = 1; j <= m; j++) {
      int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      if (d[i - 1][j] + 1 < best)
        best = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < best)
        best = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
        best = d[i - 2][j - 2] + 1;
      d[i][j] = best;
    }
  return d[n][m] < 3 ? d[n][m] : 3;
}

/* "unknown key 'thredas' (did you mean 'threads'?)" into WHY. */
static void unknown_key(const char *key, char *why, size_t cap) {
  const char *near = NULL;
  int best = 3;
  for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
    int d = distance(key, keys[i]);
    if (d < best) {
      best = d;
      near = keys[i];
    }
  }
  if (!*key)
    snprintf(why, cap, "missing key before '='");
  else if (near)
    snprintf(why, cap, "unknown key '%s' (did you mean '%s'?)", key, near);
  else
    snprintf(why, cap, "unknown key '%s'", key);
}

enum { APPLIED, BAD_VALUE, UNKNOWN_KEY };

/* A numeric value that does not parse is refused in the same words as one
 * out of range: the core's (tc_run_opts_check), from a value it refuses. */
#define REFUSED_THREADS UINT_MAX
#define REFUSED_BYTES SIZE_MAX
#define REFUSED_RATE NAN

/* Applies one line of a job file in DIR: APPLIED, BAD_VALUE with why it is
 * wrong in WHY, or UNKNOWN_KEY for the caller to describe. */
static int apply(tc_job *job, const char *dir, const char *key, const char *val, char *why,
                 size_t cap) {
  size_t n;
  int numeric = 1;
  if (strcmp(key, "corpus") == 0) {
    numeric = 0;
    char **c = realloc(job->corpus, (size_t)(job->ncorpus + 1) * sizeof *c);
    if (!c || !(job->corpus = c, c[job->ncorpus] = from_dir(dir, val)))
      return snprintf(why, cap, "out of memory"), BAD_VALUE;
    job->ncorpus++;
  } else if (strcmp(key, "manifest") == 0 || strcmp(key, "output") == 0 ||
             strcmp(key, "schema") == 0 || strcmp(key, "state") == 0) {
    numeric = 0;
    char **dst = key[0] == 'm'               ? &job->manifest
                 : key[0] == 'o'             ? &job->output
                 : strcmp(key, "schema") == 0 ? &job->schema
                                             : &job->state;
    free(*dst);
    if (!(*dst = from_dir(dir, val)))
      return snprintf(why, cap, "out of memory"), BAD_VALUE;
  } else if (strcmp(key, "threads") == 0) {
    job->run.threads = parse_size(val, &n) && n <= UINT_MAX ? (unsigned)n : REFUSED_THREADS;
  } else if (strcmp(key, "chunk_bytes") == 0) {
    /* 0 would mean the default to the core; a job names a size */
    job->run.chunk_bytes = parse_size(val, &n) && n ? n : REFUSED_BYTES;
  } else if (strcmp(key, "bucket_ms") == 0) {
    if (!parse_double(val, &job->run.kernels.bucket_ms))
      job->run.kernels.bucket_ms = REFUSED_RATE;
  } else if (strcmp(key, "refresh_hz") == 0) {
    if (!parse_double(val, &job->run.kernels.refresh_hz))
      job->run.kernels.refresh_hz = REFUSED_RATE;
  } else if (strcmp(key, "scope") == 0) {
    numeric = 0;
    if (tc_scope_parse(val, &job->run.scope))
      return snprintf(why, cap, "scope must be no-chrome-ui, page or all"), BAD_VALUE;
  } else if (strcmp(key, "timings") == 0) {
    numeric = 0;
    if (strcmp(val, "run.json") != 0 && strcmp(val, "host.json") != 0)
      return snprintf(why, cap, "timings must be run.json or host.json"), BAD_VALUE;
    job->timings_apart = val[0] == 'h';
  } else if (strcmp(key, "window_start_mark") == 0 || strcmp(key, "window_end_mark") == 0) {
    numeric = 0;
    int i = strstr(key, "end") != NULL;
    free(job->marks[i]);
    if (!(job->marks[i] = strdup(val)))
      return snprintf(why, cap, "out of memory"), BAD_VALUE;
    if (i)
      job->run.kernels.window_end_mark = job->marks[i];
    else
      job->run.kernels.window_start_mark = job->marks[i];
  } else {
    return UNKNOWN_KEY;
  }
  return numeric && tc_run_opts_check(&job->run, why, cap) ? BAD_VALUE : APPLIED;
}

tc_err tc_job_load(const char *path, tc_job *job, int *line, char *why, size_t cap) {
  memset(job, 0, sizeof *job);
  tc_run_opts_default(&job->run);
  *line = 0;
  why[0] = '\0';
  FILE *fp = fopen(path, "r");
  if (!fp) {
    snprintf(why, cap, "cannot open the job file: %s", strerror(errno));
    return TC_E_BAD_JOB;
  }
  char *buf = NULL, *dir = strdup(path);
  size_t bufcap = 0;
  tc_err e = dir ? TC_OK : TC_E_NOMEM;
  if (dir) {
    char *slash = strrchr(dir, '/');
    if (slash)
      slash[slash == dir] = '\0';
    else
      dir[0] = '\0';
  }
  while (!e && getline(&buf, &bufcap, fp) >= 0) {
    (*line)++;
    char *hash = strchr(buf, '#');
    if (hash)
      *hash = '\0';
    char *s = trim(buf);
    if (!*s)
      continue;
    char *eq = strchr(s, '=');
    if (!eq) {
      snprintf(why, cap, "expected key = value");
      e = TC_E_BAD_JOB;
      break;
    }
    *eq = '\0';
    const char *key = trim(s);
    int r = apply(job, dir, key, trim(eq + 1), why, cap);
    if (r == UNKNOWN_KEY)
      unknown_key(key, why, cap);
    if (r != APPLIED)
      e = TC_E_BAD_JOB;
  }
  free(buf);
  free(dir);
  fclose(fp);
  if (!e && (!job->ncorpus || !job->output)) {
    *line = 0;
    snprintf(why, cap, "a job needs at least `corpus` and `output`");
    e = TC_E_BAD_JOB;
  }
  if (e)
    tc_job_free(job);
  return e;
}

void tc_job_free(tc_job *job) {
  for (int i = 0; i < job->ncorpus; i++)
    free(job->corpus[i]);
  free(job->corpus);
  free(job->manifest);
  free(job->output);
  free(job->schema);
  free(job->state);
  free(job->marks[0]);
  free(job->marks[1]);
  memset(job, 0, sizeof *job);
}
