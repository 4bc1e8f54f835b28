/* diff.csv: one row per figure or listed name, for a data frame:
 * section,name,figure,a,b,change_pct,change_na. Numbers are raw (the
 * machine outputs' number text); an empty a, b or change_pct has its
 * reason in change_na. The ranking's rows (section event_rank, biggest
 * change first, as diff.json's events_ranked) are the exception: figure
 * change_size, a the rank, b the change_size, change_na the kind (new,
 * gone, changed); the event's figures are in its event_* rows. So are the
 * value_shift rows: figure the argument path, b its shift (0 to 1),
 * change_na what moved and the profiles ("types: always 0 -> ..."). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "diff/tc_diff.h"
#include "report/tc_text.h"
#include "report/tc_wbuf.h"

static void text(tc_wbuf *b, tc_str s) { tc_text_csv_cell(b, s, TC_CSV_QUOTE_ALWAYS); }

static void num(tc_wbuf *b, double v) {
  tc_wbuf_putc(b, ',');
  if (!isnan(v))
    tc_wbuf_num(b, v);
}

/* A row without figures: section, name, what. */
static void row(tc_wbuf *b, const char *section, tc_str name, tc_str what) {
  tc_wbuf_puts(b, section);
  tc_wbuf_putc(b, ',');
  text(b, name);
  tc_wbuf_putc(b, ',');
  text(b, what);
  tc_wbuf_puts(b, ",,,,\n");
}

static void fig_row(tc_wbuf *b, const char *section, tc_str name, const char *figure,
                    const tc_diff_fig *f) {
  tc_wbuf_puts(b, section);
  tc_wbuf_putc(b, ',');
  text(b, name);
  tc_wbuf_putc(b, ',');
  tc_wbuf_puts(b, figure);
  num(b, f->a);
  num(b, f->b);
  num(b, f->change_pct);
  tc_wbuf_putc(b, ',');
  if (f->why)
    text(b, tc_str_c(f->why));
  tc_wbuf_putc(b, '\n');
}

/* A value-profile shift: figure the path, b the shift, change_na its basis
 * and the two profiles ("types: always 0 -> 0 on 60 %"). */
static void shift_row(tc_wbuf *b, tc_str name, const tc_diff_shift *s) {
  tc_wbuf_puts(b, "value_shift,");
  text(b, name);
  tc_wbuf_putc(b, ',');
  text(b, s->path);
  tc_wbuf_putc(b, ',');
  num(b, s->shift);
  tc_wbuf_puts(b, ",,");
  char *why = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&why, &len);
  if (m) {
    fprintf(m, "%s: %.*s -> %.*s", s->basis, (int)s->profile_a.len, s->profile_a.ptr,
            (int)s->profile_b.len, s->profile_b.ptr);
    fclose(m);
    text(b, (tc_str){why, len});
  }
  free(why);
  tc_wbuf_putc(b, '\n');
}

static void events(tc_wbuf *b, const char *section, const tc_diff_event *e, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    fig_row(b, section, e[i].name, "records_per_site", &e[i].per_site);
    fig_row(b, section, e[i].name, "site_share_pct", &e[i].share);
    for (uint32_t k = 0; k < e[i].nargs_new; k++)
      row(b, "arg_appeared", e[i].name, e[i].args_new[k]);
    for (uint32_t k = 0; k < e[i].nargs_gone; k++)
      row(b, "arg_vanished", e[i].name, e[i].args_gone[k]);
    for (uint32_t k = 0; k < e[i].nundeclared_new; k++)
      row(b, "undeclared_appeared", e[i].name, e[i].undeclared_new[k]);
    for (uint32_t k = 0; k < e[i].nundeclared_gone; k++)
      row(b, "undeclared_vanished", e[i].name, e[i].undeclared_gone[k]);
    for (uint32_t k = 0; k < e[i].nshifts; k++)
      shift_row(b, e[i].name, &e[i].shifts[k]);
  }
}

static void ranked(tc_wbuf *b, const tc_diff *d) {
  for (uint32_t i = 0; i < d->nranked; i++) {
    tc_wbuf_puts(b, "event_rank,");
    text(b, d->ranked[i].event->name);
    tc_wbuf_puts(b, ",change_size");
    num(b, i + 1);
    num(b, d->ranked[i].change_size);
    tc_wbuf_puts(b, ",,");
    tc_wbuf_puts(b, d->ranked[i].kind);
    tc_wbuf_putc(b, '\n');
  }
}

void tc_diff_write_csv(const tc_diff *d, FILE *fp) {
  tc_wbuf b;
  tc_wbuf_init(&b, fp);
  tc_str none = {"", 0};
  tc_wbuf_puts(&b, "section,name,figure,a,b,change_pct,change_na\n");
  for (uint32_t i = 0; i < d->nconditions; i++)
    row(&b, "condition", none, tc_str_c(d->conditions[i]));
  for (uint32_t i = 0; i < d->nsites_gone; i++)
    row(&b, "site_only_in_a", d->sites_gone[i], none);
  for (uint32_t i = 0; i < d->nsites_new; i++)
    row(&b, "site_only_in_b", d->sites_new[i], none);
  ranked(&b, d);
  events(&b, "event_new", d->events_new, d->nevents_new);
  events(&b, "event_vanished", d->events_gone, d->nevents_gone);
  events(&b, "event_changed", d->events_changed, d->nevents_changed);
  for (int k = 0; !d->metrics_na && k < TC_DIFF_NMETRICS; k++) {
    tc_str m = tc_str_c(tc_diff_metrics[k].key);
    tc_diff_fig n = {d->dist[k].n_a, d->dist[k].n_b, NAN, "the sample count, not a result"};
    fig_row(&b, "metric_distribution", m, "n", &n);
    fig_row(&b, "metric_distribution", m, "median", &d->dist[k].median);
    fig_row(&b, "metric_distribution", m, "p90", &d->dist[k].p90);
  }
  for (uint32_t i = 0; i < d->nsites; i++)
    for (int k = 0; k < TC_DIFF_NMETRICS; k++)
      fig_row(&b, "site_metric", d->sites[i].name, tc_diff_metrics[k].key, &d->sites[i].m[k]);
  tc_wbuf_flush(&b);
}
