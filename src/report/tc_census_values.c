/* The value profiles of argument paths in the census outputs (issue 14):
 * census.json's `values`, the manual-style sentence of census.md, and the
 * shared pieces of census_args.csv. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/tc_census_report.h"
#include "report/tc_valprof_text.h"
#include "report/tc_jsonw.h"
#include "util/tc_numfmt.h"

#define T_NULL 0
#define T_BOOL 1
#define T_NUMBER 2
#define T_STRING 3

const double tc_value_quantiles[TC_VALUE_NQ] = {0.05, 0.25, 0.5, 0.75, 0.95, 0.99};
const char *const tc_value_quantile_keys[TC_VALUE_NQ] = {"p05", "p25", "p50", "p75", "p95", "p99"};

static const char *const type_keys[TC_VP_NTYPES] = {"null", "bool", "number", "string", "array",
                                                     "object"};

/* KEY's object, opened, when the profile has what it describes (PRESENT);
 * else KEY is null and 0 says there is nothing to write. */
static int section(tc_jsonw *w, const char *key, int present) {
  if (present)
    tc_jsonw_kobj(w, key);
  else
    tc_jsonw_knull(w, key);
  return present;
}

static void json_numbers(tc_jsonw *w, const tc_valprof *p) {
  if (!section(w, "numbers", p->types[T_NUMBER] != 0))
    return;
  tc_jsonw_knum(w, "min", p->min);
  tc_jsonw_knum(w, "max", p->max);
  tc_jsonw_kuint(w, "integer", p->types[T_NUMBER] - p->frac);
  tc_jsonw_kuint(w, "fractional", p->frac);
  tc_jsonw_kuint(w, "negative", p->neg);
  tc_jsonw_kobj(w, "quantiles");
  for (int q = 0; q < TC_VALUE_NQ; q++) {
    tc_jsonw_knum(w, tc_value_quantile_keys[q], tc_valprof_quantile(p, tc_value_quantiles[q]));
  }
  tc_jsonw_obj_end(w);
  tc_jsonw_kbool(w, "quantiles_exact", tc_valprof_exact_quantiles(p));
  tc_jsonw_knum(w, "quantile_rel_error", tc_valprof_exact_quantiles(p) ? 0 : TC_SKETCH_ALPHA);
  tc_jsonw_obj_end(w);
}

/* A top value or the constant: the text when the privacy rule allows it,
 * else null with the reason. */
static void json_value(tc_jsonw *w, tc_str v, uint64_t sites, uint32_t min_sites) {
  tc_jsonw_key(w, "value");
  if (tc_valprof_may_show(v, sites, min_sites)) {
    tc_jsonw_strn(w, v);
    return;
  }
  char why[96];
  snprintf(why, sizeof why, "seen on %llu site%s, fewer than --value-sites %u",
           (unsigned long long)sites, sites == 1 ? "" : "s", min_sites);
  tc_jsonw_null(w);
  tc_jsonw_kstr(w, "value_na", why);
}

static void json_strings(tc_jsonw *w, const tc_valprof *p, uint32_t min_sites) {
  if (!section(w, "strings", p->types[T_STRING] != 0))
    return;
  tc_jsonw_kuint(w, "length_min", p->len_min);
  tc_jsonw_kuint(w, "length_max", p->len_max);
  tc_jsonw_kobj(w, "classes");
  for (int c = 0; c < TC_VC_COUNT; c++)
    if (p->str->cls[c])
      tc_jsonw_kuint(w, tc_valclass_name((tc_vclass)c), p->str->cls[c]);
  tc_jsonw_obj_end(w);
  tc_jsonw_knum(w, "distinct", tc_hll_count(&p->str->distinct));
  tc_jsonw_kbool(w, "distinct_exact", tc_hll_exact(&p->str->distinct));
  tc_jsonw_knum(w, "distinct_std_error",
                tc_hll_exact(&p->str->distinct) ? 0 : 1.04 / sqrt((double)TC_HLL_M));
  tc_jsonw_kbool(w, "top_urls_whole", (p->flags & TC_VP_WHOLE_URLS) != 0);
  tc_jsonw_kuint(w, "top_error_bound", p->str->top.floor);
  tc_jsonw_karr(w, "top");
  tc_topk_item items[TC_TOPK_K];
  size_t n = tc_topk_list(&p->str->top, items);
  for (size_t i = 0; i < n; i++) {
    tc_jsonw_obj(w);
    json_value(w, items[i].value, items[i].sites, min_sites);
    tc_jsonw_kbool(w, "truncated", items[i].truncated);
    tc_jsonw_kuint(w, "count", items[i].count);
    tc_jsonw_kuint(w, "error", items[i].err);
    tc_jsonw_kuint(w, "sites", items[i].sites);
    tc_jsonw_obj_end(w);
  }
  tc_jsonw_arr_end(w);
  tc_jsonw_obj_end(w);
}

static void json_constant(tc_jsonw *w, const tc_valprof *p, uint32_t min_sites) {
  if (!section(w, "constant", p->k.state == TC_VP_CONST_YES))
    return;
  tc_jsonw_kstr(w, "type", type_keys[__builtin_ctz(p->k.type)]);
  if (p->k.type == TC_JT_STRING) {
    json_value(w, tc_valprof_const_str(p), p->k.sites, min_sites);
    tc_jsonw_kbool(w, "truncated", p->k.trunc);
  } else {
    tc_jsonw_key(w, "value");
    if (p->k.type == TC_JT_NUMBER)
      tc_jsonw_num(w, p->k.num);
    else if (p->k.type == TC_JT_BOOL)
      tc_jsonw_bool(w, p->k.num != 0);
    else
      tc_jsonw_null(w);
  }
  tc_jsonw_kuint(w, "sites", p->k.sites);
  tc_jsonw_obj_end(w);
}

const char *tc_values_na(const tc_census_result *r) {
  return r->values ? "no value of this path was profiled" : "the run kept no value profiles";
}

void tc_write_values_json(tc_jsonw *w, const tc_valprof *p, uint32_t min_sites) {
  tc_jsonw_obj(w);
  tc_jsonw_kuint(w, "values", p->n);
  tc_jsonw_kobj(w, "types");
  for (int t = 0; t < TC_VP_NTYPES; t++)
    tc_jsonw_kuint(w, type_keys[t], p->types[t]);
  tc_jsonw_obj_end(w);
  tc_jsonw_kobj(w, "sentinels");
  tc_jsonw_kuint(w, "zero", p->zeros);
  tc_jsonw_kuint(w, "minus_one", p->minus1);
  tc_jsonw_kuint(w, "empty_string", tc_valprof_class(p, TC_VC_EMPTY));
  tc_jsonw_kuint(w, "null", p->types[T_NULL]);
  tc_jsonw_kuint(w, "false", p->falses);
  tc_jsonw_obj_end(w);
  json_numbers(w, p);
  json_strings(w, p, min_sites);
  json_constant(w, p, min_sites);
  char line[TC_VALUE_LINE_MAX];
  tc_valprof_render(p, min_sites, line, sizeof line);
  tc_jsonw_kstr(w, "profile", line);
  tc_jsonw_obj_end(w);
}

/* The last part of PATH: "delay" of "args.data.delay". */
static tc_str leaf_name(tc_str path) {
  size_t i = path.len;
  while (i > 0 && path.ptr[i - 1] != '.')
    i--;
  return (tc_str){path.ptr + i, path.len - i};
}

/* "LEAF is WHAT on ", how a sentence starts. */
static void leaf_is(tc_line *l, tc_str leaf, const char *what) {
  tc_line_put(l, leaf.ptr, leaf.len);
  tc_line_puts(l, " is ");
  tc_line_puts(l, what);
  tc_line_puts(l, " on ");
}

/* "A of E records on N site(s).", how it ends (A the path's records, E its
 * event's); the sentence's length. */
static size_t records_on_sites(tc_line *l, const tc_res_event *e, const tc_res_arg *a) {
  tc_line_thousands(l, a->records);
  tc_line_puts(l, " of ");
  tc_line_thousands(l, e->records);
  tc_line_puts(l, " records on ");
  tc_line_u64(l, a->sites);
  tc_line_puts(l, a->sites == 1 ? " site." : " sites.");
  return tc_line_end(l);
}

size_t tc_value_sentence(const tc_res_event *e, const tc_res_arg *a, uint32_t min_sites, char *buf,
                         size_t cap) {
  const tc_valprof *p = a->values;
  tc_line l;
  tc_line_init(&l, buf, cap);
  if (cap)
    buf[0] = '\0';
  if (!p || !p->n)
    return 0;
  tc_str leaf = leaf_name(a->path);
  /* As printf's %.*s: up to a NUL byte a JSON key may hold. */
  const char *nul = leaf.len ? memchr(leaf.ptr, '\0', leaf.len) : NULL;
  if (nul)
    leaf.len = (size_t)(nul - leaf.ptr);
  if (p->k.state == TC_VP_CONST_YES) {
    char line[TC_VALUE_LINE_MAX];
    tc_valprof_render(p, min_sites, line, sizeof line);
    leaf_is(&l, leaf, line);
    return records_on_sites(&l, e, a);
  }
  static const char *const names[] = {"0", "-1", "''", "null", "false"};
  uint64_t counts[] = {p->zeros, p->minus1, tc_valprof_class(p, TC_VC_EMPTY), p->types[T_NULL],
                       p->falses};
  int best = 0;
  for (int i = 1; i < 5; i++)
    if (counts[i] > counts[best])
      best = i;
  if (counts[best] * 2 < p->n)
    return 0;
  leaf_is(&l, leaf, names[best]);
  tc_line_share(&l, counts[best], p->n);
  tc_line_puts(&l, " of ");
  tc_line_thousands(&l, p->n);
  tc_line_puts(&l, " values, in ");
  return records_on_sites(&l, e, a);
}
