#include "census/tc_census.h"

#include <stdlib.h>
#include <string.h>

#include "util/tc_sketch.h"
#include "util/tc_grow.h"
#include "util/tc_json_valid.h"

/* Examples longer than this are kept only when nothing shorter exists. */
#define TC_EXAMPLE_PREFERRED 2048

struct tc_census_worker {
  const tc_parser *parser; /* borrowed: path ids are this parser's */
  tc_map names, cats;
  uint32_t nsites;
  tc_site_acc **sites; /* by site index, lazily created */
};

tc_census_worker *tc_census_worker_create(uint32_t nsites, const tc_parser *parser) {
  tc_census_worker *w = calloc(1, sizeof *w);
  if (!w)
    return NULL;
  w->parser = parser;
  tc_map_init(&w->names);
  tc_map_init(&w->cats);
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
  free(s);
}

void tc_census_worker_free(tc_census_worker *w) {
  if (!w)
    return;
  for (uint32_t s = 0; s < w->nsites; s++)
    site_free(w->sites[s]);
  free(w->sites);
  tc_map_free(&w->names);
  tc_map_free(&w->cats);
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

static tc_err name_id(tc_census_worker *w, tc_str name, uint32_t *id) {
  return tc_map_intern(&w->names, name, id, NULL);
}

static tc_err site_name(tc_site_acc *s, uint32_t id, tc_name_counts **out) {
  uint32_t slot;
  int inserted;
  tc_err e = tc_imap_intern(&s->name_idx, id, &slot, &inserted);
  if (!e)
    e = TC_GROW(s->names, s->names_cap, (size_t)slot + 1);
  if (!e)
    e = TC_GROW(s->detail, s->detail_cap, (size_t)slot + 1);
  if (!e)
    e = TC_GROW(s->name_ids, s->ids_cap, (size_t)slot + 1);
  if (e) {
    *out = NULL;
    return e;
  }
  s->name_ids[slot] = id;
  *out = &s->names[slot];
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

static tc_err add_event(tc_census_worker *w, tc_site_acc *s, tc_origin o, const tc_chunk *c,
                        uint32_t i, const tc_parsed *p) {
  const tc_event *ev = &p->events[i];
  uint32_t id;
  tc_err e = name_id(w, ev->name, &id);
  if (e)
    return e;
  tc_name_counts *nc;
  if ((e = site_name(s, id, &nc)))
    return e;
  tc_name_detail *d = &s->detail[nc - s->names];
  int phase = tc_phase_index(ev->ph);
  nc->ph[phase]++;
  nc->ph_args[phase] += ev->npres > 0;

  uint32_t cid, slot;
  int inserted;
  if ((e = tc_map_intern(&w->cats, ev->cat, &cid, NULL)))
    return e;
  if ((e = tc_imap_intern(&s->cat_idx, (uint64_t)id << 32 | cid, &slot, &inserted)))
    return e;
  if ((e = TC_GROW(s->cat_counts, s->cat_cap, (size_t)slot + 1)))
    return e;
  s->cat_counts[slot]++;

  if (ev->flags & TC_EV_HAS_DUR) {
    if ((e = tc_sketch_add(&d->dur, ev->dur)))
      return e;
    for (int k = 0; k < TC_DUR_NLIMITS; k++)
      d->dur_below[k] += ev->dur < TC_DUR_LIMITS[k];
  }

  for (uint32_t k = 0; k < ev->npres; k++) {
    const tc_presence *pr = &p->pres[ev->pres_begin + k];
    if ((e = tc_imap_intern(&s->path_idx, (uint64_t)id << 32 | pr->path, &slot, &inserted)))
      return e;
    if ((e = TC_GROW(s->paths, s->paths_cap, (size_t)slot + 1)))
      return e;
    s->paths[slot].records++;
    s->paths[slot].types |= pr->types;
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
    tc_err e = add_event(w, s, o, c, i, p);
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
  uint32_t id;
  tc_err e = name_id(w, name, &id);
  tc_name_counts *nc;
  if (e || (e = site_name(s, id, &nc)))
    return e;
  for (int k = 0; k < TC_PAIR_COUNT; k++)
    nc->pairs[k] += pairs[k];
  return TC_OK;
}

const tc_map *tc_census_names(const tc_census_worker *w) { return &w->names; }
const tc_map *tc_census_cats(const tc_census_worker *w) { return &w->cats; }
const tc_parser *tc_census_parser(const tc_census_worker *w) { return w->parser; }

const tc_site_acc *tc_census_site(const tc_census_worker *w, uint32_t site) {
  return site < w->nsites ? w->sites[site] : NULL;
}
