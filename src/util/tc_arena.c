#include "util/tc_arena.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

struct tc_arena_block {
  tc_arena_block *next;
  size_t used, cap;
  alignas(16) char data[];
};

static tc_arena_block *new_block(size_t cap) {
  tc_arena_block *b = malloc(sizeof *b + cap);
  if (b) {
    b->next = NULL;
    b->used = 0;
    b->cap = cap;
  }
  return b;
}

void *tc_arena_alloc(tc_arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  tc_arena_block *b = a->head;
  if (!b || b->cap - b->used < n) {
    size_t bs = a->block_size ? a->block_size : 64 * 1024;
    tc_arena_block *nb = new_block(n > bs ? n : bs);
    if (!nb)
      return NULL;
    nb->next = b;
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

/* Frees B and the blocks after it; returns their capacity together. */
static size_t free_blocks(tc_arena_block *b) {
  size_t cap = 0;
  while (b) {
    tc_arena_block *n = b->next;
    cap += b->cap;
    free(b);
    b = n;
  }
  return cap;
}

void tc_arena_reset(tc_arena *a) {
  if (!a->head)
    return;
  if (!a->head->next) {
    a->head->used = 0;
    return;
  }
  /* NULL when memory fails: the next allocation makes a block as usual. */
  a->head = new_block(free_blocks(a->head));
}

void tc_arena_free(tc_arena *a) {
  free_blocks(a->head);
  a->head = NULL;
}
