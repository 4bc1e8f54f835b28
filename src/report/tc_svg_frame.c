/* The frame every plot shares: the <svg> element, the title and n lines
 * above the plot area, the axes around it and the caption below it.
 *
 * Layout (pixels): title baseline at 16, n line at 32, plot area from 44
 * (plus what the plot reserves) down to 40 px above the bottom, or 8 more
 * plus 14 per caption line when there are captions; y tick labels end 6 px left of the plot area,
 * the y label is turned along the left edge. All text inherits the page's colour. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "report/tc_html.h"
#include "report/tc_svg_draw.h"

/* What snprintf("%.1f") writes, by hand: plots write a few numbers per
 * mark and per heat-map cell, and snprintf was most of a heat map row's
 * cost. printf rounds the double's exact value, ties to even; V * 10 is
 * rounded once more, but FMA gives its exact error, and the rounded product
 * can only land on the wrong side of a half when it is that half itself. */
static size_t num_text(double v, char b[64]) {
  double p = v * 10;
  if (!(fabs(p) < 0x1p52)) {
    int w = snprintf(b, 64, "%.1f", v);
    return w < 0 ? 0 : w > 63 ? 63 : (size_t)w;
  }
  double r = nearbyint(p);
  if (fabs(p - floor(p) - 0.5) == 0) {
    double err = fma(v, 10, -p);
    r = err > 0 ? ceil(p) : err < 0 ? floor(p) : r;
  }
  int64_t n = (int64_t)r;
  uint64_t u = n < 0 ? (uint64_t)-n : (uint64_t)n;
  char t[32];
  size_t k = sizeof t;
  if (u % 10) {
    t[--k] = (char)('0' + u % 10);
    t[--k] = '.';
  }
  u /= 10;
  do
    t[--k] = (char)('0' + u % 10);
  while (u /= 10);
  if (n < 0)
    t[--k] = '-';
  memcpy(b, t + k, sizeof t - k);
  return sizeof t - k;
}

void tc_svg_num(FILE *fp, double v) {
  char b[64];
  if (!isfinite(v))
    v = 0;
  size_t n = num_text(v, b);
  if (n >= 2 && b[n - 1] == '0' && b[n - 2] == '.')
    n -= 2; /* only the snprintf path writes a ".0"; neither writes "-0" */
  fwrite(b, 1, n, fp);
}

void tc_svg_attr(FILE *fp, const char *attr, double v) {
  fputc(' ', fp);
  fputs(attr, fp);
  fputs("=\"", fp);
  tc_svg_num(fp, v);
  fputc('"', fp);
}

void tc_svg_xy(FILE *fp, double x, double y) {
  tc_svg_num(fp, x);
  fputc(' ', fp);
  tc_svg_num(fp, y);
}

void tc_svg_box(FILE *fp, double x, double y, double w, double h) {
  tc_svg_attr(fp, "x", x);
  tc_svg_attr(fp, "y", y);
  tc_svg_attr(fp, "width", w);
  tc_svg_attr(fp, "height", h);
}

void tc_svg_text(FILE *fp, double x, double y, const char *extra, const char *text) {
  fputs("<text", fp);
  tc_svg_attr(fp, "x", x);
  tc_svg_attr(fp, "y", y);
  if (extra)
    fprintf(fp, " %s", extra);
  fputc('>', fp);
  tc_html_escape_c(fp, text);
  fputs("</text>", fp);
}

void tc_svg_title(FILE *fp, const char *text) {
  fputs("<title>", fp);
  tc_html_escape_c(fp, text);
  fputs("</title>", fp);
}

void tc_svg_label(char *buf, size_t cap, const char *label, const char *unit) {
  if (unit && *unit)
    snprintf(buf, cap, "%s (%s)", label ? label : "", unit);
  else
    snprintf(buf, cap, "%s", label ? label : "");
}

static void head(FILE *fp, const tc_svg_plot *p, const char *kind, double w, double h,
                 const char *n_line, const char *desc) {
  fprintf(fp, "<svg class=\"tc-plot tc-%s\" viewBox=\"0 0 ", kind);
  tc_svg_xy(fp, w, h);
  fputc('"', fp);
  tc_svg_attr(fp, "width", w);
  tc_svg_attr(fp, "height", h);
  fputs(" role=\"img\" font-size=\"11\" fill=\"currentColor\">\n<title>", fp);
  tc_html_escape_c(fp, p->title);
  fputs("</title>\n<desc>", fp);
  tc_html_escape_c(fp, n_line);
  if (desc && *desc) {
    fputs(". ", fp);
    tc_html_escape_c(fp, desc);
  }
  fputs("</desc>\n", fp);
  tc_svg_text(fp, 0, 16, "class=\"title\" font-size=\"13\"", p->title);
  fputc('\n', fp);
  tc_svg_text(fp, 0, 32, "class=\"n\" fill-opacity=\".72\"", n_line);
  fputc('\n', fp);
}

double tc_svg_size(int given, double dflt) { return given > 0 ? given : dflt; }

void tc_svg_open(tc_svg_frame *f, FILE *fp, const tc_svg_plot *p, const char *kind, double w,
                 double h, const char *n_line, const char *desc, const char *rule, double left,
                 double top) {
  memset(f, 0, sizeof *f);
  f->fp = fp;
  f->p = p;
  f->w = w;
  f->h = h;
  int lines = 0;
  if (rule && *rule)
    snprintf(f->caption[lines++], sizeof f->caption[0], "%s", rule);
  if (p->note && *p->note)
    snprintf(f->caption[lines++], sizeof f->caption[0], "%s", p->note);
  f->x0 = TC_SVG_LEFT + left;
  f->x1 = f->w - TC_SVG_RIGHT;
  f->y0 = TC_SVG_TOP + top;
  f->y1 = f->h - TC_SVG_BOTTOM - (lines ? TC_SVG_CAPTION_GAP + TC_SVG_CAPTION * lines : 0);
  head(fp, p, kind, f->w, f->h, n_line, desc);
}

void tc_svg_close(tc_svg_frame *f) {
  double y = f->y1 + TC_SVG_BOTTOM + TC_SVG_CAPTION_GAP + 10;
  for (int i = 0; i < 2 && f->caption[i][0]; i++, y += TC_SVG_CAPTION) {
    tc_svg_text(f->fp, 0, y, "class=\"caption\" fill-opacity=\".72\"", f->caption[i]);
    fputc('\n', f->fp);
  }
  fputs("</svg>\n", f->fp);
}

void tc_svg_na(FILE *fp, const tc_svg_plot *p, const char *kind, const char *n_line,
               const char *reason) {
  tc_svg_frame f;
  char text[300];
  const char *why = reason ? reason : p->na_reason;
  snprintf(text, sizeof text, "n/a: %s", why && *why ? why : "no value to plot");
  tc_svg_open(&f, fp, p, kind, tc_svg_size(p->width, 420), 120, n_line, text, NULL, 0, 0);
  fputs("<rect class=\"na\"", fp);
  tc_svg_box(fp, f.x0, f.y0, f.x1 - f.x0, f.y1 - f.y0);
  fputs(" fill-opacity=\".06\" rx=\"4\"/>\n", fp);
  tc_svg_text(fp, (f.x0 + f.x1) / 2, (f.y0 + f.y1) / 2 + 4,
              "class=\"na\" text-anchor=\"middle\" font-style=\"italic\"", text);
  fputc('\n', fp);
  tc_svg_close(&f);
}

void tc_svg_x_axis(tc_svg_frame *f, const tc_svg_scale *s, const char *label, const char *unit) {
  FILE *fp = f->fp;
  tc_svg_tick t[TC_SVG_MAX_TICKS];
  size_t n = tc_svg_ticks(s->d0, s->d1, s->log, t, TC_SVG_MAX_TICKS);
  fputs("<path class=\"axis\" stroke=\"currentColor\" stroke-opacity=\".6\" fill=\"none\" d=\"M",
        fp);
  tc_svg_xy(fp, s->r0, f->y1);
  fputc('H', fp);
  tc_svg_num(fp, s->r1);
  for (size_t i = 0; i < n; i++) {
    fputc('M', fp);
    tc_svg_xy(fp, tc_svg_at(s, t[i].value), f->y1);
    fputs("v4", fp);
  }
  fputs("\"/>\n<g class=\"xticks\" text-anchor=\"middle\">", fp);
  for (size_t i = 0; i < n; i++)
    tc_svg_text(fp, tc_svg_at(s, t[i].value), f->y1 + 16, "class=\"xt\"", t[i].label);
  fputs("</g>\n", fp);
  char text[200];
  tc_svg_label(text, sizeof text, label, unit);
  tc_svg_text(fp, (s->r0 + s->r1) / 2, f->y1 + 33, "class=\"xlabel\" text-anchor=\"middle\"", text);
  fputc('\n', fp);
}

void tc_svg_y_axis(tc_svg_frame *f, const tc_svg_scale *s, double min_step, const char *label,
                   const char *unit) {
  FILE *fp = f->fp;
  tc_svg_tick t[TC_SVG_MAX_TICKS];
  size_t n = tc_svg_ticks_min(s->d0, s->d1, s->log, min_step, t, TC_SVG_MAX_TICKS);
  fputs("<path class=\"grid\" stroke=\"currentColor\" stroke-opacity=\".14\" fill=\"none\" d=\"",
        fp);
  for (size_t i = 0; i < n; i++) {
    fputc('M', fp);
    tc_svg_xy(fp, f->x0, tc_svg_at(s, t[i].value));
    fputc('H', fp);
    tc_svg_num(fp, f->x1);
  }
  fputs("\"/>\n<g class=\"yticks\" text-anchor=\"end\">", fp);
  for (size_t i = 0; i < n; i++)
    tc_svg_text(fp, f->x0 - 6, tc_svg_at(s, t[i].value), "class=\"yt\" dy=\".32em\"", t[i].label);
  fputs("</g>\n", fp);
  char text[200];
  tc_svg_label(text, sizeof text, label, unit);
  double mid = (f->y0 + f->y1) / 2;
  fputs("<text class=\"ylabel\" text-anchor=\"middle\" transform=\"rotate(-90)\"", fp);
  tc_svg_attr(fp, "x", -mid);
  tc_svg_attr(fp, "y", 14);
  fputc('>', fp);
  tc_html_escape_c(fp, text);
  fputs("</text>\n", fp);
}
