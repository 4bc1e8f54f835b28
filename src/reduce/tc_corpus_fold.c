#include "reduce/tc_corpus_fold.h"

#include <stdlib.h>
#include <string.h>

#include "reduce/tc_census_fold.h"

struct tc_corpus_fold {
  tc_census_fold *census;
  tc_corpus_tables t; /* all but census, filled as units come */
};

void tc_corpus_tables_free(tc_corpus_tables *t) {
  if (!t)
    return;
  tc_trace_rows_free(&t->traces);
  tc_metrics_reduction_free(t->metrics);
  tc_census_result_free(&t->census);
  memset(t, 0, sizeof *t);
}

void tc_corpus_count_trace(tc_run_totals *t, const tc_trace_status *st) {
  t->in_bytes += st->in_bytes;
  t->out_bytes += st->out_bytes;
  if (st->shape.perfetto)
    t->proto_bytes += st->out_bytes;
  t->events += st->events;
  t->bad_events += st->bad_events;
  t->traces_with_errors += st->fatal || st->stream_err || st->bad_events ||
                           st->shape.trailing_bytes;
  t->traces_failed += st->fatal != TC_OK;
}

tc_corpus_fold *tc_corpus_fold_create(int metrics) {
  tc_corpus_fold *f = calloc(1, sizeof *f);
  if (!f)
    return NULL;
  f->census = tc_census_fold_create();
  if (!f->census || (metrics && !(f->t.metrics = tc_metrics_reduction_create()))) {
    tc_corpus_fold_free(f);
    return NULL;
  }
  return f;
}

void tc_corpus_fold_free(tc_corpus_fold *f) {
  if (!f)
    return;
  tc_census_fold_free(f->census);
  tc_corpus_tables_free(&f->t);
  free(f);
}

/* The unit's traces' metrics, by path as the unit has them; a site of the
 * crawl that left no trace is n/a in the metrics, not absent. */
static tc_err add_metrics(tc_metrics_reduction *metrics, const tc_site_unit *u) {
  if (!u->ntraces)
    return tc_metrics_reduction_add_site(metrics, u->name, NULL, 0,
                                         u->reason ? u->reason : "no trace file in the corpus");
  const tc_trace_metrics **m = malloc(u->ntraces * sizeof *m);
  if (!m)
    return TC_E_NOMEM;
  size_t n = 0;
  for (uint32_t i = 0; i < u->ntraces; i++)
    if (u->traces[i].metrics)
      m[n++] = u->traces[i].metrics;
  tc_err e = n ? tc_metrics_reduction_add_site(metrics, u->name, m, n, NULL) : TC_OK;
  free(m);
  return e;
}

tc_err tc_corpus_fold_add(tc_corpus_fold *f, uint32_t site, uint32_t first, tc_site_unit *u) {
  tc_err e = tc_census_fold_add(f->census, site, &u->census);
  if (!e && u->values)
    e = tc_census_fold_add_values(f->census, u->values);
  for (uint32_t i = 0; !e && i < u->ntraces; i++) {
    tc_corpus_count_trace(&f->t.totals, &u->traces[i].status);
    e = tc_trace_rows_add(&f->t.traces, first + i, &u->traces[i].status, &u->traces[i].left);
  }
  if (!e && f->t.metrics)
    e = add_metrics(f->t.metrics, u);
  return e;
}

tc_err tc_corpus_fold_finish(tc_corpus_fold *f, tc_census_scope scope, uint32_t value_sites,
                             tc_corpus_tables *out) {
  memset(out, 0, sizeof *out);
  tc_err e = tc_census_fold_finish(f->census, &f->t.census);
  f->census = NULL;
  f->t.census.scope = scope;
  f->t.census.value_sites = value_sites;
  if (!e && f->t.metrics)
    e = tc_metrics_reduction_seal(f->t.metrics);
  if (!e)
    e = tc_trace_rows_seal(&f->t.traces);
  if (!e) {
    *out = f->t;
    memset(&f->t, 0, sizeof f->t);
  }
  tc_corpus_fold_free(f);
  return e;
}
