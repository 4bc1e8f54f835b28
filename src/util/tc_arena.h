/* A bump allocator: many small allocations freed together. Blocks never
 * move, so pointers into an arena stay valid until tc_arena_free. */
#ifndef TC_ARENA_H
#define TC_ARENA_H

#include <stddef.h>

#include "util/tc_str.h"

typedef struct tc_arena_block tc_arena_block;

typedef struct {
  tc_arena_block *head;
  size_t block_size; /* 0 = 64 KiB */
} tc_arena;

/* N bytes aligned to 16, or NULL when memory fails. */
void *tc_arena_alloc(tc_arena *a, size_t n);

/* A NUL-terminated copy of S, or NULL when memory fails. */
char *tc_arena_copy(tc_arena *a, tc_str s);

/* Forgets every allocation but keeps the memory, its blocks made one as
 * big as they were together: an arena filled alike again and again (one
 * protobuf packet after another) soon serves each fill from one block. */
void tc_arena_reset(tc_arena *a);

/* Frees every block; the arena is empty and usable again. */
void tc_arena_free(tc_arena *a);

#endif
