#include "census/tc_pairing.h"

#include <stdlib.h>
#include <string.h>

#include "util/tc_grow.h"
#include "util/tc_map.h"

typedef struct {
  uint32_t *names; /* name ids of open B records, innermost last */
  size_t n, cap;
} be_stack;

/* Pairs are counted as they close: a begin meets an earlier unmatched end
 * or waits, and the other way round, so a key whose begins and ends balance
 * holds nothing and can be dropped. That is the same count as
 * min(begins, ends) per key, with memory for the open keys only. */
typedef struct {
  uint32_t name;
  int span_kind; /* TC_PAIR_FLOW or TC_PAIR_ASYNC */
  int64_t open; /* begins - ends so far */
} id_counts;

/* A pair is counted for the process of the record that opened its key (the
 * B of a B/E pair, the thread being in one process; for flows and async
 * spans, which may cross processes, the key's first record), and an
 * unpaired record for its own; so the census can scope pairs by process as
 * it scopes records. */
struct tc_pairing {
  tc_map names; /* pid (8 bytes) then name -> counter id */
  uint64_t (*pairs)[TC_PAIR_COUNT]; /* by counter id */
  size_t pairs_cap;
  tc_map threads; /* (pid, tid) as 16 bytes -> stack index */
  be_stack *stacks;
  size_t stacks_cap;
  uint32_t last_stack; /* stack index + 1 of (last_pid, last_tid); 0: none */
  int64_t last_pid, last_tid;
  tc_map keys; /* "kind cat \0 name \0 id" -> id_counts index */
  id_counts *ids;
  size_t ids_cap;
  size_t open_keys; /* keys with open != 0 */
  char *keybuf;
  size_t keybuf_cap;
};

tc_pairing *tc_pairing_create(void) {
  return calloc(1, sizeof(tc_pairing));
}

void tc_pairing_free(tc_pairing *p) {
  if (!p)
    return;
  for (uint32_t i = 0; i < tc_map_count(&p->threads); i++)
    free(p->stacks[i].names);
  free(p->stacks);
  free(p->pairs);
  free(p->ids);
  free(p->keybuf);
  tc_map_free(&p->names);
  tc_map_free(&p->threads);
  tc_map_free(&p->keys);
  free(p);
}

/* The counter of NAME in process PID. */
static tc_err name_of(tc_pairing *p, tc_str name, int64_t pid, uint32_t *id) {
  const tc_str parts[] = {{(const char *)&pid, sizeof pid}, name};
  tc_str key;
  tc_err e = tc_map_key_join(&p->keybuf, &p->keybuf_cap, parts, 2, &key);
  if (!e)
    e = tc_map_intern(&p->names, key, id, NULL);
  if (!e)
    e = TC_GROW(p->pairs, p->pairs_cap, (size_t)*id + 1);
  return e;
}

/* The B/E stack of the record's thread. Records come in runs of one
 * thread, so the thread met last is asked first. */
static tc_err stack_of(tc_pairing *p, const tc_kevent *ev, be_stack **out) {
  if (!p->last_stack || p->last_pid != ev->pid || p->last_tid != ev->tid) {
    int64_t pt[2] = {ev->pid, ev->tid};
    uint32_t t;
    tc_err e = tc_map_intern(&p->threads, (tc_str){(const char *)pt, sizeof pt}, &t, NULL);
    if (!e)
      e = TC_GROW(p->stacks, p->stacks_cap, (size_t)t + 1);
    if (e)
      return e;
    p->last_stack = t + 1;
    p->last_pid = ev->pid;
    p->last_tid = ev->tid;
  }
  *out = &p->stacks[p->last_stack - 1];
  return TC_OK;
}

/* An E that closes a B counts for the B's name: its own is not looked up. */
static tc_err feed_be(tc_pairing *p, const tc_kevent *ev) {
  be_stack *s;
  uint32_t name;
  tc_err e = stack_of(p, ev, &s);
  if (e)
    return e;
  if (ev->ph == 'E' && s->n) {
    p->pairs[s->names[--s->n]][TC_PAIR_BEGIN_END]++;
    return TC_OK;
  }
  if ((e = name_of(p, ev->name, ev->pid, &name)))
    return e;
  if (ev->ph == 'E') {
    p->pairs[name][TC_PAIR_BE_UNMATCHED]++;
    return TC_OK;
  }
  if ((e = TC_GROW(s->names, s->cap, s->n + 1)))
    return e;
  s->names[s->n++] = name;
  return TC_OK;
}

/* Appends S and a NUL at K + N; returns the new length. An absent field is
 * {NULL, 0}, which memcpy must not be given. */
static size_t put_field(char *k, size_t n, tc_str s) {
  if (s.len)
    memcpy(k + n, s.ptr, s.len);
  k[n + s.len] = '\0';
  return n + s.len + 1;
}

/* Rebuilds the key table with the open keys only, once balanced ones are
 * most of it, so memory follows the flows still open, not the trace. */
static tc_err compact(tc_pairing *p) {
  size_t n = tc_map_count(&p->keys);
  if (n < 4096 || n < 4 * p->open_keys)
    return TC_OK;
  tc_map keys;
  tc_map_init(&keys);
  size_t kept = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (!p->ids[i].open)
      continue;
    uint32_t id;
    tc_err e = tc_map_intern(&keys, tc_map_key(&p->keys, i), &id, NULL);
    if (e) {
      tc_map_free(&keys);
      return e;
    }
    p->ids[id] = p->ids[i]; /* id <= i: ids are dense in insertion order */
    kept++;
  }
  tc_map_free(&p->keys);
  p->keys = keys;
  p->open_keys = kept;
  return TC_OK;
}

/* A key counts for the name of its first record, looked up only then. */
static tc_err feed_id(tc_pairing *p, const tc_kevent *ev, int kind, int begin) {
  size_t need = 2 + ev->cat.len + 1 + ev->name.len + 1 + ev->id.len + 1;
  tc_err e = TC_GROW(p->keybuf, p->keybuf_cap, need);
  if (e)
    return e;
  char *k = p->keybuf;
  size_t n = 0;
  k[n++] = (char)('0' + kind);
  k[n++] = ev->ph == 'b' || ev->ph == 'e' ? 'n' : 'l'; /* nestable vs legacy async */
  n = put_field(k, n, ev->cat);
  n = put_field(k, n, ev->name);
  n = put_field(k, n, ev->id);
  uint32_t id;
  int inserted;
  tc_str key = {k, n};
  if ((e = tc_map_intern(&p->keys, key, &id, &inserted)))
    return e;
  if ((e = TC_GROW(p->ids, p->ids_cap, (size_t)id + 1)))
    return e;
  id_counts *c = &p->ids[id];
  if (inserted) {
    if ((e = name_of(p, ev->name, ev->pid, &c->name)))
      return e;
    c->span_kind = kind;
    c->open = 0;
  }
  int was_open = c->open != 0;
  int64_t step = begin ? 1 : -1;
  if (c->open * step < 0)
    p->pairs[c->name][kind]++; /* closes an earlier opposite record */
  c->open += step;
  p->open_keys += (size_t)(c->open != 0) - (size_t)was_open;
  return compact(p);
}

tc_err tc_pairing_feed(tc_pairing *p, const tc_kevent *ev) {
  int kind, begin;
  switch (ev->ph) {
  case 'B': case 'E': kind = TC_PAIR_BEGIN_END; begin = ev->ph == 'B'; break;
  case 's': case 'f': kind = TC_PAIR_FLOW; begin = ev->ph == 's'; break;
  case 'b': case 'S': kind = TC_PAIR_ASYNC; begin = 1; break;
  case 'e': case 'F': kind = TC_PAIR_ASYNC; begin = 0; break;
  default: return TC_OK;
  }
  if (kind == TC_PAIR_BEGIN_END)
    return feed_be(p, ev);
  return feed_id(p, ev, kind, begin);
}

tc_err tc_pairing_finish(tc_pairing *p, tc_census_worker *w, uint32_t site, uint32_t trace) {
  for (uint32_t t = 0; t < tc_map_count(&p->threads); t++)
    for (size_t i = 0; i < p->stacks[t].n; i++)
      p->pairs[p->stacks[t].names[i]][TC_PAIR_BE_UNMATCHED]++;
  for (uint32_t i = 0; i < tc_map_count(&p->keys); i++) {
    const id_counts *c = &p->ids[i];
    p->pairs[c->name][c->span_kind + 1] += (uint64_t)(c->open < 0 ? -c->open : c->open);
  }
  for (uint32_t n = 0; n < tc_map_count(&p->names); n++) {
    int any = 0;
    for (int k = 0; k < TC_PAIR_COUNT; k++)
      any |= p->pairs[n][k] != 0;
    if (!any)
      continue;
    tc_str key = tc_map_key(&p->names, n);
    int64_t pid;
    memcpy(&pid, key.ptr, sizeof pid);
    tc_str name = {key.ptr + sizeof pid, key.len - sizeof pid};
    tc_err e = tc_census_add_pairs(w, site, trace, pid, name, p->pairs[n]);
    if (e)
      return e;
  }
  return TC_OK;
}
