/* The comparison of two read-back output folders (tc_diff.h says what is
 * compared and when a change is not comparable). Both sides' events and
 * sites are sorted by name, so every list is a merge and the result is in
 * name order whatever order the folders were written in. */
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff/tc_diff_side.h"
#include "util/tc_grow.h"

/* How many sites the conditions list names one by one before it counts. */
enum { NAMED_SITES = 20 };

typedef struct {
  tc_diff pub; /* first: tc_diff_free finds the rest from it */
  int oom;
  char **strs;
  size_t nstrs, capstrs;
  const char **conds;
  size_t capconds;
  tc_str *sites_new, *sites_gone;
  size_t cap_sites_new, cap_sites_gone;
  tc_diff_event *ev_new, *ev_gone, *ev_changed;
  size_t cap_new, cap_gone, cap_changed;
  tc_diff_site *sites;
  size_t capsites;
  uint8_t *both_a, *both_b; /* by sorted site: both sides list it (a shared site) */
  int shared_basis;          /* events compared over the shared sites */
  /* both_a and both_b when paths are compared over the shared sites too,
   * else NULL (every path of an event counts) */
  const uint8_t *paths_a, *paths_b;
  tc_diff_rank *ranked;
  tc_str **rank_paths; /* the new and gone events' paths the ranking lists */
  size_t nrank_paths;
} diff_impl;

/* A formatted text owned by the diff; NULL (and oom set) without memory. */
__attribute__((format(printf, 2, 3))) static const char *keep(diff_impl *d, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (!s || TC_GROW(d->strs, d->capstrs, d->nstrs + 1)) {
    free(s);
    d->oom = 1;
    return NULL;
  }
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  d->strs[d->nstrs++] = s;
  return s;
}

static void condition(diff_impl *d, const char *text) {
  if (!text || TC_GROW(d->conds, d->capconds, d->pub.nconditions + 1)) {
    d->oom = 1;
    return;
  }
  d->conds[d->pub.nconditions++] = text;
}

/* Appends "; PIECE" (or PIECE) to *ACC, a kept text. */
static void join(diff_impl *d, const char **acc, const char *piece) {
  if (!piece)
    return;
  *acc = *acc ? keep(d, "%s; %s", *acc, piece) : piece;
}

/* "54", "54, 55", "unknown", "54, unknown", with ", ..." past the kept ones. */
static void majors_text(const tc_dside_site *s, char *buf, size_t cap) {
  size_t used = 0;
  buf[0] = '\0';
  for (uint8_t i = 0; i < s->nmajors && used < cap; i++)
    used += (size_t)snprintf(buf + used, cap - used, "%s%u", i ? ", " : "", s->majors[i]);
  if (s->more_majors && used < cap)
    used += (size_t)snprintf(buf + used, cap - used, ", ...");
  if (s->unknown_major && used < cap)
    snprintf(buf + used, cap - used, "%sunknown", used ? ", " : "");
}

/* A site without a trace on a side has no conditions there to differ:
 * its trace count says what changed. */
static int same_majors(const tc_dside_site *a, const tc_dside_site *b) {
  return !a->traces || !b->traces || (a->nmajors == b->nmajors && a->more_majors == b->more_majors &&
         a->unknown_major == b->unknown_major &&
         !memcmp(a->majors, b->majors, a->nmajors * sizeof *a->majors));
}

static int same_config(const tc_dside_site *a, const tc_dside_site *b) {
  return !a->traces || !b->traces || a->config == b->config;
}

static int differ(double a, double b) {
  return isnan(a) != isnan(b) || (!isnan(a) && a != b);
}

/* A figure and its change, or why there is none. */
static tc_diff_fig fig(double a, double b, const char *not_comparable) {
  tc_diff_fig f = {a, b, NAN, NULL};
  if (isnan(a) || isnan(b))
    f.why = isnan(a) && isnan(b) ? "n/a on both sides" : isnan(a) ? "n/a in A" : "n/a in B";
  else if (not_comparable)
    f.why = not_comparable;
  else if (a == 0)
    f.why = "baseline is zero";
  else
    f.change_pct = (b - a) / fabs(a) * 100.0;
  return f;
}

/* Whether E's arg path K is on a site SHARED marks (every path is when
 * SHARED is NULL). */
static int path_on(const tc_dside_event *e, uint32_t k, const uint8_t *shared) {
  if (!shared)
    return 1;
  for (uint32_t i = e->arg_site_off[k]; i < e->arg_site_off[k + 1]; i++)
    if (shared[e->arg_site_at[i]])
      return 1;
  return 0;
}

static int cmp_str(const void *x, const void *y) {
  return tc_str_cmp(*(const tc_str *)x, *(const tc_str *)y);
}

/* The same for PATH, one of E's paths or undeclared paths (all of which
 * are among its paths). */
static int named_path_on(const tc_dside_event *e, tc_str path, const uint8_t *shared) {
  if (!shared)
    return 1;
  const tc_str *at = e->nargs ? bsearch(&path, e->args, e->nargs, sizeof *e->args, cmp_str) : NULL;
  return !at || path_on(e, (uint32_t)(at - e->args), shared);
}

/* One side's list of an event's paths (its args or undeclared args,
 * sorted), of which those on the compared sites count: on a site ON marks
 * (every one when ON is NULL). */
typedef struct {
  const tc_dside_event *e;
  const tc_str *v;
  uint32_t n;
  const uint8_t *on;
} path_set;

/* The paths X counts that Y does not, into a malloc'd array. */
static tc_str *only_in(diff_impl *d, path_set x, path_set y, uint32_t *n) {
  *n = 0;
  tc_str *out = NULL;
  size_t cap = 0;
  for (uint32_t i = 0, j = 0; i < x.n; i++) {
    if (!named_path_on(x.e, x.v[i], x.on))
      continue;
    while (j < y.n && tc_str_cmp(y.v[j], x.v[i]) < 0)
      j++;
    if (j < y.n && tc_str_eq(y.v[j], x.v[i]) && named_path_on(y.e, y.v[j], y.on))
      continue;
    if (TC_GROW(out, cap, *n + 1)) {
      d->oom = 1;
      return out;
    }
    out[(*n)++] = x.v[i];
  }
  return out;
}

static int cmp_event_name(const void *x, const void *y) {
  return tc_str_cmp(((const tc_dside_event *)x)->name, ((const tc_dside_event *)y)->name);
}

static tc_diff_event *push_event(diff_impl *d, tc_diff_event **arr, size_t *cap, uint32_t *n) {
  if (TC_GROW(*arr, *cap, *n + 1)) {
    d->oom = 1;
    return NULL;
  }
  tc_diff_event *e = &(*arr)[(*n)++];
  memset(e, 0, sizeof *e);
  e->records_a = e->records_b = e->sites_a = e->sites_b = NAN;
  return e;
}

static void event_figs(tc_diff_event *e, double sa, double sb, const char *why) {
  e->per_site = fig(e->records_a / sa, e->records_b / sb, why);
  e->share = fig(e->sites_a / sa * 100.0, e->sites_b / sb * 100.0, why);
}

/* E's records and sites on the compared sites: its census figures over
 * whole crawls (SHARED NULL), else recounted from its site_records. */
static void event_count(const tc_dside_event *e, const uint8_t *shared, double *records,
                        double *sites) {
  if (!shared) {
    *records = e->records;
    *sites = e->sites;
    return;
  }
  *records = *sites = 0;
  for (uint32_t k = 0; k < e->nsite_recs; k++)
    if (shared[e->site_at[k]] && e->site_recs[k] > 0) {
      *records += e->site_recs[k];
      *sites += 1;
    }
}

static int cmp_shift(const void *x, const void *y) {
  const tc_diff_shift *a = x, *b = y;
  if (a->shift != b->shift)
    return a->shift > b->shift ? -1 : 1;
  return tc_str_cmp(a->path, b->path);
}

/* The paths of EA and EB (the same event on each side) whose value profile
 * shifted by TC_DIFF_SHIFT_MIN or more, biggest first, into *OUT
 * (malloc'd, NULL when none) and *N. */
static void value_shifts(diff_impl *d, const tc_dside_event *ea, const tc_dside_event *eb,
                         tc_diff_shift **out, uint32_t *n) {
  size_t cap = 0;
  *out = NULL;
  *n = 0;
  for (uint32_t i = 0, j = 0; ea->arg_values && eb->arg_values && i < ea->nargs && j < eb->nargs;) {
    int c = tc_str_cmp(ea->args[i], eb->args[j]);
    const char *basis;
    /* A path counts on both sides, though its profiles are whole crawls'. */
    int both = !c && path_on(ea, i, d->paths_a) && path_on(eb, j, d->paths_b);
    double shift = both ? tc_diff_value_shift(ea->arg_values[i], eb->arg_values[j], &basis) : 0;
    if (shift >= TC_DIFF_SHIFT_MIN) {
      if (TC_GROW(*out, cap, *n + 1)) {
        d->oom = 1;
        return;
      }
      (*out)[(*n)++] = (tc_diff_shift){ea->args[i], shift, basis,
                                       tc_diff_profile_text(ea->arg_values[i]),
                                       tc_diff_profile_text(eb->arg_values[j])};
    }
    i += c <= 0;
    j += c >= 0;
  }
  if (*n > 1)
    qsort(*out, *n, sizeof **out, cmp_shift);
}

static void compare_events(diff_impl *d, const tc_diff_side *a, const tc_diff_side *b) {
  tc_diff *p = &d->pub;
  double sa = d->shared_basis ? p->sites_shared : a->sites_total;
  double sb = d->shared_basis ? p->sites_shared : b->sites_total;
  uint32_t i = 0, j = 0;
  while (!d->oom && (i < a->nevents || j < b->nevents)) {
    int c = i == a->nevents ? 1 : j == b->nevents ? -1 : tc_str_cmp(a->events[i].name, b->events[j].name);
    const tc_dside_event *ea = c <= 0 ? &a->events[i] : NULL, *eb = c >= 0 ? &b->events[j] : NULL;
    i += c <= 0;
    j += c >= 0;
    double ra = NAN, rb = NAN, na = NAN, nb = NAN;
    if (ea)
      event_count(ea, d->shared_basis ? d->both_a : NULL, &ra, &na);
    if (eb)
      event_count(eb, d->shared_basis ? d->both_b : NULL, &rb, &nb);
    /* Over shared sites, an event none of them has is on no compared site. */
    if (d->shared_basis && ea && !ra)
      ea = NULL;
    if (d->shared_basis && eb && !rb)
      eb = NULL;
    if (!ea && !eb) {
      p->events_only_on_lone_sites++;
      continue;
    }
    tc_diff_event *e;
    if (!eb) {
      if (!(e = push_event(d, &d->ev_gone, &d->cap_gone, &p->nevents_gone)))
        return;
    } else if (!ea) {
      if (!(e = push_event(d, &d->ev_new, &d->cap_new, &p->nevents_new)))
        return;
    } else {
      tc_diff_event t = {0};
      path_set pa = {ea, ea->args, ea->nargs, d->paths_a}, pb = {eb, eb->args, eb->nargs, d->paths_b};
      path_set ua = {ea, ea->undeclared, ea->nundeclared, d->paths_a};
      path_set ub = {eb, eb->undeclared, eb->nundeclared, d->paths_b};
      t.args_new = only_in(d, pb, pa, &t.nargs_new);
      t.args_gone = only_in(d, pa, pb, &t.nargs_gone);
      t.undeclared_new = only_in(d, ub, ua, &t.nundeclared_new);
      t.undeclared_gone = only_in(d, ua, ub, &t.nundeclared_gone);
      value_shifts(d, ea, eb, &t.shifts, &t.nshifts);
      int changed = ra != rb || na != nb || t.nargs_new || t.nargs_gone || t.nundeclared_new ||
                    t.nundeclared_gone || t.nshifts;
      if (!changed || !(e = push_event(d, &d->ev_changed, &d->cap_changed, &p->nevents_changed))) {
        free(t.args_new);
        free(t.args_gone);
        free(t.undeclared_new);
        free(t.undeclared_gone);
        free(t.shifts);
        continue;
      }
      e->shifts = t.shifts;
      e->nshifts = t.nshifts;
      e->value_shift = t.nshifts ? t.shifts[0].shift : 0;
      e->args_new = t.args_new;
      e->args_gone = t.args_gone;
      e->undeclared_new = t.undeclared_new;
      e->undeclared_gone = t.undeclared_gone;
      e->nargs_new = t.nargs_new;
      e->nargs_gone = t.nargs_gone;
      e->nundeclared_new = t.nundeclared_new;
      e->nundeclared_gone = t.nundeclared_gone;
    }
    e->name = (ea ? ea : eb)->name;
    if (ea) {
      e->records_a = ra;
      e->sites_a = na;
    }
    if (eb) {
      e->records_b = rb;
      e->sites_b = nb;
    }
    event_figs(e, sa, sb, p->events_why);
    if (!ea || !eb)
      e->per_site.why = e->share.why =
          d->shared_basis ? (!ea ? "n/a in A: no record on the shared sites"
                             : "n/a in B: no record on the shared sites")
          : !ea       ? "n/a in A: the event is only in B"
                      : "n/a in B: the event is only in A";
  }
  p->events_new = d->ev_new;
  p->events_gone = d->ev_gone;
  p->events_changed = d->ev_changed;
}

static void push_name(diff_impl *d, tc_str **arr, size_t *cap, uint32_t *n, tc_str name) {
  if (TC_GROW(*arr, *cap, *n + 1)) {
    d->oom = 1;
    return;
  }
  (*arr)[(*n)++] = name;
}

/* The sites of both sides: which are only on one, and the conditions of
 * those on both (each difference named in the conditions, the first
 * NAMED_SITES by name); fills the pieces of why changes are not comparable:
 * SET_WHY those that only matter over whole crawls (S, the set of sites),
 * SITES_WHY those of the shared sites. */
static void compare_conditions(diff_impl *d, const tc_diff_side *a, const tc_diff_side *b,
                               const char **set_why, const char **sites_why) {
  tc_diff *p = &d->pub;
  uint32_t nchrome = 0, nconfig = 0;
  const char *first_chrome = NULL;
  for (uint32_t i = 0, j = 0; !d->oom && (i < a->nsites || j < b->nsites);) {
    int c = i == a->nsites ? 1 : j == b->nsites ? -1 : tc_str_cmp(a->sites[i].name, b->sites[j].name);
    if (c < 0)
      push_name(d, &d->sites_gone, &d->cap_sites_gone, &p->nsites_gone, a->sites[i].name);
    else if (c > 0)
      push_name(d, &d->sites_new, &d->cap_sites_new, &p->nsites_new, b->sites[j].name);
    else if (!same_majors(&a->sites[i], &b->sites[j])) {
      char ma[96], mb[96];
      majors_text(&a->sites[i], ma, sizeof ma);
      majors_text(&b->sites[j], mb, sizeof mb);
      const char *t = keep(d, "site %.*s: Chrome major %s -> %s", (int)a->sites[i].name.len,
                           a->sites[i].name.ptr, ma, mb);
      if (!nchrome)
        first_chrome = t;
      if (nchrome++ < NAMED_SITES)
        condition(d, t);
    }
    if (c == 0 && !same_config(&a->sites[i], &b->sites[j]) && nconfig++ < NAMED_SITES)
      condition(d, keep(d, "site %.*s: trace config differs", (int)a->sites[i].name.len,
                        a->sites[i].name.ptr));
    i += c <= 0;
    j += c >= 0;
  }
  if (nchrome > NAMED_SITES)
    condition(d, keep(d, "Chrome major differs on %u more sites", nchrome - NAMED_SITES));
  if (nconfig > NAMED_SITES)
    condition(d, keep(d, "trace config differs on %u more sites", nconfig - NAMED_SITES));
  if (p->nsites_gone)
    condition(d, keep(d, "%u sites only in A (first: %.*s)", p->nsites_gone,
                      (int)d->sites_gone[0].len, d->sites_gone[0].ptr));
  if (p->nsites_new)
    condition(d, keep(d, "%u sites only in B (first: %.*s)", p->nsites_new,
                      (int)d->sites_new[0].len, d->sites_new[0].ptr));
  if (a->sites_total != b->sites_total)
    join(d, set_why, keep(d, "S differs (%.0f -> %.0f sites)", a->sites_total, b->sites_total));
  if (p->nsites_gone || p->nsites_new)
    join(d, set_why, keep(d, "the sites differ (%u only in A, %u only in B)", p->nsites_gone,
                            p->nsites_new));
  if (nchrome == 1)
    join(d, sites_why, first_chrome);
  else if (nchrome)
    join(d, sites_why, keep(d, "Chrome major differs on %u sites", nchrome));
  if (nconfig)
    join(d, sites_why, keep(d, "trace config differs on %u site%s", nconfig, nconfig > 1 ? "s" : ""));
  if (a->sites_total != b->sites_total)
    condition(d, keep(d, "S (sites surveyed) %.0f -> %.0f", a->sites_total, b->sites_total));
  if (!tc_str_eq(a->schema, b->schema))
    condition(d, keep(d, "DevTools schema (undeclared args are relative to it): %.*s -> %.*s",
                      (int)a->schema.len, a->schema.ptr, (int)b->schema.len, b->schema.ptr));
}

/* The census scope: the events of crawls counted over other processes do
 * not compare (the metrics do: the kernels never depended on it). */
static void compare_scope(diff_impl *d, const tc_diff_side *a, const tc_diff_side *b,
                          const char **events_why) {
  if (tc_str_eq(a->scope, b->scope))
    return;
  const char *t = keep(d, "the census scope differs (%.*s -> %.*s): they count other processes",
                       (int)a->scope.len, a->scope.ptr, (int)b->scope.len, b->scope.ptr);
  condition(d, t);
  join(d, events_why, t);
}

static int same_opt(const tc_dside_opt *x, const tc_dside_opt *y) {
  return x->n == y->n && x->more == y->more && !memcmp(x->v, y->v, x->n * sizeof *x->v);
}

static const char *opt_text(diff_impl *d, const tc_dside_opt *o) {
  const char *t = o->n ? keep(d, "%g", o->v[0]) : "none";
  for (uint32_t i = 1; t && i < o->n; i++)
    t = keep(d, "%s, %g", t, o->v[i]);
  return o->more && t ? keep(d, "%s, ...", t) : t;
}

static void compare_options(diff_impl *d, const tc_diff_side *a, const tc_diff_side *b,
                            const char **why) {
  static const struct {
    const char *name;
    size_t off;
  } opts[] = {{"bucket_ms", offsetof(tc_diff_side, bucket_ms)},
              {"frame budget_ms", offsetof(tc_diff_side, budget_ms)}};
  for (size_t k = 0; k < sizeof opts / sizeof *opts; k++) {
    const tc_dside_opt *x = (const void *)((const char *)a + opts[k].off);
    const tc_dside_opt *y = (const void *)((const char *)b + opts[k].off);
    if (same_opt(x, y))
      continue;
    const char *t = keep(d, "metric option %s %s -> %s", opts[k].name, opt_text(d, x), opt_text(d, y));
    condition(d, t);
    join(d, why, t);
  }
}

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

/* Nearest-rank quantile of sorted V: rank ceil(NUM/DEN * n), computed in
 * integers; n/a (NAN) below DEN/(DEN-NUM) samples, as metrics.md's rule. */
static double nearest_rank(const double *v, uint32_t n, uint32_t num, uint32_t den) {
  if ((uint64_t)n * (den - num) < den)
    return NAN;
  uint64_t rank = ((uint64_t)n * num + den - 1) / den;
  return v[rank - 1];
}

/* A quantile across sites is n/a only for want of samples. */
static tc_diff_fig dist_fig(double a, double b, const char *why) {
  tc_diff_fig f = fig(a, b, why);
  if (isnan(a) || isnan(b))
    f.why = isnan(a) && isnan(b) ? "n/a in A and in B (too_few_samples)"
            : isnan(a)           ? "n/a in A (too_few_samples)"
                                 : "n/a in B (too_few_samples)";
  return f;
}

static void compare_dists(diff_impl *d, const tc_diff_side *a, const tc_diff_side *b,
                          const char *why) {
  double *va = malloc((a->nsites ? a->nsites : 1) * sizeof *va);
  double *vb = malloc((b->nsites ? b->nsites : 1) * sizeof *vb);
  if (!va || !vb) {
    d->oom = 1;
    free(va);
    free(vb);
    return;
  }
  for (int k = 0; k < TC_DIFF_NMETRICS; k++) {
    tc_diff_dist *t = &d->pub.dist[k];
    t->n_a = t->n_b = 0;
    for (uint32_t i = 0; i < a->nsites; i++)
      if (d->both_a[i] && a->sites[i].has_values && !isnan(a->sites[i].m[k]))
        va[t->n_a++] = a->sites[i].m[k];
    for (uint32_t i = 0; i < b->nsites; i++)
      if (d->both_b[i] && b->sites[i].has_values && !isnan(b->sites[i].m[k]))
        vb[t->n_b++] = b->sites[i].m[k];
    qsort(va, t->n_a, sizeof *va, cmp_double);
    qsort(vb, t->n_b, sizeof *vb, cmp_double);
    const char *w = why;
    if (!w && t->n_a != t->n_b)
      w = keep(d, "sample counts differ (n %u -> %u)", t->n_a, t->n_b);
    t->median = dist_fig(nearest_rank(va, t->n_a, 1, 2), nearest_rank(vb, t->n_b, 1, 2), w);
    t->p90 = dist_fig(nearest_rank(va, t->n_a, 9, 10), nearest_rank(vb, t->n_b, 9, 10), w);
    t->changed = t->n_a != t->n_b || differ(t->median.a, t->median.b) || differ(t->p90.a, t->p90.b);
  }
  free(va);
  free(vb);
}

/* A site on both sides: listed when its conditions or trace count differ
 * or a metric value does. */
static void compare_site(diff_impl *d, const tc_dside_site *x, const tc_dside_site *y) {
  const char *why = NULL;
  if (!same_majors(x, y)) {
    char ma[96], mb[96];
    majors_text(x, ma, sizeof ma);
    majors_text(y, mb, sizeof mb);
    why = keep(d, "Chrome major %s -> %s", ma, mb);
  }
  if (!same_config(x, y))
    join(d, &why, "trace config differs");
  const char *nc = why;
  if (!nc && x->traces != y->traces)
    nc = keep(d, "sample counts differ (traces %u -> %u)", x->traces, y->traces);
  int listed = why || x->traces != y->traces;
  tc_diff_site s = {x->name, x->traces, y->traces, why, {{0}}};
  for (int k = 0; k < TC_DIFF_NMETRICS; k++) {
    if (d->pub.metrics_na) {
      s.m[k] = (tc_diff_fig){NAN, NAN, NAN, d->pub.metrics_na};
      continue;
    }
    s.m[k] = fig(x->m[k], y->m[k], nc);
    if (isnan(x->m[k]) || isnan(y->m[k])) {
      const tc_str r = isnan(x->m[k]) ? x->na[k] : y->na[k];
      s.m[k].why = isnan(x->m[k]) && isnan(y->m[k])
                       ? keep(d, "n/a in A (%.*s) and in B (%.*s)", (int)x->na[k].len, x->na[k].ptr,
                              (int)y->na[k].len, y->na[k].ptr)
                       : keep(d, "n/a in %s (%.*s)", isnan(x->m[k]) ? "A" : "B", (int)r.len, r.ptr);
    }
    listed |= differ(x->m[k], y->m[k]);
  }
  if (!listed)
    return;
  if (TC_GROW(d->sites, d->capsites, d->pub.nsites + 1)) {
    d->oom = 1;
    return;
  }
  d->sites[d->pub.nsites++] = s;
}

static int dists_changed(const tc_diff *p) {
  for (int k = 0; k < TC_DIFF_NMETRICS; k++)
    if (p->dist[k].changed)
      return 1;
  return 0;
}

/* Marks the sites both sides list (they are sorted by name) and counts
 * them. */
static void mark_shared(diff_impl *d, const tc_diff_side *a, const tc_diff_side *b) {
  d->both_a = calloc(a->nsites ? a->nsites : 1, 1);
  d->both_b = calloc(b->nsites ? b->nsites : 1, 1);
  if (!d->both_a || !d->both_b) {
    d->oom = 1;
    return;
  }
  for (uint32_t i = 0, j = 0; i < a->nsites && j < b->nsites;) {
    int c = tc_str_cmp(a->sites[i].name, b->sites[j].name);
    if (c == 0) {
      d->both_a[i] = d->both_b[j] = 1;
      d->pub.sites_shared++;
    }
    i += c <= 0;
    j += c >= 0;
  }
}

/* The size of E's change (README.md, "Comparing two crawls"): |log2| of
 * the ratio of its records per compared site, or 10 (a 1024-fold change)
 * when it is new or gone; plus 4 x the change in its share of sites (0 to
 * 1); plus 0.5 per argument path that appeared or vanished, at most 2;
 * plus 2 x its biggest value-profile shift (0 to 1). */
static double change_size(const tc_diff_event *e, uint32_t npaths) {
  double ra = isnan(e->per_site.a) ? 0 : e->per_site.a, rb = isnan(e->per_site.b) ? 0 : e->per_site.b;
  double sa = isnan(e->share.a) ? 0 : e->share.a, sb = isnan(e->share.b) ? 0 : e->share.b;
  double r = ra > 0 && rb > 0 ? fabs(log2(rb / ra)) : ra > 0 || rb > 0 ? 10 : 0;
  double paths = 0.5 * npaths;
  return r + 4 * fabs(sb - sa) / 100 + (paths > 2 ? 2 : paths) + 2 * e->value_shift;
}

static int cmp_rank(const void *x, const void *y) {
  const tc_diff_rank *a = x, *b = y;
  if (a->change_size != b->change_size)
    return a->change_size > b->change_size ? -1 : 1;
  return tc_str_cmp(a->event->name, b->event->name);
}

static const tc_dside_event *find_event(const tc_diff_side *s, tc_str name) {
  tc_dside_event key = {.name = name};
  return s->nevents ? bsearch(&key, s->events, s->nevents, sizeof *s->events, cmp_event_name)
                    : NULL;
}

/* One rank per new, gone and changed event, biggest change first (then by
 * name, so the order is total). */
static void rank_events(diff_impl *d, const tc_diff_side *a, const tc_diff_side *b) {
  tc_diff *p = &d->pub;
  uint32_t n = p->nevents_new + p->nevents_gone + p->nevents_changed;
  if (!(d->ranked = calloc(n ? n : 1, sizeof *d->ranked))) {
    d->oom = 1;
    return;
  }
  tc_diff_rank *r = d->ranked;
  /* A new or gone event's paths: those on the compared sites. */
  if (!(d->rank_paths = calloc(p->nevents_new + p->nevents_gone + 1, sizeof *d->rank_paths))) {
    d->oom = 1;
    return;
  }
  for (uint32_t i = 0; i < p->nevents_new; i++, r++) {
    const tc_dside_event *eb = find_event(b, p->events_new[i].name);
    uint32_t n;
    tc_str *v = only_in(d, (path_set){eb, eb->args, eb->nargs, d->paths_b}, (path_set){0}, &n);
    d->rank_paths[d->nrank_paths++] = v;
    *r = (tc_diff_rank){&p->events_new[i], "new", 0, v, NULL, n, 0};
  }
  for (uint32_t i = 0; i < p->nevents_gone; i++, r++) {
    const tc_dside_event *ea = find_event(a, p->events_gone[i].name);
    uint32_t n;
    tc_str *v = only_in(d, (path_set){ea, ea->args, ea->nargs, d->paths_a}, (path_set){0}, &n);
    d->rank_paths[d->nrank_paths++] = v;
    *r = (tc_diff_rank){&p->events_gone[i], "gone", 0, NULL, v, 0, n};
  }
  for (uint32_t i = 0; i < p->nevents_changed; i++, r++) {
    const tc_diff_event *e = &p->events_changed[i];
    *r = (tc_diff_rank){e, "changed", 0, e->args_new, e->args_gone, e->nargs_new, e->nargs_gone};
  }
  for (uint32_t i = 0; i < n; i++)
    d->ranked[i].change_size =
        change_size(d->ranked[i].event, d->ranked[i].npaths_new + d->ranked[i].npaths_gone);
  if (n > 1)
    qsort(d->ranked, n, sizeof *d->ranked, cmp_rank);
  p->ranked = d->ranked;
  p->nranked = n;
}

tc_err tc_diff_compute(const tc_diff_side *a, const tc_diff_side *b, const char *dir_a,
                       const char *dir_b, tc_diff **out) {
  *out = NULL;
  diff_impl *d = calloc(1, sizeof *d);
  if (!d)
    return TC_E_NOMEM;
  tc_diff *p = &d->pub;
  p->dir_a = dir_a;
  p->dir_b = dir_b;
  p->sites_total_a = a->sites_total;
  p->sites_total_b = b->sites_total;
  p->traces_a = a->traces;
  p->traces_b = b->traces;
  p->records_a = a->records;
  p->records_b = b->records;
  const char *set_why = NULL, *sites_why = NULL;
  compare_conditions(d, a, b, &set_why, &sites_why);
  mark_shared(d, a, b);
  /* Over the shared sites S and the set of sites no longer matter. */
  d->shared_basis = a->has_site_records && b->has_site_records;
  p->events_basis = d->shared_basis ? "shared_sites" : "whole_crawls";
  if (d->shared_basis && a->has_arg_site_records && b->has_arg_site_records) {
    d->paths_a = d->both_a;
    d->paths_b = d->both_b;
  }
  p->args_basis = d->paths_a ? "shared_sites" : "whole_crawls";
  if (!d->shared_basis)
    p->basis_why = !a->has_site_records && !b->has_site_records
                       ? "neither census.json has site_records (older outputs)"
                   : !a->has_site_records ? "A's census.json has no site_records (an older output)"
                                          : "B's census.json has no site_records (an older output)";
  p->metrics_why = sites_why;
  p->events_why = set_why;
  if (!d->shared_basis)
    join(d, &p->events_why, sites_why);
  else
    p->events_why = sites_why;
  compare_scope(d, a, b, &p->events_why);
  if (a->metrics && b->metrics)
    compare_options(d, a, b, &p->metrics_why);
  if (!a->metrics || !b->metrics)
    p->metrics_na = !a->metrics && !b->metrics ? "no metrics.json in A or B (--no-metrics runs)"
                    : !a->metrics                ? "no metrics.json in A (a --no-metrics run)"
                                                 : "no metrics.json in B (a --no-metrics run)";
  if (!d->oom)
    compare_events(d, a, b);
  if (!d->oom)
    rank_events(d, a, b);
  if (!d->oom && !p->metrics_na)
    compare_dists(d, a, b, p->metrics_why);
  for (uint32_t i = 0, j = 0; !d->oom && i < a->nsites && j < b->nsites;) {
    int c = tc_str_cmp(a->sites[i].name, b->sites[j].name);
    if (c == 0)
      compare_site(d, &a->sites[i], &b->sites[j]);
    i += c <= 0;
    j += c >= 0;
  }
  p->conditions = d->conds;
  p->sites_new = d->sites_new;
  p->sites_gone = d->sites_gone;
  p->sites = d->sites;
  p->changed = p->nconditions || p->nsites_new || p->nsites_gone || p->nevents_new ||
               p->nevents_gone || p->nevents_changed || p->nsites || (!p->metrics_na && dists_changed(p)) ||
               (!a->metrics != !b->metrics) || a->traces != b->traces || a->records != b->records;
  if (d->oom) {
    tc_diff_free(p);
    return TC_E_NOMEM;
  }
  *out = p;
  return TC_OK;
}

void tc_diff_free(tc_diff *p) {
  if (!p)
    return;
  diff_impl *d = (diff_impl *)p;
  for (uint32_t i = 0; i < p->nevents_changed; i++) {
    free(d->ev_changed[i].args_new);
    free(d->ev_changed[i].args_gone);
    free(d->ev_changed[i].undeclared_new);
    free(d->ev_changed[i].undeclared_gone);
    free(d->ev_changed[i].shifts);
  }
  for (size_t i = 0; i < d->nstrs; i++)
    free(d->strs[i]);
  free(d->strs);
  free(d->conds);
  free(d->sites_new);
  free(d->sites_gone);
  free(d->ev_new);
  free(d->ev_gone);
  free(d->ev_changed);
  free(d->sites);
  free(d->both_a);
  free(d->both_b);
  free(d->ranked);
  for (size_t i = 0; i < d->nrank_paths; i++)
    free(d->rank_paths[i]);
  free(d->rank_paths);
  free(d);
}
