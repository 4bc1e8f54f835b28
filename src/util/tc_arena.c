#include "util/tc_arena.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

struct tc_arena_block {
  tc_arena_block *next;
  size_t used, cap;
  alignas(16) char data[];
};

void *tc_arena_alloc(tc_arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  tc_arena_block *b = a->head;
  if (!b || b->cap - b->used < n) {
    size_t bs = a->block_size ? a->block_size : 64 * 1024;
    size_t cap = n > bs ? n : bs;
    tc_arena_block *nb = malloc(sizeof *nb + cap);
    if (!nb)
      return NULL;
    nb->next = b;
    nb->used = 0;
    nb->cap = cap;
    a->head = b = nb;
  }
  void *p = b->data + b->used;
  b->used += n;
  return p;
}

char *tc_arena_copy(tc_arena *a, tc_str s) {
  char *p = tc_arena_alloc(a, s.len + 1);
  if (!p)
    return NULL;
  if (s.len)
    memcpy(p, s.ptr, s.len);
  p[s.len] = '\0';
  return p;
}

void tc_arena_free(tc_arena *a) {
  tc_arena_block *b = a->head;
  while (b) {
    tc_arena_block *n = b->next;
    free(b);
    b = n;
  }
  a->head = NULL;
}
