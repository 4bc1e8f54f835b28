#include "util/tc_valprof.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/tc_sketch_bin.h"
#include "util/tc_xxh64.h"

#define T_NULL 0
#define T_BOOL 1
#define T_NUMBER 2
#define T_STRING 3

void tc_valprof_init(tc_valprof *p, uint32_t flags) {
  memset(p, 0, sizeof *p);
  p->flags = flags;
}

static void sketches_free(tc_vp_sketches *sk) {
  if (!sk)
    return;
  tc_sketch_free(&sk->pos);
  tc_sketch_free(&sk->negs);
  free(sk);
}

void tc_valprof_free(tc_valprof *p) {
  free(p->vals);
  sketches_free(p->sk);
  if (p->str) {
    tc_topk_free(&p->str->top);
    tc_hll_free(&p->str->distinct);
    free(p->str);
  }
  tc_valprof_init(p, p->flags);
}

/* The string part, made at the first string. */
static tc_err strings_of(tc_valprof *p) {
  if (p->str)
    return TC_OK;
  if (!(p->str = calloc(1, sizeof *p->str)))
    return TC_E_NOMEM;
  tc_topk_init(&p->str->top);
  tc_hll_init(&p->str->distinct);
  return TC_OK;
}

/* The constant as a profile shows it: a URL cut unless whole URLs were
 * asked for, then cut to the kept length. */
static void keep_shown(tc_valprof *p, tc_str s, tc_vclass c) {
  char buf[TC_VALCLASS_CUT_MAX];
  tc_str shown = p->flags & TC_VP_WHOLE_URLS ? s : tc_valclass_cut(s, c, buf);
  size_t kept = tc_topk_keep_len(shown);
  memcpy(p->str->kval, shown.ptr, kept);
  p->k.kept = (uint8_t)kept;
  p->k.trunc = kept < shown.len;
}

static void konst_forget(tc_valprof *p) {
  memset(&p->k, 0, sizeof p->k);
  p->k.state = TC_VP_CONST_NO;
}

static int konst_is(const tc_valprof_const *k, unsigned type, double num, uint64_t len,
                    uint64_t hash) {
  return k->type == type && k->num == num && k->len == len && k->hash == hash;
}

/* Whether a value seen on SITE equals the constant; the first value
 * becomes it. Sites count as top values count theirs (tc_topk.h). */
static void konst_see(tc_valprof *p, unsigned type, double num, uint64_t len, uint64_t hash,
                      uint64_t site) {
  if (p->k.state == TC_VP_CONST_NO)
    return;
  if (p->k.state == TC_VP_CONST_NONE) {
    p->k.state = TC_VP_CONST_YES;
    p->k.type = (uint8_t)type;
    p->k.num = num;
    p->k.len = len;
    p->k.hash = hash;
    p->k.sites = 1;
    p->k.site_first = p->k.site_last = site;
    return;
  }
  if (!konst_is(&p->k, type, num, len, hash)) {
    konst_forget(p);
    return;
  }
  if (site != p->k.site_last) {
    p->k.sites++;
    p->k.site_last = site;
  }
}

/* The sketches take finite magnitudes; the exact extremes live in the
 * profile. */
static double magnitude(double v) { return fabs(v) > DBL_MAX ? DBL_MAX : fabs(v); }

/* V COUNT times into the sketch of its sign. */
static tc_err sketch_put(tc_vp_sketches *sk, double v, uint64_t count) {
  return tc_sketch_add_n(v < 0 ? &sk->negs : &sk->pos, magnitude(v), count);
}

/* The sketches of the exact list: the same buckets, counts, min, max and
 * (from `sums`) sums as had every number gone into them as it came. NULL
 * when memory fails. */
static tc_vp_sketches *sketches_of_list(const tc_valprof *p) {
  tc_vp_sketches *sk = calloc(1, sizeof *sk);
  if (!sk)
    return NULL;
  tc_sketch_init(&sk->pos);
  tc_sketch_init(&sk->negs);
  for (uint32_t i = 0; i < p->nvals; i++)
    if (sketch_put(sk, p->vals[i].v, p->vals[i].count)) {
      sketches_free(sk);
      return NULL;
    }
  sk->pos.sum = p->sums[0];
  sk->negs.sum = p->sums[1];
  return sk;
}

/* More distinct numbers than the list holds: the sketches take over. */
static tc_err vals_give_up(tc_valprof *p) {
  if (p->vals_over)
    return TC_OK;
  tc_vp_sketches *sk = sketches_of_list(p);
  if (!sk)
    return TC_E_NOMEM;
  free(p->vals);
  p->vals = NULL;
  p->nvals = p->vals_cap = 0;
  p->sums[0] = p->sums[1] = 0;
  p->vals_over = 1;
  p->sk = sk;
  return TC_OK;
}

/* Counts V COUNT times: in the exact list while it holds, else (giving it
 * up when a distinct value more would not fit) in the sketches. The
 * sums are the caller's. */
static tc_err vals_add(tc_valprof *p, double v, uint64_t count) {
  if (p->vals_over)
    return sketch_put(p->sk, v, count);
  uint32_t i = 0;
  while (i < p->nvals && p->vals[i].v < v)
    i++;
  if (i < p->nvals && p->vals[i].v == v) {
    p->vals[i].count += count;
    return TC_OK;
  }
  if (p->nvals == TC_VP_EXACT_NUMS) {
    tc_err e = vals_give_up(p);
    return e ? e : sketch_put(p->sk, v, count);
  }
  if (p->nvals == p->vals_cap) {
    uint32_t cap = p->vals_cap ? 2 * p->vals_cap : 1;
    tc_vp_num *nv = realloc(p->vals, cap * sizeof *nv);
    if (!nv)
      return TC_E_NOMEM;
    p->vals = nv;
    p->vals_cap = (uint8_t)cap;
  }
  memmove(p->vals + i + 1, p->vals + i, (p->nvals - i) * sizeof *p->vals);
  p->vals[i] = (tc_vp_num){v, count};
  p->nvals++;
  return TC_OK;
}

static tc_err add_number(tc_valprof *p, double v, uint64_t site, uint64_t count) {
  if (v != v)
    v = 0; /* JSON has no NaN; stay total anyway, as tc_sketch does */
  if (v == 0)
    v = 0; /* -0 and 0 are one constant */
  unsigned f = tc_valclass_num(v);
  uint64_t had = p->types[T_NUMBER] - count;
  if (!had || v < p->min)
    p->min = v;
  if (!had || v > p->max)
    p->max = v;
  p->zeros += count * ((f & TC_VN_ZERO) != 0);
  p->minus1 += count * ((f & TC_VN_MINUS1) != 0);
  p->frac += count * ((f & TC_VN_FRAC) != 0);
  p->neg += count * ((f & TC_VN_NEG) != 0);
  konst_see(p, TC_JT_NUMBER, v, 0, 0, site);
  /* A list given up by this very value has the sum without it, and the
   * sketch adds it. */
  tc_err e = vals_add(p, v, 1);
  if (!e && !p->vals_over)
    p->sums[v < 0] += magnitude(v);
  if (e || count == 1)
    return e;
  /* The rest of a run: V is counted now, in the list or the sketches, and
   * its sum grows by one add at a time, as separate adds would round. */
  count--;
  if (p->vals_over)
    return tc_sketch_add_run(v < 0 ? &p->sk->negs : &p->sk->pos, magnitude(v), count);
  for (uint64_t i = 0; i < count; i++)
    p->sums[v < 0] += magnitude(v);
  return vals_add(p, v, count);
}

static tc_err add_string(tc_valprof *p, tc_str s, uint64_t site, uint64_t count) {
  tc_err e = strings_of(p);
  if (e)
    return e;
  tc_vp_strings *st = p->str;
  uint64_t h = tc_xxh64(s.ptr, s.len, 0);
  tc_vclass c = tc_valclass_str(s);
  if (p->types[T_STRING] == count || s.len < p->len_min)
    p->len_min = s.len;
  if (s.len > p->len_max)
    p->len_max = s.len;
  st->cls[c] += count;
  int first = p->k.state == TC_VP_CONST_NONE;
  konst_see(p, TC_JT_STRING, 0, s.len, h, site);
  if (first)
    keep_shown(p, s, c);
  if ((e = tc_hll_add(&st->distinct, h)))
    return e;
  if (!(p->flags & TC_VP_WHOLE_URLS) && tc_valclass_is_url(c)) {
    char buf[TC_VALCLASS_CUT_MAX];
    tc_str cut = tc_valclass_cut(s, c, buf);
    return tc_topk_add_n(&st->top, cut, tc_xxh64(cut.ptr, cut.len, 0), site, count);
  }
  return tc_topk_add_n(&st->top, s, h, site, count);
}

tc_err tc_valprof_add_n(tc_valprof *p, unsigned type, double num, tc_str str, uint64_t site,
                        uint64_t count) {
  if (!type || type > TC_JT_OBJECT || (type & (type - 1)) || !count)
    return TC_E_USAGE;
  p->n += count;
  p->types[__builtin_ctz(type)] += count;
  switch (type) {
  case TC_JT_NUMBER:
    return add_number(p, num, site, count);
  case TC_JT_STRING:
    return add_string(p, str, site, count);
  case TC_JT_BOOL:
    p->falses += count * (num == 0);
    konst_see(p, type, num != 0, 0, 0, site);
    return TC_OK;
  case TC_JT_NULL:
    konst_see(p, type, 0, 0, 0, site);
    return TC_OK;
  default:
    if (p->k.state != TC_VP_CONST_NO)
      konst_forget(p);
    return TC_OK;
  }
}

/* DST's string part exists when SRC holds a string constant. */
static void konst_merge(tc_valprof *dst, const tc_valprof *src) {
  if (src->k.state == TC_VP_CONST_NONE || dst->k.state == TC_VP_CONST_NO)
    return;
  if (src->k.state == TC_VP_CONST_NO) {
    konst_forget(dst);
    return;
  }
  if (dst->k.state == TC_VP_CONST_NONE) {
    dst->k = src->k;
    if (src->k.type == TC_JT_STRING)
      memcpy(dst->str->kval, src->str->kval, src->k.kept);
    return;
  }
  if (!konst_is(&dst->k, src->k.type, src->k.num, src->k.len, src->k.hash)) {
    konst_forget(dst);
    return;
  }
  dst->k.sites += src->k.sites - (dst->k.site_last == src->k.site_first);
  dst->k.site_last = src->k.site_last;
}

static tc_err merge_numbers(tc_valprof *dst, const tc_valprof *src) {
  tc_err e = TC_OK;
  if (src->vals_over) {
    if (!(e = vals_give_up(dst)) && !(e = tc_sketch_merge(&dst->sk->pos, &src->sk->pos)))
      e = tc_sketch_merge(&dst->sk->negs, &src->sk->negs);
    return e;
  }
  /* The sums add as the sketches' would, whatever the list does. */
  double pos = dst->vals_over ? dst->sk->pos.sum : dst->sums[0];
  double negs = dst->vals_over ? dst->sk->negs.sum : dst->sums[1];
  for (uint32_t i = 0; !e && i < src->nvals; i++)
    e = vals_add(dst, src->vals[i].v, src->vals[i].count);
  if (e)
    return e;
  double *sum = dst->vals_over ? &dst->sk->pos.sum : &dst->sums[0];
  double *nsum = dst->vals_over ? &dst->sk->negs.sum : &dst->sums[1];
  *sum = pos + src->sums[0];
  *nsum = negs + src->sums[1];
  return TC_OK;
}

static tc_err merge_strings(tc_valprof *dst, const tc_valprof *src) {
  tc_err e = strings_of(dst);
  if (e)
    return e;
  for (int i = 0; i < TC_VC_COUNT; i++)
    dst->str->cls[i] += src->str->cls[i];
  if ((e = tc_hll_merge(&dst->str->distinct, &src->str->distinct)))
    return e;
  return tc_topk_merge(&dst->str->top, &src->str->top);
}

tc_err tc_valprof_merge(tc_valprof *dst, const tc_valprof *src) {
  if (dst->flags != src->flags)
    return TC_E_USAGE;
  if (!src->n)
    return TC_OK;
  uint64_t dnum = dst->types[T_NUMBER], dstr = dst->types[T_STRING];
  tc_err e = TC_OK;
  /* The parts that can fail first, so that a failure leaves DST's counts
   * as they were. */
  if (src->types[T_NUMBER] && (e = merge_numbers(dst, src)))
    return e;
  if (src->types[T_STRING] && (e = merge_strings(dst, src)))
    return e;
  if (src->types[T_NUMBER]) {
    if (!dnum || src->min < dst->min)
      dst->min = src->min;
    if (!dnum || src->max > dst->max)
      dst->max = src->max;
  }
  if (src->types[T_STRING]) {
    if (!dstr || src->len_min < dst->len_min)
      dst->len_min = src->len_min;
    if (src->len_max > dst->len_max)
      dst->len_max = src->len_max;
  }
  dst->n += src->n;
  for (int i = 0; i < TC_VP_NTYPES; i++)
    dst->types[i] += src->types[i];
  dst->falses += src->falses;
  dst->zeros += src->zeros;
  dst->minus1 += src->minus1;
  dst->frac += src->frac;
  dst->neg += src->neg;
  konst_merge(dst, src);
  return TC_OK;
}

/* The value of rank R (from 1) of sketch S, asked so that ceil(q * n)
 * lands on R whatever the rounding. */
static double at_rank(const tc_sketch *s, uint64_t r) {
  return tc_sketch_quantile(s, ((double)r - 0.5) / (double)s->n);
}

double tc_valprof_quantile(const tc_valprof *p, double q) {
  uint64_t n = p->types[T_NUMBER];
  if (!n)
    return 0;
  if (q <= 0)
    return p->min;
  if (q >= 1)
    return p->max;
  uint64_t r = (uint64_t)ceil(q * (double)n);
  if (r < 1)
    r = 1;
  if (r > n)
    r = n;
  if (!p->vals_over) {
    uint64_t seen = 0;
    for (uint32_t i = 0; i < p->nvals; i++)
      if ((seen += p->vals[i].count) >= r)
        return p->vals[i].v;
    return p->max;
  }
  /* Ascending, the negatives come first, largest magnitude first. */
  if (r <= p->neg)
    return -at_rank(&p->sk->negs, p->neg - r + 1);
  return at_rank(&p->sk->pos, r - p->neg);
}

/* Layout (after the u32 flags): uvar n, a uvar per type, uvar falses;
 * when there are numbers: uvar zeros, minus1, frac, neg, f64 min, max, the
 * two sketches (while the exact list holds, the sketches of its numbers),
 * u8 vals_over, and unless set uvar nvals and per value f64, uvar count;
 * when there are strings: uvar len_min, len_max, a uvar per class, the top
 * values, the distinct sketch; then u8 konst, and for a constant u8 ktype,
 * uvar ksites, u64 ksite_first, ksite_last, then f64 knum (bool, number)
 * or uvar klen, u64 khash, u8 ktrunc, bytes kval (string). */
void tc_valprof_encode(const tc_valprof *p, tc_bin_buf *b) {
  tc_bin_put_u32(b, p->flags);
  tc_bin_put_uvar(b, p->n);
  for (int i = 0; i < TC_VP_NTYPES; i++)
    tc_bin_put_uvar(b, p->types[i]);
  tc_bin_put_uvar(b, p->falses);
  if (p->types[T_NUMBER]) {
    tc_bin_put_uvar(b, p->zeros);
    tc_bin_put_uvar(b, p->minus1);
    tc_bin_put_uvar(b, p->frac);
    tc_bin_put_uvar(b, p->neg);
    tc_bin_put_f64(b, p->min);
    tc_bin_put_f64(b, p->max);
    tc_vp_sketches *made = p->vals_over ? NULL : sketches_of_list(p);
    const tc_vp_sketches *sk = p->vals_over ? p->sk : made;
    if (!sk) {
      /* A failed put as far as the buffer's user can tell (tc_bin.h). */
      if (!b->err)
        b->err = TC_E_NOMEM;
      return;
    }
    tc_sketch_encode(&sk->pos, b);
    tc_sketch_encode(&sk->negs, b);
    sketches_free(made);
    tc_bin_put_u8(b, p->vals_over);
    if (!p->vals_over) {
      tc_bin_put_uvar(b, p->nvals);
      for (uint32_t i = 0; i < p->nvals; i++) {
        tc_bin_put_f64(b, p->vals[i].v);
        tc_bin_put_uvar(b, p->vals[i].count);
      }
    }
  }
  if (p->types[T_STRING]) {
    tc_bin_put_uvar(b, p->len_min);
    tc_bin_put_uvar(b, p->len_max);
    for (int i = 0; i < TC_VC_COUNT; i++)
      tc_bin_put_uvar(b, p->str->cls[i]);
    tc_topk_encode(&p->str->top, b);
    tc_hll_encode(&p->str->distinct, b);
  }
  tc_bin_put_u8(b, p->k.state);
  if (p->k.state != TC_VP_CONST_YES)
    return;
  tc_bin_put_u8(b, p->k.type);
  tc_bin_put_uvar(b, p->k.sites);
  tc_bin_put_u64(b, p->k.site_first);
  tc_bin_put_u64(b, p->k.site_last);
  if (p->k.type == TC_JT_STRING) {
    tc_bin_put_uvar(b, p->k.len);
    tc_bin_put_u64(b, p->k.hash);
    tc_bin_put_u8(b, p->k.trunc);
    tc_bin_put_bytes(b, tc_valprof_const_str(p));
  } else if (p->k.type != TC_JT_NULL) {
    tc_bin_put_f64(b, p->k.num);
  }
}

/* Sums V[0..N) into *SUM; 0 when it overflows. */
static int sum_ok(const uint64_t *v, uint32_t n, uint64_t *sum) {
  uint64_t s = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (v[i] > UINT64_MAX - s)
      return 0;
    s += v[i];
  }
  *sum = s;
  return 1;
}

static const char *check_numbers(const tc_valprof *p, const tc_vp_sketches *sk) {
  uint64_t num = p->types[T_NUMBER];
  if (p->zeros > num || p->minus1 > p->neg || p->frac > num || p->neg > num ||
      p->zeros > num - p->neg)
    return "number counts above the number of numbers";
  /* Adding maps -0 to 0, so neither extreme is ever -0. */
  if (!(p->min <= p->max) || (p->min == 0 && signbit(p->min)) || (p->max == 0 && signbit(p->max)))
    return "number min and max out of order";
  if (sk->pos.n != num - p->neg || sk->negs.n != p->neg)
    return "number sketches do not hold every number";
  if ((p->neg > 0) != (p->min < 0) || (p->neg < num) != (p->max >= 0))
    return "number min and max disagree with the count of negatives";
  return NULL;
}

static const char *check_vals(const tc_valprof *p) {
  if (p->vals_over > 1)
    return "exact number list flag is neither 0 nor 1";
  if (p->vals_over)
    return p->types[T_NUMBER] > TC_VP_EXACT_NUMS ? NULL : "exact number list given up too early";
  uint64_t sum = 0;
  for (uint32_t i = 0; i < p->nvals; i++) {
    if (p->vals[i].count > UINT64_MAX - sum)
      return "exact number counts do not add up to the numbers";
    sum += p->vals[i].count;
  }
  if (!p->nvals || sum != p->types[T_NUMBER])
    return "exact number counts do not add up to the numbers";
  for (uint32_t i = 0; i < p->nvals; i++) {
    if (!p->vals[i].count || (p->vals[i].v == 0 && signbit(p->vals[i].v)))
      return "exact number list holds an empty or -0 entry";
    if (i && !(p->vals[i - 1].v < p->vals[i].v))
      return "exact number list not strictly ascending";
  }
  if (p->vals[0].v != p->min || p->vals[p->nvals - 1].v != p->max)
    return "exact number list disagrees with min and max";
  return NULL;
}

static const char *check_strings(const tc_valprof *p) {
  uint64_t str = p->types[T_STRING], cls;
  if (!sum_ok(p->str->cls, TC_VC_COUNT, &cls) || cls != str)
    return "string class counts do not add up to the strings";
  if (p->len_min > p->len_max || (p->str->cls[TC_VC_EMPTY] > 0) != (p->len_min == 0))
    return "string lengths disagree with the count of empty strings";
  if (p->str->top.n != str || tc_hll_count(&p->str->distinct) < 1)
    return "string sketches do not hold every string";
  return NULL;
}

static const char *check_konst(const tc_valprof *p) {
  if ((p->k.state == TC_VP_CONST_NONE) != (p->n == 0))
    return "constant state disagrees with the number of values";
  if (p->k.state != TC_VP_CONST_YES)
    return NULL;
  uint8_t t = p->k.type;
  if (!t || t > TC_JT_STRING || (t & (t - 1)) || p->types[__builtin_ctz(t)] != p->n)
    return "constant of a type not every value has";
  if (p->k.sites < 1 || p->k.sites > p->n)
    return "constant's sites outside 1 to its count";
  if (t == TC_JT_NUMBER && (p->k.num != p->min || p->k.num != p->max))
    return "number constant outside the numbers' min and max";
  if (t == TC_JT_BOOL && (p->falses ? p->k.num != 0 || p->falses != p->n : p->k.num != 1))
    return "boolean constant disagrees with the count of false";
  if (t == TC_JT_STRING && (p->k.len != p->len_min || p->k.len != p->len_max))
    return "string constant's length outside the strings' lengths";
  if (t == TC_JT_STRING && p->k.trunc > 1)
    return "constant's cut flag is neither 0 nor 1";
  if (t == TC_JT_STRING && p->k.trunc && p->k.kept < TC_TOPK_MAXLEN - 3)
    return "cut constant shorter than the cut length";
  return NULL;
}

static tc_err fail(tc_bin_reader *r, tc_valprof *p, size_t at, const char *why) {
  if (why)
    tc_bin_fail_at(r, at, why);
  tc_valprof_free(p);
  return r->err ? r->err : TC_E_NOMEM;
}

/* Whether X and Y are the same double, -0 told from 0: a sketch read
 * back must encode to the bytes it was read from. */
static int same_double(double x, double y) { return x == y && signbit(x) == signbit(y); }

/* Whether A and B hold the same values: n, zeros, min, max and buckets. */
static int same_buckets(const tc_sketch *a, const tc_sketch *b) {
  if (a->n != b->n || a->zeros != b->zeros ||
      (a->n && (!same_double(a->min, b->min) || !same_double(a->max, b->max))))
    return 0;
  uint32_t pa = 0, pb = 0;
  int32_t ka, kb;
  uint64_t ca, cb;
  for (;;) {
    int ha = tc_sketch_next(a, &pa, &ka, &ca), hb = tc_sketch_next(b, &pb, &kb, &cb);
    if (ha != hb || (ha && (ka != kb || ca != cb)))
      return 0;
    if (!ha)
      return 1;
  }
}

/* The numbers' part; the sketches read are kept only once the exact list
 * is given up. */
static tc_err decode_numbers(tc_bin_reader *r, tc_valprof *p) {
  size_t at = r->pos;
  p->zeros = tc_bin_get_uvar(r);
  p->minus1 = tc_bin_get_uvar(r);
  p->frac = tc_bin_get_uvar(r);
  p->neg = tc_bin_get_uvar(r);
  p->min = tc_bin_get_f64(r);
  p->max = tc_bin_get_f64(r);
  tc_vp_sketches *sk = calloc(1, sizeof *sk);
  if (!sk)
    return fail(r, p, at, NULL);
  tc_sketch_init(&sk->pos);
  tc_sketch_init(&sk->negs);
  p->sk = sk; /* freed with P on failure */
  if (r->err || tc_sketch_decode(r, &sk->pos) || tc_sketch_decode(r, &sk->negs))
    return fail(r, p, at, NULL);
  p->vals_over = tc_bin_get_u8(r);
  if (!p->vals_over) {
    uint64_t nv = tc_bin_get_count(r, TC_VP_EXACT_NUMS, 9);
    if (!r->err && nv && !(p->vals = malloc(nv * sizeof *p->vals)))
      return fail(r, p, at, NULL);
    p->nvals = p->vals_cap = (uint8_t)nv;
    for (uint32_t i = 0; i < p->nvals; i++) {
      p->vals[i].v = tc_bin_get_f64(r);
      p->vals[i].count = tc_bin_get_uvar(r);
    }
  }
  if (r->err)
    return fail(r, p, at, NULL);
  const char *why = check_numbers(p, sk);
  if (!why)
    why = check_vals(p);
  if (why)
    return fail(r, p, at, why);
  if (p->vals_over)
    return TC_OK;
  /* While the list holds the sketches say nothing it does not, but their
   * sums: one encoding per state. */
  p->sums[0] = sk->pos.sum;
  p->sums[1] = sk->negs.sum;
  tc_vp_sketches *made = sketches_of_list(p);
  if (!made)
    return fail(r, p, at, NULL);
  int same = same_buckets(&made->pos, &sk->pos) && same_buckets(&made->negs, &sk->negs);
  sketches_free(made);
  sketches_free(sk);
  p->sk = NULL;
  return same ? TC_OK : fail(r, p, at, "number sketches disagree with the exact number list");
}

tc_err tc_valprof_decode(tc_bin_reader *r, tc_valprof *p) {
  size_t start = r->pos;
  p->flags = tc_bin_get_u32(r);
  p->n = tc_bin_get_uvar(r);
  for (int i = 0; i < TC_VP_NTYPES; i++)
    p->types[i] = tc_bin_get_uvar(r);
  p->falses = tc_bin_get_uvar(r);
  uint64_t sum;
  if (r->err)
    return fail(r, p, start, NULL);
  if (p->flags & ~TC_VP_WHOLE_URLS)
    return fail(r, p, start, "profile flags unknown to this version");
  if (!sum_ok(p->types, TC_VP_NTYPES, &sum) || sum != p->n || p->falses > p->types[T_BOOL])
    return fail(r, p, start, "profile type counts do not add up to its values");
  tc_err e;
  if (p->types[T_NUMBER] && (e = decode_numbers(r, p)))
    return e;
  size_t at = r->pos;
  if (p->types[T_STRING]) {
    if (strings_of(p))
      return fail(r, p, at, NULL);
    p->len_min = tc_bin_get_uvar(r);
    p->len_max = tc_bin_get_uvar(r);
    for (int i = 0; i < TC_VC_COUNT; i++)
      p->str->cls[i] = tc_bin_get_uvar(r);
    if (r->err || tc_topk_decode(r, &p->str->top) || tc_hll_decode(r, &p->str->distinct))
      return fail(r, p, at, NULL);
    const char *why = check_strings(p);
    if (why)
      return fail(r, p, at, why);
  }
  at = r->pos;
  p->k.state = tc_bin_get_u8(r);
  if (p->k.state > TC_VP_CONST_NO)
    return fail(r, p, at, "unknown constant state");
  if (p->k.state == TC_VP_CONST_YES) {
    p->k.type = tc_bin_get_u8(r);
    p->k.sites = tc_bin_get_uvar(r);
    p->k.site_first = tc_bin_get_u64(r);
    p->k.site_last = tc_bin_get_u64(r);
    if (p->k.type == TC_JT_STRING) {
      p->k.len = tc_bin_get_uvar(r);
      p->k.hash = tc_bin_get_u64(r);
      p->k.trunc = tc_bin_get_u8(r);
      tc_str v = tc_bin_get_bytes(r, TC_TOPK_MAXLEN);
      if (!r->err && !p->str)
        return fail(r, p, at, "constant of a type not every value has");
      if (!r->err) {
        memcpy(p->str->kval, v.ptr, v.len);
        p->k.kept = (uint8_t)v.len;
      }
    } else if (p->k.type != TC_JT_NULL) {
      p->k.num = tc_bin_get_f64(r);
    }
  }
  if (r->err)
    return fail(r, p, at, NULL);
  const char *why = check_konst(p);
  if (why)
    return fail(r, p, at, why);
  return TC_OK;
}

int tc_valprof_may_show(tc_str v, uint64_t sites, uint64_t min_sites) {
  return !v.len || tc_valclass_is_url(tc_valclass_str(v)) || sites >= min_sites;
}
