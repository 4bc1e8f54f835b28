#include "report/tc_jsonw.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "util/tc_json_valid.h"

void tc_jsonw_init(tc_jsonw *w, FILE *fp, int indent) {
  w->fp = fp;
  w->depth = 0;
  w->indent = indent;
  w->first[0] = 1;
  w->after_key = 0;
}

static void newline(tc_jsonw *w) {
  if (!w->indent)
    return;
  fputc('\n', w->fp);
  for (int i = 0; i < w->depth * w->indent; i++)
    fputc(' ', w->fp);
}

/* Separator and indentation before a value or a key at the current level. */
static void before_item(tc_jsonw *w) {
  if (w->after_key) {
    w->after_key = 0;
    return;
  }
  if (w->depth > 0) {
    if (!w->first[w->depth])
      fputc(',', w->fp);
    newline(w);
  }
  w->first[w->depth] = 0;
}

static void jw_open(tc_jsonw *w, char c) {
  before_item(w);
  fputc(c, w->fp);
  if (w->depth + 1 < TC_JSONW_MAX_DEPTH)
    w->depth++;
  w->first[w->depth] = 1;
}

static void jw_close(tc_jsonw *w, char c) {
  int empty = w->first[w->depth];
  if (w->depth > 0)
    w->depth--;
  if (!empty)
    newline(w);
  fputc(c, w->fp);
}

void tc_jsonw_obj(tc_jsonw *w) { jw_open(w, '{'); }
void tc_jsonw_obj_end(tc_jsonw *w) { jw_close(w, '}'); }
void tc_jsonw_arr(tc_jsonw *w) { jw_open(w, '['); }
void tc_jsonw_arr_end(tc_jsonw *w) { jw_close(w, ']'); }

void tc_json_escape(FILE *fp, tc_str s) {
  static const char hex[] = "0123456789abcdef";
  size_t run = 0; /* start of the bytes that need no escape */
  for (size_t i = 0; i < s.len; i++) {
    unsigned char c = (unsigned char)s.ptr[i];
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\')
      continue;
    size_t n = c >= 0x80 ? tc_utf8_len((const unsigned char *)s.ptr + i, s.len - i) : 0;
    if (n) { /* valid UTF-8 passes as it is */
      i += n - 1;
      continue;
    }
    fwrite(s.ptr + run, 1, i - run, fp);
    run = i + 1;
    switch (c) {
    case '"': fputs("\\\"", fp); break;
    case '\\': fputs("\\\\", fp); break;
    case '\n': fputs("\\n", fp); break;
    case '\r': fputs("\\r", fp); break;
    case '\t': fputs("\\t", fp); break;
    case '\b': fputs("\\b", fp); break;
    case '\f': fputs("\\f", fp); break;
    default:
      if (c < 0x20) {
        fputs("\\u00", fp);
        fputc(hex[c >> 4], fp);
        fputc(hex[c & 15], fp);
      } else {
        /* Output is UTF-8 whatever the input was (file names need not be). */
        fputs("\\ufffd", fp);
      }
    }
  }
  fwrite(s.ptr + run, 1, s.len - run, fp);
}

void tc_jsonw_keyn(tc_jsonw *w, tc_str k) {
  before_item(w);
  fputc('"', w->fp);
  tc_json_escape(w->fp, k);
  fputs(w->indent ? "\": " : "\":", w->fp);
  w->after_key = 1;
}

void tc_jsonw_key(tc_jsonw *w, const char *k) { tc_jsonw_keyn(w, tc_str_c(k)); }

void tc_jsonw_strn(tc_jsonw *w, tc_str s) {
  before_item(w);
  fputc('"', w->fp);
  tc_json_escape(w->fp, s);
  fputc('"', w->fp);
}

void tc_jsonw_str(tc_jsonw *w, const char *s) {
  if (!s) {
    tc_jsonw_null(w);
    return;
  }
  tc_jsonw_strn(w, tc_str_c(s));
}

void tc_jsonw_int(tc_jsonw *w, int64_t v) {
  before_item(w);
  fprintf(w->fp, "%" PRId64, v);
}

void tc_jsonw_uint(tc_jsonw *w, uint64_t v) {
  before_item(w);
  fprintf(w->fp, "%" PRIu64, v);
}

void tc_jsonw_num(tc_jsonw *w, double v) {
  if (!isfinite(v)) {
    tc_jsonw_null(w);
    return;
  }
  before_item(w);
  if (v == floor(v) && fabs(v) < 9007199254740992.0) {
    fprintf(w->fp, "%.0f", v == 0 ? 0.0 : v);
    return;
  }
  char buf[40];
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (strtod(buf, NULL) == v)
      break;
  }
  fputs(buf, w->fp);
}

void tc_jsonw_bool(tc_jsonw *w, int v) {
  before_item(w);
  fputs(v ? "true" : "false", w->fp);
}

void tc_jsonw_null(tc_jsonw *w) {
  before_item(w);
  fputs("null", w->fp);
}

void tc_jsonw_raw(tc_jsonw *w, tc_str json) {
  before_item(w);
  fwrite(json.ptr, 1, json.len, w->fp);
}
