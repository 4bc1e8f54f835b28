/* The most frequent string values: Space-Saving with TC_TOPK_K counters
 * (Metwally, Agrawal, El Abbadi 2005), merged by the rule of Agarwal et al.,
 * "Mergeable summaries" (2012), carried over from Misra-Gries through the
 * isomorphism between the two.
 *
 * Why Space-Saving: every counter carries its own error, so a value counted
 * since before the sketch filled up is exact (err 0), as most top values of
 * trace arguments are; Misra-Gries has one global error for all.
 *
 * Bounds, for any mix of adds and merges over N values in all, with
 * `floor` = tc_topk.floor <= N / TC_TOPK_K:
 *   - a listed value's true count lies in [count - err, count], err <= floor;
 *   - an unlisted value occurred at most floor times, so every value that
 *     occurred more than floor times (in particular more than N / K) is
 *     listed; the exact top j are all listed when the j-th occurred more
 *     than floor times.
 *   - while at most K distinct values were added, floor = 0 and every
 *     count is exact.
 * Sites: each counter counts the distinct site tags it saw while it held
 * its value (a lower bound; exact when err is 0), provided the values of
 * one site reach the sketch together: all of a site's values before the
 * next site's, and merges in site order (dst's sites before src's), so that
 * "a new site" is "a tag other than the last one".
 *
 * Order: exact order independence is impossible for Space-Saving (and
 * Misra-Gries) once more than K distinct values arrive, since which values
 * survive depends on the order. What holds instead: (1) while the union of
 * all inputs has at most K distinct values, any order and grouping of adds
 * and merges gives the same bytes; (2) every choice (eviction, which
 * counters a merge keeps, the listing) is made by a total order on counter
 * contents, never on memory layout, so the same sequence of adds and merges
 * always gives the same bytes, also after an encode/decode round trip. The
 * canonical way to get the same result whatever the threads, chunking and
 * file order: one sketch per trace fed in trace order, and partials merged
 * in the order of (site, trace path).
 *
 * Values longer than TC_TOPK_MAXLEN bytes are kept cut at a UTF-8 code
 * point boundary (64 - 3 to 64 bytes) with `truncated` set, and counted by
 * that prefix: all values sharing it count as one.
 *
 * Memory: a counter per value held, grown by doubling to at most
 * TC_TOPK_K (TC_TOPK_BYTES), so a path of one value costs one counter; no
 * add allocates once the sketch is full. Not thread-safe. */
#ifndef TC_TOPK_H
#define TC_TOPK_H

#include <stddef.h>
#include <stdint.h>

#include "util/tc_bin.h"
#include "util/tc_error.h"
#include "util/tc_str.h"

#define TC_TOPK_K 32
#define TC_TOPK_MAXLEN 64

typedef struct {
  uint64_t count;    /* upper bound on the true count */
  uint64_t err;      /* count - err is a lower bound; 0 means exact */
  uint64_t hash;     /* of the kept key (see tc_topk_add) */
  uint64_t sites;    /* distinct site tags seen while counted */
  uint64_t site_first, site_last;
  uint8_t len;       /* bytes of val */
  uint8_t truncated; /* val is the prefix of a longer value */
  char val[TC_TOPK_MAXLEN];
} tc_topk_counter;

#define TC_TOPK_BYTES (TC_TOPK_K * sizeof(tc_topk_counter))

typedef struct {
  tc_topk_counter *c;  /* cap of them; owned */
  uint32_t used;       /* counters in use, at most TC_TOPK_K */
  uint32_t cap;        /* counters allocated, at most TC_TOPK_K */
  uint64_t n;          /* values added, merges included */
  uint64_t floor;      /* bound on the count of any unlisted value */
  uint8_t slot[2 * TC_TOPK_K]; /* hash index: counter + 1, 0 = empty */
} tc_topk;

/* How many bytes of V a sketch keeps: all of it up to TC_TOPK_MAXLEN, else
 * the longest prefix that ends on a code point boundary (at least
 * TC_TOPK_MAXLEN - 3). */
static inline size_t tc_topk_keep_len(tc_str v) {
  if (v.len <= TC_TOPK_MAXLEN)
    return v.len;
  size_t cut = TC_TOPK_MAXLEN;
  while (cut > TC_TOPK_MAXLEN - 3 && ((unsigned char)v.ptr[cut] & 0xC0) == 0x80)
    cut--;
  return cut;
}

void tc_topk_init(tc_topk *t);
void tc_topk_free(tc_topk *t);

/* Counts V seen COUNT times in a row on site SITE (any 64-bit tag that is
 * the same for a site everywhere, e.g. tc_xxh64 of its name): the same
 * state as COUNT calls of tc_topk_add, since a value just counted holds a
 * counter and counting it again only adds to it. HASH must be
 * tc_xxh64(v.ptr, v.len, 0), shared with the other sketches; a value cut to
 * its prefix is hashed again inside. Fails only when the counters grow. */
tc_err tc_topk_add_n(tc_topk *t, tc_str v, uint64_t hash, uint64_t site, uint64_t count);
static inline tc_err tc_topk_add(tc_topk *t, tc_str v, uint64_t hash, uint64_t site) {
  return tc_topk_add_n(t, v, hash, site, 1);
}

/* DST += SRC, where SRC's values come after DST's (see Sites above). */
tc_err tc_topk_merge(tc_topk *dst, const tc_topk *src);

typedef struct {
  tc_str value;      /* borrowed from the sketch: valid until it changes */
  int truncated;
  uint64_t count, err, sites;
} tc_topk_item;

/* Fills OUT (room for TC_TOPK_K) with the counters, most frequent first:
 * count descending, then err ascending, then value bytes, then cut values
 * after whole ones. Returns how many. */
size_t tc_topk_list(const tc_topk *t, tc_topk_item *out);

/* Appends T: counters in tc_topk_list order, so equal states give equal
 * bytes. */
void tc_topk_encode(const tc_topk *t, tc_bin_buf *b);
/* Reads one encoded sketch into T (initialised, empty), checking every
 * bound above that the counters must meet. On failure T is left empty and R
 * says where and why. */
tc_err tc_topk_decode(tc_bin_reader *r, tc_topk *t);

#endif
