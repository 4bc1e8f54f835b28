/* Text and ids for HTML. Names in traces are arbitrary bytes (an event
 * name may hold a C++ lambda's signature, a site name anything a crawl
 * wrote), so escaping also repairs what would make the markup ill-formed:
 * invalid UTF-8 (by the JSON checker's RFC 3629 rule) and control
 * characters, which the HTML parser reports and inline SVG's XML rules
 * forbid. */
#include <math.h>
#include <stdlib.h>

#include "report/tc_census_report.h"
#include "report/tc_html.h"
#include "util/tc_json_valid.h"

#define TC_REPLACEMENT "\xEF\xBF\xBD" /* U+FFFD */

/* The entity for a byte HTML gives meaning to, or NULL. */
static const char *entity(unsigned c) {
  static const char *const ent[128] = {
      ['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;", ['"'] = "&quot;", ['\''] = "&#39;"};
  return c < 128 ? ent[c] : NULL;
}

void tc_html_escape(FILE *fp, tc_str s) {
  const unsigned char *p = (const unsigned char *)s.ptr;
  size_t i = 0;
  while (i < s.len) {
    unsigned c = p[i];
    size_t n = tc_utf8_len(p + i, s.len - i);
    /* C1 controls are the two-byte sequences C2 80 .. C2 9F. */
    int control = (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F ||
                  (n == 2 && c == 0xC2 && p[i + 1] < 0xA0);
    if (!n || control) {
      fputs(TC_REPLACEMENT, fp);
      i += n ? n : 1;
      continue;
    }
    const char *ent = entity(c);
    if (ent)
      fputs(ent, fp);
    else
      fwrite(p + i, 1, n, fp);
    i += n;
  }
}

void tc_html_escape_c(FILE *fp, const char *s) {
  if (s)
    tc_html_escape(fp, tc_str_c(s));
}

void tc_html_id(FILE *fp, const char *prefix, tc_str name) {
  fputs(prefix, fp);
  fputc('-', fp);
  for (size_t i = 0; i < name.len; i++) {
    unsigned char c = (unsigned char)name.ptr[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-')
      fputc(c, fp);
    else
      fprintf(fp, "_%02x", c);
  }
}

void tc_html_fmt_num(double v, int decimals, char *buf, size_t cap) {
  int d = decimals < 0 ? 0 : decimals > 9 ? 9 : decimals;
  char raw[400]; /* room for DBL_MAX's 309 digits and 9 decimals */
  snprintf(raw, sizeof raw, "%.*f", d, fabs(v));
  int neg = v < 0 && strspn(raw, "0.") != strlen(raw);
  size_t ilen = strcspn(raw, ".");
  char whole[48];
  if (ilen <= 19) {
    tc_fmt_thousands(strtoull(raw, NULL, 10), whole, sizeof whole);
    snprintf(buf, cap, "%s%s%s", neg ? "-" : "", whole, raw + ilen);
  } else {
    /* Past uint64_t: no grouping; such values do not occur in a report. */
    snprintf(buf, cap, "%s%s", neg ? "-" : "", raw);
  }
}
