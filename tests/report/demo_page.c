/* The demo page (demo_page.h). Its numbers come from small integer
 * formulas, so the page is the same on every machine and a test can know
 * any figure on it; names are the real census's, plus one with every
 * character that needs escaping and a byte that is not UTF-8. */
#include "demo_page.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/tc_html.h"
#include "report/tc_svg.h"

#define DEMO_SITES 35
#define DEMO_BUCKETS 300
#define DEMO_BUCKET_MS 100.0

const demo_event demo_events[] = {
    {"ParseHTML", "devtools.timeline", 58996, 33, 18, 212},
    {"Paint", "devtools.timeline,rail", 24113, 33, 0, 41},
    {"PrePaint", "devtools.timeline,rail", 22307, 33, 0, 96},
    {"PaintImage", "disabled-by-default-devtools.timeline", 1450, 21, 2, 380},
    {"firstContentfulPaint", "loading,rail,devtools.timeline", 33, 33, 1, NAN},
    {"Layout", "devtools.timeline", 19876, 33, 3, 154},
    {"FunctionCall", "devtools.timeline", 145565, 32, 5, 27},
    {"v8.compile", "v8,devtools.timeline", 88120, 32, 0, 63},
    {"TimerFire", "devtools.timeline", 9400, 29, 0, 8},
    {"RunTask", "toplevel", 1203344, 33, -1, 9},
    {"ThreadControllerImpl::RunTask", "toplevel", 998010, 33, -1, 11},
    {"base::OnceCallback<void ()>::Run<&\"lambda\" \xff>", "toplevel,'quoted'", 3, 1, -1, NAN},
};
const size_t demo_nevents = sizeof demo_events / sizeof *demo_events;

/* The README's usage rule on records per surveyed site. */
static const char *usage(long long records) {
  double r = (double)records / DEMO_SITES;
  return r < 2 ? "rare" : r < 5 ? "low" : r < 300 ? "moderate" : r < 3000 ? "high" : "very high";
}

static void site_name(int i, char *buf, size_t cap) {
  static const char *const kind[] = {"news", "shop", "docs", "video", "blog", "bank", "maps"};
  snprintf(buf, cap, "%s-%02d.example", kind[i % 7], i + 1);
}

static void para(FILE *fp, const char *text) {
  fputs("<p>", fp);
  tc_html_escape_c(fp, text);
  fputs("</p>\n", fp);
}

static void summary(FILE *fp) {
  static const tc_html_col cols[] = {
      {"name", NULL, "event name", TC_HTML_TEXT, 0},
      {"category", NULL, "each category counted once per record", TC_HTML_TEXT, 1},
      {"records", "count", NULL, TC_HTML_NUM, 0},
      {"sites", "of 35", NULL, TC_HTML_NUM, 0},
      {"usage", "records per site",
       "rare < 2 \u2264 low < 5 \u2264 moderate < 300 \u2264 high "
       "< 3000 \u2264 very high",
       TC_HTML_TEXT, 1},
      {"undeclared", "arg paths", "observed paths DevTools does not declare", TC_HTML_NUM, 0},
      {"median dur", "\u00b5s", NULL, TC_HTML_NUM, 0},
  };
  tc_html_table_begin(fp, "summary", "Every event of the demo census; click a header to sort.",
                      cols, sizeof cols / sizeof *cols);
  for (size_t i = 0; i < demo_nevents; i++) {
    const demo_event *e = &demo_events[i];
    tc_str name = tc_str_c(e->name), tags[4];
    size_t ntags = 0, pos = 0;
    tc_str cats = tc_str_c(e->cats), f;
    while (ntags < 4 && tc_str_next_field(cats, ',', &pos, &f))
      tags[ntags++] = f;
    tc_html_row_begin(fp);
    tc_html_cell_link(fp, name, "ev", name);
    tc_html_cell_tags(fp, tags, ntags);
    tc_html_cell_int(fp, e->records);
    tc_html_cell_int(fp, e->sites);
    tc_html_cell_text(fp, tc_str_c(usage(e->records)));
    if (e->undeclared < 0)
      tc_html_cell_na(fp, "DevTools does not know this event");
    else
      tc_html_cell_int(fp, e->undeclared);
    if (isnan(e->median_us))
      tc_html_cell_na(fp, "no record carries dur");
    else
      tc_html_cell_num(fp, e->median_us, 0);
    tc_html_row_end(fp);
  }
  tc_html_table_end(fp);
}

/* One value per site for each distribution, from integer formulas. */
typedef struct {
  double busy[DEMO_SITES], tbt[DEMO_SITES], longs[DEMO_SITES], heap[DEMO_SITES];
} site_values;

static void site_data(site_values *v) {
  for (int i = 0; i < DEMO_SITES; i++) {
    v->busy[i] = 4 + (i * 37 % 61) * 1.1;
    v->tbt[i] = i % 4 == 0 ? 0 : (i * i * 13 % 997) * 3.0 + 12;
    v->longs[i] = i * 7 % 23;
    v->heap[i] = ((i * 29 % 41) - 12) * 0.37;
  }
  v->busy[3] = NAN; /* a site without a trace */
  v->tbt[3] = NAN;
  v->longs[3] = NAN;
  v->heap[3] = NAN;
}

typedef struct {
  FILE *fp;
  size_t plots;
  tc_err err;
} pen;

static void figure(pen *p, tc_err e) {
  p->plots++;
  if (e && !p->err)
    p->err = e;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The p50 and p90 marks of the DEMO_SITES values V: nearest rank (the
 * value of rank ceil(q n)) over the finite ones. */
static void demo_marks(const double *v, const char *unit, tc_svg_mark m[2], char text[2][48]) {
  double s[DEMO_SITES];
  size_t k = 0;
  for (size_t i = 0; i < DEMO_SITES; i++)
    if (isfinite(v[i]))
      s[k++] = v[i];
  qsort(s, k, sizeof *s, by_value);
  static const double q[2] = {0.5, 0.9};
  static const char *const name[2] = {"p50", "p90"};
  for (int i = 0; i < 2; i++) {
    double x = s[(size_t)ceil(q[i] * (double)k) - 1];
    snprintf(text[i], sizeof text[i], "%.1f%s%s", x, unit ? " " : "", unit ? unit : "");
    m[i] = (tc_svg_mark){name[i], x, text[i], NULL};
  }
}

static void distributions(pen *pn) {
  FILE *fp = pn->fp;
  site_values v;
  site_data(&v);
  const char *src = "one page view per site; site-04 has no trace (n/a)";
  struct {
    const char *title, *label, *unit;
    const double *values;
    int log;
  } d[] = {
      {"Main-thread busy rate", "busy", "%", v.busy, 0},
      {"Total blocking time", "TBT", "ms", v.tbt, 1},
      {"Long tasks per page view", "long tasks", NULL, v.longs, 0},
      {"JS heap growth", "heap growth", "MB", v.heap, 0},
  };
  for (size_t i = 0; i < sizeof d / sizeof *d; i++) {
    tc_str t = tc_str_c(d[i].title);
    tc_html_section_begin(fp, 3, "dist", t, t);
    fputs("<div class=\"plots\">\n", fp);
    tc_svg_plot p = {.title = d[i].title,
                     .x_label = d[i].label,
                     .x_unit = d[i].unit,
                     .n_unit = "sites",
                     .note = src,
                     .x_log = d[i].log};
    char title[120];
    snprintf(title, sizeof title, "%s: histogram", d[i].title);
    p.title = title;
    figure(pn, tc_svg_histogram(fp, &p, d[i].values, DEMO_SITES));
    snprintf(title, sizeof title, "%s: ECDF", d[i].title);
    tc_svg_mark marks[2];
    char text[2][48];
    demo_marks(d[i].values, d[i].unit, marks, text);
    figure(pn, tc_svg_ecdf(fp, &p, d[i].values, DEMO_SITES, marks, 2));
    fputs("</div>\n", fp);
    tc_html_section_end(fp);
  }
  static const double edges[] = {0, 16.7, 33.3, 50, 100, INFINITY};
  static const uint64_t counts[] = {8120, 1430, 388, 95, 31};
  tc_str t = tc_str_c("Frame intervals");
  tc_html_section_begin(fp, 3, "dist", t, t);
  fputs("<div class=\"plots\">\n", fp);
  tc_svg_plot p = {.title = "Frame intervals, all sites",
                   .x_label = "interval between DrawFrames",
                   .x_unit = "ms",
                   .n_unit = "intervals",
                   .note = "pre-binned at 1, 2, 3 and 6 frames of 60 Hz; last bin open"};
  figure(pn, tc_svg_histogram_binned(fp, &p, edges, counts, 5));
  double none[] = {NAN, NAN};
  tc_svg_plot q = {.title = "Input lag p90",
                   .x_label = "lag",
                   .x_unit = "ms",
                   .n_unit = "sites",
                   .na_reason = "no site had a continuous input stream"};
  figure(pn, tc_svg_ecdf(fp, &q, none, 2, NULL, 0));
  fputs("</div>\n", fp);
  tc_html_section_end(fp);
}

static void timelines(pen *pn) {
  FILE *fp = pn->fp;
  static double busy[2][DEMO_BUCKETS];
  for (int b = 0; b < DEMO_BUCKETS; b++) {
    busy[0][b] = b < 30 ? 60 + b * 13 % 40 : b % 50 < 5 ? 80 + b % 20 : b * 7 % 23;
    busy[1][b] = b >= 120 && b < 160 ? NAN : b < 45 ? 90 - b : (b * 11 % 31) * 0.8;
  }
  static const tc_svg_span tasks[2][6] = {
      {{200, 180}, {900, 95}, {1500, 320}, {5000, 70}, {15040, 61}, {25010, 140}},
      {{0, 1250}, {3100, 52}, {29950, 400}},
  };
  static const size_t ntasks[2] = {6, 3};
  static const char *const names[3] = {"news-01.example", "shop-02.example", "docs-03.example"};
  for (int s = 0; s < 3; s++) {
    char title[120];
    snprintf(title, sizeof title, "%s: busy rate per 100 ms", names[s]);
    tc_svg_plot p = {.title = title,
                     .x_label = "time since navigation start",
                     .y_label = "busy",
                     .y_unit = "%",
                     .na_reason = "the crawl left no trace for this site",
                     .width = 760};
    tc_svg_series ser = {.bucket_ms = DEMO_BUCKET_MS,
                         .y_max = 100,
                         .mark_name = "long task",
                         .gap_reason = "page hidden"};
    if (s < 2) {
      ser.values = busy[s];
      ser.nbuckets = DEMO_BUCKETS;
      ser.marks = tasks[s];
      ser.nmarks = ntasks[s];
    }
    figure(pn, tc_svg_timeline(fp, &p, &ser));
  }
}

static void heatmap(pen *pn) {
  enum { ROWS = 12, COLS = 10 };
  static const char *cols[COLS];
  static char names[ROWS][40];
  const char *rows[ROWS], *na[ROWS] = {0};
  double cells[ROWS * COLS];
  for (int k = 0; k < COLS; k++)
    cols[k] = demo_events[k].name;
  for (int r = 0; r < ROWS; r++) {
    site_name(r, names[r], sizeof names[r]);
    rows[r] = names[r];
    for (int k = 0; k < COLS; k++) {
      long long base = demo_events[k].records / 33;
      cells[r * COLS + k] =
          (r * 5 + k * 3) % 11 == 0 ? 0 : (double)(base * (1 + (r * 7 + k) % 9) / 5);
    }
  }
  for (int k = 0; k < COLS; k++)
    cells[3 * COLS + k] = NAN;
  na[3] = "no trace";
  tc_svg_grid g = {ROWS, COLS, rows, cols, cells, na, "records", "events", 1};
  tc_svg_plot p = {.title = "Records per site of the ten busiest events",
                   .y_label = "site",
                   .x_label = "event",
                   .n_unit = "sites",
                   .note = "log colour: counts span five decades"};
  figure(pn, tc_svg_heatmap(pn->fp, &p, &g));
}

static void events(FILE *fp) {
  for (size_t i = 0; i < demo_nevents; i++) {
    const demo_event *e = &demo_events[i];
    tc_str name = tc_str_c(e->name);
    tc_html_section_begin(fp, 3, "ev", name, name);
    char s[200];
    snprintf(s, sizeof s, "Observed %lld times on %d of 35 sites.", e->records, e->sites);
    para(fp, s);
    if (i == 0)
      fputs("<p>Example <code>args.data.url</code>: "
            "<code>https://news-01.example/index.html</code> (text from the data, not a "
            "link).</p>\n",
            fp);
    tc_html_section_end(fp);
  }
}

tc_err demo_page_write(FILE *fp, size_t *plots) {
  pen pn = {fp, 0, TC_OK};
  tc_html_begin(fp, "tracecensus report: demo of the report layer");
  fputs("<h1>tracecensus report <span class=\"muted\">demo</span></h1>\n", fp);
  para(fp, "Every building block of report.html, drawn from data known by construction "
           "(tests/report/demo_page.c): 35 sites, 12 events.");
  tc_html_toc_begin(fp, "Contents");
  static const char *const top[][2] = {{"summary", "Census summary"},
                                       {"distributions", "Distributions across sites"},
                                       {"timelines", "Busy-rate timelines"},
                                       {"heatmap", "Sites \u00d7 top events"},
                                       {"events", "Events"}};
  for (size_t i = 0; i < sizeof top / sizeof *top; i++) {
    tc_html_toc_item(fp, 1, "s", tc_str_c(top[i][0]), tc_str_c(top[i][1]));
    if (i == 4)
      for (size_t k = 0; k < demo_nevents; k++)
        tc_html_toc_item(fp, 2, "ev", tc_str_c(demo_events[k].name), tc_str_c(demo_events[k].name));
  }
  tc_html_toc_end(fp);

  tc_html_section_begin(fp, 2, "s", tc_str_c(top[0][0]), tc_str_c(top[0][1]));
  summary(fp);
  tc_html_section_end(fp);
  tc_html_section_begin(fp, 2, "s", tc_str_c(top[1][0]), tc_str_c(top[1][1]));
  para(fp, "One value per site (the page view is the unit). Histograms state their bin rule, "
           "ECDFs mark the median and p90.");
  distributions(&pn);
  tc_html_section_end(fp);
  tc_html_section_begin(fp, 2, "s", tc_str_c(top[2][0]), tc_str_c(top[2][1]));
  para(fp, "Share of each 100 ms bucket the main thread was busy; long tasks shaded red, "
           "discarded buckets grey.");
  timelines(&pn);
  tc_html_section_end(fp);
  tc_html_section_begin(fp, 2, "s", tc_str_c(top[3][0]), tc_str_c(top[3][1]));
  heatmap(&pn);
  tc_html_section_end(fp);
  tc_html_section_begin(fp, 2, "s", tc_str_c(top[4][0]), tc_str_c(top[4][1]));
  events(fp);
  tc_html_section_end(fp);
  tc_html_end(fp);
  *plots = pn.plots;
  return pn.err;
}
