/* The allocator handed to protobuf-c: unpacking a packet makes one
 * allocation per message and per string or bytes field, all of which die
 * together when the next packet starts. An arena (tc_arena) carves them
 * from one block and forgets them at once, a pointer bump each instead of
 * malloc and free; its reset keeps the memory for the next packet. A
 * packet is at most TC_PROTO_PACKET_MAX bytes, so no size protobuf-c asks
 * for comes near overflowing the arena's rounding. */
#include "proto/tc_proto_impl.h"

static void *alloc(void *data, size_t n) { return tc_arena_alloc(data, n); }

/* Everything goes at the arena's reset. */
static void release(void *data, void *p) {
  (void)data;
  (void)p;
}

void tc__palloc_init(tc_palloc *a) {
  a->arena = (tc_arena){0};
  a->pc.alloc = alloc;
  a->pc.free = release;
  a->pc.allocator_data = &a->arena;
}
