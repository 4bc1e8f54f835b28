
#include <stdlib.h>

#include "census/tc_labels.h"
#include "report/tc_census_report.h"
#include "report/tc_valprof_text.h"
#include "report/tc_jsonw.h"
#include "report/tc_text.h"
#include "report/tc_wbuf.h"

/* S as a JSON string inside a quoted CSV cell: its delimiters doubled
 * for CSV, a quote inside it written \u0022 so the cell holds no other
 * quote to double. */
static void csv_json_str(tc_wbuf *b, tc_str s) {
  tc_wbuf_put(b, "\"\"", 2);
  const char *p = s.ptr, *end = s.len ? s.ptr + s.len : s.ptr, *q;
  while (p < end && (q = memchr(p, '"', (size_t)(end - p)))) {
    tc_json_escape(b, (tc_str){p, (size_t)(q - p)});
    tc_wbuf_puts(b, "\\u0022");
    p = q + 1;
  }
  tc_json_escape(b, (tc_str){p, (size_t)(end - p)});
  tc_wbuf_put(b, "\"\"", 2);
}

/* A list is written as ",\"[" then its items, then "]\"": strings as a
 * JSON array in one quoted cell, which any CSV reader gives back as text
 * that a JSON parser reads as a list. */
static void csv_list_item(tc_wbuf *b, size_t i, tc_str s) {
  if (i)
    tc_wbuf_putc(b, ',');
  csv_json_str(b, s);
}

/* ",V" for each of N counts. */
static void counts(tc_wbuf *b, const uint64_t *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    tc_wbuf_putc(b, ',');
    tc_wbuf_u64(b, v[i]);
  }
}

/* "KEY=N;KEY=N" in one quoted cell for each count of V[0..N) that is not
 * zero, KEY naming its index: an event's phases and a string profile's
 * value classes. */
static void keyed_counts(tc_wbuf *b, const uint64_t *v, int n, const char *(*key)(int)) {
  tc_wbuf_putc(b, '"');
  int first = 1;
  for (int k = 0; k < n; k++) {
    if (!v[k])
      continue;
    if (!first)
      tc_wbuf_putc(b, ';');
    tc_wbuf_puts(b, key(k));
    tc_wbuf_putc(b, '=');
    tc_wbuf_u64(b, v[k]);
    first = 0;
  }
  tc_wbuf_putc(b, '"');
}

static const char *class_name(int c) { return tc_valclass_name((tc_vclass)c); }

static void row(tc_wbuf *b, const tc_res_event *ev, uint32_t S, const tc_devtools_view *v) {
  tc_text_csv_cell(b, ev->name, TC_CSV_QUOTE_ALWAYS);
  const uint64_t rs[] = {ev->records, ev->sites, S};
  counts(b, rs, 3);
  tc_wbuf_putc(b, ',');
  tc_wbuf_puts(b, tc_usage_label(ev->records, S));
  tc_wbuf_putc(b, ',');
  tc_wbuf_g(b, S ? (double)ev->records / S : 0.0, 6);
  tc_wbuf_put(b, ",\"", 2);
  tc_res_cat *cats;
  size_t ncat = tc_split_categories(ev, &cats);
  for (size_t i = 0; i < ncat; i++) {
    if (i)
      tc_wbuf_putc(b, ';');
    tc_text_csv_body(b, cats[i].cat, i == 0); /* the first begins the cell */
  }
  tc_wbuf_put(b, "\",", 2);
  keyed_counts(b, ev->ph, TC_PH_COUNT, tc_phase_key);
  const uint64_t pairs[] = {ev->pairs[TC_PAIR_BEGIN_END], ev->pairs[TC_PAIR_FLOW],
                            ev->pairs[TC_PAIR_FLOW_UNPAIRED], ev->pairs[TC_PAIR_ASYNC],
                            ev->pairs[TC_PAIR_ASYNC_UNPAIRED], ev->dur.n};
  counts(b, pairs, 6);
  tc_wbuf_putc(b, ',');
  if (ev->dur.n) {
    tc_wbuf_g(b, tc_sketch_quantile(&ev->dur, 0.5), 6);
    tc_wbuf_putc(b, ',');
    tc_wbuf_g(b, tc_sketch_quantile(&ev->dur, 0.95), 6);
    tc_wbuf_putc(b, ',');
    tc_wbuf_puts(b, tc_duration_class(ev->dur.n, ev->dur_below));
    tc_wbuf_putc(b, ',');
  } else {
    tc_wbuf_put(b, ",,,", 3);
  }
  tc_wbuf_u64(b, ev->nargs);
  tc_wbuf_putc(b, ',');
  if (v) {
    tc_wbuf_puts(b, v->known ? "true," : "false,");
    tc_wbuf_puts(b, v->recorded ? "true," : "false,");
    tc_wbuf_u64(b, v->nundeclared);
  } else {
    tc_wbuf_put(b, ",,", 2);
  }
  counts(b, &ev->pairs[TC_PAIR_BE_UNMATCHED], 1);
  tc_wbuf_putc(b, ',');
  if (v)
    tc_wbuf_puts(b, tc_recording_level_code(v->level));
  tc_wbuf_put(b, ",\"[", 3);
  for (size_t i = 0; i < ncat; i++)
    csv_list_item(b, i, cats[i].cat);
  tc_wbuf_put(b, "]\"", 2);
  free(cats);
  if (v) {
    tc_wbuf_put(b, ",\"[", 3);
    for (size_t i = 0; i < v->nundeclared; i++)
      csv_list_item(b, i, v->undeclared[i]);
    tc_wbuf_put(b, "]\"", 2);
  } else {
    tc_wbuf_putc(b, ',');
  }
  const uint64_t left[] = {ev->left[TC_LEFT_BROWSER_UI] + ev->left[TC_LEFT_OTHER_RENDERER],
                           ev->left[TC_LEFT_BROWSER_UI], ev->left[TC_LEFT_OTHER_RENDERER]};
  counts(b, left, 3);
  tc_wbuf_putc(b, '\n');
}

static tc_err fill_census(const tc_report_ctx *c, FILE *fp) {
  tc_wbuf b;
  tc_wbuf_init(&b, fp);
  const tc_census_result *r = c->census;
  tc_wbuf_puts(&b, "name,records,sites,sites_total,usage,records_per_site,categories,phases,"
                  "begin_end_pairs,flow_pairs,flow_unpaired,async_spans,async_unpaired,"
                  "dur_records,dur_median_us,dur_p95_us,duration,arg_paths,devtools_known,"
                  "in_devtools_recording,undeclared_args,begin_end_unmatched,devtools_recording,"
                  "categories_list,undeclared_args_list,records_outside_scope,"
                  "records_browser_ui,records_other_renderers\n");
  for (size_t i = 0; i < r->nevents; i++)
    row(&b, &r->events[i], c->corpus->nsites, c->devtools ? &c->devtools->events[i] : NULL);
  tc_wbuf_flush(&b);
  return TC_OK;
}

tc_err tc_write_census_csv(const tc_report_ctx *c, const char *outdir, tc_why *why) {
  return tc__census_file(c, outdir, "census.csv", fill_census, why);
}

/* census_args.csv: one row per event x argument path with its value
 * profile, numbers as census.json writes them; an empty cell's reason is in
 * the next *_na column. */
static void put_u64(tc_wbuf *b, uint64_t v) {
  tc_wbuf_putc(b, ',');
  tc_wbuf_u64(b, v);
}

static void put_num(tc_wbuf *b, double v) {
  tc_wbuf_putc(b, ',');
  tc_wbuf_num(b, v);
}

static void put_text(tc_wbuf *b, const char *s) {
  tc_wbuf_putc(b, ',');
  tc_text_csv_cell(b, (tc_str){s, strlen(s)}, TC_CSV_QUOTE_ALWAYS);
}

static void args_numbers(tc_wbuf *b, const tc_valprof *p) {
  if (!p->types[TC_VP_T_NUMBER]) {
    for (int i = 0; i < 6 + TC_VALUE_NQ; i++)
      tc_wbuf_putc(b, ',');
    put_text(b, "no number values");
    return;
  }
  put_num(b, p->min);
  put_num(b, p->max);
  put_u64(b, p->types[TC_VP_T_NUMBER] - p->frac);
  put_u64(b, p->frac);
  put_u64(b, p->neg);
  for (int q = 0; q < TC_VALUE_NQ; q++)
    put_num(b, tc_valprof_quantile(p, tc_value_quantiles[q]));
  tc_wbuf_puts(b, tc_valprof_exact_quantiles(p) ? ",true," : ",false,");
}

static void args_strings(tc_wbuf *b, const tc_valprof *p, uint32_t min_sites) {
  if (!p->types[TC_VP_T_STRING]) {
    for (int i = 0; i < 11; i++)
      tc_wbuf_putc(b, ',');
    put_text(b, "no string values");
    return;
  }
  put_u64(b, p->len_min);
  put_u64(b, p->len_max);
  put_num(b, tc_hll_count(&p->str->distinct));
  tc_wbuf_puts(b, tc_hll_exact(&p->str->distinct) ? ",true," : ",false,");
  keyed_counts(b, p->str->cls, TC_VC_COUNT, class_name);
  tc_topk_item items[TC_TOPK_K];
  size_t n = tc_topk_list(&p->str->top, items);
  const char *na = n ? NULL : "no top value";
  tc_wbuf_putc(b, ',');
  if (n && tc_valprof_may_show(items[0].value, items[0].sites, min_sites))
    tc_text_csv_cell(b, items[0].value, TC_CSV_QUOTE_ALWAYS);
  else if (n)
    na = "seen on fewer sites than --value-sites";
  if (n) {
    put_u64(b, items[0].count);
    put_u64(b, items[0].err);
    put_u64(b, items[0].sites);
  } else {
    tc_wbuf_puts(b, ",,,");
  }
  put_u64(b, p->str->top.floor);
  put_text(b, na ? na : "");
  tc_wbuf_putc(b, ',');
}

static void args_constant(tc_wbuf *b, const tc_valprof *p, uint32_t min_sites) {
  static const char *const types[TC_VP_NTYPES] = {"null", "bool", "number", "string", "array",
                                                  "object"};
  if (p->k.state != TC_VP_CONST_YES) {
    tc_wbuf_puts(b, ",,");
    put_text(b, "values differ");
    return;
  }
  const char *na = "";
  tc_wbuf_putc(b, ',');
  if (p->k.type == TC_JT_NUMBER)
    tc_wbuf_num(b, p->k.num);
  else if (p->k.type == TC_JT_BOOL)
    tc_wbuf_puts(b, p->k.num ? "true" : "false");
  else if (p->k.type == TC_JT_NULL)
    tc_wbuf_puts(b, "null");
  else {
    tc_str v = tc_valprof_const_str(p);
    if (tc_valprof_may_show(v, p->k.sites, min_sites))
      tc_text_csv_cell(b, v, TC_CSV_QUOTE_ALWAYS);
    else
      na = "seen on fewer sites than --value-sites";
  }
  put_text(b, types[__builtin_ctz(p->k.type)]);
  put_text(b, na);
}

static void args_row(tc_wbuf *b, const tc_res_event *ev, const tc_res_arg *a, uint32_t min_sites) {
  const tc_valprof *p = a->values;
  tc_text_csv_cell(b, ev->name, TC_CSV_QUOTE_ALWAYS);
  tc_wbuf_putc(b, ',');
  tc_text_csv_cell(b, a->path, TC_CSV_QUOTE_ALWAYS);
  put_u64(b, a->records);
  put_u64(b, a->sites);
  put_u64(b, p->n);
  for (int t = 0; t < TC_VP_NTYPES; t++)
    put_u64(b, p->types[t]);
  const uint64_t sentinels[] = {p->zeros, p->minus1, tc_valprof_class(p, TC_VC_EMPTY), p->falses};
  counts(b, sentinels, 4);
  args_numbers(b, p);
  args_strings(b, p, min_sites);
  args_constant(b, p, min_sites);
  char line[TC_VALUE_LINE_MAX];
  tc_valprof_render(p, min_sites, line, sizeof line);
  put_text(b, line);
  tc_wbuf_putc(b, '\n');
}

static tc_err fill_args(const tc_report_ctx *c, FILE *fp) {
  tc_wbuf b;
  tc_wbuf_init(&b, fp);
  const tc_census_result *r = c->census;
  tc_wbuf_puts(&b, "event,path,records,sites,values,nulls,bools,numbers,strings,arrays,objects,"
                   "zeros,minus_ones,empty_strings,falses,num_min,num_max,num_integer,"
                   "num_fractional,num_negative");
  for (int q = 0; q < TC_VALUE_NQ; q++) {
    tc_wbuf_puts(&b, ",num_");
    tc_wbuf_puts(&b, tc_value_quantile_keys[q]);
  }
  tc_wbuf_puts(&b, ",num_quantiles_exact,numbers_na,len_min,len_max,distinct,distinct_exact,"
                   "classes,top_value,top_count,top_error,top_sites,top_error_bound,top_value_na,"
                   "strings_na,constant,constant_type,constant_na,profile\n");
  for (size_t i = 0; i < r->nevents; i++)
    for (size_t k = 0; k < r->events[i].nargs; k++)
      if (r->events[i].args[k].values)
        args_row(&b, &r->events[i], &r->events[i].args[k], c->census->value_sites);
  tc_wbuf_flush(&b);
  return TC_OK;
}

tc_err tc_write_census_args_csv(const tc_report_ctx *c, const char *outdir, tc_why *why) {
  return tc__census_file(c, outdir, "census_args.csv", fill_args, why);
}
