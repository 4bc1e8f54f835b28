#include "census/tc_vtab.h"

#include <stdlib.h>
#include <string.h>

#include "util/tc_grow.h"
#include "util/tc_xxh64.h"

uint64_t tc_vtab_site_tag(tc_str site_name) { return tc_xxh64(site_name.ptr, site_name.len, 0); }

void tc_vtab_init(tc_vtab *t, uint32_t flags, uint64_t site) {
  memset(t, 0, sizeof *t);
  t->flags = flags;
  t->site = site;
  tc_map_init(&t->keys);
}

void tc_vtab_free(tc_vtab *t) {
  /* A key whose profile could not be made (memory) has none. */
  for (uint32_t i = 0; i < tc_map_count(&t->keys) && i < t->prof_cap; i++) {
    if (t->prof[i])
      tc_valprof_free(t->prof[i]);
    free(t->prof[i]);
  }
  free(t->prof);
  free(t->key_of);
  tc_map_free(&t->keys);
  tc_vtab_init(t, t->flags, t->site);
}

/* The key text of (NAME, PATH) in *BUF: the name's length (host order: it
 * never leaves the process), the name, the path, so no byte of a name can
 * be mistaken for the boundary. */
static tc_err key_text(tc_str name, tc_str path, char **buf, size_t *cap, tc_str *key) {
  uint32_t nl = (uint32_t)name.len;
  size_t n = sizeof nl + name.len + path.len;
  tc_err e = TC_GROW(*buf, *cap, n);
  if (e)
    return e;
  memcpy(*buf, &nl, sizeof nl);
  if (name.len)
    memcpy(*buf + sizeof nl, name.ptr, name.len);
  if (path.len)
    memcpy(*buf + sizeof nl + name.len, path.ptr, path.len);
  *key = (tc_str){*buf, n};
  return TC_OK;
}

/* The table's id of (NAME, PATH), created empty on first sight. */
static tc_err key_id(tc_vtab *t, tc_str name, tc_str path, char **buf, size_t *cap,
                     uint32_t *id) {
  tc_str key;
  int inserted;
  tc_err e = key_text(name, path, buf, cap, &key);
  if (e || (e = tc_map_intern(&t->keys, key, id, &inserted)) || !inserted)
    return e;
  if ((e = TC_GROW(t->prof, t->prof_cap, (size_t)*id + 1)))
    return e;
  if (!(t->prof[*id] = malloc(sizeof **t->prof)))
    return TC_E_NOMEM;
  tc_valprof_init(t->prof[*id], t->flags);
  return TC_OK;
}

tc_err tc_vtab_fold(tc_vtab *t, const tc_seq *seq) {
  tc_err e = TC_GROW(t->key_of, t->key_of_cap, seq->nvkeys);
  char *buf = NULL;
  size_t cap = 0;
  for (size_t k = 0; !e && k < seq->nvkeys; k++) {
    const tc_seq_vkey *vk = &seq->vkeys[k];
    e = key_id(t, tc_seq_vtext(seq, vk->name_off, vk->name_len),
               tc_seq_vtext(seq, vk->path_off, vk->path_len), &buf, &cap, &t->key_of[k]);
  }
  free(buf);
  for (size_t i = 0; !e && i < seq->nvals; i++) {
    const tc_seq_val *v = &seq->vals[i];
    e = tc_valprof_add(t->prof[t->key_of[v->key]], v->type, v->num,
                       tc_seq_vtext(seq, v->str_off, v->str_len), t->site);
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

const tc_valprof *tc_vtab_find(const tc_vtab *t, tc_str name, tc_str path) {
  char *buf = NULL;
  size_t cap = 0;
  tc_str key;
  uint32_t id = UINT32_MAX;
  if (!key_text(name, path, &buf, &cap, &key))
    id = tc_map_find(&t->keys, key);
  free(buf);
  return id == UINT32_MAX ? NULL : t->prof[id];
}

tc_err tc_vtab_merge(tc_vtab *dst, const tc_vtab *src) {
  char *buf = NULL;
  size_t cap = 0;
  tc_err e = TC_OK;
  for (uint32_t i = 0; !e && i < tc_vtab_count(src); i++) {
    tc_str name, path;
    const tc_valprof *p;
    uint32_t id;
    tc_vtab_entry(src, i, &name, &path, &p);
    if (!(e = key_id(dst, name, path, &buf, &cap, &id)))
      e = tc_valprof_merge(dst->prof[id], p);
  }
  free(buf);
  return e;
}
