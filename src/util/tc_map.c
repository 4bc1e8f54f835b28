#include "util/tc_map.h"

#include "util/tc_grow.h"

#include <stdlib.h>
#include <string.h>

void tc_map_init(tc_map *m) { memset(m, 0, sizeof *m); }

void tc_map_free(tc_map *m) {
  tc_arena_free(&m->arena);
  free(m->slots);
  free(m->keys);
  free(m->hashes);
  tc_map_init(m);
}

static tc_err map_grow(tc_map *m) {
  uint32_t n = m->nslots ? m->nslots * 2 : 64;
  uint32_t *slots = calloc(n, sizeof *slots);
  if (!slots)
    return TC_E_NOMEM;
  for (uint32_t id = 0; id < m->count; id++) {
    uint32_t i = (uint32_t)m->hashes[id] & (n - 1);
    while (slots[i])
      i = (i + 1) & (n - 1);
    slots[i] = id + 1;
  }
  free(m->slots);
  m->slots = slots;
  m->nslots = n;
  return TC_OK;
}

static uint32_t map_lookup(const tc_map *m, tc_str key, uint64_t h, uint32_t *slot) {
  uint32_t i = (uint32_t)h & (m->nslots - 1);
  for (;;) {
    uint32_t v = m->slots[i];
    if (!v)
      break;
    if (m->hashes[v - 1] == h && tc_str_eq(m->keys[v - 1], key)) {
      *slot = i;
      return v - 1;
    }
    i = (i + 1) & (m->nslots - 1);
  }
  *slot = i;
  return UINT32_MAX;
}

uint32_t tc_map_find(const tc_map *m, tc_str key) {
  if (!m->nslots)
    return UINT32_MAX;
  uint32_t slot;
  return map_lookup(m, key, tc_hash_bytes(key.ptr, key.len, 0), &slot);
}

tc_err tc_map_intern(tc_map *m, tc_str key, uint32_t *id, int *inserted) {
  if (inserted)
    *inserted = 0;
  if ((m->count + 1) * 2 > m->nslots) {
    tc_err e = map_grow(m);
    if (e)
      return e;
  }
  uint64_t h = tc_hash_bytes(key.ptr, key.len, 0);
  uint32_t slot;
  uint32_t found = map_lookup(m, key, h, &slot);
  if (found != UINT32_MAX) {
    *id = found;
    return TC_OK;
  }
  if (m->count == m->keys_cap) {
    uint32_t cap = m->keys_cap ? m->keys_cap * 2 : 64;
    tc_str *k = realloc(m->keys, cap * sizeof *k);
    if (!k)
      return TC_E_NOMEM;
    m->keys = k;
    uint64_t *hs = realloc(m->hashes, cap * sizeof *hs);
    if (!hs)
      return TC_E_NOMEM;
    m->hashes = hs;
    m->keys_cap = cap;
  }
  char *copy = tc_arena_copy(&m->arena, key);
  if (!copy)
    return TC_E_NOMEM;
  m->keys[m->count].ptr = copy;
  m->keys[m->count].len = key.len;
  m->hashes[m->count] = h;
  m->slots[slot] = m->count + 1;
  *id = m->count++;
  if (inserted)
    *inserted = 1;
  return TC_OK;
}

void tc_imap_init(tc_imap *m) { memset(m, 0, sizeof *m); }

void tc_imap_free(tc_imap *m) {
  free(m->keys);
  free(m->vals);
  tc_imap_init(m);
}

static inline uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

static tc_err imap_grow(tc_imap *m) {
  uint32_t n = m->nslots ? m->nslots * 2 : 64;
  uint64_t *keys = malloc(n * sizeof *keys);
  uint32_t *vals = calloc(n, sizeof *vals);
  if (!keys || !vals) {
    free(keys);
    free(vals);
    return TC_E_NOMEM;
  }
  for (uint32_t s = 0; s < m->nslots; s++) {
    if (!m->vals[s])
      continue;
    uint32_t i = (uint32_t)mix64(m->keys[s]) & (n - 1);
    while (vals[i])
      i = (i + 1) & (n - 1);
    keys[i] = m->keys[s];
    vals[i] = m->vals[s];
  }
  free(m->keys);
  free(m->vals);
  m->keys = keys;
  m->vals = vals;
  m->nslots = n;
  return TC_OK;
}

uint32_t tc_imap_find(const tc_imap *m, uint64_t key) {
  if (!m->nslots)
    return UINT32_MAX;
  uint32_t i = (uint32_t)mix64(key) & (m->nslots - 1);
  while (m->vals[i]) {
    if (m->keys[i] == key)
      return m->vals[i] - 1;
    i = (i + 1) & (m->nslots - 1);
  }
  return UINT32_MAX;
}

tc_err tc_imap_intern(tc_imap *m, uint64_t key, uint32_t *id, int *inserted) {
  if (inserted)
    *inserted = 0;
  if ((m->count + 1) * 2 > m->nslots) {
    tc_err e = imap_grow(m);
    if (e)
      return e;
  }
  uint32_t i = (uint32_t)mix64(key) & (m->nslots - 1);
  while (m->vals[i]) {
    if (m->keys[i] == key) {
      *id = m->vals[i] - 1;
      return TC_OK;
    }
    i = (i + 1) & (m->nslots - 1);
  }
  m->keys[i] = key;
  m->vals[i] = m->count + 1;
  *id = m->count++;
  if (inserted)
    *inserted = 1;
  return TC_OK;
}

void tc_imap_each(const tc_imap *m, void (*fn)(void *ctx, uint64_t key, uint32_t id), void *ctx) {
  for (uint32_t s = 0; s < m->nslots; s++)
    if (m->vals[s])
      fn(ctx, m->keys[s], m->vals[s] - 1);
}

tc_err tc_map_key_join(char **buf, size_t *cap, const tc_str *parts, size_t n, tc_str *key) {
  size_t need = 0;
  for (size_t i = 0; i < n; i++)
    need += parts[i].len;
  tc_err e = TC_GROW(*buf, *cap, need);
  if (e)
    return e;
  size_t at = 0;
  for (size_t i = 0; i < n; i++) {
    if (parts[i].len)
      memcpy(*buf + at, parts[i].ptr, parts[i].len);
    at += parts[i].len;
  }
  *key = (tc_str){*buf, need};
  return TC_OK;
}
