/* Interning tables.
 *
 * tc_map gives each distinct byte string a dense id (0, 1, 2, ... in first
 * insertion order) and keeps one copy of its bytes; callers keep per-id
 * values in their own arrays indexed by id. tc_imap does the same for
 * 64-bit integer keys (e.g. a name id and a path id packed together).
 * Open addressing with linear probing, load factor <= 1/2. Not thread-safe:
 * each worker owns its own tables.
 *
 * A zeroed table is an empty one (a calloc'ed struct, `= {0}`, memset):
 * nothing needs an init call first. *_free leaves the table empty again,
 * ready for reuse; *_init zeroes one whose memory is not. */
#ifndef TC_MAP_H
#define TC_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "util/tc_arena.h"
#include "util/tc_error.h"
#include "util/tc_str.h"

typedef struct {
  uint32_t *slots;     /* id + 1, 0 = empty */
  uint32_t nslots;     /* power of two */
  uint32_t count;
  tc_str *keys;        /* by id; bytes live in the arena, NUL-terminated */
  uint64_t *hashes;    /* by id */
  uint32_t keys_cap;
  tc_arena arena; /* key bytes: blocks never move, so keys stay put */
} tc_map;

void tc_map_init(tc_map *m);
void tc_map_free(tc_map *m);

/* Id of KEY, inserting a copy of it if new (*inserted = 1). INSERTED may be
 * NULL. */
tc_err tc_map_intern(tc_map *m, tc_str key, uint32_t *id, int *inserted);

/* Id of KEY or UINT32_MAX. */
uint32_t tc_map_find(const tc_map *m, tc_str key);

/* A key of N parts laid end to end, in the caller's scratch *BUF of *CAP
 * bytes (grown as needed, reused from key to key): a fixed-size part first
 * (a pid, a length) keeps the bytes of the parts after it from being
 * mistaken for a boundary. */
tc_err tc_map_key_join(char **buf, size_t *cap, const tc_str *parts, size_t n, tc_str *key);

/* Bytes of id ID, valid (and NUL-terminated) until tc_map_free. */
static inline tc_str tc_map_key(const tc_map *m, uint32_t id) { return m->keys[id]; }

static inline uint32_t tc_map_count(const tc_map *m) { return m->count; }

typedef struct {
  uint64_t *keys;  /* by slot */
  uint32_t *vals;  /* by slot: id + 1, 0 = empty */
  uint32_t nslots;
  uint32_t count;
} tc_imap;

void tc_imap_init(tc_imap *m);
void tc_imap_free(tc_imap *m);

/* Dense id of KEY (0, 1, ... in insertion order), inserting if new. */
tc_err tc_imap_intern(tc_imap *m, uint64_t key, uint32_t *id, int *inserted);

/* Id of KEY or UINT32_MAX. */
uint32_t tc_imap_find(const tc_imap *m, uint64_t key);

/* Calls FN for every (key, id), in slot order (not sorted). */
void tc_imap_each(const tc_imap *m, void (*fn)(void *ctx, uint64_t key, uint32_t id), void *ctx);

#endif
