#include <stdlib.h>

#include "census/tc_labels.h"
#include "json/tc_event.h"
#include "report/tc_census_report.h"
#include "report/tc_jsonw.h"

static void write_types(tc_jsonw *w, uint8_t types) {
  tc_jsonw_arr(w);
  for (int b = 0; b < 6; b++)
    if (types & (1u << b))
      tc_jsonw_str(w, tc_json_type_name(1u << b));
  tc_jsonw_arr_end(w);
}

static void write_pairs(tc_jsonw *w, const tc_res_event *e) {
  static const char *const keys[TC_PAIR_COUNT] = {"begin_end", "begin_end_unmatched", "flow",
                                                  "flow_unpaired", "async", "async_unpaired"};
  tc_jsonw_obj(w);
  for (int k = 0; k < TC_PAIR_COUNT; k++) {
    tc_jsonw_kuint(w, keys[k], e->pairs[k]);
  }
  tc_jsonw_obj_end(w);
}

/* KEY: COUNTS[letter] for the letters E has records of, in ORDER
 * (tc_phase_sorted): an object of ph letter -> count, or with AS_ROWS an
 * array of {"ph", "records"}. Object keys that differ only in case ("B"
 * and "b") are one column to case-insensitive readers (DuckDB's structs,
 * SQL); an array element is a row to all of them. */
static void write_phases(tc_jsonw *w, const char *key, const tc_res_event *e,
                         const uint64_t counts[TC_PH_COUNT], const int *order, int as_rows) {
  tc_jsonw_key(w, key);
  if (as_rows)
    tc_jsonw_arr(w);
  else
    tc_jsonw_obj(w);
  for (int i = 0; i < TC_PH_COUNT; i++) {
    int k = order[i];
    if (!e->ph[k])
      continue;
    if (as_rows) {
      tc_jsonw_obj(w);
      tc_jsonw_kstr(w, "ph", tc_phase_key(k));
      tc_jsonw_key(w, "records");
    } else {
      tc_jsonw_key(w, tc_phase_key(k));
    }
    tc_jsonw_uint(w, counts[k]);
    if (as_rows)
      tc_jsonw_obj_end(w);
  }
  if (as_rows)
    tc_jsonw_arr_end(w);
  else
    tc_jsonw_obj_end(w);
}

static void write_duration(tc_jsonw *w, const tc_res_event *e) {
  if (!e->dur.n) {
    tc_jsonw_null(w);
    return;
  }
  double med = tc_sketch_quantile(&e->dur, 0.5);
  tc_jsonw_obj(w);
  tc_jsonw_kuint(w, "records", e->dur.n);
  tc_jsonw_knum(w, "median_us", med);
  tc_jsonw_knum(w, "p95_us", tc_sketch_quantile(&e->dur, 0.95));
  tc_jsonw_knum(w, "min_us", e->dur.min);
  tc_jsonw_knum(w, "max_us", e->dur.max);
  tc_jsonw_kstr(w, "class", tc_duration_class(e->dur.n, e->dur_below));
  tc_jsonw_obj_end(w);
}

static void write_devtools(tc_jsonw *w, const tc_devtools_view *v) {
  tc_jsonw_key(w, "devtools_known");
  if (v)
    tc_jsonw_bool(w, v->known);
  else
    tc_jsonw_null(w);
  tc_jsonw_key(w, "in_devtools_recording");
  if (v)
    tc_jsonw_bool(w, v->recorded);
  else
    tc_jsonw_null(w);
  tc_jsonw_key(w, "devtools_recording");
  if (v) {
    char sentence[1024];
    tc_devtools_recording_sentence(v, sentence, sizeof sentence);
    tc_jsonw_obj(w);
    tc_jsonw_kstr(w, "level", tc_recording_level_code(v->level));
    tc_jsonw_karr(w, "settings");
    for (size_t i = 0; i < v->nsettings; i++)
      tc_jsonw_strn(w, v->settings[i]);
    tc_jsonw_arr_end(w);
    tc_jsonw_key(w, "category");
    if (v->level == TC_RECORDING_DEFAULT || !v->category.len)
      tc_jsonw_null(w); /* recorded by default, or the event names no category */
    else
      tc_jsonw_strn(w, v->category);
    tc_jsonw_kstr(w, "sentence", *sentence ? sentence : NULL);
    tc_jsonw_obj_end(w);
  } else {
    tc_jsonw_null(w);
  }
  tc_jsonw_key(w, "undeclared_args");
  if (!v) {
    tc_jsonw_null(w);
    return;
  }
  tc_jsonw_arr(w);
  for (size_t i = 0; i < v->nundeclared; i++)
    tc_jsonw_strn(w, v->undeclared[i]);
  tc_jsonw_arr_end(w);
}

/* The records of E that the scope left out: their sum, and by why. */
static void write_outside(tc_jsonw *w, const tc_res_event *e) {
  uint64_t n = 0;
  for (int k = 0; k < TC_LEFT_COUNT; k++)
    n += e->left[k];
  tc_jsonw_kuint(w, "records_outside_scope", n);
  tc_jsonw_kobj(w, "outside_scope");
  for (int k = 0; k < TC_LEFT_COUNT; k++) {
    tc_jsonw_kobj(w, tc_left_name(k));
    tc_jsonw_kuint(w, "records", e->left[k]);
    tc_jsonw_kuint(w, "sites", e->left_sites[k]);
    tc_jsonw_obj_end(w);
  }
  tc_jsonw_obj_end(w);
}

/* An event's or arg path's records on each site that has any (V, N), as
 * [[site, records], ...] with site the index into run.json's `sites`,
 * ascending: what diff recounts an event and finds a path from over the
 * sites two crawls share. One line, since a common event has a row per
 * site. */
static void write_site_records(tc_jsonw *w, const tc_res_site *v, size_t n) {
  tc_jsonw_key(w, "site_records");
  int indent = w->indent;
  w->indent = 0;
  tc_jsonw_arr(w);
  for (size_t i = 0; i < n; i++) {
    tc_jsonw_arr(w);
    tc_jsonw_uint(w, v[i].site);
    tc_jsonw_uint(w, v[i].records);
    tc_jsonw_arr_end(w);
  }
  tc_jsonw_arr_end(w);
  w->indent = indent;
}

/* ORDER: the phase keys in output order (tc_phase_sorted, once per file);
 * R: the result, for the value profiles' privacy rule and their reason. */
static void write_event(tc_jsonw *w, const tc_res_event *e, uint32_t sites_total,
                        const tc_devtools_view *dv, const int *order, const tc_census_result *r) {
  tc_jsonw_obj(w);
  tc_jsonw_kstrn(w, "name", e->name);
  tc_jsonw_kuint(w, "records", e->records);
  tc_jsonw_kuint(w, "sites", e->sites);
  write_outside(w, e);
  char sentence[1024];
  tc_phase_sentence(e, sites_total, sentence, sizeof sentence);
  tc_jsonw_kstr(w, "sentence", sentence);
  write_phases(w, "phases", e, e->ph, order, 0);
  write_phases(w, "phases_with_args", e, e->ph_args, order, 0);
  write_phases(w, "phase_counts", e, e->ph, order, 1);
  write_phases(w, "phase_counts_with_args", e, e->ph_args, order, 1);
  tc_jsonw_key(w, "pairs");
  write_pairs(w, e);
  tc_res_cat *cats;
  size_t ncat = tc_split_categories(e, &cats);
  tc_jsonw_karr(w, "categories");
  for (size_t i = 0; i < ncat; i++) {
    tc_jsonw_obj(w);
    tc_jsonw_kstrn(w, "name", cats[i].cat);
    tc_jsonw_kuint(w, "records", cats[i].records);
    tc_jsonw_obj_end(w);
  }
  tc_jsonw_arr_end(w);
  free(cats);
  tc_jsonw_kstr(w, "usage", tc_usage_label(e->records, sites_total));
  tc_jsonw_knum(w, "records_per_site", sites_total ? (double)e->records / sites_total : 0);
  tc_jsonw_key(w, "duration");
  write_duration(w, e);
  tc_jsonw_karr(w, "args");
  for (size_t i = 0; i < e->nargs; i++) {
    const tc_res_arg *a = &e->args[i];
    tc_jsonw_obj(w);
    tc_jsonw_kstrn(w, "path", a->path);
    tc_jsonw_kuint(w, "records", a->records);
    tc_jsonw_kuint(w, "sites", a->sites);
    tc_jsonw_key(w, "types");
    write_types(w, a->types);
    tc_jsonw_key(w, "values");
    if (a->values) {
      tc_write_values_json(w, a->values, r->value_sites);
    } else {
      tc_jsonw_null(w);
      tc_jsonw_kstr(w, "values_na", tc_values_na(r));
    }
    write_site_records(w, a->site_recs, a->nsite_recs);
    tc_jsonw_obj_end(w);
  }
  tc_jsonw_arr_end(w);
  write_devtools(w, dv);
  tc_jsonw_key(w, "example");
  if (e->example.len)
    tc_jsonw_raw(w, e->example);
  else
    tc_jsonw_null(w);
  write_site_records(w, e->site_recs, e->nsite_recs);
  tc_jsonw_obj_end(w);
}

static tc_err fill_census(const tc_report_ctx *c, FILE *fp) {
  const tc_census_result *r = c->census;
  uint32_t with_traces = 0;
  for (uint32_t i = 0; i < c->corpus->nsites; i++)
    with_traces += c->corpus->sites[i].ntraces > 0;
  tc_jsonw w;
  tc_jsonw_init(&w, fp, 1);
  tc_jsonw_obj(&w);
  tc_jsonw_kstr(&w, "tool", "tracecensus");
  tc_jsonw_kuint(&w, "sites_total", c->corpus->nsites);
  tc_jsonw_kuint(&w, "sites_with_traces", with_traces);
  tc_jsonw_kuint(&w, "traces", c->corpus->ntraces);
  tc_jsonw_kuint(&w, "records", r->records);
  tc_jsonw_kstr(&w, "scope", tc_scope_name(r->scope));
  tc_jsonw_kstr(&w, "scope_counts", tc_scope_text(r->scope));
  uint64_t left = 0;
  for (int k = 0; k < TC_LEFT_COUNT; k++)
    left += r->left[k];
  tc_jsonw_kuint(&w, "records_outside_scope", left);
  tc_jsonw_kobj(&w, "outside_scope");
  for (int k = 0; k < TC_LEFT_COUNT; k++)
    tc_jsonw_kuint(&w, tc_left_name(k), r->left[k]);
  tc_jsonw_obj_end(&w);
  tc_jsonw_karr(&w, "events");
  int order[TC_PH_COUNT];
  tc_phase_sorted(order);
  for (size_t i = 0; i < r->nevents; i++)
    write_event(&w, &r->events[i], c->corpus->nsites,
                c->devtools ? &c->devtools->events[i] : NULL, order, c->census);
  tc_jsonw_arr_end(&w);
  /* Events the scope left out whole: their names and counts only. */
  tc_jsonw_karr(&w, "events_outside_scope");
  for (size_t i = 0; i < r->noutside; i++) {
    tc_jsonw_obj(&w);
    tc_jsonw_kstrn(&w, "name", r->outside[i].name);
    write_outside(&w, &r->outside[i]);
    tc_jsonw_obj_end(&w);
  }
  tc_jsonw_arr_end(&w);
  tc_jsonw_key(&w, "declared_never_observed");
  if (c->devtools) {
    tc_jsonw_arr(&w);
    for (size_t i = 0; i < c->devtools->nnever; i++)
      tc_jsonw_strn(&w, c->devtools->never_observed[i]);
    tc_jsonw_arr_end(&w);
  } else {
    tc_jsonw_null(&w);
  }
  tc_jsonw_kobj(&w, "devtools_schema");
  tc_jsonw_kstr(&w, "generator", c->schema_generator);
  tc_jsonw_kstr(&w, "error", c->schema_error);
  tc_jsonw_obj_end(&w);
  tc_jsonw_obj_end(&w);
  tc_jsonw_end(&w);
  return TC_OK;
}

tc_err tc_write_census_json(const tc_report_ctx *c, const char *outdir, tc_why *why) {
  return tc__census_file(c, outdir, "census.json", fill_census, why);
}
