/* Table markup for the page script (tc_html_page.c): the header cell says
 * how its column sorts (data-kind) and whether it gets a drop-down
 * (data-select); a number cell carries its raw value in data-v so sorting
 * never parses the shown text, and an n/a cell has no data-v at all. */
#include <math.h>

#include "report/tc_census_report.h"
#include "report/tc_html.h"
#include "util/tc_numfmt.h"

void tc_html_table_begin(FILE *fp, const char *id, const char *caption, const tc_html_col *cols,
                         size_t ncols) {
  fprintf(fp,
          "<div class=\"tc-controls\" id=\"%s-controls\">\n<label>Filter <input type=\"search\" "
          "placeholder=\"text in any column\" aria-controls=\"%s\"></label>\n"
          "<span class=\"tc-count\" aria-live=\"polite\"></span>\n</div>\n",
          id, id);
  fprintf(fp, "<div class=\"tc-scroll\">\n<table class=\"tc-table\" id=\"%s\">\n<caption>", id);
  tc_html_escape_c(fp, caption);
  fputs("</caption>\n<thead><tr>", fp);
  for (size_t c = 0; c < ncols; c++) {
    const tc_html_col *k = &cols[c];
    int num = k->kind == TC_HTML_NUM;
    fprintf(fp, "<th scope=\"col\"%s data-kind=\"%s\"", num ? " class=\"num\"" : "",
            num ? "num" : "text");
    if (k->select) {
      fputs(" data-select data-label=\"", fp);
      tc_html_escape_c(fp, k->label);
      fputc('"', fp);
    }
    if (k->help) {
      fputs(" title=\"", fp);
      tc_html_escape_c(fp, k->help);
      fputc('"', fp);
    }
    fputs("><button type=\"button\">", fp);
    tc_html_escape_c(fp, k->label);
    if (k->unit) {
      fputs("<span class=\"unit\">", fp);
      tc_html_escape_c(fp, k->unit);
      fputs("</span>", fp);
    }
    fputs("</button></th>", fp);
  }
  fputs("</tr></thead>\n<tbody>\n", fp);
}

void tc_html_table_end(FILE *fp) { fputs("</tbody>\n</table>\n</div>\n", fp); }

void tc_html_row_begin(FILE *fp) { fputs("<tr>", fp); }

void tc_html_row_end(FILE *fp) { fputs("</tr>\n", fp); }

void tc_html_cell_text(FILE *fp, tc_str s) {
  fputs("<td>", fp);
  tc_html_escape(fp, s);
  fputs("</td>", fp);
}

void tc_html_cell_link(FILE *fp, tc_str text, const char *prefix, tc_str name) {
  fputs("<td><a href=\"#", fp);
  tc_html_id(fp, prefix, name);
  fputs("\">", fp);
  tc_html_escape(fp, text);
  fputs("</a></td>", fp);
}

void tc_html_cell_int(FILE *fp, int64_t v) {
  char shown[32], raw[TC_NUMFMT_MAX];
  /* Negate in unsigned arithmetic: -INT64_MIN does not fit an int64_t. */
  uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  tc_fmt_thousands(mag, shown, sizeof shown);
  fputs("<td class=\"num\" data-v=\"", fp);
  fwrite(raw, 1, tc_numfmt_i64(v, raw), fp);
  fputs(v < 0 ? "\">-" : "\">", fp);
  fputs(shown, fp);
  fputs("</td>", fp);
}

void tc_html_cell_num(FILE *fp, double v, int decimals) {
  if (!isfinite(v)) {
    tc_html_cell_na(fp, "not a finite number");
    return;
  }
  char shown[64], raw[TC_NUMFMT_MAX];
  tc_html_fmt_num(v, decimals, shown, sizeof shown);
  fputs("<td class=\"num\" data-v=\"", fp);
  fwrite(raw, 1, tc_numfmt_g(v == 0 ? 0.0 : v, 17, raw), fp); /* printf's %.17g */
  fputs("\">", fp);
  fputs(shown, fp);
  fputs("</td>", fp);
}

void tc_html_cell_na(FILE *fp, const char *reason) { tc_html_cell_na_text(fp, "n/a", reason); }

void tc_html_cell_na_text(FILE *fp, const char *text, const char *reason) {
  fputs("<td class=\"na\"", fp);
  if (reason) {
    fputs(" title=\"", fp);
    tc_html_escape_c(fp, reason);
    fputc('"', fp);
  }
  fputc('>', fp);
  tc_html_escape_c(fp, text);
  fputs("</td>", fp);
}

void tc_html_cell_tags(FILE *fp, const tc_str *tags, size_t n) {
  fputs("<td>", fp);
  for (size_t i = 0; i < n; i++) {
    fputs("<span class=\"tag\">", fp);
    tc_html_escape(fp, tags[i]);
    fputs("</span>", fp);
  }
  fputs("</td>", fp);
}
