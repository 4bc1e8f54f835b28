/* A bucket series over time as a filled step (one path per run of kept
 * buckets), the discarded runs as shaded gaps and the marked intervals as
 * bands with a strip above the plot, so a 50 ms task in a 30 s trace
 * (one or two pixels) still shows. Marks are drawn first, under the
 * series. */
#include <math.h>

#include "report/tc_svg_draw.h"

#define TC_MIN_MARK_PX 1.5

typedef struct {
  tc_svg_frame f;
  tc_svg_scale xs, ys;
  double div;       /* ms per axis unit */
  const char *unit; /* "s" or "ms" */
} timeline;

static double bucket_at(const tc_svg_series *s, size_t i) {
  return s->start_ms + (double)i * s->bucket_ms;
}

static double x_of(const timeline *t, double ms) { return tc_svg_at(&t->xs, ms / t->div); }

static void marks(timeline *t, const tc_svg_series *s) {
  FILE *fp = t->f.fp;
  double t0 = bucket_at(s, 0), t1 = bucket_at(s, s->nbuckets);
  const char *name = s->mark_name ? s->mark_name : "interval";
  for (size_t i = 0; i < s->nmarks; i++) {
    const tc_svg_span *m = &s->marks[i];
    double a = fmax(m->start_ms, t0), b = fmin(m->start_ms + m->dur_ms, t1);
    if (!tc_svg_ok(a) || !tc_svg_ok(b) || b <= a)
      continue;
    double xa = x_of(t, a), xb = x_of(t, b);
    if (xb - xa < TC_MIN_MARK_PX)
      xb = xa + TC_MIN_MARK_PX;
    char at[64], dur[64], tip[240];
    tc_svg_value(m->start_ms / t->div, t->unit, at, sizeof at);
    tc_svg_value(m->dur_ms, "ms", dur, sizeof dur);
    snprintf(tip, sizeof tip, "%s at %s: %s", name, at, dur);
    fputs("<g class=\"mark\" fill=\"" TC_SVG_RED "\">", fp);
    tc_svg_title(fp, tip);
    fputs("<rect fill-opacity=\".16\"", fp);
    tc_svg_box(fp, xa, t->f.y0, xb - xa, t->f.y1 - t->f.y0);
    fputs("/><rect", fp);
    tc_svg_attr(fp, "x", xa);
    tc_svg_attr(fp, "y", t->f.y0 - 6);
    tc_svg_attr(fp, "width", xb - xa);
    fputs(" height=\"5\"/></g>\n", fp);
  }
}

/* The kept buckets [i, j) as one closed step area; a stretch of equal
 * buckets (an idle or a saturated second) is one step. */
static void run(timeline *t, const tc_svg_series *s, size_t i, size_t j) {
  FILE *fp = t->f.fp;
  double base = tc_svg_at(&t->ys, 0);
  fputc('M', fp);
  tc_svg_xy(fp, x_of(t, bucket_at(s, i)), base);
  for (size_t b = i; b < j;) {
    size_t e = b + 1;
    while (e < j && s->values[e] == s->values[b])
      e++;
    fputc('V', fp);
    tc_svg_num(fp, tc_svg_at(&t->ys, s->values[b]));
    fputc('H', fp);
    tc_svg_num(fp, x_of(t, bucket_at(s, e)));
    b = e;
  }
  fputc('V', fp);
  tc_svg_num(fp, base);
  fputc('Z', fp);
}

static void gap(timeline *t, const tc_svg_series *s, size_t i, size_t j) {
  FILE *fp = t->f.fp;
  char len[64], tip[300];
  tc_svg_value((double)(j - i) * s->bucket_ms, "ms", len, sizeof len);
  snprintf(tip, sizeof tip, "%zu bucket%s discarded (%s): %s", j - i, j - i == 1 ? "" : "s", len,
           s->gap_reason ? s->gap_reason : "no value");
  double xa = x_of(t, bucket_at(s, i)), xb = x_of(t, bucket_at(s, j));
  fputs("<rect class=\"gap\" fill-opacity=\".09\"", fp);
  tc_svg_box(fp, xa, t->f.y0, xb - xa, t->f.y1 - t->f.y0);
  fputc('>', fp);
  tc_svg_title(fp, tip);
  fputs("</rect>\n", fp);
}

tc_err tc_svg_timeline(FILE *fp, const tc_svg_plot *p, const tc_svg_series *s) {
  size_t kept = 0, shown_marks = 0;
  double lo = 0, hi = s->y_max > 0 ? s->y_max : 0, longest = 0;
  for (size_t i = 0; i < s->nbuckets; i++)
    if (tc_svg_ok(s->values[i])) {
      kept++;
      lo = fmin(lo, s->values[i]);
      hi = fmax(hi, s->values[i]);
    }
  double t0 = s->start_ms, t1 = bucket_at(s, s->nbuckets);
  int span_ok = tc_svg_ok(s->bucket_ms) && s->bucket_ms > 0 && tc_svg_ok(t0) && tc_svg_ok(t1);
  for (size_t i = 0; span_ok && i < s->nmarks; i++) {
    double a = s->marks[i].start_ms, b = a + s->marks[i].dur_ms;
    if (tc_svg_ok(a) && tc_svg_ok(b) && b > t0 && a < t1) {
      shown_marks++;
      longest = fmax(longest, s->marks[i].dur_ms);
    }
  }
  const char *name = s->mark_name ? s->mark_name : "interval";
  char bucket[64], n_line[300];
  tc_svg_value(span_ok ? s->bucket_ms : 0, "ms", bucket, sizeof bucket);
  int o = snprintf(n_line, sizeof n_line, "n = %zu buckets of %s", kept, bucket);
  if (kept < s->nbuckets && o > 0 && (size_t)o < sizeof n_line)
    o += snprintf(n_line + o, sizeof n_line - (size_t)o, " \u00b7 %zu discarded",
                  s->nbuckets - kept);
  if (o > 0 && (size_t)o < sizeof n_line)
    o += snprintf(n_line + o, sizeof n_line - (size_t)o, " \u00b7 %zu %s%s", shown_marks, name,
                  shown_marks == 1 ? "" : "s");
  if (shown_marks < s->nmarks && o > 0 && (size_t)o < sizeof n_line)
    snprintf(n_line + o, sizeof n_line - (size_t)o, " (%zu outside the series, not drawn)",
             s->nmarks - shown_marks);
  if (!span_ok || !kept) {
    tc_svg_na(fp, p, "timeline", n_line,
              !span_ok      ? "the bucket width is not a positive number"
              : s->nbuckets ? "every bucket was discarded"
                            : NULL);
    return TC_OK;
  }
  timeline t;
  t.div = t1 - t0 >= 2000 ? 1000 : 1;
  t.unit = t.div > 1 ? "s" : "ms";
  char top[64], desc[200], lng[64];
  tc_svg_value(hi, p->y_unit, top, sizeof top);
  tc_svg_value(longest, "ms", lng, sizeof lng);
  snprintf(desc, sizeof desc, "highest bucket %s; longest %s %s", top, name,
           shown_marks ? lng : "none");
  tc_svg_open(&t.f, fp, p, "timeline", tc_svg_size(p->width, 720), tc_svg_size(p->height, 176),
              n_line, desc, NULL, 0, 0);
  t.xs = (tc_svg_scale){t0 / t.div, t1 / t.div, t.f.x0, t.f.x1, 0};
  tc_svg_nice_domain(&lo, &hi, 0);
  t.ys = (tc_svg_scale){lo, hi, t.f.y1, t.f.y0, 0};
  tc_svg_y_axis(&t.f, &t.ys, 0, p->y_label, p->y_unit);
  marks(&t, s);
  fputs("<path class=\"series\" fill=\"" TC_SVG_BLUE "\" fill-opacity=\".35\" stroke=\"" TC_SVG_BLUE
        "\" stroke-width=\"1.2\" d=\"",
        fp);
  for (size_t i = 0; i < s->nbuckets;) {
    size_t j = i;
    int keep = tc_svg_ok(s->values[i]) != 0;
    while (j < s->nbuckets && (tc_svg_ok(s->values[j]) != 0) == keep)
      j++;
    if (keep)
      run(&t, s, i, j);
    i = j;
  }
  fputs("\"/>\n", fp);
  for (size_t i = 0; i < s->nbuckets;) {
    size_t j = i;
    while (j < s->nbuckets && !tc_svg_ok(s->values[j]))
      j++;
    if (j > i)
      gap(&t, s, i, j);
    i = j > i ? j : i + 1;
  }
  tc_svg_x_axis(&t.f, &t.xs, p->x_label ? p->x_label : "time", t.unit);
  tc_svg_close(&t.f);
  return TC_OK;
}
