/* diff.md: the comparison for people, each kind of change in its own
 * section, with the reasons a change is not comparable said once above its
 * table. Nothing but the heading and "No differences." when A and B agree. */
#include <math.h>
#include <stdio.h>

#include "diff/tc_diff.h"
#include "diff/tc_diff_text.h"
#include "report/tc_text.h"
#include "report/tc_wbuf.h"

/* Text from the outputs compared (a name, a path, a reason), escaped as
 * every Markdown writer does. */
static void cell(tc_wbuf *b, tc_str s) { tc_text_md(b, s); }

static void num(tc_wbuf *b, double v) {
  char buf[64];
  tc_diff_fmt_num(v, buf, sizeof buf);
  tc_wbuf_puts(b, buf);
}

/* The next cell of a table row: a number. */
static void numc(tc_wbuf *b, double v) {
  tc_wbuf_puts(b, " | ");
  num(b, v);
}

/* A figure's cells: its value on each side, then the change. */
static void fig(tc_wbuf *b, const tc_diff_fig *f, const char *shared) {
  numc(b, f->a);
  numc(b, f->b);
  char buf[512];
  tc_diff_fmt_change(f, shared, buf, sizeof buf);
  tc_wbuf_puts(b, " | ");
  cell(b, tc_str_c(buf));
}

static void not_comparable(tc_wbuf *b, const char *why) {
  if (!why)
    return;
  tc_wbuf_puts(b, "Changes are **not comparable**: ");
  cell(b, tc_str_c(why));
  tc_wbuf_puts(b, ".\n\n");
}

static void one_side_events(tc_wbuf *b, const char *heading, const tc_diff_event *e, uint32_t n,
                            int side_b) {
  if (!n)
    return;
  tc_wbuf_puts(b, heading);
  tc_wbuf_puts(b, "\n\n| event | records | sites | records per surveyed site | share of sites (%) |\n"
                  "|---|---:|---:|---:|---:|\n");
  for (uint32_t i = 0; i < n; i++) {
    tc_wbuf_puts(b, "| ");
    cell(b, e[i].name);
    numc(b, side_b ? e[i].records_b : e[i].records_a);
    numc(b, side_b ? e[i].sites_b : e[i].sites_a);
    numc(b, side_b ? e[i].per_site.b : e[i].per_site.a);
    numc(b, side_b ? e[i].share.b : e[i].share.a);
    tc_wbuf_puts(b, " |\n");
  }
  tc_wbuf_putc(b, '\n');
}

static void changed_events(tc_wbuf *b, const tc_diff *d) {
  if (!d->nevents_changed)
    return;
  tc_wbuf_puts(b, "## Events whose figures changed\n\n");
  not_comparable(b, d->events_why);
  tc_wbuf_puts(b, "| event | records A | records B | sites A | sites B | per site A | per site B "
                  "| change | share A (%) | share B (%) | change |\n"
                  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (uint32_t i = 0; i < d->nevents_changed; i++) {
    const tc_diff_event *e = &d->events_changed[i];
    if (e->records_a == e->records_b && e->sites_a == e->sites_b)
      continue;
    tc_wbuf_puts(b, "| ");
    cell(b, e->name);
    numc(b, e->records_a);
    numc(b, e->records_b);
    numc(b, e->sites_a);
    numc(b, e->sites_b);
    fig(b, &e->per_site, d->events_why);
    fig(b, &e->share, d->events_why);
    tc_wbuf_puts(b, " |\n");
  }
  tc_wbuf_putc(b, '\n');
}

static void path_list(tc_wbuf *b, const char *sep, const char *what, const tc_str *s, uint32_t n,
                      tc_md_where where) {
  if (!n)
    return;
  tc_wbuf_puts(b, sep);
  tc_wbuf_puts(b, what);
  for (uint32_t i = 0; i < n; i++) {
    tc_wbuf_puts(b, i ? ", " : " ");
    tc_text_md_code(b, s[i], where);
  }
}

/* E's value-profile shifts, the first MAX of them: "`path` 0.45 (types):
 * always 0 -> 0 on 60 %". */
static void shift_list(tc_wbuf *b, const tc_diff_event *e, uint32_t max, tc_md_where where) {
  for (uint32_t i = 0; i < e->nshifts && i < max; i++) {
    const tc_diff_shift *s = &e->shifts[i];
    char buf[48];
    snprintf(buf, sizeof buf, " %.2f (%s): ", s->shift, s->basis);
    if (i)
      tc_wbuf_puts(b, "; ");
    tc_text_md_code(b, s->path, where);
    tc_wbuf_puts(b, buf);
    cell(b, s->profile_a);
    tc_wbuf_puts(b, " -> ");
    cell(b, s->profile_b);
  }
  if (e->nshifts > max) {
    tc_wbuf_puts(b, "; and ");
    num(b, e->nshifts - max);
    tc_wbuf_puts(b, " more");
  }
}

/* Every event's value-profile shifts, one line per event. */
static void shifts(tc_wbuf *b, const tc_diff *d) {
  int any = 0;
  for (uint32_t i = 0; i < d->nevents_changed; i++) {
    const tc_diff_event *e = &d->events_changed[i];
    if (!e->nshifts)
      continue;
    if (!any++)
      tc_wbuf_puts(b, "## Value profiles that shifted\n\n"
                      "shift: the share of an argument path's values that moved (0 to 1), the "
                      "largest of the change in its mix of types, in the share of one sentinel "
                      "value and a constant that changed (1) or stopped or started being one "
                      "(0.5); over the whole crawls; README.md, \"Comparing two crawls\".\n\n");
    tc_wbuf_puts(b, "- ");
    cell(b, e->name);
    tc_wbuf_puts(b, ": ");
    shift_list(b, e, UINT32_MAX, TC_MD_OUTSIDE_TABLE);
    tc_wbuf_putc(b, '\n');
  }
  if (any)
    tc_wbuf_putc(b, '\n');
}

/* The argument paths (UNDECLARED: the undeclared ones) that appeared or
 * vanished, one line per event. */
static void paths(tc_wbuf *b, const tc_diff *d, int undeclared) {
  int any = 0;
  for (uint32_t i = 0; i < d->nevents_changed; i++) {
    const tc_diff_event *e = &d->events_changed[i];
    uint32_t nn = undeclared ? e->nundeclared_new : e->nargs_new;
    uint32_t ng = undeclared ? e->nundeclared_gone : e->nargs_gone;
    if (!nn && !ng)
      continue;
    if (!any++)
      tc_wbuf_puts(b, undeclared ? "## Undeclared args that changed\n\n"
                                 : "## Argument paths that appeared or vanished\n\n");
    tc_wbuf_puts(b, "- ");
    cell(b, e->name);
    path_list(b, ": ", "appeared", undeclared ? e->undeclared_new : e->args_new, nn,
              TC_MD_OUTSIDE_TABLE);
    path_list(b, nn ? "; " : ": ", "vanished", undeclared ? e->undeclared_gone : e->args_gone, ng,
              TC_MD_OUTSIDE_TABLE);
    tc_wbuf_putc(b, '\n');
  }
  if (any)
    tc_wbuf_putc(b, '\n');
}

static void dists(tc_wbuf *b, const tc_diff *d) {
  if (d->metrics_na) {
    tc_wbuf_puts(b, "## Metric distributions across sites\n\nn/a: ");
    tc_wbuf_puts(b, d->metrics_na);
    tc_wbuf_puts(b, ".\n\n");
    return;
  }
  int any = 0;
  for (int k = 0; k < TC_DIFF_NMETRICS; k++) {
    const tc_diff_dist *t = &d->dist[k];
    if (!t->changed)
      continue;
    if (!any++) {
      tc_wbuf_puts(b, "## Metric distributions across sites\n\n"
                      "Nearest-rank median and p90 of the sites' values (a page view per site).\n\n");
      not_comparable(b, d->metrics_why);
      tc_wbuf_puts(b, "| metric | unit | n A | n B | median A | median B | change | p90 A | p90 B "
                      "| change |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    }
    tc_wbuf_puts(b, "| ");
    tc_wbuf_puts(b, tc_diff_metrics[k].label);
    tc_wbuf_puts(b, " | ");
    tc_wbuf_puts(b, tc_diff_metrics[k].unit);
    numc(b, t->n_a);
    numc(b, t->n_b);
    fig(b, &t->median, d->metrics_why);
    fig(b, &t->p90, d->metrics_why);
    tc_wbuf_puts(b, " |\n");
  }
  if (any)
    tc_wbuf_putc(b, '\n');
}

static void sites(tc_wbuf *b, const tc_diff *d) {
  if (!d->nsites)
    return;
  tc_wbuf_puts(b, "## Sites whose metrics changed or are not comparable\n\n"
                  "| site | traces A | traces B | metric | A | B | change |\n"
                  "|---|---:|---:|---|---:|---:|---|\n");
  for (uint32_t i = 0; i < d->nsites; i++)
    for (int k = 0; k < TC_DIFF_NMETRICS; k++) {
      const tc_diff_site *s = &d->sites[i];
      tc_wbuf_puts(b, "| ");
      cell(b, s->name);
      numc(b, s->traces_a);
      numc(b, s->traces_b);
      tc_wbuf_puts(b, " | ");
      tc_wbuf_puts(b, tc_diff_metrics[k].label);
      fig(b, &s->m[k], NULL);
      tc_wbuf_puts(b, " |\n");
    }
  tc_wbuf_putc(b, '\n');
}

/* How many names a list shows before "and N more" (diff.json has all). */
enum { SHOWN_NAMES = 10 };

static void names(tc_wbuf *b, const char *heading, const tc_str *s, uint32_t n) {
  if (!n)
    return;
  tc_wbuf_puts(b, heading);
  for (uint32_t i = 0; i < n && i < SHOWN_NAMES; i++) {
    tc_wbuf_puts(b, i ? ", " : "");
    cell(b, s[i]);
  }
  if (n > SHOWN_NAMES) {
    tc_wbuf_puts(b, " and ");
    num(b, n - SHOWN_NAMES);
    tc_wbuf_puts(b, " more (diff.json lists them all)");
  }
  tc_wbuf_puts(b, "\n\n");
}

/* Which sites the events were compared over, and what that left out. */
static void basis(tc_wbuf *b, const tc_diff *d) {
  if (d->basis_why) {
    tc_wbuf_puts(b, "Events are compared over the whole crawls: ");
    tc_wbuf_puts(b, d->basis_why);
    tc_wbuf_puts(b, ".\n\n");
    return;
  }
  tc_wbuf_puts(b, "Events and metric distributions are compared over the ");
  num(b, d->sites_shared);
  tc_wbuf_puts(b, " sites both crawls list (shared sites); lone sites: ");
  num(b, d->nsites_gone);
  tc_wbuf_puts(b, " only in A, ");
  num(b, d->nsites_new);
  tc_wbuf_puts(b, " only in B; ");
  num(b, d->events_only_on_lone_sites);
  tc_wbuf_puts(b, " events are only on lone sites. ");
  tc_wbuf_puts(b, tc_diff_args_basis_text(d));
  tc_wbuf_puts(b, "\n\n");
}

/* How many events the ranking shows (diff.json has all). */
enum { SHOWN_RANKS = 50 };

/* The ranking, biggest change first, before every other section. */
static void ranked(tc_wbuf *b, const tc_diff *d) {
  if (!d->nranked)
    return;
  tc_wbuf_puts(b, "## Events ranked by size of change\n\n"
                  "change size: |log2| of the records-per-site ratio (10 when new or gone) + 4 x "
                  "the change in share of sites + 0.5 per argument path new or gone (at most 2) "
                  "+ 2 x the biggest value-profile shift; README.md, \"Comparing two "
                  "crawls\".\n\n"
                  "| rank | event | kind | change size | per site A | per site B | sites A "
                  "| sites B | argument paths | value shifts |\n"
                  "|---:|---|---|---:|---:|---:|---:|---:|---|---|\n");
  for (uint32_t i = 0; i < d->nranked && i < SHOWN_RANKS; i++) {
    const tc_diff_rank *r = &d->ranked[i];
    tc_wbuf_puts(b, "| ");
    num(b, i + 1);
    tc_wbuf_puts(b, " | ");
    cell(b, r->event->name);
    tc_wbuf_puts(b, " | ");
    tc_wbuf_puts(b, r->kind);
    tc_wbuf_puts(b, " | ");
    char buf[32];
    snprintf(buf, sizeof buf, "%.2f", r->change_size);
    tc_wbuf_puts(b, buf);
    numc(b, r->event->per_site.a);
    numc(b, r->event->per_site.b);
    numc(b, r->event->sites_a);
    numc(b, r->event->sites_b);
    tc_wbuf_puts(b, " | ");
    path_list(b, "", "new", r->paths_new, r->npaths_new, TC_MD_IN_TABLE);
    path_list(b, r->npaths_new ? "; " : "", "gone", r->paths_gone, r->npaths_gone, TC_MD_IN_TABLE);
    tc_wbuf_puts(b, " | ");
    shift_list(b, r->event, TC_DIFF_SHIFTS_SHOWN, TC_MD_IN_TABLE);
    tc_wbuf_puts(b, " |\n");
  }
  if (d->nranked > SHOWN_RANKS) {
    tc_wbuf_puts(b, "\nand ");
    num(b, d->nranked - SHOWN_RANKS);
    tc_wbuf_puts(b, " more (diff.json's events_ranked lists them all).\n");
  }
  tc_wbuf_putc(b, '\n');
}

static void side(tc_wbuf *b, const char *label, const char *dir, double s, double t, double r) {
  tc_wbuf_puts(b, label);
  cell(b, tc_str_c(dir));
  tc_wbuf_puts(b, ": ");
  num(b, s);
  tc_wbuf_puts(b, " sites surveyed, ");
  num(b, t);
  tc_wbuf_puts(b, " traces, ");
  num(b, r);
  tc_wbuf_puts(b, " records");
}

void tc_diff_write_md(const tc_diff *d, FILE *fp) {
  tc_wbuf b;
  tc_wbuf_init(&b, fp);
  tc_wbuf_puts(&b, "# tracecensus diff\n\n");
  side(&b, "- A (baseline): ", d->dir_a, d->sites_total_a, d->traces_a, d->records_a);
  side(&b, "\n- B (current): ", d->dir_b, d->sites_total_b, d->traces_b, d->records_b);
  tc_wbuf_puts(&b, "\n\nchange = (B - A) / |A| x 100 %, \"not comparable\" when the "
                   "baseline is zero, the sample counts differ or the conditions differ "
                   "(README.md, \"Comparing two crawls\").\n\n");
  if (!d->changed) {
    tc_wbuf_puts(&b, "No differences.\n");
    tc_wbuf_flush(&b);
    return;
  }
  basis(&b, d);
  ranked(&b, d);
  if (d->nconditions) {
    tc_wbuf_puts(&b, "## Conditions that differ\n\n");
    for (uint32_t i = 0; i < d->nconditions; i++) {
      tc_wbuf_puts(&b, "- ");
      cell(&b, tc_str_c(d->conditions[i]));
      tc_wbuf_putc(&b, '\n');
    }
    tc_wbuf_putc(&b, '\n');
  }
  names(&b, "## Sites only in A\n\n", d->sites_gone, d->nsites_gone);
  names(&b, "## Sites only in B\n\n", d->sites_new, d->nsites_new);
  one_side_events(&b, "## Events new in B", d->events_new, d->nevents_new, 1);
  one_side_events(&b, "## Events vanished from A", d->events_gone, d->nevents_gone, 0);
  changed_events(&b, d);
  paths(&b, d, 0);
  paths(&b, d, 1);
  shifts(&b, d);
  dists(&b, d);
  sites(&b, d);
  tc_wbuf_flush(&b);
}
