/* Heat map: row labels at the left, column labels turned 45 degrees above
 * the grid, the colour legend between the n line and the column labels.
 * The width follows the columns and the height the rows, so every cell is
 * large enough to point at. */
#include <math.h>
#include <string.h>

#include "report/tc_html.h"
#include "report/tc_svg_draw.h"

#define TC_CELL_H 16.0
#define TC_CELL_MIN_W 16.0
#define TC_CELL_MAX_W 44.0
#define TC_CHAR_W 6.3   /* average advance of an 11 px sans-serif character */
#define TC_ROW_CHARS 30 /* longer labels are cut */
#define TC_COL_CHARS 26
#define TC_LEGEND_H 34.0 /* swatches, their ticks and a gap */
#define TC_LEGEND_W 216.0
#define TC_LEGEND_STEPS 36
#define TC_LEGEND_GAP 36.0 /* px between the centres of two legend labels */

/* viridis (matplotlib, CC0) at t = 0, 1/9, ..., 1. */
static const unsigned char viridis[10][3] = {
    {0x44, 0x01, 0x54}, {0x48, 0x28, 0x78}, {0x3e, 0x49, 0x89}, {0x31, 0x68, 0x8e},
    {0x26, 0x82, 0x8e}, {0x1f, 0x9e, 0x89}, {0x35, 0xb7, 0x79}, {0x6e, 0xce, 0x58},
    {0xb5, 0xde, 0x2b}, {0xfd, 0xe7, 0x25}};

static void colour(double t, char out[8]) {
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  double pos = t * 9;
  int i = (int)floor(pos);
  if (i > 8)
    i = 8;
  double f = pos - i;
  int rgb[3];
  for (int c = 0; c < 3; c++)
    rgb[c] = (int)lround(viridis[i][c] + f * (viridis[i + 1][c] - viridis[i][c]));
  static const char hex[] = "0123456789abcdef";
  out[0] = '#';
  for (int c = 0; c < 3; c++) {
    out[1 + 2 * c] = hex[rgb[c] >> 4 & 15];
    out[2 + 2 * c] = hex[rgb[c] & 15];
  }
  out[7] = '\0';
}

typedef struct {
  double lo, hi; /* the coloured range: 0..max, or smallest non-zero..max in log */
  int log;
} colour_scale;

static double t_of(const colour_scale *c, double v) {
  if (c->log)
    return c->hi > c->lo ? (log10(v) - log10(c->lo)) / (log10(c->hi) - log10(c->lo)) : 1;
  return c->hi > 0 ? v / c->hi : 1;
}

/* Code points of S, and S cut to MAX code points plus "…" in BUF. */
static size_t cut(const char *s, size_t max, char *buf, size_t cap) {
  size_t cps = 0, i = 0, keep = 0;
  for (; s[i]; i++)
    if (((unsigned char)s[i] & 0xC0) != 0x80 && cps++ == max)
      keep = i;
  if (cps <= max || keep + 4 > cap)
    snprintf(buf, cap, "%s", s);
  else
    snprintf(buf, cap, "%.*s\u2026", (int)keep, s);
  return cps > max ? max + 1 : cps;
}

static double label_px(const char *const *labels, size_t n, size_t max) {
  size_t most = 0;
  char buf[256];
  for (size_t i = 0; i < n; i++) {
    size_t c = cut(labels[i] ? labels[i] : "", max, buf, sizeof buf);
    most = c > most ? c : most;
  }
  return (double)most * TC_CHAR_W;
}

/* A cell's rect with EXTRA attributes and the tooltip "ROW · COL: VALUE". */
static void cell_rect(FILE *fp, double x, double y, double w, const char *extra, const char *row,
                      const char *col, const char *value) {
  fputs("<rect", fp);
  tc_svg_box(fp, x, y, w - 1, TC_CELL_H - 1);
  fputc(' ', fp);
  fputs(extra, fp);
  fputs("><title>", fp);
  tc_html_escape_c(fp, row);
  fputs(" \u00b7 ", fp);
  tc_html_escape_c(fp, col);
  fputs(": ", fp);
  tc_html_escape_c(fp, value);
  fputs("</title></rect>\n", fp);
}

/* The cells that are 0, as one path of a subpath each: at 500 sites most of
 * a heat map's cells are 0, and a rect and a tooltip apiece made a tenth of
 * report.html's bytes and a sixth of its elements. The row and column
 * labels name such a cell; the path's tooltip says what its shade means. */
static void zero_cells(FILE *fp, const tc_svg_frame *f, const tc_svg_grid *g, double cw) {
  fputs("<path class=\"zero\" fill-opacity=\".08\" d=\"", fp);
  for (size_t r = 0; r < g->nrows; r++)
    for (size_t k = 0; k < g->ncols; k++) {
      double v = g->cells[r * g->ncols + k];
      if (!tc_svg_ok(v) || v > 0)
        continue;
      fputc('M', fp);
      tc_svg_xy(fp, f->x0 + cw * (double)k, f->y0 + TC_CELL_H * (double)r);
      fputc('h', fp);
      tc_svg_num(fp, cw - 1);
      fputc('v', fp);
      tc_svg_num(fp, TC_CELL_H - 1);
      fputc('h', fp);
      tc_svg_num(fp, 1 - cw);
      fputc('z', fp);
    }
  char zero[64], tip[200];
  tc_svg_value(0, g->value_unit, zero, sizeof zero);
  snprintf(tip, sizeof tip, "%s (every cell in this shade)", zero);
  fputs("\">", fp);
  tc_svg_title(fp, tip);
  fputs("</path>\n", fp);
}

static void legend(tc_svg_frame *f, const colour_scale *c, const tc_svg_grid *g, int any_zero,
                   int any_na) {
  FILE *fp = f->fp;
  double x = 0, y = TC_SVG_TOP + 2;
  char fill[8], label[200];
  if (any_zero) {
    tc_svg_text(fp, x, y + 9, NULL, "0");
    fputs("<rect fill-opacity=\".08\" stroke=\"currentColor\" stroke-opacity=\".3\"", fp);
    tc_svg_attr(fp, "x", x + 10);
    tc_svg_attr(fp, "y", y);
    fputs(" width=\"12\" height=\"10\"/>\n", fp);
    x += 34;
  }
  if (c->hi > 0) {
    double step = TC_LEGEND_W / TC_LEGEND_STEPS;
    fputs("<g class=\"legend\">", fp);
    for (int i = 0; i < TC_LEGEND_STEPS; i++) {
      colour((i + 0.5) / TC_LEGEND_STEPS, fill);
      fprintf(fp, "<rect fill=\"%s\"", fill);
      tc_svg_attr(fp, "x", x + i * step);
      tc_svg_attr(fp, "y", y);
      tc_svg_attr(fp, "width", step + 0.3);
      fputs(" height=\"10\"/>", fp);
    }
    fputs("</g>\n", fp);
    /* The scale's ticks, thinned so labels keep apart, and the largest
     * cell's value at the right end: the legend spans the data. */
    tc_svg_tick t[TC_SVG_MAX_TICKS];
    double lo = c->log ? c->lo : 0;
    size_t n = tc_svg_ticks(lo, c->hi, c->log, t, TC_SVG_MAX_TICKS);
    tc_svg_scale s = {c->log && c->hi > c->lo ? c->lo : 0, c->hi, x, x + TC_LEGEND_W, c->log};
    if (c->log && !(c->hi > c->lo))
      s.log = 0; /* a single value: one colour, labelled at the right */
    char top[64];
    tc_svg_value(c->hi, NULL, top, sizeof top);
    double end = x + TC_LEGEND_W, last = -1e9;
    for (size_t i = 0; i < n; i++) {
      double at = tc_svg_at(&s, t[i].value);
      if (at - last < TC_LEGEND_GAP || end - at < 1.5 * TC_LEGEND_GAP || t[i].value >= c->hi)
        continue;
      tc_svg_text(fp, at, y + 22, "class=\"lt\" text-anchor=\"middle\"", t[i].label);
      last = at;
    }
    tc_svg_text(fp, end, y + 22, "class=\"lt lmax\" text-anchor=\"end\"", top);
    x += TC_LEGEND_W + 12;
  }
  snprintf(label, sizeof label, "%s per cell%s", g->value_unit ? g->value_unit : "value",
           c->log ? " (log colour)" : "");
  tc_svg_text(fp, x, y + 9, NULL, label);
  if (any_na) {
    x += (double)strlen(label) * TC_CHAR_W + 20;
    fputs("<rect fill-opacity=\".03\" stroke=\"currentColor\" stroke-opacity=\".45\"", fp);
    tc_svg_attr(fp, "x", x);
    tc_svg_attr(fp, "y", y);
    fputs(" width=\"12\" height=\"10\"/><path stroke=\"currentColor\" stroke-opacity=\".45\" d=\"M",
          fp);
    tc_svg_xy(fp, x, y + 10);
    fputs("l12 -10\"/>", fp);
    tc_svg_text(fp, x + 16, y + 9, NULL, "n/a");
  }
  fputc('\n', fp);
}

tc_err tc_svg_heatmap(FILE *fp, const tc_svg_plot *p, const tc_svg_grid *g) {
  const char *rows_unit = p->n_unit ? p->n_unit : "rows";
  const char *cols_unit = g->col_unit ? g->col_unit : "columns";
  size_t cells = g->nrows * g->ncols, finite = 0, na_rows = 0;
  int any_zero = 0;
  colour_scale c = {0, 0, g->log_colour};
  for (size_t r = 0; r < g->nrows; r++) {
    int na = 0;
    for (size_t k = 0; k < g->ncols; k++) {
      double v = g->cells[r * g->ncols + k];
      if (!tc_svg_ok(v)) {
        na = 1;
        continue;
      }
      finite++;
      if (v <= 0) {
        any_zero = 1;
        continue;
      }
      c.hi = fmax(c.hi, v);
      c.lo = c.lo == 0 ? v : fmin(c.lo, v);
    }
    na_rows += na;
  }
  char n_line[240];
  int o = snprintf(n_line, sizeof n_line, "n = %zu %s \u00d7 %zu %s", g->nrows, rows_unit, g->ncols,
                   cols_unit);
  if (na_rows && o > 0 && (size_t)o < sizeof n_line)
    snprintf(n_line + o, sizeof n_line - (size_t)o, " \u00b7 n/a cells in %zu of %zu %s", na_rows,
             g->nrows, rows_unit);
  if (!cells || !finite) {
    tc_svg_na(fp, p, "heatmap", n_line, cells ? "every cell is n/a" : NULL);
    return TC_OK;
  }
  double row_w = label_px(g->rows, g->nrows, TC_ROW_CHARS) + 10;
  double col_h = label_px(g->cols, g->ncols, TC_COL_CHARS) * sqrt(0.5) + 12;
  double avail = (p->width > 0 ? p->width : 760) - row_w - TC_SVG_RIGHT;
  double cw = fmin(TC_CELL_MAX_W, fmax(TC_CELL_MIN_W, avail / (double)g->ncols));
  const char *rule = c.log ? "Colour: viridis over log10 of the count, smallest non-zero to max; 0 "
                             "has its own swatch"
                           : "Colour: viridis over 0 to max; 0 has its own swatch";
  int lines = 1 + (p->note && *p->note);
  double w = row_w + cw * (double)g->ncols + col_h + TC_SVG_RIGHT;
  double h = TC_SVG_TOP + TC_LEGEND_H + col_h + TC_CELL_H * (double)g->nrows + TC_SVG_BOTTOM +
             TC_SVG_CAPTION_GAP + TC_SVG_CAPTION * lines;
  char desc[200], top[64];
  tc_svg_value(c.hi, g->value_unit, top, sizeof top);
  snprintf(desc, sizeof desc, "largest cell %s", top);
  tc_svg_frame f;
  tc_svg_open(&f, fp, p, "heatmap", w, h, n_line, desc, rule, row_w - TC_SVG_LEFT,
              TC_LEGEND_H + col_h);
  legend(&f, &c, g, any_zero, finite < cells);

  char buf[256], val[600];
  fputs("<g class=\"cols\">", fp);
  for (size_t k = 0; k < g->ncols; k++) {
    const char *name = g->cols[k] ? g->cols[k] : "";
    cut(name, TC_COL_CHARS, buf, sizeof buf);
    double x = f.x0 + cw * ((double)k + 0.5) + 3, y = f.y0 - 6;
    fputs("<text transform=\"rotate(-45 ", fp);
    tc_svg_xy(fp, x, y);
    fputs(")\"", fp);
    tc_svg_attr(fp, "x", x);
    tc_svg_attr(fp, "y", y);
    fputc('>', fp);
    tc_svg_title(fp, name);
    tc_html_escape_c(fp, buf);
    fputs("</text>", fp);
  }
  fputs("</g>\n<g class=\"rows\" text-anchor=\"end\">", fp);
  if (p->y_label)
    tc_svg_text(fp, f.x0 - 6, f.y0 - 6, "font-weight=\"600\"", p->y_label);
  for (size_t r = 0; r < g->nrows; r++) {
    const char *name = g->rows[r] ? g->rows[r] : "";
    cut(name, TC_ROW_CHARS, buf, sizeof buf);
    fputs("<text", fp);
    tc_svg_attr(fp, "x", f.x0 - 6);
    tc_svg_attr(fp, "y", f.y0 + TC_CELL_H * ((double)r + 0.5));
    fputs(" dy=\".32em\">", fp);
    tc_svg_title(fp, name);
    tc_html_escape_c(fp, buf);
    fputs("</text>", fp);
  }
  fputs("</g>\n<g class=\"cells\">\n", fp);
  if (any_zero)
    zero_cells(fp, &f, g, cw);
  for (size_t r = 0; r < g->nrows; r++)
    for (size_t k = 0; k < g->ncols; k++) {
      double v = g->cells[r * g->ncols + k], x = f.x0 + cw * (double)k,
             y = f.y0 + TC_CELL_H * (double)r;
      const char *rn = g->rows[r] ? g->rows[r] : "", *cn = g->cols[k] ? g->cols[k] : "";
      if (!tc_svg_ok(v)) {
        const char *why = g->row_na && g->row_na[r] ? g->row_na[r] : "no value";
        snprintf(val, sizeof val, "n/a (%s)", why);
        cell_rect(fp, x, y, cw,
                  "class=\"na\" fill-opacity=\".03\" stroke=\"currentColor\" "
                  "stroke-opacity=\".3\"",
                  rn, cn, val);
        fputs("<path stroke=\"currentColor\" stroke-opacity=\".3\" d=\"M", fp);
        tc_svg_xy(fp, x, y + TC_CELL_H - 1);
        fputc('l', fp);
        tc_svg_xy(fp, cw - 1, 1 - TC_CELL_H);
        fputs("\"/>\n", fp);
        continue;
      }
      if (v <= 0)
        continue;
      tc_svg_value(v, g->value_unit, val, sizeof val);
      char extra[16] = "fill=\"";
      colour(t_of(&c, v), extra + 6);
      memcpy(extra + 13, "\"", 2);
      cell_rect(fp, x, y, cw, extra, rn, cn, val);
    }
  fputs("</g>\n", fp);
  char axis[200];
  tc_svg_label(axis, sizeof axis, p->x_label ? p->x_label : cols_unit, NULL);
  tc_svg_text(fp, f.x0 + cw * (double)g->ncols / 2, f.y1 + 20,
              "class=\"xlabel\" text-anchor=\"middle\"", axis);
  fputc('\n', fp);
  tc_svg_close(&f);
  return TC_OK;
}
