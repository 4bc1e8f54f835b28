#include "census/tc_census.h"

#include <stdlib.h>
#include <string.h>

#include "util/tc_sketch.h"
#include "util/tc_grow.h"
#include "util/tc_json_valid.h"

/* Examples longer than this are kept only when nothing shorter exists. */
#define TC_EXAMPLE_PREFERRED 2048

struct tc_census_worker {
  tc_parser *parser; /* borrowed: name, category and path ids are its */
  uint32_t nsites;
  tc_site_acc **sites; /* by site index, lazily created */
};

tc_census_worker *tc_census_worker_create(uint32_t nsites, tc_parser *parser) {
  tc_census_worker *w = calloc(1, sizeof *w);
  if (!w)
    return NULL;
  w->parser = parser;
  w->nsites = nsites;
  w->sites = calloc(nsites ? nsites : 1, sizeof *w->sites);
  if (!w->sites) {
    free(w);
    return NULL;
  }
  return w;
}

static void site_free(tc_site_acc *s) {
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

void tc_census_worker_free(tc_census_worker *w) {
  if (!w)
    return;
  for (uint32_t s = 0; s < w->nsites; s++)
    site_free(w->sites[s]);
  free(w->sites);
  free(w);
}

static tc_site_acc *site_of(tc_census_worker *w, uint32_t site) {
  if (!w->sites[site])
    w->sites[site] = calloc(1, sizeof(tc_site_acc));
  return w->sites[site];
}

void tc_census_site_release(tc_census_worker *w, uint32_t site) {
  if (site < w->nsites) {
    site_free(w->sites[site]);
    w->sites[site] = NULL;
  }
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
   * through and through may become the example that reports copy out. */
  if (!tc_json_valid((tc_str){c->buf + ce->start, len}))
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
  tc_site_acc *s = site_of(w, o.site);
  if (!s)
    return TC_E_NOMEM;
  for (uint32_t i = 0; i < p->nevents; i++) {
    if (p->events[i].err)
      continue;
    tc_err e = add_event(s, o, c, i, p);
    if (e)
      return e;
  }
  return TC_OK;
}

tc_err tc_census_add_pairs(tc_census_worker *w, uint32_t site, tc_str name,
                           const uint64_t pairs[TC_PAIR_COUNT]) {
  tc_site_acc *s = site_of(w, site);
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

const tc_site_acc *tc_census_site(const tc_census_worker *w, uint32_t site) {
  return site < w->nsites ? w->sites[site] : NULL;
}
