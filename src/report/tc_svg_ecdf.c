/* The empirical CDF as one step path: F(x) = (values <= x) / n, rising at
 * each distinct value by its multiplicity / n, so the last step lands on
 * exactly 1. */
#include <math.h>
#include <stdlib.h>

#include "report/tc_svg_draw.h"

#define TC_MARK_ROW 14.0 /* px per mark label row above the plot area */

/* Mark I of N: its label in row I above the plot area (the curve stays
 * inside the area, so the two never meet), its dashed line from that row
 * down to the axis. */
static void marker(tc_svg_frame *f, const tc_svg_scale *xs, const tc_svg_mark *m, size_t i,
                   size_t n) {
  FILE *fp = f->fp;
  double row = f->y0 - TC_MARK_ROW * (double)(n - i) + 8;
  char label[160];
  snprintf(label, sizeof label, "%s %s", m->name, m->text ? m->text : "n/a");
  fputs("<g class=\"q\">", fp);
  tc_svg_title(fp, m->tip ? m->tip : label);
  if (!tc_svg_ok(m->value)) {
    tc_svg_text(fp, f->x0, row, "class=\"qlabel\" font-style=\"italic\"", label);
    fputs("</g>\n", fp);
    return;
  }
  double x = fmin(fmax(tc_svg_at(xs, m->value), xs->r0), xs->r1);
  fputs("<path stroke=\"" TC_SVG_ORANGE "\" stroke-dasharray=\"4 3\" d=\"M", fp);
  tc_svg_xy(fp, x, f->y1);
  fputc('V', fp);
  tc_svg_num(fp, row + 3);
  fputs("\"/>", fp);
  int left = x > f->x1 - 150; /* keep the label inside the plot's width */
  tc_svg_text(fp, left ? x - 4 : x + 4, row, left ? "class=\"qlabel\" text-anchor=\"end\""
                                                  : "class=\"qlabel\"", label);
  fputs("</g>\n", fp);
}

tc_err tc_svg_ecdf(FILE *fp, const tc_svg_plot *p, const double *values, size_t n,
                   const tc_svg_mark *marks, size_t nmarks) {
  size_t k;
  double *v = tc_svg_sorted(values, n, &k);
  if (!v)
    return TC_E_NOMEM;
  const char *what = p->n_unit ? p->n_unit : "values";
  size_t first; /* values <= 0 come first */
  int log = tc_svg_log_split(v, k, p->x_log, &first);
  char n_line[240];
  tc_svg_n_line(n_line, sizeof n_line, k, what, n - k, first, "step at left");
  if (!k) {
    tc_svg_na(fp, p, "ecdf", n_line, NULL);
    free(v);
    return TC_OK;
  }
  if (nmarks > TC_SVG_MAX_MARKS)
    nmarks = TC_SVG_MAX_MARKS;
  char desc[400] = "", rule[200];
  for (size_t i = 0, o = 0; i < nmarks && o < sizeof desc; i++)
    o += (size_t)snprintf(desc + o, sizeof desc - o, "%s%s %s", i ? ", " : "", marks[i].name,
                          marks[i].text ? marks[i].text : "n/a");
  snprintf(rule, sizeof rule, "Share of %s with a value \u2264 x%s", what,
           p->x_log && !log ? "; linear axis: no value above 0" : "");
  tc_svg_frame f;
  tc_svg_open(&f, fp, p, "ecdf", tc_svg_size(p->width, 540), tc_svg_size(p->height, 300), n_line,
              desc, rule, 0, TC_MARK_ROW * (double)nmarks);
  double lo = v[first], hi = v[k - 1];
  tc_svg_nice_domain(&lo, &hi, log);
  tc_svg_scale xs = {lo, hi, f.x0, f.x1, log};
  tc_svg_scale ys = {0, 1, f.y1, f.y0, 0};
  char ylabel[160];
  snprintf(ylabel, sizeof ylabel, "share of %s \u2264 x", what);
  tc_svg_y_axis(&f, &ys, 0, p->y_label ? p->y_label : ylabel, p->y_unit);
  tc_svg_x_axis(&f, &xs, p->x_label, p->x_unit);

  fputs("<path class=\"ecdf\" fill=\"none\" stroke=\"" TC_SVG_BLUE "\" stroke-width=\"2\" d=\"M",
        fp);
  tc_svg_xy(fp, xs.r0, tc_svg_at(&ys, (double)first / (double)k));
  for (size_t i = first; i < k;) {
    size_t j = i;
    while (j < k && v[j] == v[i])
      j++;
    fputc('H', fp);
    tc_svg_num(fp, tc_svg_at(&xs, v[i]));
    fputc('V', fp);
    tc_svg_num(fp, tc_svg_at(&ys, (double)j / (double)k));
    i = j;
  }
  fputc('H', fp);
  tc_svg_num(fp, xs.r1);
  fputs("\"/>\n", fp);
  for (size_t i = 0; i < nmarks; i++)
    marker(&f, &xs, &marks[i], i, nmarks);
  tc_svg_close(&f);
  free(v);
  return TC_OK;
}
