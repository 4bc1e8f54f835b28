#include "reduce/tc_site_census.h"

#include <stdlib.h>
#include <string.h>

#include "reduce/tc_sublist.h"
#include "util/tc_grow.h"

void tc_site_census_init(tc_site_census *s) { memset(s, 0, sizeof *s); }

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

/* ---- one site out of the workers ---- */

static int cmp_text(const void *a, const void *b) {
  return tc_str_cmp(((const tc__sub_entry *)a)->text, ((const tc__sub_entry *)b)->text);
}

/* Categories or paths as the workers hold them (tc__sub_list), one entry
 * per worker's, are sorted by (event, text) and summed where workers share
 * one, so no table is needed to gather them, and each event's slice comes
 * out in text order. Orders L by (event, text) and sums its duplicates in place: grouped by
 * event in one pass, then each event's few entries sorted. *N gets the
 * entries left. */
static tc_err list_gather(tc__sub_list *l, size_t nevents, size_t *n) {
  *n = 0;
  if (!l->n)
    return TC_OK;
  size_t *at = calloc(nevents + 1, sizeof *at);
  tc__sub_entry *by = malloc(l->n * sizeof *by);
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
  tc__sub_list cats, args;       /* every worker's, texts borrowed from them */
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

/* VIEW[e] (of NEVENTS): event e's run of L's gathered entries, borrowed. */
static void by_event(const tc__sub_list *l, tc__sub_list *view, size_t nevents) {
  size_t i = 0;
  for (size_t e = 0; e < nevents; e++) {
    size_t from = i;
    while (i < l->n && l->v[i].owner == e)
      i++;
    view[e] = (tc__sub_list){l->v ? l->v + from : NULL, i - from, 0};
  }
}

static void extract_cat(void *ctx, uint64_t key, uint32_t slot) {
  extract_ctx *x = ctx;
  if (x->err)
    return;
  uint32_t ev = x->ev_of_slot[tc_imap_find(&x->acc->name_idx, key >> 32)];
  tc_str cat = tc_map_key(tc_census_cats(x->w), (uint32_t)key);
  x->err = tc__sub_add(&x->cats, ev, cat, x->acc->cat_counts[slot], 0);
}

static void extract_arg(void *ctx, uint64_t key, uint32_t slot) {
  extract_ctx *x = ctx;
  if (x->err)
    return;
  uint32_t ev = x->ev_of_slot[tc_imap_find(&x->acc->name_idx, key >> 32)];
  tc_str path = tc_parser_path(tc_census_parser(x->w), (uint32_t)key);
  x->err = tc__sub_add(&x->args, ev, path, x->acc->paths[slot].records, x->acc->paths[slot].types);
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

static void put_cat(void *dst, const tc__sub_entry *src) {
  *(tc_sc_cat *)dst = (tc_sc_cat){src->text, src->records};
}

static void put_arg(void *dst, const tc__sub_entry *src) {
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

static tc_err extract_finish(extract_ctx *x, uint32_t first_trace) {
  tc_site_census *s = x->s;
  void *all;
  tc_err e = list_gather(&x->cats, s->nevents, &s->ncats);
  if (!e)
    e = list_gather(&x->args, s->nevents, &s->nargs);
  tc__sub_list *view = calloc(s->nevents ? s->nevents : 1, sizeof *view);
  if (!e && !view)
    e = TC_E_NOMEM;
  if (!e) {
    by_event(&x->cats, view, s->nevents);
    e = tc__sub_slices(view, s->nevents, sizeof(tc_sc_cat), &all, put_cat, set_cats, s->events,
                     NULL);
  }
  if (!e) {
    s->all_cats = all;
    by_event(&x->args, view, s->nevents);
    if (!(e = tc__sub_slices(view, s->nevents, sizeof(tc_sc_arg), &all, put_arg, set_args,
                           s->events, NULL)))
      s->all_args = all;
  }
  free(view);
  if (e)
    return e;
  for (size_t i = 0; !e && i < s->nevents; i++) {
    tc_sc_event *se = &s->events[i];
    e = tc__sub_own(&s->strings, &se->name);
    const tc_example *b = x->best[i];
    if (!e && b) {
      se->ex = (tc_sc_example){1, b->oversize, b->neg_paths, b->trace - first_trace, b->index,
                               {b->raw, b->len}};
      e = tc__sub_own(&s->strings, &se->ex.raw);
    }
  }
  for (size_t i = 0; !e && i < s->ncats; i++)
    e = tc__sub_own(&s->strings, &s->all_cats[i].text);
  for (size_t i = 0; !e && i < s->nargs; i++)
    e = tc__sub_own(&s->strings, &s->all_args[i].path);
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

/* The records of ACC's names, left out for REASON, into their events. */
static tc_err add_left(extract_ctx *x, const tc_census_worker *w, const tc_site_acc *acc,
                       int reason) {
  for (uint32_t slot = 0; slot < acc->name_idx.count; slot++) {
    uint64_t recs = 0;
    for (int k = 0; k < TC_PH_COUNT; k++)
      recs += acc->names[slot].ph[k];
    uint32_t ev;
    tc_err e = event_of(x, tc_map_key(tc_census_names(w), acc->name_ids[slot]), &ev);
    if (e)
      return e;
    x->s->events[ev].left[reason] += recs;
  }
  return TC_OK;
}

/* One worker's tables of the site: the processes SCOPE keeps, added up
 * (one of them as it is), into *KEPT (NULL: none; *MERGED is then what the
 * caller frees), and the records of the others into their events' left
 * counts. */
static tc_err scope_worker(extract_ctx *x, const tc_census_worker *w, uint32_t site,
                           uint32_t first_trace, tc_scope_fn scope, void *ctx,
                           const tc_site_acc **kept, tc_site_acc **merged) {
  const tc_census_unit *u;
  size_t n = tc_census_site_units(w, site, &u);
  *kept = NULL;
  *merged = NULL;
  for (size_t i = 0; i < n; i++) {
    int why = scope ? scope(ctx, u[i].trace - first_trace, u[i].pid, tc_site_acc_records(u[i].acc))
                    : TC_SCOPE_KEEP;
    tc_err e = TC_OK;
    if (why != TC_SCOPE_KEEP) {
      e = add_left(x, w, u[i].acc, why);
    } else if (!*kept) {
      *kept = u[i].acc;
    } else {
      if (!*merged) {
        if (!(*merged = calloc(1, sizeof **merged)))
          return TC_E_NOMEM;
        e = tc_site_acc_absorb(*merged, *kept);
        *kept = *merged;
      }
      if (!e)
        e = tc_site_acc_absorb(*merged, u[i].acc);
    }
    if (e)
      return e;
  }
  return TC_OK;
}

/* Whether any process of SITE in W is left out (names then repeat across a
 * worker's tables, so the extraction needs its name table). */
static int any_left(const tc_census_worker *w, uint32_t site, uint32_t first_trace,
                    tc_scope_fn scope, void *ctx) {
  const tc_census_unit *u;
  size_t n = tc_census_site_units(w, site, &u);
  for (size_t i = 0; scope && i < n; i++)
    if (scope(ctx, u[i].trace - first_trace, u[i].pid, 0) != TC_SCOPE_KEEP)
      return 1;
  return 0;
}

tc_err tc_site_census_extract(tc_census_worker *const *workers, size_t nw, uint32_t site,
                              uint32_t first_trace, tc_scope_fn scope, void *ctx,
                              tc_site_census *out) {
  extract_ctx x;
  memset(&x, 0, sizeof x);
  x.s = out;
  tc_map_init(&x.ev_keys);
  size_t with_site = 0;
  int left = 0;
  for (size_t k = 0; k < nw; k++) {
    const tc_census_unit *u;
    with_site += tc_census_site_units(workers[k], site, &u) != 0;
    left |= any_left(workers[k], site, first_trace, scope, ctx);
  }
  x.one_worker = with_site == 1 && !left;
  /* The tables added up live until the end: the extraction borrows their
   * examples' bytes. */
  tc_site_acc **merged = calloc(nw ? nw : 1, sizeof *merged);
  tc_err e = merged ? TC_OK : TC_E_NOMEM;
  for (size_t k = 0; k < nw && !e; k++) {
    const tc_site_acc *acc;
    e = scope_worker(&x, workers[k], site, first_trace, scope, ctx, &acc, &merged[k]);
    if (!e && acc)
      e = extract_worker(&x, workers[k], acc);
  }
  if (!e)
    e = extract_finish(&x, first_trace);
  for (size_t k = 0; merged && k < nw; k++)
    tc_site_acc_free(merged[k]);
  free(merged);
  tc_map_free(&x.ev_keys);
  free(x.cats.v);
  free(x.args.v);
  free(x.best);
  free(x.ev_of_slot);
  if (e)
    tc_site_census_free(out);
  return e;
}
