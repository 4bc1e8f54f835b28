/* Reading an output folder back for diff: census.json, run.json and
 * metrics.json parsed whole (tc_jtree), then the few things compared
 * picked out, every key checked for its type so that an output of another
 * version is refused with the file and the key, never half read. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff/tc_diff_side.h"
#include "util/tc_fdio.h"
#include "util/tc_xxh64.h"

const tc_diff_metric tc_diff_metrics[TC_DIFF_NMETRICS] = {
    {"busy_mean_pct", "busy rate (mean)", "%"},
    {"tbt_ms", "total blocking time", "ms"},
    {"long_tasks", "long tasks", "count"},
    {"frame_p50_ms", "frame interval p50", "ms"},
    {"frame_p95_ms", "frame interval p95", "ms"},
    {"heap_growth_bytes", "JS heap growth", "bytes"},
};

/* FILE of the folder whose path tc_diff_load left in WHY ("DIR/"): that
 * path with its last part made FILE. */
__attribute__((format(printf, 3, 4))) static tc_err bad(tc_why *why, const char *file,
                                                        const char *fmt, ...) {
  char *slash = strrchr(why->path, '/');
  size_t at = slash ? (size_t)(slash - why->path) + 1 : 0;
  snprintf(why->path + at, sizeof why->path - at, "%s", file);
  why->has_offset = 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why->reason, sizeof why->reason, fmt, ap);
  va_end(ap);
  return TC_E_BAD_OUTPUT;
}

/* Reads DIR/NAME whole and parses it. */
static tc_err parse_file(const char *dir, const char *name, tc_jtree **out, tc_why *why) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  tc_why_clear(why);
  unsigned char *buf;
  size_t len;
  tc_err e = tc_read_regular(path, &buf, &len, why);
  if (!e)
    e = tc_jtree_parse((const char *)buf, len, out, why);
  free(buf);
  return e;
}

static int cmp_str(const void *x, const void *y) {
  return tc_str_cmp(*(const tc_str *)x, *(const tc_str *)y);
}

/* The strings of array V, sorted and distinct, into a malloc'd array; KEY
 * picks a member of object items instead (args[].path). */
static tc_err str_list(const tc_jval *v, const char *key, tc_str **out, uint32_t *n,
                       tc_why *why, const char *file, const char *where, uint32_t index) {
  *out = NULL;
  *n = 0;
  if (!v || v->type != TC_JARR)
    return bad(why, file, "events[%u].%s is not an array", index, where);
  if (!v->n)
    return TC_OK;
  tc_str *s = malloc(v->n * sizeof *s);
  if (!s)
    return TC_E_NOMEM;
  for (uint32_t i = 0; i < v->n; i++) {
    const tc_jval *it = key ? tc_jget(&v->u.items[i], key) : &v->u.items[i];
    if (!tc_jstr(it, &s[i])) {
      free(s);
      return bad(why, file, "events[%u].%s[%u]%s%s is not a string", index, where, i,
                 key ? "." : "", key ? key : "");
    }
  }
  qsort(s, v->n, sizeof *s, cmp_str);
  uint32_t k = 0;
  for (uint32_t i = 0; i < v->n; i++)
    if (!k || !tc_str_eq(s[k - 1], s[i]))
      s[k++] = s[i];
  *out = s;
  *n = k;
  return TC_OK;
}

/* D's arg_values and arg_sites_v from ARGS (checked by str_list): a path
 * listed twice keeps its first of each; an output without profiles has
 * NULLs. Whether its paths have `site_records` is checked with S's other
 * paths: all of them or none (an output before per-path site lists). */
static tc_err arg_members(tc_diff_side *s, const tc_jval *args, tc_dside_event *d, tc_why *why,
                          uint32_t index) {
  if (!d->nargs)
    return TC_OK;
  if (!(d->arg_values = calloc(d->nargs, sizeof *d->arg_values)) ||
      !(d->arg_sites_v = calloc(d->nargs, sizeof *d->arg_sites_v)))
    return TC_E_NOMEM;
  for (uint32_t i = 0; i < args->n; i++) {
    tc_str path;
    tc_jstr(tc_jget(&args->u.items[i], "path"), &path);
    const tc_str *at = bsearch(&path, d->args, d->nargs, sizeof *d->args, cmp_str);
    const tc_jval *v = tc_jget(&args->u.items[i], "values");
    const tc_jval *sites = tc_jget(&args->u.items[i], "site_records");
    int has = sites != NULL;
    if (s->arg_sites_seen && has != s->has_arg_site_records)
      return bad(why, "census.json", "events[%u].args[%u] %s `site_records`, unlike the paths before",
                 index, i, has ? "has" : "lacks");
    s->arg_sites_seen = 1;
    s->has_arg_site_records = has;
    if (at && !d->arg_values[at - d->args] && v && v->type == TC_JOBJ)
      d->arg_values[at - d->args] = v;
    if (at && !d->arg_sites_v[at - d->args])
      d->arg_sites_v[at - d->args] = sites;
  }
  return TC_OK;
}

static int cmp_event(const void *x, const void *y) {
  return tc_str_cmp(((const tc_dside_event *)x)->name, ((const tc_dside_event *)y)->name);
}

static tc_err num_key(const tc_jval *obj, const char *key, double *out, tc_why *why,
                      const char *file) {
  if (!tc_jnum(tc_jget(obj, key), out))
    return bad(why, file, "`%s` is missing or not a number", key);
  return TC_OK;
}

static tc_err read_census(tc_diff_side *s, tc_why *why) {
  static const char F[] = "census.json";
  const tc_jval *root = tc_jtree_root(s->census);
  tc_str tool;
  if (!tc_jstr(tc_jget(root, "tool"), &tool) || !tc_str_eqc(tool, "tracecensus"))
    return bad(why, F, "no `tool`: \"tracecensus\" at the top");
  tc_err e;
  if ((e = num_key(root, "sites_total", &s->sites_total, why, F)) ||
      (e = num_key(root, "traces", &s->traces, why, F)) ||
      (e = num_key(root, "records", &s->records, why, F)))
    return e;
  if (!tc_jstr(tc_jget(tc_jget(root, "devtools_schema"), "generator"), &s->schema))
    s->schema = (tc_str){"", 0};
  /* Before scopes, a census counted every record. */
  if (!tc_jget(root, "scope"))
    s->scope = (tc_str){"all", 3};
  else if (!tc_jstr(tc_jget(root, "scope"), &s->scope))
    return bad(why, F, "`scope` is not a string");
  const tc_jval *ev = tc_jget(root, "events");
  if (!ev || ev->type != TC_JARR)
    return bad(why, F, "`events` is missing or not an array");
  if (ev->n && !(s->events = calloc(ev->n, sizeof *s->events)))
    return TC_E_NOMEM;
  s->nevents = ev->n;
  for (uint32_t i = 0; i < ev->n; i++) {
    const tc_jval *o = &ev->u.items[i];
    tc_dside_event *d = &s->events[i];
    if (!tc_jstr(tc_jget(o, "name"), &d->name))
      return bad(why, F, "events[%u].name is missing or not a string", i);
    if (!tc_jnum(tc_jget(o, "records"), &d->records) || !tc_jnum(tc_jget(o, "sites"), &d->sites))
      return bad(why, F, "events[%u] lacks a numeric `records` or `sites`", i);
    /* Outputs before site_records lack the key on every event: diff then
     * compares whole crawls. Some events with it and some without is no
     * output of any version. */
    d->site_records_v = tc_jget(o, "site_records");
    if (i && !d->site_records_v != !s->has_site_records)
      return bad(why, F, "events[%u] %s `site_records`, unlike events[0]", i,
                 d->site_records_v ? "has" : "lacks");
    s->has_site_records = d->site_records_v != NULL;
    if ((e = str_list(tc_jget(o, "args"), "path", &d->args, &d->nargs, why, F, "args", i)) ||
        (e = str_list(tc_jget(o, "undeclared_args"), NULL, &d->undeclared, &d->nundeclared, why,
                      F, "undeclared_args", i)) ||
        (e = arg_members(s, tc_jget(o, "args"), d, why, i)))
      return e;
  }
  if (s->nevents) /* NULL when empty, which qsort may not take */
    qsort(s->events, s->nevents, sizeof *s->events, cmp_event);
  for (uint32_t i = 1; i < s->nevents; i++)
    if (tc_str_eq(s->events[i - 1].name, s->events[i].name))
      return bad(why, F, "event \"%.*s\" is listed twice", (int)s->events[i].name.len,
                 s->events[i].name.ptr);
  return TC_OK;
}

static int cmp_site(const void *x, const void *y) {
  return tc_str_cmp(((const tc_dside_site *)x)->name, ((const tc_dside_site *)y)->name);
}

static tc_dside_site *find_site(tc_diff_side *s, tc_str name) {
  tc_dside_site key = {.name = name};
  return s->nsites ? bsearch(&key, s->sites, s->nsites, sizeof *s->sites, cmp_site) : NULL;
}

/* The major version in TEXT: the digits after "Chrome/" (a product-version
 * or a user agent, HeadlessChrome included), else after "Chromium " or
 * "Chrome " (`chromium --version`, as a manifest records it); 0 when there
 * are none. */
static uint32_t chrome_major(tc_str text) {
  static const char *const keys[] = {"Chrome/", "Chromium ", "Chrome "};
  for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
    size_t kl = strlen(keys[k]);
    for (size_t i = 0; i + kl < text.len; i++) {
      if (memcmp(text.ptr + i, keys[k], kl))
        continue;
      uint32_t v = 0;
      size_t j = i + kl, start = j;
      while (j < text.len && text.ptr[j] >= '0' && text.ptr[j] <= '9' && v < 100000000)
        v = v * 10 + (uint32_t)(text.ptr[j++] - '0');
      if (j > start)
        return v;
    }
  }
  return 0;
}

static void add_major(tc_dside_site *st, uint32_t m) {
  if (!m) {
    st->unknown_major = 1;
    return;
  }
  uint32_t i = 0;
  while (i < st->nmajors && st->majors[i] < m)
    i++;
  if (i < st->nmajors && st->majors[i] == m)
    return;
  if (st->nmajors == TC_DIFF_MAX_MAJORS) {
    st->more_majors = 1;
    return;
  }
  memmove(st->majors + i + 1, st->majors + i, (st->nmajors - i) * sizeof *st->majors);
  st->majors[i] = m;
  st->nmajors++;
}

typedef struct {
  uint32_t site;
  uint64_t hash;
} site_config;

static int cmp_config(const void *x, const void *y) {
  const site_config *a = x, *b = y;
  if (a->site != b->site)
    return a->site < b->site ? -1 : 1;
  return (a->hash > b->hash) - (a->hash < b->hash);
}

/* Each site's trace configs as one hash of its distinct configs in a fixed
 * order, so two sides agree exactly when their sets of configs do. */
static void fold_configs(tc_diff_side *s, site_config *c, uint32_t n) {
  qsort(c, n, sizeof *c, cmp_config);
  for (uint32_t i = 0; i < n; i++) {
    if (i && c[i].site == c[i - 1].site && c[i].hash == c[i - 1].hash)
      continue;
    uint64_t *h = &s->sites[c[i].site].config;
    *h = tc_xxh64(&c[i].hash, sizeof c[i].hash, *h) | 1;
  }
}

/* The metadata of files[I]: its own, or (written once per distinct block)
 * that of the earlier file its `metadata_of` names; NULL if none. */
static const tc_jval *file_metadata(const tc_jval *files, uint32_t i) {
  const tc_jval *meta = tc_jget(&files->u.items[i], "metadata");
  double of;
  if ((!meta || meta->type == TC_JNULL) &&
      tc_jnum(tc_jget(&files->u.items[i], "metadata_of"), &of) && of >= 0 && of < i)
    meta = tc_jget(&files->u.items[(uint32_t)of], "metadata");
  return meta;
}

static int hex_digit(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The site OBJ names: its exact bytes, which `site_hex` holds when the
 * name is not UTF-8 (report/tc_jsonw.h) and `site` otherwise. *OWN is the
 * malloc'd decoding (the caller frees it) or NULL. 0 when neither is a
 * string or the hex is malformed; -1 out of memory. */
static int site_name(const tc_jval *obj, tc_str *name, char **own) {
  *own = NULL;
  if (!tc_jstr(tc_jget(obj, "site"), name))
    return 0;
  const tc_jval *hv = tc_jget(obj, "site_hex");
  tc_str hex;
  if (!hv)
    return 1;
  if (!tc_jstr(hv, &hex) || hex.len % 2)
    return 0;
  char *b = malloc(hex.len / 2 + 1);
  if (!b)
    return -1;
  for (size_t i = 0; i < hex.len / 2; i++) {
    int hi = hex_digit(hex.ptr[2 * i]), lo = hex_digit(hex.ptr[2 * i + 1]);
    if (hi < 0 || lo < 0) {
      free(b);
      return 0;
    }
    b[i] = (char)(hi << 4 | lo);
  }
  *own = b;
  *name = (tc_str){b, hex.len / 2};
  return 1;
}

/* A count from an output: a whole number from 0 to UINT32_MAX. */
static int count_of(const tc_jval *v, uint32_t *out) {
  double d;
  if (!tc_jnum(v, &d) || !(d >= 0 && d <= UINT32_MAX) || d != floor(d))
    return 0;
  *out = (uint32_t)d;
  return 1;
}

static tc_err read_run(tc_diff_side *s, tc_why *why) {
  static const char F[] = "run.json";
  const tc_jval *root = tc_jtree_root(s->run);
  const tc_jval *sites = tc_jget(root, "sites"), *files = tc_jget(root, "files");
  if (!sites || sites->type != TC_JARR || !files || files->type != TC_JARR)
    return bad(why, F, "`sites` or `files` is missing or not an array");
  if (sites->n && !(s->sites = calloc(sites->n, sizeof *s->sites)))
    return TC_E_NOMEM;
  s->nsites = sites->n;
  for (uint32_t i = 0; i < sites->n; i++) {
    tc_dside_site *st = &s->sites[i];
    int got = site_name(&sites->u.items[i], &st->name, &st->own);
    if (got < 0)
      return TC_E_NOMEM;
    st->run_index = i;
    if (!got || !count_of(tc_jget(&sites->u.items[i], "traces"), &st->traces))
      return bad(why, F, "sites[%u] lacks a string `site` (with a well-formed `site_hex`) or a "
                 "whole `traces` from 0 to %u", i, UINT32_MAX);
    for (int k = 0; k < TC_DIFF_NMETRICS; k++)
      st->m[k] = NAN;
  }
  if (s->nsites)
    qsort(s->sites, s->nsites, sizeof *s->sites, cmp_site);
  for (uint32_t i = 1; i < s->nsites; i++)
    if (tc_str_eq(s->sites[i - 1].name, s->sites[i].name))
      return bad(why, F, "site \"%.*s\" is listed twice", (int)s->sites[i].name.len,
                 s->sites[i].name.ptr);
  site_config *configs = malloc((files->n ? files->n : 1) * sizeof *configs);
  if (!configs)
    return TC_E_NOMEM;
  uint32_t nconfigs = 0;
  for (uint32_t i = 0; i < files->n; i++) {
    const tc_jval *f = &files->u.items[i];
    tc_str site, ver = {"", 0}, cfg;
    char *own;
    int got = site_name(f, &site, &own);
    tc_dside_site *st = got > 0 ? find_site(s, site) : NULL;
    free(own);
    if (!st) {
      free(configs);
      return got < 0 ? TC_E_NOMEM : bad(why, F, "files[%u].site is missing, not a string or not in `sites`", i);
    }
    const tc_jval *meta = file_metadata(files, i);
    if (!tc_jstr(tc_jget(f, "chrome_version"), &ver))
      tc_jstr(tc_jget(meta, "user-agent"), &ver);
    add_major(st, chrome_major(ver));
    if (tc_jstr(tc_jget(meta, "trace-config"), &cfg))
      configs[nconfigs++] = (site_config){(uint32_t)(st - s->sites), tc_xxh64(cfg.ptr, cfg.len, 0)};
  }
  fold_configs(s, configs, nconfigs);
  free(configs);
  return TC_OK;
}

/* The rows of a `site_records` array V, [[run.json site index, records],
 * ...] with the indexes ascending, into SITE_AT (made indexes into the
 * sorted `sites` by AT) and RECS (NULL: not kept), V->n entries of room
 * each. Returns how many rows were good: V->n unless one is not. */
static uint32_t site_rows(const tc_diff_side *s, const uint32_t *at, const tc_jval *v,
                          uint32_t *site_at, double *recs) {
  uint32_t k = 0, prev = 0;
  for (; k < v->n; k++) {
    const tc_jval *row = &v->u.items[k];
    uint32_t site, n;
    if (row->type != TC_JARR || row->n != 2 || !count_of(&row->u.items[0], &site) ||
        site >= s->nsites || (k && site <= prev) || !count_of(&row->u.items[1], &n))
      break;
    prev = site;
    site_at[k] = at[site];
    if (recs)
      recs[k] = n;
  }
  return k;
}

static const char SITE_ROWS_WHY[] =
    "is not [site, records] with the site an index into run.json's `sites`, above the row before's";

/* D's paths' `site_records` into arg_site_at, path k's sites at
 * arg_site_off[k] .. arg_site_off[k + 1] - 1. */
static tc_err read_path_sites(const tc_diff_side *s, const uint32_t *at, tc_dside_event *d,
                              tc_why *why) {
  static const char F[] = "census.json";
  if (!d->nargs)
    return TC_OK;
  uint32_t total = 0;
  for (uint32_t k = 0; k < d->nargs; k++) {
    const tc_jval *v = d->arg_sites_v[k];
    if (!v || v->type != TC_JARR)
      return bad(why, F, "event \"%.*s\" path \"%.*s\": `site_records` is not an array",
                 (int)d->name.len, d->name.ptr, (int)d->args[k].len, d->args[k].ptr);
    total += v->n;
  }
  /* at least one entry: each path's sites start at arg_site_at + offset */
  if (!(d->arg_site_off = malloc((d->nargs + 1) * sizeof *d->arg_site_off)) ||
      !(d->arg_site_at = malloc((total ? total : 1) * sizeof *d->arg_site_at)))
    return TC_E_NOMEM;
  d->arg_site_off[0] = 0;
  for (uint32_t k = 0; k < d->nargs; k++) {
    const tc_jval *v = d->arg_sites_v[k];
    uint32_t good = site_rows(s, at, v, d->arg_site_at + d->arg_site_off[k], NULL);
    if (good < v->n)
      return bad(why, F, "event \"%.*s\" path \"%.*s\": site_records[%u] %s", (int)d->name.len,
                 d->name.ptr, (int)d->args[k].len, d->args[k].ptr, good, SITE_ROWS_WHY);
    d->arg_site_off[k + 1] = d->arg_site_off[k] + v->n;
  }
  return TC_OK;
}

/* Each event's `site_records` into its site_at and site_recs, and, when
 * the output has them, its paths' (read_path_sites). After read_run, whose
 * sites they name. */
static tc_err read_site_records(tc_diff_side *s, tc_why *why) {
  static const char F[] = "census.json";
  uint32_t *at = malloc((s->nsites ? s->nsites : 1) * sizeof *at); /* run index -> sorted */
  if (!at)
    return TC_E_NOMEM;
  for (uint32_t i = 0; i < s->nsites; i++)
    at[s->sites[i].run_index] = i;
  tc_err e = TC_OK;
  for (uint32_t i = 0; !e && i < s->nevents; i++) {
    tc_dside_event *d = &s->events[i];
    const tc_jval *v = d->site_records_v;
    if (!v || v->type != TC_JARR) {
      e = bad(why, F, "event \"%.*s\": `site_records` is not an array", (int)d->name.len,
              d->name.ptr);
      break;
    }
    if (v->n && (!(d->site_at = malloc(v->n * sizeof *d->site_at)) ||
                 !(d->site_recs = malloc(v->n * sizeof *d->site_recs)))) {
      e = TC_E_NOMEM;
      break;
    }
    d->nsite_recs = site_rows(s, at, v, d->site_at, d->site_recs);
    if (d->nsite_recs < v->n)
      e = bad(why, F, "event \"%.*s\": site_records[%u] %s", (int)d->name.len, d->name.ptr,
              d->nsite_recs, SITE_ROWS_WHY);
    if (!e && s->has_arg_site_records)
      e = read_path_sites(s, at, d, why);
  }
  free(at);
  return e;
}

static void add_opt(tc_dside_opt *o, double v) {
  uint32_t i = 0;
  while (i < o->n && o->v[i] < v)
    i++;
  if (i < o->n && o->v[i] == v)
    return;
  if (o->n == TC_DIFF_MAX_OPTS) {
    o->more = 1;
    return;
  }
  memmove(o->v + i + 1, o->v + i, (o->n - i) * sizeof *o->v);
  o->v[i] = v;
  o->n++;
}

/* A site's n/a reason: the value's own, else the site's lack of a trace,
 * else its metric group's. */
static tc_str na_reason(const tc_jval *site, const char *key) {
  tc_str r;
  if (tc_jstr(tc_jget(tc_jget(site, "values_na"), key), &r) ||
      tc_jstr(tc_jget(site, "no_trace_reason"), &r))
    return r;
  const tc_jval *na = tc_jget(site, "na");
  for (uint32_t i = 0; na && na->type == TC_JOBJ && i < na->n; i++)
    if (tc_jstr(&na->u.items[i], &r))
      return r;
  return tc_str_c("n/a");
}

static tc_err read_metrics(tc_diff_side *s, tc_why *why) {
  static const char F[] = "metrics.json";
  const tc_jval *root = tc_jtree_root(s->metrics);
  tc_str schema;
  if (!tc_jstr(tc_jget(root, "schema"), &schema) || !tc_str_eqc(schema, "tracecensus-metrics/1"))
    return bad(why, F, "`schema` is not \"tracecensus-metrics/1\"");
  const tc_jval *sites = tc_jget(root, "sites"), *traces = tc_jget(root, "traces");
  if (!sites || sites->type != TC_JARR || !traces || traces->type != TC_JARR)
    return bad(why, F, "`sites` or `traces` is missing or not an array");
  for (uint32_t i = 0; i < sites->n; i++) {
    const tc_jval *o = &sites->u.items[i], *vals = tc_jget(o, "values");
    tc_str name;
    char *own;
    int got = site_name(o, &name, &own);
    if (got < 0)
      return TC_E_NOMEM;
    if (!got || !vals || vals->type != TC_JOBJ) {
      free(own);
      return bad(why, F, "sites[%u] lacks a string `site` or a `values` object", i);
    }
    tc_dside_site *st = find_site(s, name);
    free(own);
    if (!st)
      return bad(why, F, "sites[%u] is a site run.json does not list", i);
    st->has_values = 1;
    for (int k = 0; k < TC_DIFF_NMETRICS; k++) {
      const tc_jval *v = tc_jget(vals, tc_diff_metrics[k].key);
      if (!v)
        return bad(why, F, "sites[%u].values has no `%s`", i, tc_diff_metrics[k].key);
      if (v->type == TC_JNULL)
        st->na[k] = na_reason(o, tc_diff_metrics[k].key);
      else if (!tc_jnum(v, &st->m[k]))
        return bad(why, F, "sites[%u].values.%s is not a number or null", i,
                   tc_diff_metrics[k].key);
    }
  }
  for (uint32_t i = 0; i < traces->n; i++) {
    double v;
    const tc_jval *t = &traces->u.items[i];
    if (tc_jnum(tc_jget(tc_jget(t, "clamps"), "bucket_ms_requested"), &v))
      add_opt(&s->bucket_ms, v);
    if (tc_jnum(tc_jget(tc_jget(t, "frames"), "budget_ms"), &v))
      add_opt(&s->budget_ms, v);
  }
  return TC_OK;
}

tc_err tc_diff_load(const char *dir, tc_diff_side **out, tc_why *why) {
  tc_why_clear(why);
  *out = NULL;
  tc_diff_side *s = calloc(1, sizeof *s);
  if (!s)
    return TC_E_NOMEM;
  tc_err e = parse_file(dir, "census.json", &s->census, why);
  if (!e)
    e = parse_file(dir, "run.json", &s->run, why);
  if (!e) {
    e = parse_file(dir, "metrics.json", &s->metrics, why);
    /* A --no-metrics run writes none: only its metrics are not compared. */
    if (e == TC_E_OPEN && why->errnum == ENOENT)
      e = TC_OK;
  }
  if (!e) {
    /* bad() names a file of DIR by what follows the path's last '/' */
    tc_why_clear(why);
    snprintf(why->path, sizeof why->path, "%s/", dir);
  }
  if (!e)
    e = read_census(s, why);
  if (!e)
    e = read_run(s, why);
  if (!e && s->has_site_records)
    e = read_site_records(s, why);
  if (!e && s->metrics)
    e = read_metrics(s, why);
  if (e) {
    tc_diff_side_free(s);
    return e;
  }
  *out = s;
  return TC_OK;
}

void tc_diff_side_free(tc_diff_side *s) {
  if (!s)
    return;
  for (uint32_t i = 0; i < s->nevents; i++) {
    free(s->events[i].args);
    free(s->events[i].arg_values);
    free(s->events[i].arg_sites_v);
    free(s->events[i].arg_site_at);
    free(s->events[i].arg_site_off);
    free(s->events[i].undeclared);
    free(s->events[i].site_at);
    free(s->events[i].site_recs);
  }
  free(s->events);
  for (uint32_t i = 0; i < s->nsites; i++)
    free(s->sites[i].own);
  free(s->sites);
  tc_jtree_free(s->census);
  tc_jtree_free(s->run);
  tc_jtree_free(s->metrics);
  free(s);
}
