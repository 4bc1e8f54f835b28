/* diff.json: every figure raw (a, b, change_pct) with the reason beside
 * any that is missing (change_na), in the order of tc_diff; a missing
 * figure (NAN) is null, as tc_jsonw_num writes it. */
#include "diff/tc_diff.h"
#include "report/tc_jsonw.h"

static void fig(tc_jsonw *w, const char *key, const tc_diff_fig *f) {
  tc_jsonw_kobj(w, key);
  tc_jsonw_knum(w, "a", f->a);
  tc_jsonw_knum(w, "b", f->b);
  tc_jsonw_knum(w, "change_pct", f->change_pct);
  tc_jsonw_kstr(w, "change_na", f->why);
  tc_jsonw_obj_end(w);
}

static void strs(tc_jsonw *w, const char *key, const tc_str *s, uint32_t n) {
  tc_jsonw_karr(w, key);
  for (uint32_t i = 0; i < n; i++)
    tc_jsonw_strn(w, s[i]);
  tc_jsonw_arr_end(w);
}

/* E's value-profile shifts, biggest first: path, shift, basis and the
 * profile sentence of each side. */
static void shifts(tc_jsonw *w, const tc_diff_event *e) {
  tc_jsonw_karr(w, "value_shifts");
  for (uint32_t i = 0; i < e->nshifts; i++) {
    const tc_diff_shift *s = &e->shifts[i];
    tc_jsonw_obj(w);
    tc_jsonw_kstrn(w, "path", s->path);
    tc_jsonw_knum(w, "shift", s->shift);
    tc_jsonw_kstr(w, "basis", s->basis);
    tc_jsonw_kstrn(w, "profile_a", s->profile_a);
    tc_jsonw_kstrn(w, "profile_b", s->profile_b);
    tc_jsonw_obj_end(w);
  }
  tc_jsonw_arr_end(w);
}

static void side(tc_jsonw *w, const char *key, const char *dir, double s, double t, double r) {
  tc_jsonw_kobj(w, key);
  tc_jsonw_kstr(w, "dir", dir);
  tc_jsonw_knum(w, "sites_total", s);
  tc_jsonw_knum(w, "traces", t);
  tc_jsonw_knum(w, "records", r);
  tc_jsonw_obj_end(w);
}

static void events(tc_jsonw *w, const char *key, const tc_diff_event *e, uint32_t n) {
  tc_jsonw_karr(w, key);
  for (uint32_t i = 0; i < n; i++) {
    tc_jsonw_obj(w);
    tc_jsonw_kstrn(w, "name", e[i].name);
    tc_jsonw_knum(w, "records_a", e[i].records_a);
    tc_jsonw_knum(w, "records_b", e[i].records_b);
    tc_jsonw_knum(w, "sites_a", e[i].sites_a);
    tc_jsonw_knum(w, "sites_b", e[i].sites_b);
    fig(w, "records_per_site", &e[i].per_site);
    fig(w, "site_share_pct", &e[i].share);
    strs(w, "args_appeared", e[i].args_new, e[i].nargs_new);
    strs(w, "args_vanished", e[i].args_gone, e[i].nargs_gone);
    strs(w, "undeclared_appeared", e[i].undeclared_new, e[i].nundeclared_new);
    strs(w, "undeclared_vanished", e[i].undeclared_gone, e[i].nundeclared_gone);
    shifts(w, &e[i]);
    tc_jsonw_obj_end(w);
  }
  tc_jsonw_arr_end(w);
}

/* The ranking, biggest change first, each with its evidence: records,
 * records per compared site and sites on each side, and the argument paths
 * that appeared or vanished. */
static void ranked(tc_jsonw *w, const tc_diff *d) {
  tc_jsonw_karr(w, "events_ranked");
  for (uint32_t i = 0; i < d->nranked; i++) {
    const tc_diff_rank *r = &d->ranked[i];
    tc_jsonw_obj(w);
    tc_jsonw_kuint(w, "rank", i + 1);
    tc_jsonw_kstrn(w, "name", r->event->name);
    tc_jsonw_kstr(w, "kind", r->kind);
    tc_jsonw_knum(w, "change_size", r->change_size);
    tc_jsonw_knum(w, "records_a", r->event->records_a);
    tc_jsonw_knum(w, "records_b", r->event->records_b);
    tc_jsonw_knum(w, "records_per_site_a", r->event->per_site.a);
    tc_jsonw_knum(w, "records_per_site_b", r->event->per_site.b);
    tc_jsonw_knum(w, "sites_a", r->event->sites_a);
    tc_jsonw_knum(w, "sites_b", r->event->sites_b);
    strs(w, "args_new", r->paths_new, r->npaths_new);
    strs(w, "args_gone", r->paths_gone, r->npaths_gone);
    tc_jsonw_knum(w, "value_shift", r->event->value_shift);
    shifts(w, r->event);
    tc_jsonw_obj_end(w);
  }
  tc_jsonw_arr_end(w);
}

void tc_diff_write_json(const tc_diff *d, FILE *fp) {
  tc_jsonw w;
  tc_jsonw_init(&w, fp, 1);
  tc_jsonw_obj(&w);
  tc_jsonw_kstr(&w, "tool", "tracecensus");
  tc_jsonw_kstr(&w, "kind", "diff");
  side(&w, "a", d->dir_a, d->sites_total_a, d->traces_a, d->records_a);
  side(&w, "b", d->dir_b, d->sites_total_b, d->traces_b, d->records_b);
  tc_jsonw_kbool(&w, "changed", d->changed);
  tc_jsonw_karr(&w, "conditions_differ");
  for (uint32_t i = 0; i < d->nconditions; i++)
    tc_jsonw_str(&w, d->conditions[i]);
  tc_jsonw_arr_end(&w);
  tc_jsonw_kstr(&w, "events_not_comparable", d->events_why);
  tc_jsonw_kstr(&w, "metrics_not_comparable", d->metrics_why);
  tc_jsonw_kstr(&w, "metrics_na", d->metrics_na);
  strs(&w, "sites_only_in_a", d->sites_gone, d->nsites_gone);
  strs(&w, "sites_only_in_b", d->sites_new, d->nsites_new);
  tc_jsonw_kstr(&w, "events_basis", d->events_basis);
  tc_jsonw_kstr(&w, "events_basis_why", d->basis_why);
  tc_jsonw_kstr(&w, "args_basis", d->args_basis);
  tc_jsonw_kuint(&w, "sites_shared", d->sites_shared);
  tc_jsonw_kuint(&w, "lone_sites_a", d->nsites_gone);
  tc_jsonw_kuint(&w, "lone_sites_b", d->nsites_new);
  tc_jsonw_kuint(&w, "events_only_on_lone_sites", d->events_only_on_lone_sites);
  ranked(&w, d);
  events(&w, "events_new", d->events_new, d->nevents_new);
  events(&w, "events_vanished", d->events_gone, d->nevents_gone);
  events(&w, "events_changed", d->events_changed, d->nevents_changed);
  tc_jsonw_karr(&w, "metric_distributions");
  for (int k = 0; !d->metrics_na && k < TC_DIFF_NMETRICS; k++) {
    tc_jsonw_obj(&w);
    tc_jsonw_kstr(&w, "metric", tc_diff_metrics[k].key);
    tc_jsonw_kstr(&w, "unit", tc_diff_metrics[k].unit);
    tc_jsonw_kuint(&w, "n_a", d->dist[k].n_a);
    tc_jsonw_kuint(&w, "n_b", d->dist[k].n_b);
    fig(&w, "median", &d->dist[k].median);
    fig(&w, "p90", &d->dist[k].p90);
    tc_jsonw_obj_end(&w);
  }
  tc_jsonw_arr_end(&w);
  tc_jsonw_karr(&w, "sites");
  for (uint32_t i = 0; i < d->nsites; i++) {
    const tc_diff_site *s = &d->sites[i];
    tc_jsonw_obj(&w);
    tc_jsonw_kname(&w, "site", s->name);
    tc_jsonw_kuint(&w, "traces_a", s->traces_a);
    tc_jsonw_kuint(&w, "traces_b", s->traces_b);
    tc_jsonw_kstr(&w, "not_comparable", s->why);
    tc_jsonw_kobj(&w, "metrics");
    for (int k = 0; k < TC_DIFF_NMETRICS; k++)
      fig(&w, tc_diff_metrics[k].key, &s->m[k]);
    tc_jsonw_obj_end(&w);
    tc_jsonw_obj_end(&w);
  }
  tc_jsonw_arr_end(&w);
  tc_jsonw_obj_end(&w);
  tc_jsonw_end(&w);
}
