#include <stdlib.h>
#include <string.h>

#include "reduce/tc_census_result.h"
#include "util/tc_grow.h"

typedef struct {
  uint64_t records, sites;
  uint32_t last_site; /* site index + 1 that last counted in sites */
  uint8_t types;
  uint32_t owner;     /* event index the entry belongs to */
  tc_str text;        /* the cat or path part of the key */
} sub_entry;

typedef struct {
  tc_census_result *r;
  size_t events_cap;
  tc_map cat_keys, arg_keys; /* "name \0 cat|path" -> entry */
  sub_entry *cats, *args;
  size_t cats_cap, args_cap;
  uint32_t *last_site;       /* by event index */
  size_t last_cap;
  const tc_example **best;   /* by event index */
  size_t best_cap;
  char *buf;
  size_t buf_cap;
  /* current site and worker */
  uint32_t site;
  const tc_census_worker *w;
  const tc_site_acc *acc;
  uint32_t *gid;             /* worker name id -> event index, UINT32_MAX unknown */
  tc_err err;
} merge_ctx;

static tc_err event_index(merge_ctx *m, tc_str name, uint32_t *idx) {
  int inserted;
  tc_err e = tc_map_intern(&m->r->strings, name, idx, &inserted);
  if (e || !inserted)
    return e;
  /* strings holds names only until the end, so id == event index */
  if ((e = TC_GROW(m->r->events, m->events_cap, (size_t)*idx + 1)))
    return e;
  if ((e = TC_GROW(m->last_site, m->last_cap, (size_t)*idx + 1)))
    return e;
  if ((e = TC_GROW(m->best, m->best_cap, (size_t)*idx + 1)))
    return e;
  m->r->events[*idx].name = tc_map_key(&m->r->strings, *idx);
  tc_sketch_init(&m->r->events[*idx].dur);
  m->r->nevents = (size_t)*idx + 1;
  return TC_OK;
}

static tc_err sub_index(merge_ctx *m, tc_map *keys, sub_entry **arr, size_t *cap, uint32_t ev,
                        tc_str text, sub_entry **out) {
  tc_str name = m->r->events[ev].name;
  size_t n = name.len + 1 + text.len;
  tc_err e = TC_GROW(m->buf, m->buf_cap, n);
  if (e)
    return e;
  memcpy(m->buf, name.ptr, name.len);
  m->buf[name.len] = '\0';
  memcpy(m->buf + name.len + 1, text.ptr, text.len);
  uint32_t id;
  int inserted;
  tc_str key = {m->buf, n};
  if ((e = tc_map_intern(keys, key, &id, &inserted)))
    return e;
  if ((e = tc_grow((void **)arr, cap, (size_t)id + 1, sizeof **arr)))
    return e;
  *out = &(*arr)[id];
  if (inserted) {
    tc_str k = tc_map_key(keys, id);
    (*out)->owner = ev;
    (*out)->text.ptr = k.ptr + name.len + 1;
    (*out)->text.len = text.len;
  }
  return TC_OK;
}

static void add_cat(void *ctx, uint64_t key, uint32_t slot) {
  merge_ctx *m = ctx;
  if (m->err)
    return;
  uint32_t ev = m->gid[key >> 32];
  tc_str cat = tc_map_key(tc_census_cats(m->w), (uint32_t)key);
  sub_entry *s;
  if ((m->err = sub_index(m, &m->cat_keys, &m->cats, &m->cats_cap, ev, cat, &s)))
    return;
  s->records += m->acc->cat_counts[slot];
}

static void add_arg(void *ctx, uint64_t key, uint32_t slot) {
  merge_ctx *m = ctx;
  if (m->err)
    return;
  uint32_t ev = m->gid[key >> 32];
  tc_str path = tc_parser_path(tc_census_parser(m->w), (uint32_t)key);
  sub_entry *s;
  if ((m->err = sub_index(m, &m->arg_keys, &m->args, &m->args_cap, ev, path, &s)))
    return;
  s->records += m->acc->paths[slot].records;
  s->types |= m->acc->paths[slot].types;
  if (s->last_site != m->site + 1) {
    s->last_site = m->site + 1;
    s->sites++;
  }
}

static tc_err merge_site(merge_ctx *m, const tc_census_worker *w, const tc_site_acc *acc) {
  const tc_map *names = tc_census_names(w);
  m->w = w;
  m->acc = acc;
  tc_err e;
  for (uint32_t slot = 0; slot < acc->name_idx.count; slot++) {
    uint32_t i = acc->name_ids[slot];
    const tc_name_counts *nc = &acc->names[slot];
    uint64_t recs = 0, pairs = 0;
    for (int k = 0; k < TC_PH_COUNT; k++)
      recs += nc->ph[k];
    for (int k = 0; k < TC_PAIR_COUNT; k++)
      pairs += nc->pairs[k];
    if (!recs && !pairs)
      continue;
    uint32_t ev;
    if ((e = event_index(m, tc_map_key(names, i), &ev)))
      return e;
    m->gid[i] = ev;
    tc_res_event *re = &m->r->events[ev];
    for (int k = 0; k < TC_PH_COUNT; k++) {
      re->ph[k] += nc->ph[k];
      re->ph_args[k] += nc->ph_args[k];
    }
    for (int k = 0; k < TC_PAIR_COUNT; k++)
      re->pairs[k] += nc->pairs[k];
    re->records += recs;
    m->r->records += recs;
    if (recs && m->last_site[ev] != m->site + 1) {
      m->last_site[ev] = m->site + 1;
      re->sites++;
    }
  }
  tc_imap_each(&acc->cat_idx, add_cat, m);
  tc_imap_each(&acc->path_idx, add_arg, m);
  return m->err;
}

static tc_err merge_corpus_wide(merge_ctx *m, const tc_census_worker *w) {
  const tc_map *names = tc_census_names(w);
  for (uint32_t i = 0; i < tc_map_count(names); i++) {
    uint32_t ev = tc_map_find(&m->r->strings, tc_map_key(names, i));
    if (ev == UINT32_MAX)
      continue;
    tc_res_event *re = &m->r->events[ev];
    tc_err e = tc_sketch_merge(&re->dur, tc_census_dur(w, i));
    if (e)
      return e;
    for (int k = 0; k < TC_DUR_NLIMITS; k++)
      re->dur_below[k] += tc_census_dur_below(w, i)[k];
    const tc_example *x = tc_census_example(w, i);
    if (x->have && (!m->best[ev] || tc_example_cmp(x, m->best[ev]) < 0))
      m->best[ev] = x;
  }
  return TC_OK;
}

static int cmp_cat(const void *a, const void *b) {
  const tc_res_cat *x = a, *y = b;
  if (x->records != y->records)
    return x->records > y->records ? -1 : 1;
  return tc_str_cmp(x->cat, y->cat);
}

static int cmp_arg(const void *a, const void *b) {
  return tc_str_cmp(((const tc_res_arg *)a)->path, ((const tc_res_arg *)b)->path);
}

static int cmp_event(const void *a, const void *b) {
  return tc_str_cmp(((const tc_res_event *)a)->name, ((const tc_res_event *)b)->name);
}

/* Hands each event its slice of one array of categories / arguments. */
static tc_err distribute(merge_ctx *m) {
  tc_census_result *r = m->r;
  size_t ncat = tc_map_count(&m->cat_keys), narg = tc_map_count(&m->arg_keys);
  tc_res_cat *cats = calloc(ncat ? ncat : 1, sizeof *cats);
  tc_res_arg *args = calloc(narg ? narg : 1, sizeof *args);
  size_t *cat_at = calloc(r->nevents + 1, sizeof *cat_at);
  size_t *arg_at = calloc(r->nevents + 1, sizeof *arg_at);
  if (!cats || !args || !cat_at || !arg_at) {
    free(cats);
    free(args);
    free(cat_at);
    free(arg_at);
    return TC_E_NOMEM;
  }
  r->all_cats = cats;
  r->all_args = args;
  for (size_t i = 0; i < ncat; i++)
    cat_at[m->cats[i].owner + 1]++;
  for (size_t i = 0; i < narg; i++)
    arg_at[m->args[i].owner + 1]++;
  for (size_t e = 0; e < r->nevents; e++) {
    cat_at[e + 1] += cat_at[e];
    arg_at[e + 1] += arg_at[e];
    r->events[e].cats = cats + cat_at[e];
    r->events[e].args = args + arg_at[e];
  }
  for (size_t i = 0; i < ncat; i++) {
    tc_res_event *re = &r->events[m->cats[i].owner];
    tc_res_cat *c = &re->cats[re->ncats++];
    c->cat = m->cats[i].text;
    c->records = m->cats[i].records;
  }
  for (size_t i = 0; i < narg; i++) {
    tc_res_event *re = &r->events[m->args[i].owner];
    tc_res_arg *a = &re->args[re->nargs++];
    a->path = m->args[i].text;
    a->records = m->args[i].records;
    a->sites = m->args[i].sites;
    a->types = m->args[i].types;
  }
  for (size_t e = 0; e < r->nevents; e++) {
    qsort(r->events[e].cats, r->events[e].ncats, sizeof(tc_res_cat), cmp_cat);
    qsort(r->events[e].args, r->events[e].nargs, sizeof(tc_res_arg), cmp_arg);
  }
  free(cat_at);
  free(arg_at);
  return TC_OK;
}

/* Copies examples into the result's own strings, so it outlives the workers. */
static tc_err keep_examples(merge_ctx *m) {
  for (size_t e = 0; e < m->r->nevents; e++) {
    const tc_example *x = m->best[e];
    if (!x)
      continue;
    uint32_t id;
    tc_str raw = {x->raw, x->len};
    tc_err err = tc_map_intern(&m->r->strings, raw, &id, NULL);
    if (err)
      return err;
    m->r->events[e].example = tc_map_key(&m->r->strings, id);
  }
  return TC_OK;
}

tc_err tc_census_merge(tc_census_worker *const *workers, size_t nw, uint32_t nsites,
                       tc_census_result *out) {
  memset(out, 0, sizeof *out);
  tc_map_init(&out->strings);
  merge_ctx m;
  memset(&m, 0, sizeof m);
  m.r = out;
  tc_map_init(&m.cat_keys);
  tc_map_init(&m.arg_keys);
  tc_err e = TC_OK;
  size_t gid_cap = 0;
  for (uint32_t s = 0; s < nsites && !e; s++) {
    m.site = s;
    for (size_t k = 0; k < nw && !e; k++) {
      const tc_site_acc *acc = tc_census_site(workers[k], s);
      if (!acc)
        continue;
      e = TC_GROW(m.gid, gid_cap, (size_t)tc_map_count(tc_census_names(workers[k])) + 1);
      if (!e)
        e = merge_site(&m, workers[k], acc);
    }
  }
  for (size_t k = 0; k < nw && !e; k++)
    e = merge_corpus_wide(&m, workers[k]);
  if (!e)
    e = distribute(&m);
  if (!e)
    e = keep_examples(&m);
  if (!e) {
    /* Category and path texts live in the key maps: move them to the result
     * by re-interning, since the maps die below. */
    for (size_t i = 0; i < out->nevents && !e; i++) {
      tc_res_event *re = &out->events[i];
      for (size_t c = 0; c < re->ncats && !e; c++) {
        uint32_t id;
        e = tc_map_intern(&out->strings, re->cats[c].cat, &id, NULL);
        if (!e)
          re->cats[c].cat = tc_map_key(&out->strings, id);
      }
      for (size_t a = 0; a < re->nargs && !e; a++) {
        uint32_t id;
        e = tc_map_intern(&out->strings, re->args[a].path, &id, NULL);
        if (!e)
          re->args[a].path = tc_map_key(&out->strings, id);
      }
    }
  }
  if (!e && out->nevents > 1)
    qsort(out->events, out->nevents, sizeof *out->events, cmp_event);
  tc_map_free(&m.cat_keys);
  tc_map_free(&m.arg_keys);
  free(m.cats);
  free(m.args);
  free(m.last_site);
  free(m.best);
  free(m.buf);
  free(m.gid);
  if (e)
    tc_census_result_free(out);
  return e;
}

void tc_census_result_free(tc_census_result *r) {
  if (!r)
    return;
  free(r->all_cats);
  free(r->all_args);
  for (size_t i = 0; i < r->nevents; i++)
    tc_sketch_free(&r->events[i].dur);
  free(r->events);
  tc_map_free(&r->strings);
  memset(r, 0, sizeof *r);
}
