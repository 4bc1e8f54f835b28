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
#include "report/tc_valprof_text.h"

#include "report/tc_line.h"
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

/* Below 1e21 printf's %.0f writes every digit of an integral double, so
 * large integers (microsecond timestamps, ids) print in full, never in
 * exponent form. */
static int is_int(double v) { return v == trunc(v) && fabs(v) < 1e21; }

/* Exact: an integer with thousands separators, else the shortest %g form
 * that reads back as V (tc_numfmt_num's, for a V that is no integer
 * below 2^53). */
static void num_exact(tc_line *l, double v) {
  if (is_int(v)) {
    tc_line_fixed(l, v, 0);
    return;
  }
  char tmp[400];
  if (isfinite(v)) {
    size_t n = tc_numfmt_num(v, tmp);
    if (!memchr(tmp, 'e', n)) {
      tc_line_put(l, tmp, n);
      return;
    }
  } else {
    snprintf(tmp, sizeof tmp, "%g", v);
    tc_line_puts(l, tmp);
    return;
  }
  /* %g turns to exponent form below 1e-4 (and from 1e21); a reader of
   * reports wants the plain decimals, as many as read back as V. */
  for (int prec = 1; prec <= 340; prec++) {
    snprintf(tmp, sizeof tmp, "%.*f", prec, v);
    if (strtod(tmp, NULL) == v)
      break;
  }
  tc_line_puts(l, tmp);
}

/* Three significant digits, for sketch answers. */
static void num_approx(tc_line *l, double v) {
  char tmp[400];
  tmp[tc_numfmt_g(v, 3, tmp)] = '\0'; /* printf's %.3g */
  double r = strtod(tmp, NULL);
  if (is_int(r)) {
    tc_line_fixed(l, r, 0);
    return;
  }
  if (strchr(tmp, 'e')) /* small: three significant digits as plain decimals */
    snprintf(tmp, sizeof tmp, "%.*f", 2 - (int)floor(log10(fabs(r))), r);
  tc_line_puts(l, tmp);
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
static void quoted(tc_line *l, const char *s, size_t n, int cut) {
  const unsigned char *p = (const unsigned char *)s;
  tc_line_puts(l, "'");
  for (size_t i = 0; i < n;) {
    size_t k = p[i] >= 0x80 ? utf8_len(p + i, n - i) : 1;
    if (p[i] == '\'' || p[i] == '\\') {
      tc_line_puts(l, "\\");
      tc_line_put(l, s + i, 1);
    } else if (!k || p[i] < 0x20 || p[i] == 0x7f) {
      tc_line_printf(l, "\\x%02x", p[i]);
      k = 1;
    } else {
      tc_line_put(l, s + i, k);
    }
    i += k;
  }
  tc_line_puts(l, cut ? "…'" : "'");
}

/* A string value, or what stands in for it when it may identify someone
 * and was seen on fewer than MIN_SITES sites. */
static void shown(tc_line *l, tc_str v, int cut, uint64_t sites, uint64_t min_sites) {
  if (!tc_valprof_may_show(v, sites, min_sites)) {
    tc_line_puts(l, "(a value on ");
    tc_line_u64(l, sites);
    tc_line_puts(l, sites == 1 ? " site)" : " sites)");
    return;
  }
  quoted(l, v.ptr, v.len, cut);
}

static const char *const type_names[TC_VP_NTYPES] = {"null", "bool", "number", "string", "array", "object"};

static void konst_text(tc_line *l, const tc_valprof *p, uint64_t min_sites) {
  switch (p->k.type) {
  case TC_JT_NULL:
    tc_line_puts(l, "null");
    break;
  case TC_JT_BOOL:
    tc_line_puts(l, p->k.num ? "true" : "false");
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

static void types_part(tc_line *l, const tc_valprof *p) {
  ranked r[TC_VP_NTYPES];
  int k = 0;
  for (int i = 0; i < TC_VP_NTYPES; i++)
    if (p->types[i])
      r[k++] = (ranked){p->types[i], i};
  if (k < 2)
    return;
  qsort(r, (size_t)k, sizeof *r, ranked_cmp);
  tc_line_part(l, "; ");
  for (int i = 0; i < k; i++) {
    if (i)
      tc_line_puts(l, ", ");
    tc_line_puts(l, type_names[r[i].order]);
    tc_line_puts(l, " ");
    tc_line_share(l, r[i].count, p->n);
  }
}

static void sentinel_parts(tc_line *l, const tc_valprof *p) {
  static const char *const names[] = {"0", "-1", "''", "null", "false"};
  uint64_t counts[] = {p->zeros, p->minus1, tc_valprof_class(p, TC_VC_EMPTY), p->types[T_NULL], p->falses};
  ranked r[5];
  int k = 0;
  for (int i = 0; i < 5; i++)
    if (counts[i])
      r[k++] = (ranked){counts[i], i};
  qsort(r, (size_t)k, sizeof *r, ranked_cmp);
  for (int i = 0; i < k; i++) {
    tc_line_part(l, "; ");
    tc_line_puts(l, names[r[i].order]);
    tc_line_puts(l, " on ");
    tc_line_share(l, r[i].count, p->n);
  }
}

static void number_part(tc_line *l, const tc_valprof *p) {
  uint64_t num = p->types[T_NUMBER];
  if (num == p->zeros + p->minus1)
    return;
  tc_line_part(l, "; ");
  if (p->min == p->max) {
    num_exact(l, p->min);
    tc_line_puts(l, " on ");
    tc_line_share(l, num, p->n);
    return;
  }
  num_exact(l, p->min);
  tc_line_puts(l, "–");
  num_exact(l, p->max);
  double med = tc_valprof_quantile(p, 0.5);
  if (tc_valprof_exact_quantiles(p)) {
    tc_line_puts(l, ", median ");
    num_exact(l, med);
  } else {
    /* The exact median of integers is an integer: rounding stays inside
     * the sketch's error. */
    tc_line_puts(l, ", median ≈");
    num_approx(l, p->frac ? med : round(med));
  }
  if (p->frac) {
    tc_line_puts(l, ", fractional on ");
    tc_line_share(l, p->frac, p->n);
  }
}

static void string_part(tc_line *l, const tc_valprof *p, uint64_t min_sites) {
  if (p->types[T_STRING] == tc_valprof_class(p, TC_VC_EMPTY))
    return;
  tc_line_part(l, "; ");
  if (tc_hll_exact(&p->str->distinct)) {
    tc_line_u64(l, (uint64_t)tc_hll_count(&p->str->distinct));
  } else {
    tc_line_puts(l, "≈");
    num_approx(l, tc_hll_count(&p->str->distinct));
  }
  tc_line_puts(l, " distinct");
  tc_topk_item items[TC_TOPK_K];
  size_t n = tc_topk_list(&p->str->top, items);
  /* Only a value certainly more frequent than any the sketch dropped. */
  for (size_t i = 0; i < n; i++) {
    if (!items[i].value.len || items[i].count - items[i].err <= p->str->top.floor)
      continue;
    tc_line_puts(l, ", top ");
    shown(l, items[i].value, items[i].truncated, items[i].sites, min_sites);
    tc_line_puts(l, items[i].err ? " on ≈" : " on ");
    tc_line_share(l, items[i].count, p->n);
    break;
  }
  ranked r[TC_VC_COUNT];
  int k = 0;
  for (int c = 0; c < TC_VC_COUNT; c++)
    if (p->str->cls[c] && tc_valclass_is_url((tc_vclass)c))
      r[k++] = (ranked){p->str->cls[c], c};
  qsort(r, (size_t)k, sizeof *r, ranked_cmp);
  for (int i = 0; i < k && i < 3; i++) {
    tc_line_puts(l, ", ");
    tc_line_puts(l, tc_valclass_label((tc_vclass)r[i].order));
    tc_line_puts(l, " ");
    tc_line_share(l, r[i].count, p->n);
  }
  tc_line_puts(l, ", length ");
  tc_line_thousands(l, p->len_min);
  if (p->len_max != p->len_min) {
    tc_line_puts(l, "–");
    tc_line_thousands(l, p->len_max);
  }
}

size_t tc_valprof_render(const tc_valprof *p, uint64_t min_sites, char *out, size_t cap) {
  tc_line l;
  tc_line_init(&l, out, cap);
  if (!p->n) {
    tc_line_puts(&l, "no values");
  } else if (p->k.state == TC_VP_CONST_YES) {
    tc_line_puts(&l, "always ");
    konst_text(&l, p, min_sites);
  } else {
    types_part(&l, p);
    sentinel_parts(&l, p);
    number_part(&l, p);
    string_part(&l, p, min_sites);
    /* Only arrays or only objects: nothing but the type to say. */
    if (!l.parts)
      tc_line_puts(&l, p->types[4] ? "all arrays" : "all objects");
  }
  return tc_line_end(&l);
}
