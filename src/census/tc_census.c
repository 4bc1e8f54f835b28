#include "census/tc_census.h"

#include <stdlib.h>
#include <string.h>

#include "util/tc_sketch.h"
#include "util/tc_grow.h"
#include "util/tc_json_valid.h"

static const char *const scope_names[TC_SCOPE_COUNT_] = {"no-chrome-ui", "page", "all"};

const char *tc_scope_name(tc_census_scope s) {
  return (unsigned)s < TC_SCOPE_COUNT_ ? scope_names[s] : "unknown";
}

const char *tc_scope_text(tc_census_scope s) {
  switch (s) {
  case TC_SCOPE_NO_CHROME_UI:
    return "every process but the renderers of Chrome's own UI (chrome://, chrome-untrusted://, "
           "devtools://, chrome-extension://, chrome-search:// pages)";
  case TC_SCOPE_PAGE:
    return "the page under test's renderer and its iframes' renderers, with the browser, GPU and "
           "utility processes (Chrome's own UI, other tabs and spare renderers left out)";
  case TC_SCOPE_ALL:
    return "every record of every process the traces hold";
  case TC_SCOPE_COUNT_:
    break;
  }
  return "unknown";
}

int tc_scope_parse(const char *name, tc_census_scope *out) {
  for (int s = 0; s < TC_SCOPE_COUNT_; s++)
    if (strcmp(name, scope_names[s]) == 0) {
      *out = (tc_census_scope)s;
      return 0;
    }
  return -1;
}

const char *tc_left_name(int why) {
  return why == TC_LEFT_BROWSER_UI       ? "browser_ui"
         : why == TC_LEFT_OTHER_RENDERER ? "other_renderer"
                                         : "unknown";
}

/* Examples longer than this are kept only when nothing shorter exists. */
#define TC_EXAMPLE_PREFERRED 2048

/* A site's tables: one accumulator per (trace, process), so the site's
 * extraction can leave out the processes its scope does not count. */
typedef struct {
  tc_imap idx;         /* trace << 32 | the worker's process id -> unit */
  tc_census_unit *v;
  size_t n, cap;
} site_units;

struct tc_census_worker {
  tc_parser *parser; /* borrowed: name, category and path ids are its */
  uint32_t nsites;
  tc_map pids;       /* every pid met, as 8 bytes -> the worker's process id */
  /* The accumulator met last: the next event nearly always shares its
   * trace and process. */
  uint32_t last_site, last_trace;
  int64_t last_pid;
  tc_site_acc *last;
  site_units sites[]; /* by site index */
};

tc_census_worker *tc_census_worker_create(uint32_t nsites, tc_parser *parser) {
  tc_census_worker *w = calloc(1, sizeof *w + (size_t)nsites * sizeof *w->sites);
  if (!w)
    return NULL;
  w->parser = parser;
  w->nsites = nsites;
  return w;
}

void tc_site_acc_free(tc_site_acc *s) {
  if (!s)
    return;
  for (uint32_t i = 0; i < s->name_idx.count; i++) {
    tc_sketch_free(&s->detail[i].dur);
    free(s->detail[i].ex.raw);
  }
  tc_imap_free(&s->name_idx);
  free(s->names);
  free(s->detail);
  free(s->name_ids);
  tc_imap_free(&s->cat_idx);
  free(s->cat_counts);
  tc_imap_free(&s->path_idx);
  free(s->paths);
  free(s->slot_of);
  free(s->cat_last);
  free(s->path_last);
  free(s);
}

void tc_census_site_release(tc_census_worker *w, uint32_t site) {
  if (site >= w->nsites)
    return;
  site_units *u = &w->sites[site];
  for (size_t i = 0; i < u->n; i++)
    tc_site_acc_free(u->v[i].acc);
  free(u->v);
  tc_imap_free(&u->idx);
  memset(u, 0, sizeof *u);
  if (w->last_site == site)
    w->last = NULL;
}

void tc_census_worker_free(tc_census_worker *w) {
  if (!w)
    return;
  for (uint32_t s = 0; s < w->nsites; s++)
    tc_census_site_release(w, s);
  tc_map_free(&w->pids);
  free(w);
}

/* The accumulator of (SITE, TRACE, PID), made on first sight; NULL when out
 * of memory. */
static tc_site_acc *acc_of(tc_census_worker *w, uint32_t site, uint32_t trace, int64_t pid) {
  if (w->last && w->last_site == site && w->last_trace == trace && w->last_pid == pid)
    return w->last;
  uint32_t proc, unit;
  int inserted;
  if (tc_map_intern(&w->pids, (tc_str){(const char *)&pid, sizeof pid}, &proc, NULL))
    return NULL;
  site_units *u = &w->sites[site];
  if (tc_imap_intern(&u->idx, (uint64_t)trace << 32 | proc, &unit, &inserted))
    return NULL;
  if (inserted) {
    tc_site_acc *acc = calloc(1, sizeof *acc);
    if (!acc || TC_GROW(u->v, u->cap, u->n + 1)) {
      free(acc);
      return NULL;
    }
    u->v[u->n++] = (tc_census_unit){trace, pid, acc};
  }
  w->last_site = site;
  w->last_trace = trace;
  w->last_pid = pid;
  return w->last = u->v[unit].acc;
}

size_t tc_census_site_units(const tc_census_worker *w, uint32_t site, const tc_census_unit **out) {
  if (site >= w->nsites) {
    *out = NULL;
    return 0;
  }
  *out = w->sites[site].v;
  return w->sites[site].n;
}

/* The slot of name ID in site S, made if new. */
static tc_err site_slot(tc_site_acc *s, uint32_t id, uint32_t *out) {
  if (id < s->slot_of_cap && s->slot_of[id]) {
    *out = s->slot_of[id] - 1;
    return TC_OK;
  }
  uint32_t slot;
  int inserted;
  tc_err e = tc_imap_intern(&s->name_idx, id, &slot, &inserted);
  if (!e)
    e = TC_GROW(s->names, s->names_cap, (size_t)slot + 1);
  if (!e)
    e = TC_GROW(s->detail, s->detail_cap, (size_t)slot + 1);
  if (!e)
    e = TC_GROW(s->name_ids, s->ids_cap, (size_t)slot + 1);
  if (!e)
    e = TC_GROW(s->cat_last, s->cat_last_cap, (size_t)slot + 1);
  if (!e)
    e = TC_GROW(s->slot_of, s->slot_of_cap, (size_t)id + 1);
  if (e)
    return e;
  s->name_ids[slot] = id;
  s->slot_of[id] = slot + 1;
  *out = slot;
  return TC_OK;
}

/* Index of (name, category) in cat_counts; SLOT is the name's. */
static tc_err cat_index(tc_site_acc *s, uint32_t name, uint32_t slot, uint32_t cat,
                        uint32_t *out) {
  struct tc_cat_last *last = &s->cat_last[slot];
  if (last->cat1 == cat + 1) {
    *out = last->idx;
    return TC_OK;
  }
  uint32_t idx;
  int inserted;
  tc_err e = tc_imap_intern(&s->cat_idx, (uint64_t)name << 32 | cat, &idx, &inserted);
  if (!e)
    e = TC_GROW(s->cat_counts, s->cat_cap, (size_t)idx + 1);
  if (e)
    return e;
  *last = (struct tc_cat_last){cat + 1, idx};
  *out = idx;
  return TC_OK;
}

/* Index of (name, path) in paths. */
static tc_err path_index(tc_site_acc *s, uint32_t name, uint32_t path, uint32_t *out) {
  if (path < s->path_last_cap && s->path_last[path].name1 == name + 1) {
    *out = s->path_last[path].idx;
    return TC_OK;
  }
  uint32_t idx;
  int inserted;
  tc_err e = tc_imap_intern(&s->path_idx, (uint64_t)name << 32 | path, &idx, &inserted);
  if (!e)
    e = TC_GROW(s->paths, s->paths_cap, (size_t)idx + 1);
  if (!e)
    e = TC_GROW(s->path_last, s->path_last_cap, (size_t)path + 1);
  if (e)
    return e;
  s->path_last[path] = (struct tc_path_last){name + 1, idx};
  *out = idx;
  return TC_OK;
}

const tc_name_counts *tc_site_name(const tc_site_acc *s, uint32_t name_id) {
  uint32_t slot = tc_imap_find(&s->name_idx, name_id);
  return slot == UINT32_MAX ? NULL : &s->names[slot];
}

int tc_example_cmp(const tc_example *a, const tc_example *b) {
  if (a->have != b->have)
    return a->have ? -1 : 1;
#define TC_CMP_FIELD(f)                                                        \
  if (a->f != b->f)                                                            \
    return a->f < b->f ? -1 : 1;
  TC_CMP_FIELD(oversize)
  TC_CMP_FIELD(neg_paths)
  TC_CMP_FIELD(site)
  TC_CMP_FIELD(trace)
  TC_CMP_FIELD(index)
#undef TC_CMP_FIELD
  return 0;
}

static tc_err offer_example(tc_name_detail *d, tc_origin o, const tc_chunk *c, uint32_t i,
                            const tc_event *ev) {
  const tc_chunk_event *ce = &c->events[i];
  size_t len = ce->end - ce->start;
  tc_example cand = {1, len > TC_EXAMPLE_PREFERRED, UINT32_MAX - ev->npres,
                     o.site, o.trace, ce->index, NULL, len};
  tc_example *cur = &d->ex;
  if (tc_example_cmp(&cand, cur) >= 0)
    return TC_OK;
  /* The parser skips values it does not read: only bytes that are JSON
   * through and through, and within the bounds every reader of reports
   * takes, may become the example that reports copy out. */
  if (!tc_json_example_ok((tc_str){c->buf + ce->start, len}))
    return TC_OK;
  char *raw = malloc(len);
  if (!raw)
    return TC_E_NOMEM;
  memcpy(raw, c->buf + ce->start, len);
  free(cur->raw);
  cand.raw = raw;
  *cur = cand;
  return TC_OK;
}

static tc_err add_event(tc_site_acc *s, tc_origin o, const tc_chunk *c,
                        uint32_t i, const tc_parsed *p) {
  const tc_event *ev = &p->events[i];
  uint32_t id = ev->name_id, slot;
  tc_err e = site_slot(s, id, &slot);
  if (e)
    return e;
  tc_name_counts *nc = &s->names[slot];
  tc_name_detail *d = &s->detail[slot];
  int phase = tc_phase_index(ev->ph);
  nc->ph[phase]++;
  nc->ph_args[phase] += ev->npres > 0;

  uint32_t idx;
  if ((e = cat_index(s, id, slot, ev->cat_id, &idx)))
    return e;
  s->cat_counts[idx]++;

  if (ev->flags & TC_EV_HAS_DUR) {
    if ((e = tc_sketch_add(&d->dur, ev->dur)))
      return e;
    for (int k = 0; k < TC_DUR_NLIMITS; k++)
      d->dur_below[k] += ev->dur < TC_DUR_LIMITS[k];
  }

  for (uint32_t k = 0; k < ev->npres; k++) {
    const tc_presence *pr = &p->pres[ev->pres_begin + k];
    if ((e = path_index(s, id, pr->path, &idx)))
      return e;
    s->paths[idx].records++;
    s->paths[idx].types |= pr->types;
  }

  return offer_example(d, o, c, i, ev);
}

tc_err tc_census_add_chunk(tc_census_worker *w, tc_origin o, const tc_chunk *c,
                           const tc_parsed *p) {
  for (uint32_t i = 0; i < p->nevents; i++) {
    const tc_event *ev = &p->events[i];
    if (ev->err)
      continue;
    tc_site_acc *s = acc_of(w, o.site, o.trace, (ev->flags & TC_EV_HAS_PID) ? ev->pid : TC_NO_ID);
    if (!s)
      return TC_E_NOMEM;
    tc_err e = add_event(s, o, c, i, p);
    if (e)
      return e;
  }
  return TC_OK;
}

tc_err tc_census_add_pairs(tc_census_worker *w, uint32_t site, uint32_t trace, int64_t pid,
                           tc_str name, const uint64_t pairs[TC_PAIR_COUNT]) {
  tc_site_acc *s = acc_of(w, site, trace, pid);
  if (!s)
    return TC_E_NOMEM;
  uint32_t id, slot;
  tc_err e = tc_parser_name_id(w->parser, name, &id);
  if (e || (e = site_slot(s, id, &slot)))
    return e;
  for (int k = 0; k < TC_PAIR_COUNT; k++)
    s->names[slot].pairs[k] += pairs[k];
  return TC_OK;
}

const tc_map *tc_census_names(const tc_census_worker *w) { return tc_parser_names(w->parser); }
const tc_map *tc_census_cats(const tc_census_worker *w) { return tc_parser_cats(w->parser); }
const tc_parser *tc_census_parser(const tc_census_worker *w) { return w->parser; }


/* ---- one worker's accumulators added up ---- */

typedef struct {
  tc_site_acc *dst;
  const tc_site_acc *src;
  tc_err err;
} absorb_ctx;

static void absorb_cat(void *ctx, uint64_t key, uint32_t idx) {
  absorb_ctx *a = ctx;
  uint32_t d;
  if (a->err || (a->err = tc_imap_intern(&a->dst->cat_idx, key, &d, NULL)) ||
      (a->err = TC_GROW(a->dst->cat_counts, a->dst->cat_cap, (size_t)d + 1)))
    return;
  a->dst->cat_counts[d] += a->src->cat_counts[idx];
}

static void absorb_path(void *ctx, uint64_t key, uint32_t idx) {
  absorb_ctx *a = ctx;
  uint32_t d;
  if (a->err || (a->err = tc_imap_intern(&a->dst->path_idx, key, &d, NULL)) ||
      (a->err = TC_GROW(a->dst->paths, a->dst->paths_cap, (size_t)d + 1)))
    return;
  a->dst->paths[d].records += a->src->paths[idx].records;
  a->dst->paths[d].types |= a->src->paths[idx].types;
}

tc_err tc_site_acc_absorb(tc_site_acc *dst, const tc_site_acc *src) {
  for (uint32_t slot = 0; slot < src->name_idx.count; slot++) {
    uint32_t d;
    tc_err e = site_slot(dst, src->name_ids[slot], &d);
    if (e)
      return e;
    const tc_name_counts *nc = &src->names[slot];
    tc_name_counts *to = &dst->names[d];
    for (int k = 0; k < TC_PH_COUNT; k++) {
      to->ph[k] += nc->ph[k];
      to->ph_args[k] += nc->ph_args[k];
    }
    for (int k = 0; k < TC_PAIR_COUNT; k++)
      to->pairs[k] += nc->pairs[k];
    const tc_name_detail *sd = &src->detail[slot];
    tc_name_detail *dd = &dst->detail[d];
    if ((e = tc_sketch_merge(&dd->dur, &sd->dur)))
      return e;
    for (int k = 0; k < TC_DUR_NLIMITS; k++)
      dd->dur_below[k] += sd->dur_below[k];
    if (sd->ex.have && tc_example_cmp(&sd->ex, &dd->ex) < 0) {
      char *raw = malloc(sd->ex.len ? sd->ex.len : 1);
      if (!raw)
        return TC_E_NOMEM;
      memcpy(raw, sd->ex.raw, sd->ex.len);
      free(dd->ex.raw);
      dd->ex = sd->ex;
      dd->ex.raw = raw;
    }
  }
  absorb_ctx a = {dst, src, TC_OK};
  tc_imap_each(&src->cat_idx, absorb_cat, &a);
  tc_imap_each(&src->path_idx, absorb_path, &a);
  return a.err;
}

uint64_t tc_site_acc_records(const tc_site_acc *s) {
  uint64_t n = 0;
  for (uint32_t slot = 0; slot < s->name_idx.count; slot++)
    for (int k = 0; k < TC_PH_COUNT; k++)
      n += s->names[slot].ph[k];
  return n;
}
