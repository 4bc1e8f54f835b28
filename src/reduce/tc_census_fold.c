#include "reduce/tc_census_fold.h"

#include <stdlib.h>
#include <string.h>

#include "reduce/tc_site_lists.h"
#include "reduce/tc_sublist.h"
#include "util/tc_grow.h"
#include "util/tc_spill.h"

/* One site's records of one event, kept until the fold ends, when the
 * events with most records are known (the heat map's columns) and each
 * event's records per site are gathered (tc_res_event.site_recs): 16 bytes
 * per (site, event) pair the units held, written out with each site (one
 * spill record per site, util/tc_spill.h), so memory does not grow with
 * the sites folded. */
typedef struct {
  uint32_t site, event;
  uint64_t records;
} site_records;

/* One site's records of one arg path of one event, kept the same way for
 * each path's records per site (tc_res_arg.site_recs): the path is the
 * fold's own copy of its text, alive until the fold is freed. */
typedef struct {
  uint32_t site, event;
  uint64_t records;
  const char *path;
  size_t len;
} path_records;

struct tc_census_fold {
  tc_census_result r;
  site_records *recs;   /* the site being added */
  size_t nrecs, recs_cap;
  tc_spill spilled;     /* every site's recs, one record per site */
  path_records *paths;  /* the site being added */
  size_t npaths, paths_cap;
  tc_spill paths_spilled; /* every site's paths, one record per site */
  uint32_t nsites;      /* highest site with records, + 1 */
  size_t events_cap;
  /* By event index: its categories and paths so far, ascending by text,
   * each site's sorted slice merged in as it comes (no table to look
   * texts up in); texts owned by `text`. */
  tc__sub_list *cats, *args;
  size_t subs_cap;
  tc__sub_list in, merged; /* scratch for one slice */
  tc_arena text;
  tc_example *best; /* by event index; raw owned */
  size_t best_cap;
  tc_vtab *values; /* the corpus's value profiles, from the first site's */
};

tc_err tc_census_fold_add_values(tc_census_fold *f, tc_vtab *site_values) {
  if (!f->values && !(f->values = tc_vtab_new(site_values->flags, 0)))
    return TC_E_NOMEM;
  return tc_vtab_absorb(f->values, site_values);
}

tc_census_fold *tc_census_fold_create(void) { return calloc(1, sizeof(tc_census_fold)); }

void tc_census_fold_free(tc_census_fold *f) {
  if (!f)
    return;
  for (size_t i = 0; i < f->r.nevents; i++)
    free(f->best[i].raw);
  free(f->best);
  for (size_t i = 0; i < f->subs_cap; i++) {
    free(f->cats[i].v);
    free(f->args[i].v);
  }
  free(f->cats);
  free(f->args);
  free(f->in.v);
  free(f->merged.v);
  tc_arena_free(&f->text);
  tc_vtab_destroy(f->values);
  free(f->recs);
  tc_spill_free(&f->spilled);
  free(f->paths);
  tc_spill_free(&f->paths_spilled);
  tc_census_result_free(&f->r);
  free(f);
}

/* Room for MOST events: the first site's all at once, then by half (see
 * extract_worker and tc_grow_to); the four arrays grow alike. */
static tc_err fold_reserve(tc_census_fold *f, size_t most) {
  size_t subs_cap = f->subs_cap;
  tc_err e = TC_OK;
  if (most > f->events_cap)
    e = tc_grow_to((void **)&f->r.events, &f->events_cap, most, sizeof *f->r.events);
  if (!e && most > f->best_cap)
    e = tc_grow_to((void **)&f->best, &f->best_cap, most, sizeof *f->best);
  if (!e && most > f->subs_cap &&
      !(e = tc_grow_to((void **)&f->cats, &subs_cap, most, sizeof *f->cats)))
    e = tc_grow_to((void **)&f->args, &f->subs_cap, most, sizeof *f->args);
  return e;
}

static tc_err fold_event_index(tc_census_fold *f, tc_str name, uint32_t *idx) {
  int inserted;
  tc_err e = tc_map_intern(&f->r.strings, name, idx, &inserted);
  if (e || !inserted)
    return e;
  /* strings holds names only until the end, so id == event index */
  if ((e = fold_reserve(f, (size_t)*idx + 1)))
    return e;
  f->r.events[*idx].name = tc_map_key(&f->r.strings, *idx);
  tc_sketch_init(&f->r.events[*idx].dur);
  f->r.nevents = (size_t)*idx + 1;
  return TC_OK;
}

static tc_err fold_example(tc_census_fold *f, uint32_t ev, uint32_t site, const tc_sc_example *x) {
  tc_example cand = {1, x->oversize, x->neg_paths, site, x->trace, x->index, NULL, x->raw.len};
  tc_example *cur = &f->best[ev];
  if (tc_example_cmp(&cand, cur) >= 0)
    return TC_OK;
  cand.raw = malloc(x->raw.len ? x->raw.len : 1);
  if (!cand.raw)
    return TC_E_NOMEM;
  memcpy(cand.raw, x->raw.ptr, x->raw.len);
  free(cur->raw);
  *cur = cand;
  return TC_OK;
}

/* D += the slice in f->in (one site's, ascending by text, as D is): texts
 * new to D are copied into the fold's arena, and each entry counts the
 * site once. Each entry of f->in is left pointing at D's copy of its text. */
static tc_err fold_slice(tc_census_fold *f, tc__sub_list *d) {
  tc__sub_entry *in = f->in.v;
  size_t n = f->in.n, i = 0, j = 0, k = 0;
  if (!n)
    return TC_OK;
  tc_err e = TC_GROW(f->merged.v, f->merged.cap, d->n + n);
  if (e)
    return e;
  tc__sub_entry *out = f->merged.v;
  while (i < d->n || j < n) {
    int c = i == d->n ? 1 : j == n ? -1 : tc_str_cmp(d->v[i].text, in[j].text);
    if (c < 0) {
      out[k++] = d->v[i++];
      continue;
    }
    tc__sub_entry x = c > 0 ? in[j] : d->v[i++];
    if (c > 0) {
      if (!(x.text.ptr = tc_arena_copy(&f->text, in[j].text)))
        return TC_E_NOMEM;
      x.sites = 0;
    } else {
      x.records += in[j].records;
      x.types |= in[j].types;
    }
    x.sites++;
    in[j++].text = x.text;
    out[k++] = x;
  }
  if (k > d->cap) {
    /* Most events have a few of each, seen on the first site: exact room,
     * then doubling. */
    size_t cap = d->cap ? (2 * d->cap > k ? 2 * d->cap : k) : k;
    tc__sub_entry *v = realloc(d->v, cap * sizeof *v);
    if (!v)
      return TC_E_NOMEM;
    d->v = v;
    d->cap = cap;
  }
  memcpy(d->v, out, k * sizeof *out);
  d->n = k;
  return TC_OK;
}

tc_err tc_census_fold_add(tc_census_fold *f, uint32_t site, const tc_site_census *s) {
  tc_err e = f->r.nevents ? TC_OK : fold_reserve(f, s->nevents);
  f->nrecs = 0;
  f->npaths = 0;
  for (size_t i = 0; !e && i < s->nevents; i++) {
    const tc_sc_event *se = &s->events[i];
    uint64_t recs = 0, pairs = 0, left = 0;
    for (int k = 0; k < TC_PH_COUNT; k++)
      recs += se->counts.ph[k];
    for (int k = 0; k < TC_PAIR_COUNT; k++)
      pairs += se->counts.pairs[k];
    for (int k = 0; k < TC_LEFT_COUNT; k++)
      left += se->left[k];
    if (!recs && !pairs && !left)
      continue;
    uint32_t ev;
    if ((e = fold_event_index(f, se->name, &ev)))
      break;
    tc_res_event *re = &f->r.events[ev];
    for (int k = 0; k < TC_LEFT_COUNT; k++) {
      re->left[k] += se->left[k];
      re->left_sites[k] += se->left[k] > 0;
      f->r.left[k] += se->left[k];
    }
    for (int k = 0; k < TC_PH_COUNT; k++) {
      re->ph[k] += se->counts.ph[k];
      re->ph_args[k] += se->counts.ph_args[k];
    }
    for (int k = 0; k < TC_PAIR_COUNT; k++)
      re->pairs[k] += se->counts.pairs[k];
    re->records += recs;
    re->sites += recs > 0;
    f->r.records += recs;
    if (recs) {
      if ((e = TC_GROW(f->recs, f->recs_cap, f->nrecs + 1)))
        break;
      f->recs[f->nrecs++] = (site_records){site, ev, recs};
    }
    if ((e = tc_sketch_merge(&re->dur, &se->dur)))
      break;
    for (int k = 0; k < TC_DUR_NLIMITS; k++)
      re->dur_below[k] += se->dur_below[k];
    if (se->ex.have && (e = fold_example(f, ev, site, &se->ex)))
      break;
    f->in.n = 0;
    for (uint32_t c = 0; !e && c < se->ncats; c++)
      e = tc__sub_add(&f->in, ev, se->cats[c].text, se->cats[c].records, 0);
    if (!e)
      e = fold_slice(f, &f->cats[ev]);
    f->in.n = 0;
    for (uint32_t a = 0; !e && a < se->nargs; a++)
      e = tc__sub_add(&f->in, ev, se->args[a].path, se->args[a].records, se->args[a].types);
    if (!e)
      e = fold_slice(f, &f->args[ev]);
    if (!e && f->in.n)
      e = TC_GROW(f->paths, f->paths_cap, f->npaths + f->in.n);
    for (size_t a = 0; !e && a < f->in.n; a++)
      f->paths[f->npaths++] =
          (path_records){site, ev, f->in.v[a].records, f->in.v[a].text.ptr, f->in.v[a].text.len};
  }
  if (!e && f->nrecs) {
    e = tc_spill_append(&f->spilled, f->recs, f->nrecs * sizeof *f->recs);
    f->nsites = site + 1 > f->nsites ? site + 1 : f->nsites;
  }
  if (!e && f->npaths)
    e = tc_spill_append(&f->paths_spilled, f->paths, f->npaths * sizeof *f->paths);
  return e;
}

/* Each of R's arg paths gets its profile from T (R owns T from here). */
static void take_values(tc_census_result *r, tc_vtab *t) {
  r->values = t;
  for (size_t i = 0; i < r->nevents; i++) {
    tc_res_event *re = &r->events[i];
    for (size_t a = 0; a < re->nargs; a++)
      re->args[a].values = tc_vtab_find(t, re->name, re->args[a].path);
  }
}

static void put_res_cat(void *dst, const tc__sub_entry *src) {
  *(tc_res_cat *)dst = (tc_res_cat){src->text, src->records};
}

static void put_res_arg(void *dst, const tc__sub_entry *src) {
  *(tc_res_arg *)dst = (tc_res_arg){
      .path = src->text, .records = src->records, .sites = src->sites, .types = src->types};
}

static void set_res_cats(void *evs, size_t e, void *slice, uint32_t n) {
  ((tc_res_event *)evs)[e].cats = slice;
  ((tc_res_event *)evs)[e].ncats = n;
}

static void set_res_args(void *evs, size_t e, void *slice, uint32_t n) {
  ((tc_res_event *)evs)[e].args = slice;
  ((tc_res_event *)evs)[e].nargs = n;
}

static int cmp_cat(const void *a, const void *b) {
  const tc_res_cat *x = a, *y = b;
  if (x->records != y->records)
    return x->records > y->records ? -1 : 1;
  return tc_str_cmp(x->cat, y->cat);
}

static int cmp_event(const void *a, const void *b) {
  return tc_str_cmp(((const tc_res_event *)a)->name, ((const tc_res_event *)b)->name);
}

static int cmp_name(const void *key, const void *ev) {
  return tc_str_cmp(*(const tc_str *)key, ((const tc_res_event *)ev)->name);
}

/* The heat map's cells: site x column, K columns; COL maps a fold index to
 * its column, or K for none. */
typedef struct {
  const size_t *col;
  uint64_t *cells;
  size_t k;
} top_cells;

static void add_top_cell(void *ctx, const void *rec) {
  const site_records *sr = rec;
  top_cells *t = ctx;
  if (t->col[sr->event] < t->k)
    t->cells[(size_t)sr->site * t->k + t->col[sr->event]] += sr->records;
}

/* The heat map's data (tc_census_result.top), from the kept per-site
 * records; R's events are sorted by name by now, the records' event
 * indexes still the fold's, so the top events are found again by name. */
static tc_err top_sites(tc_census_fold *f, tc_census_result *r, const tc_str *names,
                        size_t nnames) {
  /* most records first, then by name: the order of categories */
  tc_res_cat *all = malloc((r->nevents ? r->nevents : 1) * sizeof *all);
  if (!all)
    return TC_E_NOMEM;
  for (size_t i = 0; i < r->nevents; i++)
    all[i] = (tc_res_cat){r->events[i].name, r->events[i].records};
  qsort(all, r->nevents, sizeof *all, cmp_cat);
  size_t k = r->nevents < TC_TOP_EVENTS ? r->nevents : TC_TOP_EVENTS;
  uint32_t nsites = f->nsites;
  /* column of each fold index (NNAMES of them), or k for none */
  size_t *col = malloc((nnames ? nnames : 1) * sizeof *col);
  uint64_t *cells = calloc((size_t)nsites * k ? (size_t)nsites * k : 1, sizeof *cells);
  uint32_t *top = malloc((k ? k : 1) * sizeof *top);
  tc_err e = TC_E_NOMEM;
  if (col && cells && top) {
    for (size_t i = 0; i < nnames; i++)
      col[i] = k;
    for (size_t t = 0; t < k; t++) {
      const tc_res_event *ev = bsearch(&all[t].cat, r->events, r->nevents, sizeof *r->events,
                                       cmp_name);
      top[t] = (uint32_t)(ev - r->events);
      for (size_t i = 0; i < nnames; i++)
        if (tc_str_eq(names[i], all[t].cat))
          col[i] = t;
    }
    top_cells tc = {col, cells, k};
    e = tc__each_spilled(&f->spilled, sizeof(site_records), add_top_cell, &tc);
  }
  if (!e && col && cells && top) {
    r->top = top;
    r->ntop = k;
    r->nsites = nsites;
    r->site_records = cells;
    top = NULL;
    cells = NULL;
  }
  free(top);
  free(cells);
  free(col);
  free(all);
  return e;
}

/* Where a spilled record's site list is: AT maps the fold's event indexes
 * to R's (R->nevents for an event not in R's list). */
typedef struct {
  tc_census_result *r;
  const size_t *at;
  size_t nnames;
} slots;

static size_t event_slot(void *ctx, const void *rec, tc_res_site *out) {
  const slots *sl = ctx;
  const site_records *sr = rec;
  *out = (tc_res_site){sr->site, sr->records};
  return sr->event < sl->nnames ? sl->at[sr->event] : sl->r->nevents;
}

static int cmp_arg_path(const void *key, const void *arg) {
  return tc_str_cmp(*(const tc_str *)key, ((const tc_res_arg *)arg)->path);
}

/* A path's list is its index in R's all_args. */
static size_t path_slot(void *ctx, const void *rec, tc_res_site *out) {
  const slots *sl = ctx;
  const path_records *pr = rec;
  size_t ev = pr->event < sl->nnames ? sl->at[pr->event] : sl->r->nevents;
  if (ev == sl->r->nevents)
    return SIZE_MAX;
  const tc_res_event *re = &sl->r->events[ev];
  tc_str path = {pr->path, pr->len};
  const tc_res_arg *a = re->nargs ? bsearch(&path, re->args, re->nargs, sizeof *re->args,
                                            cmp_arg_path) : NULL;
  *out = (tc_res_site){pr->site, pr->records};
  return a ? (size_t)(a - sl->r->all_args) : SIZE_MAX;
}

/* Each event's and each of its arg paths' records per site
 * (tc_res_event.site_recs, tc_res_arg.site_recs), from the kept per-site
 * records. R's events are final (sorted, the outside ones split off);
 * NAMES maps the records' fold indexes to names, as in top_sites. */
static tc_err site_lists(tc_census_fold *f, tc_census_result *r, const tc_str *names,
                         size_t nnames) {
  size_t *at = malloc((nnames ? nnames : 1) * sizeof *at);
  size_t nargs = 0;
  for (size_t i = 0; i < r->nevents; i++)
    nargs += r->events[i].nargs;
  for (size_t i = 0; i < r->noutside; i++)
    nargs += r->outside[i].nargs;
  size_t *off = malloc(((r->nevents > nargs ? r->nevents : nargs) + 1) * sizeof *off);
  tc_err e = at && off ? TC_OK : TC_E_NOMEM;
  for (size_t i = 0; !e && i < nnames; i++) {
    const tc_res_event *ev = r->nevents ? bsearch(&names[i], r->events, r->nevents,
                                                  sizeof *r->events, cmp_name) : NULL;
    at[i] = ev ? (size_t)(ev - r->events) : r->nevents;
  }
  slots sl = {r, at, nnames};
  if (!e)
    e = tc__site_lists(&f->spilled, sizeof(site_records), r->nevents, event_slot, &sl,
                       &r->all_sites, off);
  for (size_t i = 0; !e && i < r->nevents; i++) {
    r->events[i].site_recs = r->all_sites + off[i];
    r->events[i].nsite_recs = off[i + 1] - off[i];
  }
  /* all_args holds every event's paths, the outside events' too. */
  if (!e)
    e = tc__site_lists(&f->paths_spilled, sizeof(path_records), nargs, path_slot, &sl,
                       &r->all_arg_sites, off);
  for (size_t k = 0; !e && k < nargs; k++) {
    r->all_args[k].site_recs = r->all_arg_sites + off[k];
    r->all_args[k].nsite_recs = off[k + 1] - off[k];
  }
  free(off);
  free(at);
  return e;
}

/* Whether the scope counts anything of EV: a record or a pair. */
static int counted(const tc_res_event *ev) {
  int any = ev->records != 0;
  for (int k = 0; k < TC_PAIR_COUNT; k++)
    any |= ev->pairs[k] != 0;
  return any;
}

/* Moves the events the scope left out whole from R's events to its
 * outside list, both staying in name order. */
static tc_err split_outside(tc_census_result *r) {
  size_t n = 0;
  for (size_t i = 0; i < r->nevents; i++)
    n += !counted(&r->events[i]);
  if (!n)
    return TC_OK;
  if (!(r->outside = malloc(n * sizeof *r->outside)))
    return TC_E_NOMEM;
  size_t kept = 0;
  for (size_t i = 0; i < r->nevents; i++) {
    tc_res_event *ev = &r->events[i];
    if (counted(ev)) {
      r->events[kept++] = *ev;
    } else {
      tc_sketch_free(&ev->dur);
      r->outside[r->noutside++] = *ev;
    }
  }
  r->nevents = kept;
  return TC_OK;
}

tc_err tc_census_fold_finish(tc_census_fold *f, tc_census_result *out) {
  tc_census_result *r = &f->r;
  void *all;
  tc_err e = tc__sub_slices(f->cats, r->nevents, sizeof(tc_res_cat), &all, put_res_cat,
                          set_res_cats, r->events, cmp_cat);
  if (!e) {
    r->all_cats = all;
    /* by path already, as tc_res_event.args asks */
    e = tc__sub_slices(f->args, r->nevents, sizeof(tc_res_arg), &all, put_res_arg, set_res_args,
                     r->events, NULL);
    if (!e)
      r->all_args = all;
  }
  /* Examples, category and path texts move into the result's own strings,
   * since the fold's tables die here. */
  for (size_t i = 0; !e && i < r->nevents; i++) {
    tc_res_event *re = &r->events[i];
    if (f->best[i].have) {
      re->example = (tc_str){f->best[i].raw, f->best[i].len};
      e = tc__sub_own(&r->strings, &re->example);
    }
    for (size_t c = 0; !e && c < re->ncats; c++)
      e = tc__sub_own(&r->strings, &re->cats[c].cat);
    for (size_t a = 0; !e && a < re->nargs; a++)
      e = tc__sub_own(&r->strings, &re->args[a].path);
  }
  /* the fold's event indexes name events until the sort below */
  tc_str *names = malloc((r->nevents ? r->nevents : 1) * sizeof *names);
  if (!e && !names)
    e = TC_E_NOMEM;
  for (size_t i = 0; !e && i < r->nevents; i++)
    names[i] = r->events[i].name;
  size_t nnames = r->nevents;
  if (!e && r->nevents > 1)
    qsort(r->events, r->nevents, sizeof *r->events, cmp_event);
  if (!e)
    e = split_outside(r);
  if (!e)
    e = top_sites(f, r, names, nnames);
  if (!e)
    e = site_lists(f, r, names, nnames);
  free(names);
  if (!e) {
    *out = *r;
    memset(r, 0, sizeof *r);
    if (f->values)
      take_values(out, f->values);
    f->values = NULL;
  } else {
    memset(out, 0, sizeof *out);
  }
  size_t nbest = f->best_cap;
  for (size_t i = 0; i < nbest; i++)
    free(f->best[i].raw);
  free(f->best);
  f->best = NULL;
  f->best_cap = 0;
  tc_census_fold_free(f);
  return e;
}
