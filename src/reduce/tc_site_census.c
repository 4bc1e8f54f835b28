#include "reduce/tc_site_census.h"
#include "reduce/tc_values.h"

#include <stdlib.h>
#include <string.h>

#include "util/tc_grow.h"
#include "util/tc_spill.h"

void tc_site_census_init(tc_site_census *s) {
  memset(s, 0, sizeof *s);
  tc_map_init(&s->strings);
}

void tc_site_census_free(tc_site_census *s) {
  if (!s)
    return;
  for (size_t i = 0; i < s->nevents; i++)
    tc_sketch_free(&s->events[i].dur);
  free(s->events);
  free(s->all_cats);
  free(s->all_args);
  tc_map_free(&s->strings);
  memset(s, 0, sizeof *s);
}

/* A category or argument path of one event, while counts are gathered. */
typedef struct {
  uint64_t records, sites;
  uint8_t types;
  uint32_t owner; /* event index */
  tc_str text;    /* the cat or path part of the key */
} sub_entry;

/* ---- one site out of the workers ---- */

/* Categories or paths as the workers hold them, one entry per worker's:
 * sorted by (event, text) and summed where workers share one, so no table
 * is needed to gather them, and each event's slice comes out in text
 * order. */
typedef struct {
  sub_entry *v;
  size_t n, cap;
} sub_list;

static tc_err list_add(sub_list *l, uint32_t ev, tc_str text, uint64_t records, uint8_t types) {
  tc_err e = TC_GROW(l->v, l->cap, l->n + 1);
  if (!e)
    l->v[l->n++] = (sub_entry){records, 0, types, ev, text};
  return e;
}

static int cmp_text(const void *a, const void *b) {
  return tc_str_cmp(((const sub_entry *)a)->text, ((const sub_entry *)b)->text);
}

/* Orders L by (event, text) and sums its duplicates in place: grouped by
 * event in one pass, then each event's few entries sorted. *N gets the
 * entries left. */
static tc_err list_gather(sub_list *l, size_t nevents, size_t *n) {
  *n = 0;
  if (!l->n)
    return TC_OK;
  size_t *at = calloc(nevents + 1, sizeof *at);
  sub_entry *by = malloc(l->n * sizeof *by);
  if (!at || !by) {
    free(at);
    free(by);
    return TC_E_NOMEM;
  }
  for (size_t i = 0; i < l->n; i++)
    at[l->v[i].owner + 1]++;
  for (size_t e = 0; e < nevents; e++)
    at[e + 1] += at[e];
  for (size_t i = 0; i < l->n; i++)
    by[at[l->v[i].owner]++] = l->v[i];
  size_t m = 0;
  for (size_t e = 0, from = 0; e < nevents; e++) {
    size_t to = at[e]; /* the scatter left each start at the next event's */
    qsort(by + from, to - from, sizeof *by, cmp_text);
    for (size_t i = from; i < to; i++) {
      if (i > from && tc_str_eq(l->v[m - 1].text, by[i].text)) {
        l->v[m - 1].records += by[i].records;
        l->v[m - 1].types |= by[i].types;
      } else {
        l->v[m++] = by[i];
      }
    }
    from = to;
  }
  free(at);
  free(by);
  *n = l->n = m;
  return TC_OK;
}

typedef struct {
  tc_site_census *s;
  size_t events_cap;
  tc_map ev_keys;            /* name -> event index, unless one_worker */
  int one_worker;
  const tc_example **best;   /* by event index */
  size_t best_cap;
  sub_list cats, args;       /* every worker's, texts borrowed from them */
  const tc_census_worker *w;
  const tc_site_acc *acc;
  uint32_t *ev_of_slot;      /* the worker's slot -> event index */
  size_t slots_cap;
  tc_err err;
} extract_ctx;

/* *EV of NAME, a new event on first sight. With one worker every slot is
 * a name of its own, so no table is needed to find names seen before;
 * the string is the worker's until extract_finish copies it. */
static tc_err event_of(extract_ctx *x, tc_str name, uint32_t *ev) {
  int inserted = 1;
  tc_err e = TC_OK;
  if (x->one_worker)
    *ev = (uint32_t)x->s->nevents;
  else if ((e = tc_map_intern(&x->ev_keys, name, ev, &inserted)) || !inserted)
    return e;
  if ((e = TC_GROW(x->s->events, x->events_cap, (size_t)*ev + 1)) ||
      (e = TC_GROW(x->best, x->best_cap, (size_t)*ev + 1)))
    return e;
  x->s->events[*ev].name = x->one_worker ? name : tc_map_key(&x->ev_keys, *ev);
  x->s->nevents = (size_t)*ev + 1;
  return TC_OK;
}

/* Every event's list as its slice of one array of ELEM-byte entries PUT
 * writes, sorted by CMP unless NULL. */
static tc_err event_slices(const sub_list *lists, size_t nevents, size_t elem, void **all,
                           void (*put)(void *dst, const sub_entry *src),
                           void (*set)(void *ev_arr, size_t ev, void *slice, uint32_t n),
                           void *ev_arr, int (*cmp)(const void *, const void *)) {
  size_t total = 0;
  for (size_t e = 0; e < nevents; e++)
    total += lists[e].n;
  char *arr = calloc(total ? total : 1, elem), *at = arr;
  if (!arr)
    return TC_E_NOMEM;
  for (size_t e = 0; e < nevents; e++) {
    for (size_t i = 0; i < lists[e].n; i++)
      put(at + i * elem, &lists[e].v[i]);
    if (cmp)
      qsort(at, lists[e].n, elem, cmp);
    set(ev_arr, e, at, (uint32_t)lists[e].n);
    at += lists[e].n * elem;
  }
  *all = arr;
  return TC_OK;
}

/* VIEW[e] (of NEVENTS): event e's run of L's gathered entries, borrowed. */
static void by_event(const sub_list *l, sub_list *view, size_t nevents) {
  size_t i = 0;
  for (size_t e = 0; e < nevents; e++) {
    size_t from = i;
    while (i < l->n && l->v[i].owner == e)
      i++;
    view[e] = (sub_list){l->v ? l->v + from : NULL, i - from, 0};
  }
}

static void extract_cat(void *ctx, uint64_t key, uint32_t slot) {
  extract_ctx *x = ctx;
  if (x->err)
    return;
  uint32_t ev = x->ev_of_slot[tc_imap_find(&x->acc->name_idx, key >> 32)];
  tc_str cat = tc_map_key(tc_census_cats(x->w), (uint32_t)key);
  x->err = list_add(&x->cats, ev, cat, x->acc->cat_counts[slot], 0);
}

static void extract_arg(void *ctx, uint64_t key, uint32_t slot) {
  extract_ctx *x = ctx;
  if (x->err)
    return;
  uint32_t ev = x->ev_of_slot[tc_imap_find(&x->acc->name_idx, key >> 32)];
  tc_str path = tc_parser_path(tc_census_parser(x->w), (uint32_t)key);
  x->err = list_add(&x->args, ev, path, x->acc->paths[slot].records, x->acc->paths[slot].types);
}

static tc_err extract_worker(extract_ctx *x, const tc_census_worker *w, const tc_site_acc *acc) {
  x->w = w;
  x->acc = acc;
  /* Room for every name this worker adds, at once: growing a big array by
   * doubling copies it again and again. */
  size_t most = x->s->nevents + acc->name_idx.count;
  tc_err e = TC_GROW(x->ev_of_slot, x->slots_cap, (size_t)acc->name_idx.count + 1);
  if (!e)
    e = tc_grow_to((void **)&x->s->events, &x->events_cap, most, sizeof *x->s->events);
  if (!e)
    e = tc_grow_to((void **)&x->best, &x->best_cap, most, sizeof *x->best);
  for (uint32_t slot = 0; !e && slot < acc->name_idx.count; slot++) {
    uint32_t ev;
    if ((e = event_of(x, tc_map_key(tc_census_names(w), acc->name_ids[slot]), &ev)))
      break;
    x->ev_of_slot[slot] = ev;
    tc_sc_event *se = &x->s->events[ev];
    const tc_name_counts *nc = &acc->names[slot];
    const tc_name_detail *d = &acc->detail[slot];
    for (int k = 0; k < TC_PH_COUNT; k++) {
      se->counts.ph[k] += nc->ph[k];
      se->counts.ph_args[k] += nc->ph_args[k];
    }
    for (int k = 0; k < TC_PAIR_COUNT; k++)
      se->counts.pairs[k] += nc->pairs[k];
    if ((e = tc_sketch_merge(&se->dur, &d->dur)))
      break;
    for (int k = 0; k < TC_DUR_NLIMITS; k++)
      se->dur_below[k] += d->dur_below[k];
    if (d->ex.have && (!x->best[ev] || tc_example_cmp(&d->ex, x->best[ev]) < 0))
      x->best[ev] = &d->ex;
  }
  if (!e) {
    tc_imap_each(&acc->cat_idx, extract_cat, x);
    tc_imap_each(&acc->path_idx, extract_arg, x);
    e = x->err;
  }
  return e;
}

static void put_cat(void *dst, const sub_entry *src) {
  *(tc_sc_cat *)dst = (tc_sc_cat){src->text, src->records};
}

static void put_arg(void *dst, const sub_entry *src) {
  *(tc_sc_arg *)dst = (tc_sc_arg){src->text, src->records, src->types};
}

static void set_cats(void *evs, size_t e, void *slice, uint32_t n) {
  ((tc_sc_event *)evs)[e].cats = slice;
  ((tc_sc_event *)evs)[e].ncats = n;
}

static void set_args(void *evs, size_t e, void *slice, uint32_t n) {
  ((tc_sc_event *)evs)[e].args = slice;
  ((tc_sc_event *)evs)[e].nargs = n;
}

static int cmp_sc_event(const void *a, const void *b) {
  return tc_str_cmp(((const tc_sc_event *)a)->name, ((const tc_sc_event *)b)->name);
}

/* A copy of *S owned by M (whose arena frees it with the map), for a
 * string that needs no id: no hashing, no lookup. */
static tc_err own(tc_map *m, tc_str *s) {
  char *copy = tc_arena_copy(&m->arena, *s);
  if (!copy)
    return TC_E_NOMEM;
  s->ptr = copy;
  return TC_OK;
}

static tc_err extract_finish(extract_ctx *x, uint32_t first_trace) {
  tc_site_census *s = x->s;
  void *all;
  tc_err e = list_gather(&x->cats, s->nevents, &s->ncats);
  if (!e)
    e = list_gather(&x->args, s->nevents, &s->nargs);
  sub_list *view = calloc(s->nevents ? s->nevents : 1, sizeof *view);
  if (!e && !view)
    e = TC_E_NOMEM;
  if (!e) {
    by_event(&x->cats, view, s->nevents);
    e = event_slices(view, s->nevents, sizeof(tc_sc_cat), &all, put_cat, set_cats, s->events,
                     NULL);
  }
  if (!e) {
    s->all_cats = all;
    by_event(&x->args, view, s->nevents);
    if (!(e = event_slices(view, s->nevents, sizeof(tc_sc_arg), &all, put_arg, set_args,
                           s->events, NULL)))
      s->all_args = all;
  }
  free(view);
  if (e)
    return e;
  for (size_t i = 0; !e && i < s->nevents; i++) {
    tc_sc_event *se = &s->events[i];
    e = own(&s->strings, &se->name);
    const tc_example *b = x->best[i];
    if (!e && b) {
      se->ex = (tc_sc_example){1, b->oversize, b->neg_paths, b->trace - first_trace, b->index,
                               {b->raw, b->len}};
      e = own(&s->strings, &se->ex.raw);
    }
  }
  for (size_t i = 0; !e && i < s->ncats; i++)
    e = own(&s->strings, &s->all_cats[i].text);
  for (size_t i = 0; !e && i < s->nargs; i++)
    e = own(&s->strings, &s->all_args[i].path);
  if (!e && s->nevents && s->nevents < x->events_cap) {
    /* The unit waits for the fold: no room left from doubling. */
    tc_sc_event *fit = realloc(s->events, s->nevents * sizeof *fit);
    if (fit)
      s->events = fit;
  }
  if (!e && s->nevents > 1) {
    /* Slices point into all_cats and all_args, so sorting the events keeps
     * each event's own. */
    qsort(s->events, s->nevents, sizeof *s->events, cmp_sc_event);
  }
  return e;
}

tc_err tc_site_census_extract(tc_census_worker *const *workers, size_t nw, uint32_t site,
                              uint32_t first_trace, tc_site_census *out) {
  extract_ctx x;
  memset(&x, 0, sizeof x);
  x.s = out;
  tc_map_init(&x.ev_keys);
  size_t with_site = 0;
  for (size_t k = 0; k < nw; k++)
    with_site += tc_census_site(workers[k], site) != NULL;
  x.one_worker = with_site == 1;
  tc_err e = TC_OK;
  for (size_t k = 0; k < nw && !e; k++) {
    const tc_site_acc *acc = tc_census_site(workers[k], site);
    if (acc)
      e = extract_worker(&x, workers[k], acc);
  }
  if (!e)
    e = extract_finish(&x, first_trace);
  tc_map_free(&x.ev_keys);
  free(x.cats.v);
  free(x.args.v);
  free(x.best);
  free(x.ev_of_slot);
  if (e)
    tc_site_census_free(out);
  return e;
}

/* ---- the corpus, one site at a time ---- */

/* One site's records of one event, kept until the fold ends, when the
 * events with most records are known (the heat map's columns): 16 bytes
 * per (site, event) pair the units held, written out with each site (one
 * spill record per site, util/tc_spill.h), so memory does not grow with
 * the sites folded. */
typedef struct {
  uint32_t site, event;
  uint64_t records;
} site_records;

struct tc_census_fold {
  tc_census_result r;
  site_records *recs;   /* the site being added */
  size_t nrecs, recs_cap;
  tc_spill spilled;     /* every site's recs, one record per site */
  uint32_t nsites;      /* highest site with records, + 1 */
  size_t events_cap;
  /* By event index: its categories and paths so far, ascending by text,
   * each site's sorted slice merged in as it comes (no table to look
   * texts up in); texts owned by `text`. */
  sub_list *cats, *args;
  size_t subs_cap;
  sub_list in, merged; /* scratch for one slice */
  tc_arena text;
  tc_example *best; /* by event index; raw owned */
  size_t best_cap;
  tc_vtab *values; /* the corpus's value profiles, from the first site's */
};

tc_err tc_census_fold_add_values(tc_census_fold *f, tc_vtab *site_values) {
  if (!f->values) {
    if (!(f->values = malloc(sizeof *f->values)))
      return TC_E_NOMEM;
    tc_vtab_init(f->values, site_values->flags, 0);
  }
  return tc_vtab_absorb(f->values, site_values);
}

tc_census_fold *tc_census_fold_create(void) {
  tc_census_fold *f = calloc(1, sizeof *f);
  if (!f)
    return NULL;
  tc_map_init(&f->r.strings);
  return f;
}

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
  if (f->values) {
    tc_vtab_free(f->values);
    free(f->values);
  }
  free(f->recs);
  tc_spill_free(&f->spilled);
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
 * site once. */
static tc_err fold_slice(tc_census_fold *f, sub_list *d) {
  const sub_entry *in = f->in.v;
  size_t n = f->in.n, i = 0, j = 0, k = 0;
  if (!n)
    return TC_OK;
  tc_err e = TC_GROW(f->merged.v, f->merged.cap, d->n + n);
  if (e)
    return e;
  sub_entry *out = f->merged.v;
  while (i < d->n || j < n) {
    int c = i == d->n ? 1 : j == n ? -1 : tc_str_cmp(d->v[i].text, in[j].text);
    if (c < 0) {
      out[k++] = d->v[i++];
      continue;
    }
    sub_entry x = c > 0 ? in[j] : d->v[i++];
    if (c > 0) {
      if (!(x.text.ptr = tc_arena_copy(&f->text, in[j].text)))
        return TC_E_NOMEM;
      x.sites = 0;
    } else {
      x.records += in[j].records;
      x.types |= in[j].types;
    }
    x.sites++;
    j++;
    out[k++] = x;
  }
  if (k > d->cap) {
    /* Most events have a few of each, seen on the first site: exact room,
     * then doubling. */
    size_t cap = d->cap ? (2 * d->cap > k ? 2 * d->cap : k) : k;
    sub_entry *v = realloc(d->v, cap * sizeof *v);
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
  for (size_t i = 0; !e && i < s->nevents; i++) {
    const tc_sc_event *se = &s->events[i];
    uint64_t recs = 0, pairs = 0;
    for (int k = 0; k < TC_PH_COUNT; k++)
      recs += se->counts.ph[k];
    for (int k = 0; k < TC_PAIR_COUNT; k++)
      pairs += se->counts.pairs[k];
    if (!recs && !pairs)
      continue;
    uint32_t ev;
    if ((e = fold_event_index(f, se->name, &ev)))
      break;
    tc_res_event *re = &f->r.events[ev];
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
      e = list_add(&f->in, ev, se->cats[c].text, se->cats[c].records, 0);
    if (!e)
      e = fold_slice(f, &f->cats[ev]);
    f->in.n = 0;
    for (uint32_t a = 0; !e && a < se->nargs; a++)
      e = list_add(&f->in, ev, se->args[a].path, se->args[a].records, se->args[a].types);
    if (!e)
      e = fold_slice(f, &f->args[ev]);
  }
  if (!e && f->nrecs) {
    e = tc_spill_append(&f->spilled, f->recs, f->nrecs * sizeof *f->recs);
    f->nsites = site + 1 > f->nsites ? site + 1 : f->nsites;
  }
  return e;
}

static void put_res_cat(void *dst, const sub_entry *src) {
  *(tc_res_cat *)dst = (tc_res_cat){src->text, src->records};
}

static void put_res_arg(void *dst, const sub_entry *src) {
  *(tc_res_arg *)dst = (tc_res_arg){src->text, src->records, src->sites, src->types, NULL};
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

/* The heat map's data (tc_census_result.top), from the kept per-site
 * records; R's events are sorted by name by now, the records' event
 * indexes still the fold's, so the top events are found again by name. */
static tc_err top_sites(tc_census_fold *f, tc_census_result *r, tc_str *names) {
  /* most records first, then by name: the order of categories */
  tc_res_cat *all = malloc((r->nevents ? r->nevents : 1) * sizeof *all);
  if (!all)
    return TC_E_NOMEM;
  for (size_t i = 0; i < r->nevents; i++)
    all[i] = (tc_res_cat){r->events[i].name, r->events[i].records};
  qsort(all, r->nevents, sizeof *all, cmp_cat);
  size_t k = r->nevents < TC_TOP_EVENTS ? r->nevents : TC_TOP_EVENTS;
  uint32_t nsites = f->nsites;
  /* column of each fold index, or k for none */
  size_t *col = malloc((r->nevents ? r->nevents : 1) * sizeof *col);
  uint64_t *cells = calloc((size_t)nsites * k ? (size_t)nsites * k : 1, sizeof *cells);
  uint32_t *top = malloc((k ? k : 1) * sizeof *top);
  tc_err e = TC_E_NOMEM;
  if (col && cells && top) {
    for (size_t i = 0; i < r->nevents; i++)
      col[i] = k;
    for (size_t t = 0; t < k; t++) {
      const tc_res_event *ev = bsearch(&all[t].cat, r->events, r->nevents, sizeof *r->events,
                                       cmp_name);
      top[t] = (uint32_t)(ev - r->events);
      for (size_t i = 0; i < r->nevents; i++)
        if (tc_str_eq(names[i], all[t].cat))
          col[i] = t;
    }
    /* The sites' records, read back one site at a time. */
    unsigned char *buf = NULL;
    size_t cap = 0, len;
    e = TC_OK;
    for (size_t s = 0; !e && s < tc_spill_count(&f->spilled); s++) {
      if ((e = tc_spill_read(&f->spilled, s, &buf, &cap, &len)))
        break;
      for (size_t i = 0; i < len / sizeof(site_records); i++) {
        site_records sr;
        memcpy(&sr, buf + i * sizeof sr, sizeof sr);
        if (col[sr.event] < k)
          cells[(size_t)sr.site * k + col[sr.event]] += sr.records;
      }
    }
    free(buf);
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

tc_err tc_census_fold_finish(tc_census_fold *f, tc_census_result *out) {
  tc_census_result *r = &f->r;
  void *all;
  tc_err e = event_slices(f->cats, r->nevents, sizeof(tc_res_cat), &all, put_res_cat,
                          set_res_cats, r->events, cmp_cat);
  if (!e) {
    r->all_cats = all;
    /* by path already, as tc_res_event.args asks */
    e = event_slices(f->args, r->nevents, sizeof(tc_res_arg), &all, put_res_arg, set_res_args,
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
      e = own(&r->strings, &re->example);
    }
    for (size_t c = 0; !e && c < re->ncats; c++)
      e = own(&r->strings, &re->cats[c].cat);
    for (size_t a = 0; !e && a < re->nargs; a++)
      e = own(&r->strings, &re->args[a].path);
  }
  /* the fold's event indexes name events until the sort below */
  tc_str *names = malloc((r->nevents ? r->nevents : 1) * sizeof *names);
  if (!e && !names)
    e = TC_E_NOMEM;
  for (size_t i = 0; !e && i < r->nevents; i++)
    names[i] = r->events[i].name;
  if (!e && r->nevents > 1)
    qsort(r->events, r->nevents, sizeof *r->events, cmp_event);
  if (!e)
    e = top_sites(f, r, names);
  free(names);
  if (!e) {
    *out = *r;
    memset(r, 0, sizeof *r);
    if (f->values)
      tc_census_take_values(out, f->values);
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
