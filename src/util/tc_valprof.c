#include "util/tc_valprof.h"

#include <float.h>
#include <math.h>
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
  tc_sketch_init(&p->pos);
  tc_sketch_init(&p->negs);
  tc_topk_init(&p->top);
  tc_hll_init(&p->distinct);
}

void tc_valprof_free(tc_valprof *p) {
  tc_sketch_free(&p->pos);
  tc_sketch_free(&p->negs);
  tc_topk_free(&p->top);
  tc_hll_free(&p->distinct);
  tc_valprof_init(p, p->flags);
}

/* The constant as a profile shows it: a URL cut unless whole URLs were
 * asked for, then cut to the kept length. */
static void keep_shown(tc_valprof *p, tc_str s, tc_vclass c) {
  char buf[TC_VALCLASS_CUT_MAX];
  tc_str shown = p->flags & TC_VP_WHOLE_URLS ? s : tc_valclass_cut(s, c, buf);
  size_t kept = tc_topk_keep_len(shown);
  memcpy(p->k.val, shown.ptr, kept);
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

static void vals_give_up(tc_valprof *p) {
  p->vals_over = 1;
  p->nvals = 0;
  memset(p->vals, 0, sizeof p->vals);
  memset(p->vcounts, 0, sizeof p->vcounts);
}

/* Counts V COUNT times in the exact list, or gives the list up for good
 * when a distinct value more would not fit. */
static void vals_add(tc_valprof *p, double v, uint64_t count) {
  if (p->vals_over)
    return;
  uint32_t i = 0;
  while (i < p->nvals && p->vals[i] < v)
    i++;
  if (i < p->nvals && p->vals[i] == v) {
    p->vcounts[i] += count;
    return;
  }
  if (p->nvals == TC_VP_EXACT_NUMS) {
    vals_give_up(p);
    return;
  }
  memmove(p->vals + i + 1, p->vals + i, (p->nvals - i) * sizeof *p->vals);
  memmove(p->vcounts + i + 1, p->vcounts + i, (p->nvals - i) * sizeof *p->vcounts);
  p->vals[i] = v;
  p->vcounts[i] = count;
  p->nvals++;
}

static tc_err add_number(tc_valprof *p, double v, uint64_t site) {
  if (v != v)
    v = 0; /* JSON has no NaN; stay total anyway, as tc_sketch does */
  if (v == 0)
    v = 0; /* -0 and 0 are one constant */
  unsigned f = tc_valclass_num(v);
  uint64_t had = p->types[T_NUMBER] - 1;
  if (!had || v < p->min)
    p->min = v;
  if (!had || v > p->max)
    p->max = v;
  p->zeros += (f & TC_VN_ZERO) != 0;
  p->minus1 += (f & TC_VN_MINUS1) != 0;
  p->frac += (f & TC_VN_FRAC) != 0;
  konst_see(p, TC_JT_NUMBER, v, 0, 0, site);
  vals_add(p, v, 1);
  /* The sketches take finite magnitudes; the exact extremes live above. */
  double mag = fabs(v) > DBL_MAX ? DBL_MAX : fabs(v);
  if (f & TC_VN_NEG) {
    p->neg++;
    return tc_sketch_add(&p->negs, mag);
  }
  return tc_sketch_add(&p->pos, mag);
}

static tc_err add_string(tc_valprof *p, tc_str s, uint64_t site) {
  uint64_t h = tc_xxh64(s.ptr, s.len, 0);
  tc_vclass c = tc_valclass_str(s);
  if (p->types[T_STRING] == 1 || s.len < p->len_min)
    p->len_min = s.len;
  if (s.len > p->len_max)
    p->len_max = s.len;
  p->cls[c]++;
  int first = p->k.state == TC_VP_CONST_NONE;
  konst_see(p, TC_JT_STRING, 0, s.len, h, site);
  if (first)
    keep_shown(p, s, c);
  tc_err e = tc_hll_add(&p->distinct, h);
  if (e)
    return e;
  if (!(p->flags & TC_VP_WHOLE_URLS) && tc_valclass_is_url(c)) {
    char buf[TC_VALCLASS_CUT_MAX];
    tc_str cut = tc_valclass_cut(s, c, buf);
    return tc_topk_add(&p->top, cut, tc_xxh64(cut.ptr, cut.len, 0), site);
  }
  return tc_topk_add(&p->top, s, h, site);
}

tc_err tc_valprof_add(tc_valprof *p, unsigned type, double num, tc_str str, uint64_t site) {
  if (!type || type > TC_JT_OBJECT || (type & (type - 1)))
    return TC_E_USAGE;
  p->n++;
  p->types[__builtin_ctz(type)]++;
  switch (type) {
  case TC_JT_NUMBER:
    return add_number(p, num, site);
  case TC_JT_STRING:
    return add_string(p, str, site);
  case TC_JT_BOOL:
    p->falses += num == 0;
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

static void konst_merge(tc_valprof *dst, const tc_valprof *src) {
  if (src->k.state == TC_VP_CONST_NONE || dst->k.state == TC_VP_CONST_NO)
    return;
  if (src->k.state == TC_VP_CONST_NO) {
    konst_forget(dst);
    return;
  }
  if (dst->k.state == TC_VP_CONST_NONE) {
    dst->k = src->k;
    return;
  }
  if (!konst_is(&dst->k, src->k.type, src->k.num, src->k.len, src->k.hash)) {
    konst_forget(dst);
    return;
  }
  dst->k.sites += src->k.sites - (dst->k.site_last == src->k.site_first);
  dst->k.site_last = src->k.site_last;
}

tc_err tc_valprof_merge(tc_valprof *dst, const tc_valprof *src) {
  if (dst->flags != src->flags)
    return TC_E_USAGE;
  if (!src->n)
    return TC_OK;
  uint64_t dnum = dst->types[T_NUMBER], dstr = dst->types[T_STRING];
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
  for (int i = 0; i < TC_VC_COUNT; i++)
    dst->cls[i] += src->cls[i];
  dst->falses += src->falses;
  dst->zeros += src->zeros;
  dst->minus1 += src->minus1;
  dst->frac += src->frac;
  dst->neg += src->neg;
  konst_merge(dst, src);
  if (src->vals_over)
    vals_give_up(dst);
  for (uint32_t i = 0; i < src->nvals; i++)
    vals_add(dst, src->vals[i], src->vcounts[i]);
  tc_err e;
  if ((e = tc_sketch_merge(&dst->pos, &src->pos)) || (e = tc_sketch_merge(&dst->negs, &src->negs)) ||
      (e = tc_hll_merge(&dst->distinct, &src->distinct)) || (e = tc_topk_merge(&dst->top, &src->top)))
    return e;
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
      if ((seen += p->vcounts[i]) >= r)
        return p->vals[i];
  }
  /* Ascending, the negatives come first, largest magnitude first. */
  if (r <= p->neg)
    return -at_rank(&p->negs, p->neg - r + 1);
  return at_rank(&p->pos, r - p->neg);
}

/* Layout (after the u32 flags): uvar n, a uvar per type, uvar falses;
 * when there are numbers: uvar zeros, minus1, frac, neg, f64 min, max, the
 * two sketches, u8 vals_over, and unless set uvar nvals and per value f64,
 * uvar count; when there are strings: uvar len_min, len_max, a uvar per
 * class, the top values, the distinct sketch; then u8 konst, and for a
 * constant u8 ktype, uvar ksites, u64 ksite_first, ksite_last, then f64 knum (bool, number) or uvar klen, u64 khash,
 * u8 ktrunc, bytes kval (string). */
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
    tc_sketch_encode(&p->pos, b);
    tc_sketch_encode(&p->negs, b);
    tc_bin_put_u8(b, p->vals_over);
    if (!p->vals_over) {
      tc_bin_put_uvar(b, p->nvals);
      for (uint32_t i = 0; i < p->nvals; i++) {
        tc_bin_put_f64(b, p->vals[i]);
        tc_bin_put_uvar(b, p->vcounts[i]);
      }
    }
  }
  if (p->types[T_STRING]) {
    tc_bin_put_uvar(b, p->len_min);
    tc_bin_put_uvar(b, p->len_max);
    for (int i = 0; i < TC_VC_COUNT; i++)
      tc_bin_put_uvar(b, p->cls[i]);
    tc_topk_encode(&p->top, b);
    tc_hll_encode(&p->distinct, b);
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
    tc_str v = {p->k.val, p->k.kept};
    tc_bin_put_bytes(b, v);
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

static const char *check_numbers(const tc_valprof *p) {
  uint64_t num = p->types[T_NUMBER];
  if (p->zeros > num || p->minus1 > p->neg || p->frac > num || p->neg > num ||
      p->zeros > num - p->neg)
    return "number counts above the number of numbers";
  /* Adding maps -0 to 0, so neither extreme is ever -0. */
  if (!(p->min <= p->max) || (p->min == 0 && signbit(p->min)) || (p->max == 0 && signbit(p->max)))
    return "number min and max out of order";
  if (p->pos.n != num - p->neg || p->negs.n != p->neg)
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
  uint64_t sum;
  if (!p->nvals || !sum_ok(p->vcounts, p->nvals, &sum) || sum != p->types[T_NUMBER])
    return "exact number counts do not add up to the numbers";
  for (uint32_t i = 0; i < p->nvals; i++) {
    if (!p->vcounts[i] || (p->vals[i] == 0 && signbit(p->vals[i])))
      return "exact number list holds an empty or -0 entry";
    if (i && !(p->vals[i - 1] < p->vals[i]))
      return "exact number list not strictly ascending";
  }
  if (p->vals[0] != p->min || p->vals[p->nvals - 1] != p->max)
    return "exact number list disagrees with min and max";
  return NULL;
}

static const char *check_strings(const tc_valprof *p) {
  uint64_t str = p->types[T_STRING], cls;
  if (!sum_ok(p->cls, TC_VC_COUNT, &cls) || cls != str)
    return "string class counts do not add up to the strings";
  if (p->len_min > p->len_max || (p->cls[TC_VC_EMPTY] > 0) != (p->len_min == 0))
    return "string lengths disagree with the count of empty strings";
  if (p->top.n != str || tc_hll_count(&p->distinct) < 1)
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
  size_t at = r->pos;
  if (p->types[T_NUMBER]) {
    p->zeros = tc_bin_get_uvar(r);
    p->minus1 = tc_bin_get_uvar(r);
    p->frac = tc_bin_get_uvar(r);
    p->neg = tc_bin_get_uvar(r);
    p->min = tc_bin_get_f64(r);
    p->max = tc_bin_get_f64(r);
    if (r->err || tc_sketch_decode(r, &p->pos) || tc_sketch_decode(r, &p->negs))
      return fail(r, p, at, NULL);
    p->vals_over = tc_bin_get_u8(r);
    if (!p->vals_over) {
      p->nvals = (uint8_t)tc_bin_get_count(r, TC_VP_EXACT_NUMS, 9);
      for (uint32_t i = 0; i < p->nvals; i++) {
        p->vals[i] = tc_bin_get_f64(r);
        p->vcounts[i] = tc_bin_get_uvar(r);
      }
    }
    if (r->err)
      return fail(r, p, at, NULL);
    const char *why = check_numbers(p);
    if (!why)
      why = check_vals(p);
    if (why)
      return fail(r, p, at, why);
  }
  at = r->pos;
  if (p->types[T_STRING]) {
    p->len_min = tc_bin_get_uvar(r);
    p->len_max = tc_bin_get_uvar(r);
    for (int i = 0; i < TC_VC_COUNT; i++)
      p->cls[i] = tc_bin_get_uvar(r);
    if (r->err || tc_topk_decode(r, &p->top) || tc_hll_decode(r, &p->distinct))
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
      memcpy(p->k.val, v.ptr, v.len);
      p->k.kept = (uint8_t)v.len;
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
