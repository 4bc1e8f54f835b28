/* Histograms: binning of raw values (the rule is in tc_svg.h and is
 * printed under the plot) and the one drawing both kinds share. A bar is
 * written for every bin, empty ones as zero-height bars, so a reader (and
 * a test) can count the bins. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/tc_html.h"
#include "report/tc_svg_draw.h"

#define TC_MAX_BINS 60
#define TC_EPS 1e-9
#define TC_ZERO_SLOT 40.0 /* px left of the axis for the bar of values <= 0 */

typedef struct {
  int log;
  const double *edges; /* nbins + 1; the last may be INFINITY */
  const uint64_t *counts;
  size_t nbins;
  int zero_bar;    /* a bar for values <= 0 left of a log axis */
  uint64_t zeros;  /* its count */
  int zeros_exact; /* every one of them is 0, so it is labelled "0" */
} bins;

static uint64_t total(const bins *b) {
  uint64_t t = b->zeros;
  for (size_t i = 0; i < b->nbins; i++)
    t += b->counts[i];
  return t;
}

/* One bar from X0 to X1 and from BASE up to Y; its tooltip is "RANGE: 19
 * of 100 sites". */
static void bar(FILE *fp, double x0, double x1, double y, double base, const char *range,
                uint64_t count, uint64_t total, const char *what) {
  char tip[300];
  snprintf(tip, sizeof tip, "%s: %llu of %llu%s%s", range, (unsigned long long)count,
           (unsigned long long)total, *what ? " " : "", what);
  double gap = x1 - x0 > 4 ? 1 : 0;
  fputs("<rect class=\"bar\"", fp);
  tc_svg_box(fp, x0 + gap, y, x1 - x0 - 2 * gap, base - y);
  fputc('>', fp);
  tc_svg_title(fp, tip);
  fputs("</rect>\n", fp);
}

static void draw(FILE *fp, const tc_svg_plot *p, const bins *b, const char *n_line,
                 const char *desc, const char *rule) {
  const char *unit = p->x_unit, *what = p->n_unit ? p->n_unit : "";
  /* An open last bin is drawn as wide as the one before it. */
  int open = isinf(b->edges[b->nbins]);
  double end = b->edges[b->nbins];
  if (open) {
    double a = b->edges[b->nbins - 1], z = b->edges[b->nbins - 2];
    end = b->log ? a * (a / z) : a + (a - z);
  }
  tc_svg_frame f;
  tc_svg_open(&f, fp, p, "hist", tc_svg_size(p->width, 540), tc_svg_size(p->height, 300), n_line,
              desc, rule, 0, 0);
  tc_svg_scale xs = {b->edges[0], end, f.x0 + (b->zero_bar ? TC_ZERO_SLOT : 0), f.x1, b->log};
  uint64_t top = b->zeros;
  for (size_t i = 0; i < b->nbins; i++)
    if (b->counts[i] > top)
      top = b->counts[i];
  double y_lo = 0, y_hi = top ? (double)top : 1;
  tc_svg_nice_domain(&y_lo, &y_hi, 0);
  tc_svg_scale ys = {0, y_hi, f.y1, f.y0, 0};
  char ylabel[160];
  snprintf(ylabel, sizeof ylabel, "%s", p->y_label ? p->y_label : (*what ? what : "count"));
  tc_svg_y_axis(&f, &ys, 1, ylabel, p->y_unit);
  tc_svg_x_axis(&f, &xs, p->x_label, unit);

  fputs("<g class=\"bars\" fill=\"" TC_SVG_BLUE "\">\n", fp);
  uint64_t n = total(b);
  char range[200], a[64], z[64];
  const char *sp = unit && *unit ? " " : "", *u = unit ? unit : "";
  if (b->zero_bar) {
    tc_svg_value(0, unit, a, sizeof a);
    snprintf(range, sizeof range, "%s%s", b->zeros_exact ? "" : "\u2264 ", a);
    bar(fp, f.x0 + 6, f.x0 + 26, tc_svg_at(&ys, (double)b->zeros), f.y1, range, b->zeros, n, what);
  }
  for (size_t i = 0; i < b->nbins; i++) {
    int last_open = open && i + 1 == b->nbins;
    double lo = b->edges[i], hi = last_open ? end : b->edges[i + 1];
    tc_svg_value(lo, NULL, a, sizeof a);
    if (last_open) {
      snprintf(range, sizeof range, "\u2265 %s%s%s", a, sp, u);
    } else {
      tc_svg_value(hi, NULL, z, sizeof z);
      snprintf(range, sizeof range, "[%s, %s)%s%s", a, z, sp, u);
    }
    bar(fp, tc_svg_at(&xs, lo), tc_svg_at(&xs, hi), tc_svg_at(&ys, (double)b->counts[i]), f.y1,
        range, b->counts[i], n, what);
  }
  fputs("</g>\n", fp);
  if (b->zero_bar) {
    fputs("<path stroke=\"currentColor\" stroke-opacity=\".6\" d=\"M", fp);
    tc_svg_xy(fp, f.x0 + 4, f.y1);
    fputs("h24\"/>", fp);
    tc_svg_text(fp, f.x0 + 16, f.y1 + 16, "class=\"xt\" text-anchor=\"middle\"",
                b->zeros_exact ? "0" : "\u22640");
    fputc('\n', fp);
  }
  tc_svg_close(&f);
}

tc_err tc_svg_histogram_binned(FILE *fp, const tc_svg_plot *p, const double *edges,
                               const uint64_t *counts, size_t nbins) {
  const char *bad = NULL;
  if (!nbins)
    bad = "no bins";
  for (size_t i = 0; !bad && i < nbins; i++) {
    int last = i + 1 == nbins;
    double z = edges[i + 1];
    if (!tc_svg_ok(edges[i]) || !(tc_svg_ok(z) || (last && z == INFINITY)) || !(z > edges[i]))
      bad = "bin edges are not increasing numbers";
    else if (p->x_log && edges[i] <= 0)
      bad = "a log axis needs bin edges above 0";
  }
  if (!bad && isinf(edges[nbins]) && nbins < 2)
    bad = "an open last bin needs a closed bin before it";
  bins b = {p->x_log, edges, counts, nbins, 0, 0, 0};
  char n_line[200];
  tc_svg_n_line(n_line, sizeof n_line, bad ? 0 : total(&b), p->n_unit, 0, 0, NULL);
  if (bad)
    tc_svg_na(fp, p, "hist", n_line, bad);
  else
    draw(fp, p, &b, n_line, NULL, NULL);
  return TC_OK;
}

/* Bins of width W (in the data's or log10's units) over D[0..k), sorted. */
static size_t nbins_for(const double *d, size_t k, double w, double *first) {
  *first = floor(d[0] / w + TC_EPS);
  return (size_t)(floor(d[k - 1] / w + TC_EPS) - *first) + 1;
}

/* The bin width for D[0..k) by its rule, and the rule's name. */
static double rule_width(const double *d, size_t k, double iqr, const char **rule) {
  double range = d[k - 1] - d[0], w;
  if (iqr > 0) {
    w = 2 * iqr / cbrt((double)k);
    *rule = "Freedman\u2013Diaconis 2\u00b7IQR/\u221bn rounded to 1-2-5";
  } else if (range > 0) {
    w = range / (ceil(log2((double)k)) + 1);
    *rule = "IQR is 0: Sturges range/(\u2308log\u2082n\u2309+1) rounded to 1-2-5";
  } else {
    w = d[0] ? fabs(d[0]) / 10 : 1;
    *rule = "every value is equal: one bin";
  }
  return tc_svg_nice(w);
}

static double iqr_of(const double *d, size_t k) {
  return d[tc_svg_rank(0.75, k)] - d[tc_svg_rank(0.25, k)];
}

/* Whether the rule's bins over the whole range of D[0..k) would be more
 * than TC_MAX_BINS: a long tail that one wide bar per 1/60 of the range
 * would flatten into a single bar. */
static int skewed(const double *d, size_t k) {
  const char *why;
  double first;
  return k > 1 && nbins_for(d, k, rule_width(d, k, iqr_of(d, k), &why), &first) > TC_MAX_BINS;
}

/* The smallest multiple of W at or above the far-out fence Q3 + 3 IQR
 * (Tukey) of D[0..k), when some value lies past it, else INFINITY. */
static double clip_at(const double *d, size_t k, double w) {
  double iqr = iqr_of(d, k);
  if (!(iqr > 0))
    return INFINITY;
  double c = ceil((d[tc_svg_rank(0.75, k)] + 3 * iqr) / w - TC_EPS) * w;
  return d[k - 1] >= c ? c : INFINITY;
}

/* The width for D[0..k) up to CLIP: the rule's, widened to the next 1-2-5
 * step until there are at most TC_MAX_BINS bins. */
static double width_for(const double *d, size_t k, double clip, const char **rule) {
  double w = rule_width(d, k, iqr_of(d, k), rule), first;
  while (nbins_for(d, k, w, &first) > TC_MAX_BINS &&
         !(isfinite(clip) && (clip - d[0]) / w <= TC_MAX_BINS))
    w = tc_svg_nice(w * 2); /* the next 1-2-5 step */
  return w;
}

tc_err tc_svg_histogram(FILE *fp, const tc_svg_plot *p, const double *values, size_t n) {
  size_t k;
  double *v = tc_svg_sorted(values, n, &k);
  if (!v)
    return TC_E_NOMEM;
  char n_line[200];
  if (!k) {
    tc_svg_n_line(n_line, sizeof n_line, 0, p->n_unit, n, 0, NULL);
    tc_svg_na(fp, p, "hist", n_line, NULL);
    free(v);
    return TC_OK;
  }
  /* A skewed distribution keeps its shape on log bins when no value is
   * below 0 (the zeros get their bar), else on an axis clipped at the far-out
   * fence with the values past it named in an open last bar. */
  int skew = !p->x_log && v[0] >= 0 && v[k - 1] > 0 && skewed(v, k);
  size_t zeros;
  int log = tc_svg_log_split(v, k, p->x_log || skew, &zeros);
  tc_svg_n_line(n_line, sizeof n_line, k, p->n_unit, n - k, zeros, "bar at left");
  char desc[200], lo[64], hi[64];
  tc_svg_value(v[0], p->x_unit, lo, sizeof lo);
  tc_svg_value(v[k - 1], p->x_unit, hi, sizeof hi);
  snprintf(desc, sizeof desc, "min %s, max %s", lo, hi);
  int exact = 1;
  for (size_t i = 0; i < zeros; i++)
    exact &= v[i] == 0;

  /* Bin the values above the zero bar, as log10 of them on a log axis. */
  size_t m = k - zeros;
  double *d = v + zeros;
  for (size_t i = 0; log && i < m; i++)
    d[i] = log10(d[i]);
  const char *why;
  double clip = INFINITY, first;
  if (!log && skewed(d, m))
    clip = clip_at(d, m, rule_width(d, m, iqr_of(d, m), &why));
  double w = width_for(d, m, clip, &why);
  size_t nb = nbins_for(d, m, w, &first), outliers = 0;
  if (isfinite(clip)) {
    for (size_t i = 0; i < m; i++)
      outliers += d[i] >= clip;
    nb = (size_t)(clip / w - first + 0.5) + 1; /* the bins below CLIP and the open one */
  }
  tc_err err = TC_OK;
  double *edges = malloc((nb + 1) * sizeof *edges);
  uint64_t *counts = calloc(nb, sizeof *counts);
  if (!edges || !counts) {
    err = TC_E_NOMEM;
    goto done;
  }
  for (size_t i = 0; i <= nb; i++)
    edges[i] = log ? pow(10, (first + (double)i) * w) : (first + (double)i) * w;
  if (isfinite(clip))
    edges[nb] = INFINITY;
  if (!isfinite(edges[0]) || !isfinite(edges[isfinite(clip) ? nb - 1 : nb]) || (log && !(edges[0] > 0))) {
    /* Bins of hundreds of decades: 10^w is past what a double holds. */
    tc_svg_na(fp, p, "hist", n_line, "the values span more than a double can bin");
    goto done;
  }
  for (size_t i = 0; i < m; i++) {
    size_t at = (size_t)(floor(d[i] / w + TC_EPS) - first);
    counts[at < nb ? at : nb - 1]++;
  }
  char rule[200], wtext[64];
  tc_svg_value(w, log ? (w == 1 ? "decade" : "decades") : p->x_unit, wtext, sizeof wtext);
  int o = snprintf(rule, sizeof rule, "%s, w = %s: %s",
                   log ? "Log bins [a, a\u00b710^w)" : "Bins [a, a + w)", wtext,
                   skew ? "skewed, so on a log axis" : why);
  if (p->x_log && !log && o > 0 && (size_t)o < sizeof rule)
    o += snprintf(rule + o, sizeof rule - (size_t)o, "; linear axis: no value above 0");
  if (isfinite(clip) && o > 0 && (size_t)o < sizeof rule) {
    char at[64];
    tc_svg_value(clip, p->x_unit, at, sizeof at);
    snprintf(rule + o, sizeof rule - (size_t)o,
             "; axis clipped at Q3 + 3\u00b7IQR: %zu outlier%s \u2265 %s (max %s) in the last bar",
             outliers, outliers == 1 ? "" : "s", at, hi);
  }
  bins b = {log, edges, counts, nb, zeros > 0, zeros, exact};
  draw(fp, p, &b, n_line, desc, rule);
done:
  free(edges);
  free(counts);
  free(v);
  return err;
}
