/* The one-line human profile of tc_valprof_render.
 *
 * Parts, joined by "; ", each present only when it says something:
 *   types      when more than one JSON type occurs: "number 60 %, null 40 %"
 *   sentinels  "0 on 12 %", "-1 on 3 %", "'' on 81 %", "null on 5 %",
 *              "false on 40 %", most frequent first
 *   numbers    beyond the sentinels: "0–4,096, median 512" over all numbers,
 *              sentinels included: exact extremes, the median exact while
 *              the numbers have few distinct values, else "median ≈510" to
 *              3 significant digits, as the sketch's 0.5 % allows (and to
 *              an integer when every number is one); then ", fractional on
 *              20 %"; a single number "5 on 50 %"
 *   strings    beyond '': "12 distinct" ("≈" once estimated), ", top 'x' on
 *              40 %" ("≈" when that count is not exact; only a value that
 *              is certainly more frequent than any unlisted one), up to three URL
 *              schemes ", https: 80 %", ", length 3–64"
 * A path whose every value is one value prints "always X" alone. A string
 * other than '' and a cut URL seen on fewer sites than asked prints as
 * "(a value on 1 site)". Shares are
 * of all values, rounded to whole percents, "< 1 %" and "> 99 %" at the
 * ends, so a share is never shown as 0 % or 100 % when it is not. */
#include "util/tc_valprof.h"

#include "util/tc_numfmt.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define T_NULL 0
#define T_BOOL 1
#define T_NUMBER 2
#define T_STRING 3

typedef struct {
  char *out;
  size_t cap, len; /* len counts what the whole line needs */
  int parts;
} line_t;

static void cat_n(line_t *l, const char *s, size_t n) {
  if (l->len < l->cap) {
    size_t room = l->cap - l->len;
    memcpy(l->out + l->len, s, n < room ? n : room);
  }
  l->len += n;
}

static void cat(line_t *l, const char *s) { cat_n(l, s, strlen(s)); }

static void catf(line_t *l, const char *fmt, ...) {
  char tmp[64];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n > 0)
    cat_n(l, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void part(line_t *l) {
  if (l->parts++)
    cat(l, "; ");
}

static void cat_u64(line_t *l, uint64_t v) {
  char d[TC_NUMFMT_MAX];
  cat_n(l, d, tc_numfmt_u64(v, d));
}

/* V (an integral double below 1e21 in magnitude) with thousands separators. */
static void int_commas(line_t *l, double v) {
  char digits[TC_NUMFMT_FIXED_MAX];
  size_t n = tc_numfmt_fixed(fabs(v), 0, digits); /* printf's %.0f */
  if (v < 0)
    cat(l, "-");
  size_t head = n % 3 ? n % 3 : 3;
  cat_n(l, digits, head < n ? head : n);
  for (size_t i = head; i < n; i += 3) {
    cat_n(l, ",", 1);
    cat_n(l, digits + i, 3);
  }
}

/* Below 1e21 printf's %.0f writes every digit of an integral double, so
 * large integers (microsecond timestamps, ids) print in full, never in
 * exponent form. */
static int is_int(double v) { return v == trunc(v) && fabs(v) < 1e21; }

/* Exact: an integer with thousands separators, else the shortest %g form
 * that reads back as V (tc_numfmt_num's, for a V that is no integer
 * below 2^53). */
static void num_exact(line_t *l, double v) {
  if (is_int(v)) {
    int_commas(l, v);
    return;
  }
  char tmp[400];
  if (isfinite(v)) {
    size_t n = tc_numfmt_num(v, tmp);
    if (!memchr(tmp, 'e', n)) {
      cat_n(l, tmp, n);
      return;
    }
  } else {
    snprintf(tmp, sizeof tmp, "%g", v);
    cat(l, tmp);
    return;
  }
  /* %g turns to exponent form below 1e-4 (and from 1e21); a reader of
   * reports wants the plain decimals, as many as read back as V. */
  for (int prec = 1; prec <= 340; prec++) {
    snprintf(tmp, sizeof tmp, "%.*f", prec, v);
    if (strtod(tmp, NULL) == v)
      break;
  }
  cat(l, tmp);
}

/* Three significant digits, for sketch answers. */
static void num_approx(line_t *l, double v) {
  char tmp[400];
  tmp[tc_numfmt_g(v, 3, tmp)] = '\0'; /* printf's %.3g */
  double r = strtod(tmp, NULL);
  if (is_int(r)) {
    int_commas(l, r);
    return;
  }
  if (strchr(tmp, 'e')) /* small: three significant digits as plain decimals */
    snprintf(tmp, sizeof tmp, "%.*f", 2 - (int)floor(log10(fabs(r))), r);
  cat(l, tmp);
}

static void pct(line_t *l, uint64_t count, uint64_t n) {
  unsigned __int128 c = count, t = n;
  if (c * 100 < t) {
    cat(l, "< 1 %");
  } else if (c < t && c * 100 > t * 99) {
    cat(l, "> 99 %");
  } else {
    cat_u64(l, (uint64_t)((c * 200 + t) / (t * 2)));
    cat(l, " %");
  }
}

/* Bytes of a valid UTF-8 sequence at P (of N), or 0. */
static size_t utf8_len(const unsigned char *p, size_t n) {
  size_t k = p[0] >= 0xF0 && p[0] <= 0xF4 ? 4 : p[0] >= 0xE0 ? 3 : p[0] >= 0xC2 ? 2 : 0;
  if (p[0] >= 0xF5 || k > n)
    return 0;
  for (size_t i = 1; i < k; i++)
    if ((p[i] & 0xC0) != 0x80)
      return 0;
  return k;
}

/* 'S' with quotes, backslashes, control bytes and broken UTF-8 escaped. */
static void quoted(line_t *l, const char *s, size_t n, int cut) {
  const unsigned char *p = (const unsigned char *)s;
  cat(l, "'");
  for (size_t i = 0; i < n;) {
    size_t k = p[i] >= 0x80 ? utf8_len(p + i, n - i) : 1;
    if (p[i] == '\'' || p[i] == '\\') {
      cat(l, "\\");
      cat_n(l, s + i, 1);
    } else if (!k || p[i] < 0x20 || p[i] == 0x7f) {
      catf(l, "\\x%02x", p[i]);
      k = 1;
    } else {
      cat_n(l, s + i, k);
    }
    i += k;
  }
  cat(l, cut ? "…'" : "'");
}

/* A string value, or what stands in for it when it may identify someone
 * and was seen on fewer than MIN_SITES sites. */
int tc_valprof_may_show(tc_str v, uint64_t sites, uint64_t min_sites) {
  return !v.len || tc_valclass_is_url(tc_valclass_str(v)) || sites >= min_sites;
}

static void shown(line_t *l, tc_str v, int cut, uint64_t sites, uint64_t min_sites) {
  if (!tc_valprof_may_show(v, sites, min_sites)) {
    cat(l, "(a value on ");
    cat_u64(l, sites);
    cat(l, sites == 1 ? " site)" : " sites)");
    return;
  }
  quoted(l, v.ptr, v.len, cut);
}

static const char *const type_names[TC_VP_NTYPES] = {"null", "bool", "number", "string", "array", "object"};

static void konst_text(line_t *l, const tc_valprof *p, uint64_t min_sites) {
  switch (p->k.type) {
  case TC_JT_NULL:
    cat(l, "null");
    break;
  case TC_JT_BOOL:
    cat(l, p->k.num ? "true" : "false");
    break;
  case TC_JT_NUMBER:
    num_exact(l, p->k.num);
    break;
  default:
    shown(l, tc_valprof_const_str(p), p->k.trunc, p->k.sites, min_sites);
  }
}

typedef struct {
  uint64_t count;
  int order; /* ties: the order of the list it came from */
} ranked;

static int ranked_cmp(const void *a, const void *b) {
  const ranked *x = a, *y = b;
  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return x->order - y->order;
}

static void types_part(line_t *l, const tc_valprof *p) {
  ranked r[TC_VP_NTYPES];
  int k = 0;
  for (int i = 0; i < TC_VP_NTYPES; i++)
    if (p->types[i])
      r[k++] = (ranked){p->types[i], i};
  if (k < 2)
    return;
  qsort(r, (size_t)k, sizeof *r, ranked_cmp);
  part(l);
  for (int i = 0; i < k; i++) {
    if (i)
      cat(l, ", ");
    cat(l, type_names[r[i].order]);
    cat(l, " ");
    pct(l, r[i].count, p->n);
  }
}

static void sentinel_parts(line_t *l, const tc_valprof *p) {
  static const char *const names[] = {"0", "-1", "''", "null", "false"};
  uint64_t counts[] = {p->zeros, p->minus1, tc_valprof_class(p, TC_VC_EMPTY), p->types[T_NULL], p->falses};
  ranked r[5];
  int k = 0;
  for (int i = 0; i < 5; i++)
    if (counts[i])
      r[k++] = (ranked){counts[i], i};
  qsort(r, (size_t)k, sizeof *r, ranked_cmp);
  for (int i = 0; i < k; i++) {
    part(l);
    cat(l, names[r[i].order]);
    cat(l, " on ");
    pct(l, r[i].count, p->n);
  }
}

static void number_part(line_t *l, const tc_valprof *p) {
  uint64_t num = p->types[T_NUMBER];
  if (num == p->zeros + p->minus1)
    return;
  part(l);
  if (p->min == p->max) {
    num_exact(l, p->min);
    cat(l, " on ");
    pct(l, num, p->n);
    return;
  }
  num_exact(l, p->min);
  cat(l, "–");
  num_exact(l, p->max);
  double med = tc_valprof_quantile(p, 0.5);
  if (tc_valprof_exact_quantiles(p)) {
    cat(l, ", median ");
    num_exact(l, med);
  } else {
    /* The exact median of integers is an integer: rounding stays inside
     * the sketch's error. */
    cat(l, ", median ≈");
    num_approx(l, p->frac ? med : round(med));
  }
  if (p->frac) {
    cat(l, ", fractional on ");
    pct(l, p->frac, p->n);
  }
}

static void string_part(line_t *l, const tc_valprof *p, uint64_t min_sites) {
  if (p->types[T_STRING] == tc_valprof_class(p, TC_VC_EMPTY))
    return;
  part(l);
  if (tc_hll_exact(&p->str->distinct)) {
    cat_u64(l, (uint64_t)tc_hll_count(&p->str->distinct));
  } else {
    cat(l, "≈");
    num_approx(l, tc_hll_count(&p->str->distinct));
  }
  cat(l, " distinct");
  tc_topk_item items[TC_TOPK_K];
  size_t n = tc_topk_list(&p->str->top, items);
  /* Only a value certainly more frequent than any the sketch dropped. */
  for (size_t i = 0; i < n; i++) {
    if (!items[i].value.len || items[i].count - items[i].err <= p->str->top.floor)
      continue;
    cat(l, ", top ");
    shown(l, items[i].value, items[i].truncated, items[i].sites, min_sites);
    cat(l, items[i].err ? " on ≈" : " on ");
    pct(l, items[i].count, p->n);
    break;
  }
  ranked r[TC_VC_COUNT];
  int k = 0;
  for (int c = 0; c < TC_VC_COUNT; c++)
    if (p->str->cls[c] && tc_valclass_is_url((tc_vclass)c))
      r[k++] = (ranked){p->str->cls[c], c};
  qsort(r, (size_t)k, sizeof *r, ranked_cmp);
  for (int i = 0; i < k && i < 3; i++) {
    cat(l, ", ");
    cat(l, tc_valclass_label((tc_vclass)r[i].order));
    cat(l, " ");
    pct(l, r[i].count, p->n);
  }
  cat(l, ", length ");
  int_commas(l, (double)p->len_min);
  if (p->len_max != p->len_min) {
    cat(l, "–");
    int_commas(l, (double)p->len_max);
  }
}

size_t tc_valprof_render(const tc_valprof *p, uint64_t min_sites, char *out, size_t cap) {
  line_t l = {out, cap ? cap - 1 : 0, 0, 0};
  if (!p->n) {
    cat(&l, "no values");
  } else if (p->k.state == TC_VP_CONST_YES) {
    cat(&l, "always ");
    konst_text(&l, p, min_sites);
  } else {
    types_part(&l, p);
    sentinel_parts(&l, p);
    number_part(&l, p);
    string_part(&l, p, min_sites);
    /* Only arrays or only objects: nothing but the type to say. */
    if (!l.parts)
      cat(&l, p->types[4] ? "all arrays" : "all objects");
  }
  if (cap)
    out[l.len < l.cap ? l.len : l.cap] = '\0';
  return l.len;
}
