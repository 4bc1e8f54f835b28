/* The empirical CDF as one step path: F(x) = (values <= x) / n, rising at
 * each distinct value by its multiplicity / n, so the last step lands on
 * exactly 1. */
#include <math.h>
#include <stdlib.h>

#include "report/tc_svg_draw.h"

static void marker(tc_svg_frame *f, const tc_svg_scale *xs, const double *v, size_t k, size_t first,
                   double q, const char *name, double label_y) {
  FILE *fp = f->fp;
  size_t r = tc_svg_rank(q, k);
  double x = r < first ? xs->r0 : tc_svg_at(xs, v[r]);
  char val[64], tip[200], label[120];
  tc_svg_value(v[r], f->p->x_unit, val, sizeof val);
  snprintf(tip, sizeof tip, "%s: %s (nearest rank %zu of %zu)", name, val, r + 1, k);
  snprintf(label, sizeof label, "%s %s", name, val);
  fputs("<g class=\"q\">", fp);
  tc_svg_title(fp, tip);
  fputs("<path stroke=\"" TC_SVG_ORANGE "\" stroke-dasharray=\"4 3\" d=\"M", fp);
  tc_svg_xy(fp, x, f->y1);
  fputc('V', fp);
  tc_svg_num(fp, f->y0);
  fputs("\"/>", fp);
  int left = x > f->x1 - 110; /* keep the label inside the plot */
  tc_svg_text(fp, left ? x - 4 : x + 4, label_y, left ? "text-anchor=\"end\"" : NULL, label);
  fputs("</g>\n", fp);
}

tc_err tc_svg_ecdf(FILE *fp, const tc_svg_plot *p, const double *values, size_t n) {
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
  char desc[200], med[64], p90[64];
  tc_svg_value(v[tc_svg_rank(0.5, k)], p->x_unit, med, sizeof med);
  tc_svg_value(v[tc_svg_rank(0.9, k)], p->x_unit, p90, sizeof p90);
  snprintf(desc, sizeof desc, "median %s, p90 %s", med, p90);
  char rule[200];
  snprintf(rule, sizeof rule, "Share of %s with a value \u2264 x; p50 and p90 by nearest rank%s",
           what,
           p->x_log && !log ? "; linear axis: no value above 0" : " (rank \u2308q\u00b7n\u2309)");
  tc_svg_frame f;
  tc_svg_open(&f, fp, p, "ecdf", tc_svg_size(p->width, 540), tc_svg_size(p->height, 300), n_line,
              desc, rule, 0, 0);
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
  marker(&f, &xs, v, k, first, 0.5, "p50", f.y0 + 10);
  marker(&f, &xs, v, k, first, 0.9, "p90", f.y0 + 24);
  tc_svg_close(&f);
  free(v);
  return TC_OK;
}
