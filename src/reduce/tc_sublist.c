#include "reduce/tc_sublist.h"

#include <stdlib.h>

#include "util/tc_arena.h"
#include "util/tc_grow.h"

tc_err tc__sub_add(tc__sub_list *l, uint32_t ev, tc_str text, uint64_t records, uint8_t types) {
  tc_err e = TC_GROW(l->v, l->cap, l->n + 1);
  if (!e)
    l->v[l->n++] = (tc__sub_entry){records, 0, types, ev, text};
  return e;
}

tc_err tc__sub_slices(const tc__sub_list *lists, size_t nevents, size_t elem, void **all,
                      void (*put)(void *dst, const tc__sub_entry *src),
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

tc_err tc__sub_own(tc_map *m, tc_str *s) {
  char *copy = tc_arena_copy(&m->arena, *s);
  if (!copy)
    return TC_E_NOMEM;
  s->ptr = copy;
  return TC_OK;
}
