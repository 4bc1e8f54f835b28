/* report.html: the census and the metrics as one self-contained page
 * (tc_html.h says why inline, tc_svg.h why the plots are SVG written here).
 * This file writes the page, its header and the census parts; the metric
 * plots are tc_report_metrics_html.c's. */
#define _GNU_SOURCE /* fopencookie */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <stdio_ext.h>
#endif

#include "census/tc_labels.h"
#include "report/tc_census_report.h"
#include "report/tc_valprof_text.h"
#include "report/tc_html.h"
#include "report/tc_html_ascii.h"
#include "report/tc_outfile.h"
#include "report/tc_pretty.h"
#include "report/tc_report_html.h"
#include "report/tc_svg.h"
#include "util/tc_grow.h"
#include "util/tc_str.h"
#include "util/tc_valprof.h"

#define TC_EXAMPLE_ITEMS 3

static void text(FILE *fp, const char *s) { tc_html_escape_c(fp, s); }

static void count(FILE *fp, uint64_t v) {
  char s[32];
  tc_fmt_thousands(v, s, sizeof s);
  fputs(s, fp);
}

static void header(FILE *fp, const tc_report_ctx *c) {
  const tc_census_result *r = c->census;
  fputs("<h1>tracecensus report</h1>\n<p><b>corpus</b> ", fp);
  tc_str root = tc_corpus_root(c->corpus);
  if (root.len) {
    fputs("<code>", fp);
    tc_html_escape(fp, root);
    fputs("</code>", fp);
  } else {
    fputs("n/a (no trace was found)", fp);
  }
  if (c->manifest) {
    fputs(", manifest <code>", fp);
    text(fp, c->manifest);
    fputs("</code>", fp);
  }
  uint64_t with_traces = 0;
  for (uint32_t i = 0; i < c->corpus->nsites; i++)
    with_traces += c->corpus->sites[i].ntraces > 0;
  fputs("<br>\n<b>sites</b> ", fp);
  count(fp, c->corpus->nsites);
  fputs(" surveyed (S), ", fp);
  count(fp, with_traces);
  fputs(" with traces<br>\n<b>traces</b> ", fp);
  count(fp, c->corpus->ntraces);
  fputs(", holding ", fp);
  count(fp, r->records);
  fputs(" event records of ", fp);
  count(fp, r->nevents);
  fputs(" names in the scope<br>\n<b>scope</b> ", fp);
  text(fp, tc_scope_name(r->scope));
  fputs(": ", fp);
  text(fp, tc_scope_text(r->scope));
  uint64_t left = r->left[TC_LEFT_BROWSER_UI] + r->left[TC_LEFT_OTHER_RENDERER];
  if (left) {
    fputs("; ", fp);
    count(fp, left);
    fputs(" records left out (", fp);
    count(fp, r->left[TC_LEFT_BROWSER_UI]);
    fputs(" of Chrome's own UI, ", fp);
    count(fp, r->left[TC_LEFT_OTHER_RENDERER]);
    fputs(" of other renderers; <a href=\"#s-outside\">events seen only there</a>)", fp);
  }
  fputs("<br>\n<b>Chrome</b> ", fp);
  tc_version_count *v;
  size_t nv = tc_chrome_versions(c, &v);
  for (size_t i = 0; i < nv; i++) {
    if (i)
      fputs(", ", fp);
    tc_html_escape(fp, v[i].version);
    fputs(" (", fp);
    count(fp, v[i].traces);
    fputs(v[i].traces == 1 ? " trace" : " traces", fp);
    fputs(v[i].from_manifest ? ", from the manifest)" : ")", fp);
  }
  free(v);
  if (!nv)
    fputs("n/a (no trace's metadata names its product-version, nor does a manifest)", fp);
  fputs("<br>\n<b>DevTools schema</b> ", fp);
  if (c->schema_error) {
    fputs("n/a: it could not be read (", fp);
    text(fp, c->schema_error);
    fputs("), so the DevTools fields are missing", fp);
  } else {
    text(fp, c->schema_generator ? c->schema_generator : "n/a (it names no generator)");
  }
  fputs("</p>\n<p class=\"muted\">Usage from records per surveyed site: rare &lt; 2 \u2264 low "
        "&lt; 5 \u2264 moderate &lt; 300 \u2264 high &lt; 3000 \u2264 very high. Duration from "
        "the median <code>dur</code>: very short &lt; 10 \u00b5s \u2264 short &lt; 100 \u00b5s "
        "\u2264 typical &lt; 1 ms \u2264 long. Undeclared args: observed argument paths "
        "DevTools' declaration of the event does not name. Metrics take the page view as the "
        "unit: one value per site, its median trace. The README states every rule; "
        "census.md and metrics.md hold the same figures as text.</p>\n",
        fp);
}

static const char *const parts[][2] = {{"summary", "Census summary"},
                                       {"sites", "Sites"},
                                       {"heatmap", "Sites \u00d7 top events"},
                                       {"distributions", "Distributions across sites"},
                                       {"timelines", "Busy-rate timelines"},
                                       {"events", "Events"},
                                       {"outside", "Seen only outside the scope"}};

static void toc(FILE *fp) {
  tc_html_toc_begin(fp, "Contents");
  for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
    tc_html_toc_item(fp, 1, "s", tc_str_c(parts[i][0]), tc_str_c(parts[i][1]));
  tc_html_toc_end(fp);
}

static void part_begin(FILE *fp, int i) {
  tc_html_section_begin(fp, 2, "s", tc_str_c(parts[i][0]), tc_str_c(parts[i][1]));
}

static const tc_devtools_view *view(const tc_report_ctx *c, const tc_res_event *e) {
  return c->devtools ? &c->devtools->events[e - c->census->events] : NULL;
}

static void summary(FILE *fp, const tc_report_ctx *c, const tc_res_event **order) {
  static const tc_html_col cols[] = {
      {"name", NULL, "event name; links to its section", TC_HTML_TEXT, 0},
      {"category", NULL, "each record's cat split on commas", TC_HTML_TEXT, 1},
      {"records", "count", NULL, TC_HTML_NUM, 0},
      {"sites", "count", "sites with at least one record", TC_HTML_NUM, 0},
      {"usage", "records / S",
       "rare < 2 \u2264 low < 5 \u2264 moderate < 300 \u2264 high < 3000 \u2264 very high",
       TC_HTML_TEXT, 1},
      {"duration", "class", "from the median dur", TC_HTML_TEXT, 1},
      {"median dur", "\u00b5s", NULL, TC_HTML_NUM, 0},
      {"DevTools-known", NULL, "trace_engine has an entry for the event", TC_HTML_TEXT, 1},
      {"undeclared", "arg paths", "observed paths DevTools' declaration does not name",
       TC_HTML_NUM, 0},
  };
  const tc_census_result *r = c->census;
  uint32_t S = c->corpus->nsites;
  tc_html_table_begin(fp, "summary", "Every event; type to filter, pick a value to narrow, "
                      "click a header to sort.", cols, sizeof cols / sizeof *cols);
  for (size_t i = 0; i < r->nevents; i++) {
    const tc_res_event *e = order[i];
    const tc_devtools_view *dv = view(c, e);
    tc_html_row_begin(fp);
    tc_html_cell_link(fp, e->name, "ev", e->name);
    tc_res_cat *cats;
    size_t ncat = tc_split_categories(e, &cats);
    tc_str *tags = malloc((ncat ? ncat : 1) * sizeof *tags);
    for (size_t k = 0; tags && k < ncat; k++)
      tags[k] = cats[k].cat;
    tc_html_cell_tags(fp, tags, tags ? ncat : 0);
    free(tags);
    free(cats);
    tc_html_cell_int(fp, (int64_t)e->records);
    tc_html_cell_int(fp, (int64_t)e->sites);
    tc_html_cell_text(fp, tc_str_c(tc_usage_label(e->records, S)));
    if (e->dur.n) {
      tc_html_cell_text(fp, tc_str_c(tc_duration_class(e->dur.n, e->dur_below)));
      tc_html_cell_num(fp, tc_sketch_quantile(&e->dur, 0.5), 1);
    } else {
      tc_html_cell_na(fp, "no record carries dur");
      tc_html_cell_na(fp, "no record carries dur");
    }
    if (dv) {
      tc_html_cell_text(fp, tc_str_c(dv->known ? "yes" : "no"));
      tc_html_cell_int(fp, (int64_t)dv->nundeclared);
    } else {
      tc_html_cell_na(fp, "the DevTools schema could not be read");
      tc_html_cell_na(fp, "the DevTools schema could not be read");
    }
    tc_html_row_end(fp);
  }
  tc_html_table_end(fp);
}

/* Sites (corpus order) x the events with most records. */
static tc_err heatmap(FILE *fp, const tc_report_ctx *c) {
  const tc_census_result *r = c->census;
  size_t rows = r->nsites, cols = r->ntop;
  const char **rl = malloc((rows ? rows : 1) * sizeof *rl);
  const char **na = malloc((rows ? rows : 1) * sizeof *na);
  const char **cl = malloc((cols ? cols : 1) * sizeof *cl);
  char **names = malloc((cols ? cols : 1) * sizeof *names);
  double *cells = malloc((rows && cols ? rows * cols : 1) * sizeof *cells);
  tc_err e = TC_E_NOMEM;
  if (!rl || !na || !cl || !names || !cells)
    goto out;
  for (size_t k = 0; k < cols; k++) {
    names[k] = tc_str_dup(r->events[r->top[k]].name);
    if (!names[k]) {
      cols = k;
      goto out_names;
    }
    cl[k] = names[k];
  }
  for (size_t s = 0; s < rows; s++) {
    const tc_site *site = &c->corpus->sites[s];
    rl[s] = site->name;
    na[s] = site->ntraces ? NULL : "the crawl left no trace for this site";
    for (size_t k = 0; k < cols; k++)
      cells[s * cols + k] = site->ntraces ? (double)r->site_records[s * cols + k] : NAN;
  }
  char title[160];
  snprintf(title, sizeof title, "Records per site of the %zu events with most records", cols);
  tc_svg_plot p = {.title = title,
                   .x_label = "event",
                   .y_label = "site",
                   .n_unit = "sites",
                   .na_reason = "no event was observed",
                   .note = "colour on a log scale of records; events by records, most first"};
  tc_svg_grid g = {rows, cols, rl, cl, cells, na, "records", "events", 1};
  tc_html_figure_begin(fp, NULL, tc_str_c(""));
  e = tc_svg_heatmap(fp, &p, &g);
  tc_html_figure_end(fp, NULL);
out_names:
  for (size_t k = 0; k < cols; k++)
    free(names[k]);
out:
  free(rl);
  free(na);
  free(cl);
  free(names);
  free(cells);
  return e;
}

static void devtools_part(FILE *fp, const tc_devtools_view *v) {
  char sentence[1024];
  tc_devtools_recording_sentence(v, sentence, sizeof sentence);
  if (*sentence) {
    fputs("<p>", fp);
    text(fp, sentence);
    fputs("</p>\n", fp);
  }
  if (!v->known) {
    fputs("<p>DevTools has no entry for this event in its trace model, so the Performance panel "
          "shows its raw name with no label and no explanation.</p>\n",
          fp);
    return;
  }
  if (!v->nundeclared)
    return;
  fputs("<p><b>undeclared args</b> ", fp);
  for (size_t i = 0; i < v->nundeclared; i++) {
    fputs(i ? ", <code>" : "<code>", fp);
    tc_html_escape(fp, v->undeclared[i]);
    fputs("</code>", fp);
  }
  fputs("</p>\n", fp);
}

static void types(tc_wbuf *b, uint8_t t) {
  int first = 1;
  for (int k = 0; k < 6; k++)
    if (t & (1u << k)) {
      tc_wbuf_puts(b, first ? "" : ", ");
      tc_wbuf_puts(b, tc_json_type_name(1u << k));
      first = 0;
    }
}

/* The arguments' table with census.md's one-line value profile per path,
 * then the manual's sentence for each constant or sentinel-dominated path:
 * the bulk of the page, so it goes through B (in front of the page's
 * stream, flushed before anything else writes to it). */
static void args_table(tc_wbuf *b, const tc_res_event *e, const tc_census_result *r) {
  if (!e->nargs) {
    tc_wbuf_puts(b, "<p>No record carries arguments.</p>\n");
    return;
  }
  tc_wbuf_puts(b, "<table class=\"args\"><thead><tr><th>argument</th><th class=\"num\">records</th>"
                  "<th class=\"num\">sites</th><th>types</th><th>values</th></tr></thead><tbody>\n");
  char line[TC_VALUE_LINE_MAX + 256], n[32];
  for (size_t i = 0; i < e->nargs; i++) {
    const tc_res_arg *a = &e->args[i];
    tc_wbuf_puts(b, "<tr><td><code>");
    tc_html_escape_wbuf(b, a->path);
    tc_wbuf_puts(b, "</code></td><td class=\"num\">");
    tc_fmt_thousands(a->records, n, sizeof n);
    tc_wbuf_puts(b, n);
    tc_wbuf_puts(b, "</td><td class=\"num\">");
    tc_fmt_thousands(a->sites, n, sizeof n);
    tc_wbuf_puts(b, n);
    tc_wbuf_puts(b, "</td><td>");
    types(b, a->types);
    tc_wbuf_puts(b, "</td><td>");
    if (a->values) {
      tc_valprof_render(a->values, r->value_sites, line, TC_VALUE_LINE_MAX);
      tc_html_escape_wbuf(b, tc_str_c(line));
    } else {
      tc_wbuf_puts(b, "n/a (");
      tc_html_escape_wbuf(b, tc_str_c(tc_values_na(r)));
      tc_wbuf_puts(b, ")");
    }
    tc_wbuf_puts(b, "</td></tr>\n");
  }
  tc_wbuf_puts(b, "</tbody></table>\n");
  for (size_t i = 0; i < e->nargs; i++)
    if (tc_value_sentence(e, &e->args[i], r->value_sites, line, sizeof line)) {
      tc_wbuf_puts(b, "<p class=\"value-sentence\">");
      tc_html_escape_wbuf(b, tc_str_c(line));
      tc_wbuf_puts(b, "</p>\n");
    }
}

/* The examples' pretty text, in memory: one stream for the page, emptied
 * before each example (a memstream per example cost more than writing
 * it). */
typedef struct {
  char *p;
  size_t len, cap;
  int failed;
} scratch;

static ssize_t scratch_write(void *cookie, const char *buf, size_t n) {
  scratch *s = cookie;
  if (n > SIZE_MAX - s->len || TC_GROW(s->p, s->cap, s->len + n)) {
    s->failed = 1;
    return 0;
  }
  memcpy(s->p + s->len, buf, n);
  s->len += n;
  return (ssize_t)n;
}

/* The example as census.md prints it; PRETTY is a scratch buffer in front
 * of MEM, the stream over S. */
static void example(FILE *fp, const tc_res_event *e, tc_wbuf *pretty, FILE *mem, scratch *s) {
  if (!e->example.len)
    return;
  s->len = 0;
  s->failed = 0;
  tc_wbuf_init(pretty, mem);
  tc_event_pretty(pretty, e->example, TC_EXAMPLE_ITEMS);
  tc_wbuf_flush(pretty);
  if (fflush(mem) == 0 && !s->failed) {
    fputs("<pre><code>", fp);
    tc_html_escape_text(fp, (tc_str){s->p, s->len});
    fputs("</code></pre>\n", fp);
  }
  clearerr(mem);
}

static void human_us(FILE *fp, double us) {
  char s[64];
  if (us >= 1e6)
    tc_html_fmt_num(us / 1e6, 2, s, sizeof s), fputs(s, fp), fputs(" s", fp);
  else if (us >= 1e3)
    tc_html_fmt_num(us / 1e3, 1, s, sizeof s), fputs(s, fp), fputs(" ms", fp);
  else
    tc_html_fmt_num(us, 0, s, sizeof s), fputs(s, fp), fputs(" \u00b5s", fp);
}

/* The example's scratch (PRETTY in front of MEM, the stream over S) and
 * the buffer in front of the page's stream for the arguments (ARGS). */
typedef struct {
  tc_wbuf *pretty;
  FILE *mem;
  scratch *s;
  tc_wbuf *args;
} example_out;

/* How many sites an event's line of records per site names: all of a rare
 * event's, which is where "which sites?" is asked, and a bounded page at
 * 500 sites x 3,000 names. */
enum { BYSITE_LINE = 12 };

static int cmp_most_records(const void *a, const void *b) {
  const tc_res_site *x = a, *y = b;
  if (x->records != y->records)
    return x->records > y->records ? -1 : 1;
  return (x->site > y->site) - (x->site < y->site);
}

/* An event outside the heat map's columns: its sites with most records in
 * one line, each name in a span (names may hold commas), most first, then
 * in corpus order. */
static void by_site_line(FILE *fp, const tc_report_ctx *c, const tc_res_event *e) {
  size_t n = e->nsite_recs, shown = n < BYSITE_LINE ? n : BYSITE_LINE;
  tc_res_site *v = malloc((n ? n : 1) * sizeof *v);
  fputs("<p class=\"bysite\"><b>records per site</b> ", fp);
  if (!v) { /* the page stays whole; census.json has the figures */
    fputs("n/a: out of memory for this line.</p>\n", fp);
    return;
  }
  if (n) {
    memcpy(v, e->site_recs, n * sizeof *v);
    qsort(v, n, sizeof *v, cmp_most_records);
  }
  if (shown < n) {
    fprintf(fp, "the %zu of ", shown);
    count(fp, n);
    fputs(" sites with most: ", fp);
  }
  for (size_t i = 0; i < shown; i++) {
    fputs(i ? ", <span>" : "<span>", fp);
    text(fp, c->corpus->sites[v[i].site].name);
    fputs("</span> ", fp);
    count(fp, v[i].records);
  }
  fputs(shown < n ? "; census.json's site_records has every site.</p>\n" : ".</p>\n", fp);
  free(v);
}

/* The event's records per site: a sortable table for the events with most
 * records (the heat map's columns), a line for the others. */
static void by_site(FILE *fp, const tc_report_ctx *c, const tc_res_event *e) {
  const tc_census_result *r = c->census;
  size_t k = 0;
  while (k < r->ntop && &r->events[r->top[k]] != e)
    k++;
  if (k == r->ntop) {
    by_site_line(fp, c, e);
    return;
  }
  static const tc_html_col cols[] = {
      {"site", NULL, NULL, TC_HTML_TEXT, 0},
      {"records", "count", "records of this event in the site's traces", TC_HTML_NUM, 0},
  };
  /* Only the sites with records: at 500 sites the zero rows of 20 tables
   * were 0.55 MB of the page and answer no "which sites" question the
   * caption's count and the heat map do not. */
  uint64_t with_traces = 0;
  for (size_t s = 0; s < r->nsites; s++)
    with_traces += c->corpus->sites[s].ntraces > 0;
  char id[32], caption[200];
  snprintf(id, sizeof id, "bysite-%zu", k);
  snprintf(caption, sizeof caption,
           "Records per site, on the %" PRIu64 " of %" PRIu64
           " sites with traces that have any; click a header to sort.",
           e->sites, with_traces);
  tc_html_table_begin(fp, id, caption, cols, 2);
  for (size_t s = 0; s < r->nsites; s++) {
    const tc_site *site = &c->corpus->sites[s];
    if (!site->ntraces || !r->site_records[s * r->ntop + k])
      continue;
    tc_html_row_begin(fp);
    tc_html_cell_text(fp, tc_str_c(site->name));
    tc_html_cell_int(fp, (int64_t)r->site_records[s * r->ntop + k]);
    tc_html_row_end(fp);
  }
  tc_html_table_end(fp);
}

static void event_section(FILE *fp, const tc_report_ctx *c, const tc_res_event *e,
                          const example_out *x) {
  uint32_t S = c->corpus->nsites;
  tc_html_section_begin(fp, 3, "ev", e->name, e->name);
  char s[1024];
  tc_phase_sentence(e, S, s, sizeof s);
  fputs("<p>", fp);
  text(fp, s);
  fputs("</p>\n<p><b>categories</b> ", fp);
  tc_res_cat *cats;
  size_t ncat = tc_split_categories(e, &cats);
  for (size_t k = 0; k < ncat; k++) {
    fputs(k ? ", " : "", fp);
    tc_html_escape(fp, cats[k].cat);
  }
  free(cats);
  fputs("<br>\n<b>usage</b> ", fp);
  fputs(tc_usage_label(e->records, S), fp);
  tc_html_fmt_num(S ? (double)e->records / S : 0.0, 2, s, sizeof s);
  fputs(" (", fp);
  fputs(s, fp);
  fputs(" records per surveyed site)<br>\n<b>duration</b> ", fp);
  if (e->dur.n) {
    fputs(tc_duration_class(e->dur.n, e->dur_below), fp);
    fputs(" (median ", fp);
    human_us(fp, tc_sketch_quantile(&e->dur, 0.5));
    fputs(", p95 ", fp);
    human_us(fp, tc_sketch_quantile(&e->dur, 0.95));
    fputs(", over ", fp);
    count(fp, e->dur.n);
    fputs(" records with dur)", fp);
  } else {
    fputs("n/a (no record carries dur)", fp);
  }
  fputs("</p>\n", fp);
  const tc_devtools_view *dv = view(c, e);
  if (dv)
    devtools_part(fp, dv);
  tc_wbuf_init(x->args, fp);
  args_table(x->args, e, c->census);
  tc_wbuf_flush(x->args);
  example(fp, e, x->pretty, x->mem, x->s);
  by_site(fp, c, e);
  tc_html_section_end(fp);
}

/* The events the scope left out whole, with where their records were. */
static void outside(FILE *fp, const tc_census_result *r) {
  fputs("<p>", fp);
  count(fp, r->noutside);
  fputs(" event names occur only in processes the scope (", fp);
  text(fp, tc_scope_name(r->scope));
  fputs(") leaves out; they are counted nowhere above.</p>\n", fp);
  if (!r->noutside)
    return;
  static const tc_html_col cols[] = {
      {"event", NULL, NULL, TC_HTML_TEXT, 0},
      {"Chrome's own UI", "records", "records in renderers of Chrome's own pages", TC_HTML_NUM, 0},
      {"sites", "count", "sites with a record in Chrome's own renderers", TC_HTML_NUM, 0},
      {"other renderers", "records", "records in renderers the scope leaves out", TC_HTML_NUM, 0},
      {"sites", "count", "sites with a record in those renderers", TC_HTML_NUM, 0},
  };
  tc_html_table_begin(fp, "outside", "Events counted only outside the scope", cols,
                      sizeof cols / sizeof cols[0]);
  for (size_t i = 0; i < r->noutside; i++) {
    const tc_res_event *ev = &r->outside[i];
    tc_html_row_begin(fp);
    tc_html_cell_text(fp, ev->name);
    for (int k = 0; k < TC_LEFT_COUNT; k++) {
      tc_html_cell_int(fp, (int64_t)ev->left[k]);
      tc_html_cell_int(fp, (int64_t)ev->left_sites[k]);
    }
    tc_html_row_end(fp);
  }
  tc_html_table_end(fp);
}

static tc_err page(FILE *fp, const tc_report_ctx *c, const tc_metrics_reduction *m,
                   const tc_res_event **order, const example_out *x) {
  const tc_census_result *r = c->census;
  tc_html_begin(fp, "tracecensus report");
  header(fp, c);
  toc(fp);
  part_begin(fp, 0);
  summary(fp, c, order);
  tc_html_section_end(fp);
  part_begin(fp, 1);
  tc_err e = tc_report_html_sites(fp, m);
  tc_html_section_end(fp);
  part_begin(fp, 2);
  if (!e)
    e = heatmap(fp, c);
  tc_html_section_end(fp);
  part_begin(fp, 3);
  if (!e)
    e = tc_report_html_distributions(fp, m);
  tc_html_section_end(fp);
  part_begin(fp, 4);
  if (!e)
    e = tc_report_html_timelines(fp, m);
  tc_html_section_end(fp);
  part_begin(fp, 5);
  fputs("<p>One section per event, in name order without regard to case, as in "
        "census.md.</p>\n",
        fp);
  for (size_t i = 0; i < r->nevents; i++)
    event_section(fp, c, order[i], x);
  tc_html_section_end(fp);
  part_begin(fp, 6);
  outside(fp, r);
  tc_html_section_end(fp);
  tc_html_end(fp);
  return e;
}

tc_err tc_write_report_html(const tc_report_ctx *c, const tc_metrics_reduction *m,
                            const char *outdir, tc_why *why) {
  const tc_res_event **order = tc_events_by_name(c->census);
  tc_wbuf *pretty = malloc(sizeof *pretty), *args = malloc(sizeof *args);
  scratch s = {NULL, 0, 0, 0};
  cookie_io_functions_t io = {.write = scratch_write};
  FILE *mem = fopencookie(&s, "w", io);
  tc_err e = !order || !pretty || !args || !mem ? TC_E_NOMEM : TC_OK;
  if (mem)
    setvbuf(mem, NULL, _IONBF, 0); /* the wbuf in front buffers */
  tc_outfile *f = NULL;
  if (!e)
    e = tc_outfile_open(outdir, "report.html", &f, why);
  FILE *fp = NULL;
  if (!e && !(fp = tc_html_ascii_open(tc_outfile_fp(f)))) {
    tc_outfile_abort(f);
    e = TC_E_NOMEM;
  }
  if (!e) {
#ifdef __GLIBC__
    /* Only this thread writes the page: no lock per call. */
    __fsetlocking(fp, FSETLOCKING_BYCALLER);
#endif
    setvbuf(fp, NULL, _IOFBF, 1 << 16);
    example_out x = {pretty, mem, &s, args};
    e = page(fp, c, m, order, &x);
    /* A failed write shows in the outfile's stream, which commit checks. */
    fclose(fp);
    if (e)
      tc_outfile_abort(f);
    else
      e = tc_outfile_commit(f, why);
  }
  if (mem)
    fclose(mem);
  free(s.p);
  free(args);
  free(pretty);
  free(order);
  return e;
}
