#include "census/tc_vtab.h"

#include <stdlib.h>
#include <string.h>

#include "util/tc_grow.h"
#include "util/tc_xxh64.h"

tc_vtab *tc_vtab_new(uint32_t flags, uint64_t site) {
  tc_vtab *t = malloc(sizeof *t);
  if (t)
    tc_vtab_init(t, flags, site);
  return t;
}

void tc_vtab_destroy(tc_vtab *t) {
  if (!t)
    return;
  tc_vtab_free(t);
  free(t);
}

uint64_t tc_vtab_site_tag(tc_str site_name) { return tc_xxh64(site_name.ptr, site_name.len, 0); }

void tc_vtab_init(tc_vtab *t, uint32_t flags, uint64_t site) {
  memset(t, 0, sizeof *t);
  t->flags = flags;
  t->site = site;
}

void tc_vtab_free(tc_vtab *t) {
  /* A key whose profile could not be made (memory) has none. */
  for (uint32_t i = 0; i < tc_map_count(&t->keys) && i < t->prof_cap; i++) {
    if (t->prof[i])
      tc_valprof_free(t->prof[i]);
    free(t->prof[i]);
  }
  free(t->prof);
  free(t->buf);
  tc_map_free(&t->keys);
  tc_vtab_init(t, t->flags, t->site);
}

/* The key text of (NAME, PATH) in the table's scratch: the name's length
 * (host order: it never leaves the process), the name, the path, so no byte
 * of a name can be mistaken for the boundary. */
static tc_err key_text(tc_vtab *t, tc_str name, tc_str path, tc_str *key) {
  uint32_t nl = (uint32_t)name.len;
  const tc_str parts[] = {{(const char *)&nl, sizeof nl}, name, path};
  return tc_map_key_join(&t->buf, &t->buf_cap, parts, 3, key);
}

/* *ID of (NAME, PATH), interned, with room for its profile pointer;
 * *INSERTED when new (the pointer is then the caller's to set). */
static tc_err key_slot(tc_vtab *t, tc_str name, tc_str path, uint32_t *id, int *inserted) {
  tc_str key;
  tc_err e = key_text(t, name, path, &key);
  if (e || (e = tc_map_intern(&t->keys, key, id, inserted)) || !*inserted)
    return e;
  return TC_GROW(t->prof, t->prof_cap, (size_t)*id + 1);
}

tc_err tc_vtab_key(tc_vtab *t, tc_str name, tc_str path, uint32_t *id) {
  int inserted;
  tc_err e = key_slot(t, name, path, id, &inserted);
  if (e || !inserted)
    return e;
  if (!(t->prof[*id] = malloc(sizeof **t->prof)))
    return TC_E_NOMEM;
  tc_valprof_init(t->prof[*id], t->flags);
  return TC_OK;
}

const tc_valprof *tc_vtab_find(tc_vtab *t, tc_str name, tc_str path) {
  tc_str key;
  if (key_text(t, name, path, &key))
    return NULL;
  uint32_t id = tc_map_find(&t->keys, key);
  return id == UINT32_MAX ? NULL : t->prof[id];
}

tc_err tc_vtab_merge(tc_vtab *dst, const tc_vtab *src) {
  tc_err e = TC_OK;
  for (uint32_t i = 0; !e && i < tc_vtab_count(src); i++) {
    tc_str name, path;
    const tc_valprof *p;
    uint32_t id;
    tc_vtab_entry(src, i, &name, &path, &p);
    if (!(e = tc_vtab_key(dst, name, path, &id)))
      e = tc_valprof_merge(dst->prof[id], p);
  }
  return e;
}

void tc_vtab_entry(const tc_vtab *t, uint32_t id, tc_str *name, tc_str *path,
                   const tc_valprof **prof) {
  tc_str key = tc_map_key(&t->keys, id);
  uint32_t nl;
  memcpy(&nl, key.ptr, sizeof nl);
  *name = (tc_str){key.ptr + sizeof nl, nl};
  *path = (tc_str){key.ptr + sizeof nl + nl, key.len - sizeof nl - nl};
  *prof = t->prof[id];
}

tc_err tc_vtab_absorb(tc_vtab *dst, tc_vtab *src) {
  if (dst->flags != src->flags && tc_vtab_count(src))
    return TC_E_USAGE;
  tc_err e = TC_OK;
  if (!tc_vtab_count(dst)) {
    /* Everything moves: the keys in their order, the profiles as they are. */
    tc_map keys = dst->keys;
    tc_valprof **prof = dst->prof;
    size_t cap = dst->prof_cap;
    dst->keys = src->keys;
    dst->prof = src->prof;
    dst->prof_cap = src->prof_cap;
    src->keys = keys;
    src->prof = prof;
    src->prof_cap = cap;
  } else {
    /* A profile DST lacks moves over, which is what merging it into an
     * empty one would give (tc_valprof_merge); the rest merge. */
    for (uint32_t i = 0; !e && i < tc_vtab_count(src); i++) {
      tc_str name, path;
      const tc_valprof *p;
      uint32_t id;
      int inserted;
      tc_vtab_entry(src, i, &name, &path, &p);
      if (!p || (e = key_slot(dst, name, path, &id, &inserted)))
        continue;
      if (inserted) {
        dst->prof[id] = src->prof[i];
        src->prof[i] = NULL;
      } else {
        e = tc_valprof_merge(dst->prof[id], p);
      }
    }
  }
  tc_vtab_free(src);
  return e;
}

void tc_vtab_encode(const tc_vtab *t, tc_bin_buf *b) {
  tc_bin_put_uvar(b, tc_vtab_count(t));
  for (uint32_t i = 0; i < tc_vtab_count(t); i++) {
    tc_str name, path;
    const tc_valprof *p;
    tc_vtab_entry(t, i, &name, &path, &p);
    tc_bin_put_bytes(b, name);
    tc_bin_put_bytes(b, path);
    tc_valprof_encode(p, b);
  }
}

tc_err tc_vtab_read_merge(tc_bin_reader *r, tc_vtab *dst) {
  uint64_t count = tc_bin_get_count(r, UINT32_MAX, 3);
  tc_err e = r->err;
  tc_valprof v;
  tc_valprof_init(&v, dst->flags);
  for (uint64_t i = 0; !e && i < count; i++) {
    tc_str name = tc_bin_get_bytes(r, SIZE_MAX);
    tc_str path = tc_bin_get_bytes(r, SIZE_MAX);
    uint32_t id;
    if (!(e = r->err) && !(e = tc_valprof_decode(r, &v))) {
      if (!tc_vtab_count(dst))
        dst->flags = v.flags;
      if (!(e = tc_vtab_key(dst, name, path, &id)))
        e = tc_valprof_merge(dst->prof[id], &v);
    }
    tc_valprof_free(&v);
  }
  return e;
}

tc_err tc_vtab_merge_encoded(tc_vtab *dst, const void *p, size_t n) {
  tc_bin_reader r;
  tc_bin_reader_init(&r, p, n, 0);
  tc_err e = tc_vtab_read_merge(&r, dst);
  return e ? e : tc_bin_finish(&r);
}
