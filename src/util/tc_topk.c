#include "util/tc_topk.h"

#include <stdlib.h>
#include <string.h>

#include "util/tc_xxh64.h"

#define NSLOT (2 * TC_TOPK_K)
/* Seed of the hash of a cut value, so that it never shares the hash of a
 * whole value with the same bytes. */
#define TRUNC_SEED 1

void tc_topk_init(tc_topk *t) { memset(t, 0, sizeof *t); }

void tc_topk_free(tc_topk *t) {
  free(t->c);
  tc_topk_init(t);
}

typedef struct {
  const char *ptr;
  uint8_t len, truncated;
  uint64_t hash;
} topk_key;

static topk_key make_key(tc_str v, uint64_t hash) {
  topk_key k = {v.ptr, (uint8_t)v.len, 0, hash};
  if (v.len <= TC_TOPK_MAXLEN)
    return k;
  size_t cut = tc_topk_keep_len(v);
  k.len = (uint8_t)cut;
  k.truncated = 1;
  k.hash = tc_xxh64(v.ptr, cut, TRUNC_SEED);
  return k;
}

/* Room for N counters (at most TC_TOPK_K). */
static tc_err room(tc_topk *t, uint32_t n) {
  if (n <= t->cap)
    return TC_OK;
  uint32_t cap = t->cap ? t->cap : 1;
  while (cap < n)
    cap *= 2;
  if (cap > TC_TOPK_K)
    cap = TC_TOPK_K;
  tc_topk_counter *c = realloc(t->c, cap * sizeof *c);
  if (!c)
    return TC_E_NOMEM;
  t->c = c;
  t->cap = cap;
  return TC_OK;
}

static int key_is(const tc_topk_counter *c, const topk_key *k) {
  return c->hash == k->hash && c->len == k->len && c->truncated == k->truncated &&
         memcmp(c->val, k->ptr, k->len) == 0;
}

static tc_str val_of(const tc_topk_counter *c) {
  tc_str s = {c->val, c->len};
  return s;
}

/* The total order every choice is made by: higher count first, then lower
 * err, then lower hash (cheap, and a function of the value), then bytes and
 * the cut flag for the hash collisions. < 0 when A ranks before B. */
static int rank_cmp(const tc_topk_counter *a, const tc_topk_counter *b) {
  if (a->count != b->count)
    return a->count > b->count ? -1 : 1;
  if (a->err != b->err)
    return a->err < b->err ? -1 : 1;
  if (a->hash != b->hash)
    return a->hash < b->hash ? -1 : 1;
  int c = tc_str_cmp(val_of(a), val_of(b));
  return c ? c : (int)a->truncated - (int)b->truncated;
}

/* The listing order: as rank_cmp but by bytes before hash, for readers. */
static int list_cmp(const tc_topk_counter *a, const tc_topk_counter *b) {
  if (a->count != b->count)
    return a->count > b->count ? -1 : 1;
  if (a->err != b->err)
    return a->err < b->err ? -1 : 1;
  int c = tc_str_cmp(val_of(a), val_of(b));
  return c ? c : (int)a->truncated - (int)b->truncated;
}

static uint32_t home(uint64_t hash) { return (uint32_t)hash & (NSLOT - 1); }

/* The slot holding K, or the empty slot where it would go. */
static uint32_t probe(const tc_topk *t, const topk_key *k) {
  uint32_t i = home(k->hash);
  while (t->slot[i] && !key_is(&t->c[t->slot[i] - 1], k))
    i = (i + 1) & (NSLOT - 1);
  return i;
}

/* Backward-shift deletion keeps linear probing free of tombstones. */
static void slot_remove(tc_topk *t, uint32_t i) {
  uint32_t j = i;
  for (;;) {
    j = (j + 1) & (NSLOT - 1);
    if (!t->slot[j])
      break;
    uint32_t h = home(t->c[t->slot[j] - 1].hash);
    /* Move j's entry into the hole at i unless its home lies in (i, j]. */
    int stays = i <= j ? (h > i && h <= j) : (h > i || h <= j);
    if (!stays) {
      t->slot[i] = t->slot[j];
      i = j;
    }
  }
  t->slot[i] = 0;
}

static void slot_rebuild(tc_topk *t) {
  memset(t->slot, 0, sizeof t->slot);
  for (uint32_t n = 0; n < t->used; n++) {
    uint32_t i = home(t->c[n].hash);
    while (t->slot[i])
      i = (i + 1) & (NSLOT - 1);
    t->slot[i] = (uint8_t)(n + 1);
  }
}

static void fill(tc_topk_counter *c, const topk_key *k, uint64_t floor, uint64_t count,
                 uint64_t site) {
  c->count = floor + count;
  c->err = floor;
  c->hash = k->hash;
  c->sites = 1;
  c->site_first = c->site_last = site;
  c->len = k->len;
  c->truncated = k->truncated;
  memcpy(c->val, k->ptr, k->len);
}

/* The counter that ranks last, in one pass: integer compares decide all
 * but a full hash collision. */
static uint32_t worst(const tc_topk *t) {
  uint32_t w = 0;
  for (uint32_t i = 1; i < t->used; i++) {
    const tc_topk_counter *c = &t->c[i], *b = &t->c[w];
    if (c->count != b->count ? c->count < b->count
        : c->err != b->err   ? c->err > b->err
        : c->hash != b->hash ? c->hash > b->hash
                             : rank_cmp(c, b) > 0)
      w = i;
  }
  return w;
}

tc_err tc_topk_add_n(tc_topk *t, tc_str v, uint64_t hash, uint64_t site, uint64_t count) {
  topk_key k = make_key(v, hash);
  uint32_t i = probe(t, &k);
  if (!t->slot[i] && t->used < TC_TOPK_K && room(t, t->used + 1))
    return TC_E_NOMEM;
  t->n += count;
  if (t->slot[i]) {
    tc_topk_counter *c = &t->c[t->slot[i] - 1];
    c->count += count;
    if (c->site_last != site) {
      c->sites++;
      c->site_last = site;
    }
    return TC_OK;
  }
  uint32_t at = t->used;
  if (t->used == TC_TOPK_K) {
    at = worst(t);
    tc_topk_counter *w = &t->c[at];
    /* The evicted value occurred at most its count times. */
    t->floor = w->count;
    topk_key wk = {w->val, w->len, w->truncated, w->hash};
    slot_remove(t, probe(t, &wk));
    i = probe(t, &k);
  } else {
    t->used++;
  }
  fill(&t->c[at], &k, t->floor, count, site);
  t->slot[i] = (uint8_t)(at + 1);
  return TC_OK;
}

static const tc_topk_counter *find(const tc_topk *t, const tc_topk_counter *c) {
  if (!t->used)
    return NULL;
  topk_key k = {c->val, c->len, c->truncated, c->hash};
  uint32_t i = probe(t, &k);
  return t->slot[i] ? &t->c[t->slot[i] - 1] : NULL;
}

static int rank_qsort(const void *a, const void *b) { return rank_cmp(a, b); }

tc_err tc_topk_merge(tc_topk *dst, const tc_topk *src) {
  if (!src->n)
    return TC_OK;
  /* Every candidate's count and err: its own where a side counted it, else
   * that side's floor, the most it can have hidden there. */
  tc_topk_counter cand[2 * TC_TOPK_K];
  uint32_t n = 0;
  for (uint32_t i = 0; i < dst->used; i++) {
    tc_topk_counter c = dst->c[i];
    const tc_topk_counter *s = find(src, &c);
    if (s) {
      c.count += s->count;
      c.err += s->err;
      c.sites += s->sites - (c.site_last == s->site_first);
      c.site_last = s->site_last;
    } else {
      c.count += src->floor;
      c.err += src->floor;
    }
    cand[n++] = c;
  }
  for (uint32_t i = 0; i < src->used; i++) {
    if (find(dst, &src->c[i]))
      continue;
    tc_topk_counter c = src->c[i];
    c.count += dst->floor;
    c.err += dst->floor;
    cand[n++] = c;
  }
  uint64_t floor = dst->floor + src->floor;
  /* Only a choice needs the order: the counters' places in c[] decide
   * nothing (every choice ranks by rank_cmp, every listing sorts). */
  if (n > TC_TOPK_K) {
    qsort(cand, n, sizeof *cand, rank_qsort);
    /* Every candidate's count is at least the sum of the floors, so the
     * best one dropped sets the new floor. */
    floor = cand[TC_TOPK_K].count;
    n = TC_TOPK_K;
  }
  if (room(dst, n))
    return TC_E_NOMEM;
  memcpy(dst->c, cand, n * sizeof *cand);
  dst->used = n;
  dst->floor = floor;
  dst->n += src->n;
  slot_rebuild(dst);
  return TC_OK;
}

static int list_qsort(const void *a, const void *b) {
  return list_cmp(*(const tc_topk_counter *const *)a, *(const tc_topk_counter *const *)b);
}

/* Pointers to the counters in listing order; returns how many. */
static uint32_t sorted(const tc_topk *t, const tc_topk_counter **out) {
  for (uint32_t i = 0; i < t->used; i++)
    out[i] = &t->c[i];
  qsort(out, t->used, sizeof *out, list_qsort);
  return t->used;
}

size_t tc_topk_list(const tc_topk *t, tc_topk_item *out) {
  const tc_topk_counter *p[TC_TOPK_K];
  uint32_t n = sorted(t, p);
  for (uint32_t i = 0; i < n; i++) {
    tc_topk_item it = {val_of(p[i]), p[i]->truncated, p[i]->count, p[i]->err, p[i]->sites};
    out[i] = it;
  }
  return n;
}

/* Layout: uvar n, uvar floor, uvar used, then per counter in listing order:
 * bytes value, u8 truncated, uvar count, uvar err, uvar sites,
 * u64 site_first, u64 site_last. */
void tc_topk_encode(const tc_topk *t, tc_bin_buf *b) {
  const tc_topk_counter *p[TC_TOPK_K];
  uint32_t n = sorted(t, p);
  tc_bin_put_uvar(b, t->n);
  tc_bin_put_uvar(b, t->floor);
  tc_bin_put_uvar(b, n);
  for (uint32_t i = 0; i < n; i++) {
    tc_bin_put_bytes(b, val_of(p[i]));
    tc_bin_put_u8(b, p[i]->truncated);
    tc_bin_put_uvar(b, p[i]->count);
    tc_bin_put_uvar(b, p[i]->err);
    tc_bin_put_uvar(b, p[i]->sites);
    tc_bin_put_u64(b, p[i]->site_first);
    tc_bin_put_u64(b, p[i]->site_last);
  }
}

/* Smallest encoded counter: empty value, flag, three one-byte uvars, tags. */
#define COUNTER_MIN_BYTES (1 + 1 + 3 + 16)

static const char *check_counter(const tc_topk_counter *c, uint64_t floor) {
  if (c->truncated > 1)
    return "top value's cut flag is neither 0 nor 1";
  if (c->truncated && c->len < TC_TOPK_MAXLEN - 3)
    return "cut top value shorter than the cut length";
  if (c->err >= c->count)
    return "top value's error not below its count";
  if (c->err > floor || c->count < floor)
    return "top value's count or error outside the sketch's floor";
  if (c->sites < 1 || c->sites > c->count - c->err)
    return "top value's sites outside 1 to its certain count";
  return NULL;
}

tc_err tc_topk_decode(tc_bin_reader *r, tc_topk *t) {
  size_t start = r->pos;
  t->n = tc_bin_get_uvar(r);
  t->floor = tc_bin_get_uvar(r);
  uint64_t used = tc_bin_get_count(r, TC_TOPK_K, COUNTER_MIN_BYTES);
  if (!r->err && used && room(t, (uint32_t)used))
    return TC_E_NOMEM;
  /* The counts can sum to at most n: see the bound in the header. */
  uint64_t total = (TC_TOPK_K - used) * t->floor;
  int overflow = t->floor && TC_TOPK_K - used > UINT64_MAX / t->floor;
  for (uint32_t i = 0; i < used && !r->err; i++) {
    size_t at = r->pos;
    tc_topk_counter *c = &t->c[i];
    tc_str v = tc_bin_get_bytes(r, TC_TOPK_MAXLEN);
    c->truncated = tc_bin_get_u8(r);
    c->count = tc_bin_get_uvar(r);
    c->err = tc_bin_get_uvar(r);
    c->sites = tc_bin_get_uvar(r);
    c->site_first = tc_bin_get_u64(r);
    c->site_last = tc_bin_get_u64(r);
    if (r->err)
      break;
    c->len = (uint8_t)v.len;
    memcpy(c->val, v.ptr, v.len);
    c->hash = tc_xxh64(v.ptr, v.len, c->truncated ? TRUNC_SEED : 0);
    const char *why = check_counter(c, t->floor);
    topk_key k = {c->val, c->len, c->truncated, c->hash};
    uint32_t slot = probe(t, &k);
    if (!why && t->slot[slot])
      why = "top value listed twice";
    if (!why && i && list_cmp(&t->c[i - 1], c) >= 0)
      why = "top values not in listing order";
    overflow |= c->count > UINT64_MAX - total;
    total += c->count;
    if (why) {
      tc_bin_fail_at(r, at, why);
      break;
    }
    t->slot[slot] = (uint8_t)(i + 1);
    t->used = i + 1;
  }
  if (!r->err && (overflow || total > t->n || (used == 0 && t->n)))
    tc_bin_fail_at(r, start, "top-value counts do not add up to the values counted");
  if (r->err) {
    tc_topk_free(t);
    return r->err;
  }
  return TC_OK;
}
