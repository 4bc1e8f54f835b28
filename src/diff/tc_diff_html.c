/* diff.html: the comparison as one self-contained page (tc_html.h), its
 * tables sortable and filterable: conditions, sites and events on one side
 * only, changed events, argument paths, metric distributions, sites. */
#include <math.h>
#include <string.h>

#include "diff/tc_diff.h"
#include "diff/tc_diff_text.h"
#include "report/tc_html.h"

/* A figure's cell: integers whole, others with enough decimals to read,
 * n/a with WHY as its tooltip. */
static void num(FILE *fp, double v, const char *why) {
  if (isnan(v)) {
    tc_html_cell_na(fp, why ? why : "not on this side");
    return;
  }
  double a = fabs(v);
  if (a < 9e15 && v == floor(v)) {
    tc_html_cell_int(fp, (int64_t)v);
    return;
  }
  int decimals = a >= 1 ? 2 : 1 + (int)ceil(-log10(a));
  tc_html_cell_num(fp, v, decimals > 9 ? 9 : decimals);
}

/* A change, or "not comparable" (the harness's words) or "n/a", with the
 * reason as the cell's tooltip. */
static void change(FILE *fp, const tc_diff_fig *f) {
  if (!f->why) {
    tc_html_cell_num(fp, f->change_pct, 1);
    return;
  }
  char buf[512];
  tc_diff_fmt_change(f, NULL, buf, sizeof buf);
  tc_html_cell_na_text(fp, strncmp(buf, "n/a", 3) ? "not comparable" : "n/a", buf);
}

static void para(FILE *fp, const char *label, const char *text) {
  if (!text)
    return;
  fprintf(fp, "<p><strong>%s</strong> ", label);
  tc_html_escape_c(fp, text);
  fputs("</p>\n", fp);
}

static void side_line(FILE *fp, const char *label, const char *dir, double s, double t, double r) {
  fprintf(fp, "<li>%s: <code>", label);
  tc_html_escape_c(fp, dir);
  fprintf(fp, "</code>: %.0f sites surveyed, %.0f traces, %.0f records</li>\n", s, t, r);
}

static void names(FILE *fp, const char *id, const char *caption, const tc_str *s, uint32_t n) {
  if (!n)
    return;
  static const tc_html_col cols[] = {{"site", NULL, NULL, TC_HTML_TEXT, 0}};
  tc_html_table_begin(fp, id, caption, cols, 1);
  for (uint32_t i = 0; i < n; i++) {
    tc_html_row_begin(fp);
    tc_html_cell_text(fp, s[i]);
    tc_html_row_end(fp);
  }
  tc_html_table_end(fp);
}

static const tc_html_col event_cols[] = {
    {"event", NULL, NULL, TC_HTML_TEXT, 0},
    {"records A", "count", NULL, TC_HTML_NUM, 0},
    {"records B", "count", NULL, TC_HTML_NUM, 0},
    {"sites A", "count", NULL, TC_HTML_NUM, 0},
    {"sites B", "count", NULL, TC_HTML_NUM, 0},
    {"per site A", "records / S", NULL, TC_HTML_NUM, 0},
    {"per site B", "records / S", NULL, TC_HTML_NUM, 0},
    {"change", "%", "(B - A) / |A|; n/a says why", TC_HTML_NUM, 0},
    {"share A", "% of sites", NULL, TC_HTML_NUM, 0},
    {"share B", "% of sites", NULL, TC_HTML_NUM, 0},
    {"change", "%", "(B - A) / |A|; n/a says why", TC_HTML_NUM, 0},
};

static void events(FILE *fp, const char *id, const char *caption, const tc_diff_event *e,
                   uint32_t n) {
  if (!n)
    return;
  tc_html_table_begin(fp, id, caption, event_cols, sizeof event_cols / sizeof *event_cols);
  for (uint32_t i = 0; i < n; i++) {
    tc_html_row_begin(fp);
    tc_html_cell_text(fp, e[i].name);
    num(fp, e[i].records_a, e[i].per_site.why);
    num(fp, e[i].records_b, e[i].per_site.why);
    num(fp, e[i].sites_a, e[i].per_site.why);
    num(fp, e[i].sites_b, e[i].per_site.why);
    num(fp, e[i].per_site.a, e[i].per_site.why);
    num(fp, e[i].per_site.b, e[i].per_site.why);
    change(fp, &e[i].per_site);
    num(fp, e[i].share.a, e[i].share.why);
    num(fp, e[i].share.b, e[i].share.why);
    change(fp, &e[i].share);
    tc_html_row_end(fp);
  }
  tc_html_table_end(fp);
}

static void path_rows(FILE *fp, tc_str event, const char *what, const tc_str *s, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    tc_html_row_begin(fp);
    tc_html_cell_text(fp, event);
    tc_html_cell_text(fp, tc_str_c(what));
    tc_html_cell_text(fp, s[i]);
    tc_html_row_end(fp);
  }
}

static void paths(FILE *fp, const tc_diff *d) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < d->nevents_changed; i++) {
    const tc_diff_event *e = &d->events_changed[i];
    n += e->nargs_new + e->nargs_gone + e->nundeclared_new + e->nundeclared_gone;
  }
  if (!n)
    return;
  static const tc_html_col cols[] = {{"event", NULL, NULL, TC_HTML_TEXT, 0},
                                     {"change", NULL, NULL, TC_HTML_TEXT, 1},
                                     {"argument path", NULL, NULL, TC_HTML_TEXT, 0}};
  tc_html_table_begin(fp, "args", "Argument paths, and undeclared args, that appeared or vanished",
                      cols, 3);
  for (uint32_t i = 0; i < d->nevents_changed; i++) {
    const tc_diff_event *e = &d->events_changed[i];
    path_rows(fp, e->name, "appeared", e->args_new, e->nargs_new);
    path_rows(fp, e->name, "vanished", e->args_gone, e->nargs_gone);
    path_rows(fp, e->name, "undeclared appeared", e->undeclared_new, e->nundeclared_new);
    path_rows(fp, e->name, "undeclared vanished", e->undeclared_gone, e->nundeclared_gone);
  }
  tc_html_table_end(fp);
}

static void dists(FILE *fp, const tc_diff *d) {
  if (d->metrics_na)
    return;
  static const tc_html_col cols[] = {
      {"metric", NULL, NULL, TC_HTML_TEXT, 0},     {"unit", NULL, NULL, TC_HTML_TEXT, 0},
      {"n A", "sites", NULL, TC_HTML_NUM, 0},      {"n B", "sites", NULL, TC_HTML_NUM, 0},
      {"median A", NULL, NULL, TC_HTML_NUM, 0},    {"median B", NULL, NULL, TC_HTML_NUM, 0},
      {"change", "%", NULL, TC_HTML_NUM, 0},       {"p90 A", NULL, NULL, TC_HTML_NUM, 0},
      {"p90 B", NULL, NULL, TC_HTML_NUM, 0},       {"change", "%", NULL, TC_HTML_NUM, 0}};
  tc_html_table_begin(fp, "dists", "Metric distributions across sites (nearest-rank median, p90)",
                      cols, sizeof cols / sizeof *cols);
  for (int k = 0; k < TC_DIFF_NMETRICS; k++) {
    const tc_diff_dist *t = &d->dist[k];
    tc_html_row_begin(fp);
    tc_html_cell_text(fp, tc_str_c(tc_diff_metrics[k].label));
    tc_html_cell_text(fp, tc_str_c(tc_diff_metrics[k].unit));
    tc_html_cell_int(fp, t->n_a);
    tc_html_cell_int(fp, t->n_b);
    num(fp, t->median.a, t->median.why);
    num(fp, t->median.b, t->median.why);
    change(fp, &t->median);
    num(fp, t->p90.a, t->p90.why);
    num(fp, t->p90.b, t->p90.why);
    change(fp, &t->p90);
    tc_html_row_end(fp);
  }
  tc_html_table_end(fp);
}

static void sites(FILE *fp, const tc_diff *d) {
  if (!d->nsites)
    return;
  static const tc_html_col cols[] = {
      {"site", NULL, NULL, TC_HTML_TEXT, 1},           {"traces A", NULL, NULL, TC_HTML_NUM, 0},
      {"traces B", NULL, NULL, TC_HTML_NUM, 0},        {"conditions", NULL, NULL, TC_HTML_TEXT, 0},
      {"metric", NULL, NULL, TC_HTML_TEXT, 1},         {"A", NULL, NULL, TC_HTML_NUM, 0},
      {"B", NULL, NULL, TC_HTML_NUM, 0},               {"change", "%", NULL, TC_HTML_NUM, 0}};
  tc_html_table_begin(fp, "sites", "Sites whose metrics changed or are not comparable", cols,
                      sizeof cols / sizeof *cols);
  for (uint32_t i = 0; i < d->nsites; i++)
    for (int k = 0; k < TC_DIFF_NMETRICS; k++) {
      const tc_diff_site *s = &d->sites[i];
      tc_html_row_begin(fp);
      tc_html_cell_text(fp, s->name);
      tc_html_cell_int(fp, s->traces_a);
      tc_html_cell_int(fp, s->traces_b);
      tc_html_cell_text(fp, tc_str_c(s->why ? s->why : "same"));
      tc_html_cell_text(fp, tc_str_c(tc_diff_metrics[k].label));
      num(fp, s->m[k].a, s->m[k].why);
      num(fp, s->m[k].b, s->m[k].why);
      change(fp, &s->m[k]);
      tc_html_row_end(fp);
    }
  tc_html_table_end(fp);
}

/* The argument paths of a rank in one cell: "new: a, b; gone: c". */
static void paths_cell(FILE *fp, const tc_diff_rank *r) {
  /* long lists wrap in a column of their own, so the page fits 1400 px */
  fputs("<td style=\"max-width:32em;overflow-wrap:anywhere\">", fp);
  for (uint32_t i = 0; i < r->npaths_new; i++) {
    fputs(i ? ", " : "new: ", fp);
    tc_html_escape(fp, r->paths_new[i]);
  }
  for (uint32_t i = 0; i < r->npaths_gone; i++) {
    fputs(i ? ", " : r->npaths_new ? "; gone: " : "gone: ", fp);
    tc_html_escape(fp, r->paths_gone[i]);
  }
  fputs("</td>", fp);
}

/* The value-profile shifts of a rank's event in one cell, the first
 * TC_DIFF_SHIFTS_SHOWN of them: "path 0.45 (types): always 0 → 0 on 60 %". */
static void shifts_cell(FILE *fp, const tc_diff_event *e) {
  fputs("<td style=\"max-width:32em;overflow-wrap:anywhere\">", fp);
  for (uint32_t i = 0; i < e->nshifts && i < TC_DIFF_SHIFTS_SHOWN; i++) {
    const tc_diff_shift *s = &e->shifts[i];
    fputs(i ? "; <code>" : "<code>", fp);
    tc_html_escape(fp, s->path);
    fprintf(fp, "</code> %.2f (%s): ", s->shift, s->basis);
    tc_html_escape(fp, s->profile_a);
    fputs(" &rarr; ", fp);
    tc_html_escape(fp, s->profile_b);
  }
  if (e->nshifts > TC_DIFF_SHIFTS_SHOWN)
    fprintf(fp, "; and %u more (diff.json)", e->nshifts - TC_DIFF_SHIFTS_SHOWN);
  fputs("</td>", fp);
}

/* The ranking, biggest change first: the page's first table. */
static void ranked(FILE *fp, const tc_diff *d) {
  if (d->basis_why)
    para(fp, "Events compared over the whole crawls:", d->basis_why);
  else
    fprintf(fp, "<p><strong>Compared over the %u sites both crawls list.</strong> Lone sites: %u "
                "only in A, %u only in B; %u events are only on lone sites. %s</p>\n",
            d->sites_shared, d->nsites_gone, d->nsites_new, d->events_only_on_lone_sites,
            tc_diff_args_basis_text(d));
  if (!d->nranked)
    return;
  static const tc_html_col cols[] = {
      {"rank", NULL, NULL, TC_HTML_NUM, 0},
      {"event", NULL, NULL, TC_HTML_TEXT, 0},
      {"kind", NULL, NULL, TC_HTML_TEXT, 1},
      {"change size", NULL,
       "|log2| of the records-per-site ratio (10 when new or gone) + 4 x the change in share of "
       "sites + 0.5 per argument path new or gone (at most 2) + 2 x the biggest value-profile "
       "shift",
       TC_HTML_NUM, 0},
      {"per site A", "records / site", NULL, TC_HTML_NUM, 0},
      {"per site B", "records / site", NULL, TC_HTML_NUM, 0},
      {"sites A", "count", NULL, TC_HTML_NUM, 0},
      {"sites B", "count", NULL, TC_HTML_NUM, 0},
      {"argument paths", "new, gone", NULL, TC_HTML_TEXT, 0},
      {"value shifts", "share of values, 0 to 1",
       "argument paths whose values moved: the largest of the change in the mix of types, in the "
       "share of one sentinel value, and a constant that changed (1) or stopped or started being "
       "one (0.5); over the whole crawls",
       TC_HTML_TEXT, 0}};
  tc_html_table_begin(fp, "ranked", "Events ranked by size of change, biggest first", cols,
                      sizeof cols / sizeof *cols);
  for (uint32_t i = 0; i < d->nranked; i++) {
    const tc_diff_rank *r = &d->ranked[i];
    tc_html_row_begin(fp);
    tc_html_cell_int(fp, i + 1);
    tc_html_cell_text(fp, r->event->name);
    tc_html_cell_text(fp, tc_str_c(r->kind));
    tc_html_cell_num(fp, r->change_size, 2);
    num(fp, r->event->per_site.a, r->event->per_site.why);
    num(fp, r->event->per_site.b, r->event->per_site.why);
    num(fp, r->event->sites_a, r->event->per_site.why);
    num(fp, r->event->sites_b, r->event->per_site.why);
    paths_cell(fp, r);
    shifts_cell(fp, r->event);
    tc_html_row_end(fp);
  }
  tc_html_table_end(fp);
}

void tc_diff_write_html(const tc_diff *d, FILE *fp) {
  tc_html_begin(fp, "tracecensus diff");
  fputs("<h1>tracecensus diff</h1>\n<ul>\n", fp);
  side_line(fp, "A (baseline)", d->dir_a, d->sites_total_a, d->traces_a, d->records_a);
  side_line(fp, "B (current)", d->dir_b, d->sites_total_b, d->traces_b, d->records_b);
  fputs("</ul>\n<p class=\"muted\">change = (B &minus; A) / |A| &times; 100 %; "
        "&ldquo;not comparable&rdquo; when the baseline is zero, the sample counts differ or the "
        "conditions differ (README.md, &ldquo;Comparing two crawls&rdquo;). An n/a cell says "
        "why in its tooltip.</p>\n", fp);
  if (!d->changed) {
    fputs("<p><strong>No differences.</strong></p>\n", fp);
    tc_html_end(fp);
    return;
  }
  ranked(fp, d);
  if (d->nconditions) {
    fputs("<h2>Conditions that differ</h2>\n<ul>\n", fp);
    for (uint32_t i = 0; i < d->nconditions; i++) {
      fputs("<li>", fp);
      tc_html_escape_c(fp, d->conditions[i]);
      fputs("</li>\n", fp);
    }
    fputs("</ul>\n", fp);
  }
  para(fp, "Event changes not comparable:", d->events_why);
  para(fp, "Metric changes not comparable:", d->metrics_why);
  para(fp, "Metrics n/a:", d->metrics_na);
  names(fp, "sites-a", "Sites only in A", d->sites_gone, d->nsites_gone);
  names(fp, "sites-b", "Sites only in B", d->sites_new, d->nsites_new);
  events(fp, "events-new", "Events new in B", d->events_new, d->nevents_new);
  events(fp, "events-gone", "Events vanished from A", d->events_gone, d->nevents_gone);
  events(fp, "events-changed", "Events whose figures or arguments changed", d->events_changed,
         d->nevents_changed);
  paths(fp, d);
  dists(fp, d);
  sites(fp, d);
  tc_html_end(fp);
}
