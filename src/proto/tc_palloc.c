/* A bump allocator for protobuf-c: unpacking a packet makes one allocation
 * per message and per string or bytes field, all of which die together
 * when the next packet starts. Carving them from one block and forgetting
 * them at once costs a pointer bump each instead of malloc and free.
 * After a reset the blocks are merged into one as big as they were
 * together, so a trace soon unpacks every packet without a malloc. */
#include <stdlib.h>

#include "proto/tc_proto_impl.h"

struct tc_palloc_block {
  tc_palloc_block *next;
  size_t size, used;
  max_align_t data[];
};

#define FIRST_BLOCK ((size_t)64 << 10)

static tc_palloc_block *new_block(size_t size) {
  tc_palloc_block *b = malloc(sizeof *b + size);
  if (b) {
    b->next = NULL;
    b->size = size;
    b->used = 0;
  }
  return b;
}

static void *alloc(void *data, size_t n) {
  tc_palloc *a = data;
  size_t need = (n + 15) & ~(size_t)15;
  if (need < n)
    return NULL;
  tc_palloc_block *b = a->head;
  if (!b || b->size - b->used < need) {
    size_t size = b ? b->size * 2 : a->first_size;
    while (size < need)
      size *= 2;
    if (!(b = new_block(size)))
      return NULL;
    b->next = a->head;
    a->head = b;
  }
  void *p = (char *)b->data + b->used;
  b->used += need;
  return p;
}

/* Everything goes at the reset. */
static void release(void *data, void *p) {
  (void)data;
  (void)p;
}

void tc__palloc_init(tc_palloc *a) {
  a->pc.alloc = alloc;
  a->pc.free = release;
  a->pc.allocator_data = a;
  a->head = NULL;
  a->first_size = FIRST_BLOCK;
}

void tc__palloc_reset(tc_palloc *a) {
  tc_palloc_block *b = a->head;
  if (!b)
    return;
  if (!b->next) {
    b->used = 0;
    return;
  }
  size_t total = 0;
  while (b) {
    tc_palloc_block *next = b->next;
    total += b->size;
    free(b);
    b = next;
  }
  a->head = NULL;
  a->first_size = total;
}

void tc__palloc_free(tc_palloc *a) {
  tc_palloc_block *b = a->head;
  while (b) {
    tc_palloc_block *next = b->next;
    free(b);
    b = next;
  }
  a->head = NULL;
}
