#include "report/tc_text.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/tc_json_valid.h"

/* How put writes S. */
typedef enum {
  W_MD,         /* Markdown text */
  W_CODE,       /* inside a code span */
  W_CODE_TABLE, /* inside a code span in a table cell */
  W_CSV,        /* an unquoted CSV cell (it holds no quote, CR or LF) */
  W_CSV_QUOTED, /* inside a quoted CSV cell */
  W_TERM,       /* the terminal */
} way;

/* The ASCII punctuation Markdown gives a meaning in text. */
static const unsigned char md_special[128] = {
    ['\\'] = 1, ['`'] = 1, ['*'] = 1, ['_'] = 1, ['['] = 1, [']'] = 1, ['<'] = 1,
    ['>'] = 1,  ['|'] = 1, ['#'] = 1, ['&'] = 1, ['~'] = 1, ['!'] = 1};

static int alnum(unsigned c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static void hex(tc_wbuf *b, const char *prefix, unsigned v) {
  static const char digits[] = "0123456789abcdef";
  tc_wbuf_puts(b, prefix);
  tc_wbuf_putc(b, digits[(v >> 4) & 15]);
  tc_wbuf_putc(b, digits[v & 15]);
}

/* Writes S the way W says; every byte that W keeps goes out in runs. */
static void put(tc_wbuf *b, tc_str text, way w) {
  if (!text.len) /* an empty tc_str may hold NULL, where even P + 0 is undefined */
    return;
  const unsigned char *s = (const unsigned char *)text.ptr;
  size_t len = text.len, run_start = 0;
  int csv = w == W_CSV || w == W_CSV_QUOTED;
  for (size_t i = 0; i < len;) {
    unsigned c = s[i];
    size_t n = c < 0x80 ? 1 : tc_utf8_len(s + i, len - i);
    int keep;
    if (!n)
      keep = 0; /* not UTF-8 */
    else if (c < 0x20 || c == 0x7f)
      keep = csv && (c == '\t' || c == '\n'); /* a lone CR breaks line readers */
    else if (c == 0xc2 && s[i + 1] < 0xa0) /* C1: U+0080-U+009F */
      keep = csv;
    else if (c == '"')
      keep = w != W_CSV_QUOTED;
    else if (c == '|')
      keep = w != W_MD && w != W_CODE_TABLE;
    else if (c == '_' && w == W_MD) /* inert between letters or digits (CommonMark) */
      keep = i > 0 && i + 1 < len && alnum(s[i - 1]) && alnum(s[i + 1]);
    else
      keep = !(w == W_MD && c < 0x80 && md_special[c]);
    if (keep) {
      i += n;
      continue;
    }
    tc_wbuf_put(b, s + run_start, i - run_start);
    if (!n) {
      if (w == W_TERM)
        hex(b, "\\x", c);
      else
        tc_wbuf_put(b, "\xef\xbf\xbd", 3);
      n = 1;
    } else if (c < 0x20 || c == 0x7f) {
      hex(b, "\\x", c);
    } else if (c == 0xc2) {
      hex(b, "\\u00", s[i + 1]);
    } else if (c == '"') {
      tc_wbuf_put(b, "\"\"", 2); /* a quote doubled in a quoted CSV cell */
    } else {
      tc_wbuf_putc(b, '\\');
      tc_wbuf_putc(b, (char)c);
    }
    i += n;
    run_start = i;
  }
  tc_wbuf_put(b, s + run_start, len - run_start);
}

void tc_text_md(tc_wbuf *b, tc_str s) { put(b, s, W_MD); }

void tc_text_md_code(tc_wbuf *b, tc_str s, tc_md_where where) {
  size_t longest = 0, cur = 0;
  for (size_t i = 0; i < s.len; i++) {
    cur = s.ptr[i] == '`' ? cur + 1 : 0;
    if (cur > longest)
      longest = cur;
  }
  char first = s.len ? s.ptr[0] : ' ', last = s.len ? s.ptr[s.len - 1] : ' ';
  /* CommonMark strips one space at each end when both ends have one, and a
   * backtick at an end would join the fence. */
  int pad = first == '`' || last == '`' || (first == ' ' && last == ' ');
  for (size_t k = 0; k <= longest; k++)
    tc_wbuf_putc(b, '`');
  if (pad && s.len)
    tc_wbuf_putc(b, ' ');
  put(b, s, where == TC_MD_IN_TABLE ? W_CODE_TABLE : W_CODE);
  if (pad)
    tc_wbuf_putc(b, ' ');
  for (size_t k = 0; k <= longest; k++)
    tc_wbuf_putc(b, '`');
}

/* Whether a spreadsheet would read a cell that starts with C as a formula. */
static int formula_start(tc_str s) { return s.len && s.ptr[0] && strchr("=+-@\t\r", s.ptr[0]); }

void tc_text_csv_body(tc_wbuf *b, tc_str s, int cell_start) {
  if (cell_start && formula_start(s))
    tc_wbuf_putc(b, '\'');
  put(b, s, W_CSV_QUOTED);
}

static int needs_quotes(tc_str s) {
  for (size_t i = 0; i < s.len; i++)
    if (s.ptr[i] == ',' || s.ptr[i] == '"' || s.ptr[i] == '\n') /* CR is written \x0d */
      return 1;
  return 0;
}

void tc_text_csv_cell(tc_wbuf *b, tc_str s, tc_csv_quote q) {
  if (q == TC_CSV_QUOTE_IF_NEEDED && !needs_quotes(s)) {
    if (formula_start(s))
      tc_wbuf_putc(b, '\'');
    put(b, s, W_CSV);
    return;
  }
  tc_wbuf_putc(b, '"');
  tc_text_csv_body(b, s, 1);
  tc_wbuf_putc(b, '"');
}

void tc_text_term(tc_wbuf *b, tc_str s) {
  if (s.len <= TC_TEXT_TERM_MAX) {
    put(b, s, W_TERM);
    return;
  }
  size_t cut = TC_TEXT_TERM_MAX; /* back to the start of a character */
  while (cut > TC_TEXT_TERM_MAX - 3 && ((unsigned char)s.ptr[cut] & 0xc0) == 0x80)
    cut--;
  put(b, (tc_str){s.ptr, cut}, W_TERM);
  tc_wbuf_puts(b, "\xe2\x80\xa6(");
  tc_wbuf_u64(b, s.len);
  tc_wbuf_puts(b, " bytes)");
}

/* One conversion of a printf format, read by tc_text_term_printf. */
typedef struct {
  char flags[8];
  int width, precision; /* -1: none */
  char length[3];       /* "", "hh", "h", "l", "ll", "z", "j", "t", "L" */
  char conv;
} conversion;

/* Reads the conversion after a '%' at *P (the width and precision a '*'
 * asks for from AP); 0 for one it does not know. */
static int read_conversion(const char **p, va_list *ap, conversion *cv) {
  const char *s = *p;
  size_t nf = 0;
  while (*s && strchr("-+ #0", *s) && nf < sizeof cv->flags - 1)
    cv->flags[nf++] = *s++;
  cv->flags[nf] = '\0';
  cv->width = cv->precision = -1;
  if (*s == '*') {
    cv->width = va_arg(*ap, int);
    s++;
  } else if (*s >= '0' && *s <= '9') {
    for (cv->width = 0; *s >= '0' && *s <= '9'; s++)
      cv->width = cv->width * 10 + (*s - '0');
  }
  if (*s == '.') {
    s++;
    if (*s == '*') {
      cv->precision = va_arg(*ap, int);
      s++;
    } else {
      for (cv->precision = 0; *s >= '0' && *s <= '9'; s++)
        cv->precision = cv->precision * 10 + (*s - '0');
    }
  }
  size_t nl = 0;
  while (*s && strchr("hlzjtL", *s) && nl < sizeof cv->length - 1)
    cv->length[nl++] = *s++;
  cv->length[nl] = '\0';
  cv->conv = *s;
  if (!*s || !strchr("diuxXofFeEgGaAcsp", *s))
    return 0;
  *p = s + 1;
  return 1;
}

/* A number's (or a pointer's) conversion, as printf writes it. */
static void put_number(tc_wbuf *b, const conversion *cv, va_list *ap) {
  char spec[32], out[512];
  int n = snprintf(spec, sizeof spec, "%%%s", cv->flags);
  if (cv->width >= 0)
    n += snprintf(spec + n, sizeof spec - (size_t)n, "%d", cv->width);
  if (cv->precision >= 0)
    n += snprintf(spec + n, sizeof spec - (size_t)n, ".%d", cv->precision);
  snprintf(spec + n, sizeof spec - (size_t)n, "%s%c", cv->length, cv->conv);
  const char *l = cv->length;
  int len;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  if (strchr("fFeEgGaA", cv->conv))
    len = *l == 'L' ? snprintf(out, sizeof out, spec, va_arg(*ap, long double))
                    : snprintf(out, sizeof out, spec, va_arg(*ap, double));
  else if (cv->conv == 'p')
    len = snprintf(out, sizeof out, spec, va_arg(*ap, void *));
  else if (strchr("di", cv->conv))
    len = !strcmp(l, "l")    ? snprintf(out, sizeof out, spec, va_arg(*ap, long))
          : !strcmp(l, "ll") ? snprintf(out, sizeof out, spec, va_arg(*ap, long long))
          : !strcmp(l, "z")  ? snprintf(out, sizeof out, spec, va_arg(*ap, ptrdiff_t))
          : !strcmp(l, "j")  ? snprintf(out, sizeof out, spec, va_arg(*ap, intmax_t))
          : !strcmp(l, "t")  ? snprintf(out, sizeof out, spec, va_arg(*ap, ptrdiff_t))
                             : snprintf(out, sizeof out, spec, va_arg(*ap, int));
  else
    len = !strcmp(l, "l")    ? snprintf(out, sizeof out, spec, va_arg(*ap, unsigned long))
          : !strcmp(l, "ll") ? snprintf(out, sizeof out, spec, va_arg(*ap, unsigned long long))
          : !strcmp(l, "z")  ? snprintf(out, sizeof out, spec, va_arg(*ap, size_t))
          : !strcmp(l, "j")  ? snprintf(out, sizeof out, spec, va_arg(*ap, uintmax_t))
          : !strcmp(l, "t")  ? snprintf(out, sizeof out, spec, va_arg(*ap, ptrdiff_t))
                             : snprintf(out, sizeof out, spec, va_arg(*ap, unsigned));
#pragma GCC diagnostic pop
  if (len > 0)
    tc_wbuf_put(b, out, (size_t)len < sizeof out ? (size_t)len : sizeof out - 1);
}

int tc_text_term_printf(FILE *fp, const char *fmt, ...) {
  tc_wbuf *b = malloc(sizeof *b);
  if (!b)
    return -1;
  tc_wbuf_init(b, fp);
  va_list ap;
  va_start(ap, fmt);
  for (const char *p = fmt; *p;) {
    const char *pct = strchr(p, '%');
    size_t lit = pct ? (size_t)(pct - p) : strlen(p);
    tc_wbuf_put(b, p, lit); /* the format's own text, newlines and all */
    p += lit;
    if (!*p)
      break;
    p++;
    if (*p == '%') {
      tc_wbuf_putc(b, '%');
      p++;
      continue;
    }
    conversion cv;
    const char *at = p;
    if (!read_conversion(&p, &ap, &cv)) {
      tc_wbuf_putc(b, '%'); /* not a conversion printf knows: its text as it is */
      p = at;
      continue;
    }
    if (cv.conv == 's') {
      const char *s = va_arg(ap, const char *);
      if (!s)
        s = "(null)";
      size_t n = cv.precision >= 0 ? strnlen(s, (size_t)cv.precision) : strlen(s);
      size_t pad = cv.width > 0 && (size_t)cv.width > n ? (size_t)cv.width - n : 0;
      int left = strchr(cv.flags, '-') != NULL;
      for (size_t k = 0; !left && k < pad; k++)
        tc_wbuf_putc(b, ' ');
      tc_text_term(b, (tc_str){s, n});
      for (size_t k = 0; left && k < pad; k++)
        tc_wbuf_putc(b, ' ');
    } else if (cv.conv == 'c') {
      char c = (char)va_arg(ap, int);
      tc_text_term(b, (tc_str){&c, 1});
    } else {
      put_number(b, &cv, &ap);
    }
  }
  va_end(ap);
  tc_wbuf_flush(b);
  free(b);
  return ferror(fp) ? -1 : 0;
}
