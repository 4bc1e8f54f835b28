#include "report/tc_pretty.h"

#include <string.h>

typedef struct {
  const char *p, *end;
  FILE *fp;
  size_t max_items;
  int ok;
} pp;

static void skip_ws(pp *s) {
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\n' || *s->p == '\r' || *s->p == '\t'))
    s->p++;
}

static void indent(pp *s, int depth) {
  fputc('\n', s->fp);
  for (int i = 0; i < depth; i++)
    fputs("  ", s->fp);
}

/* Copies (or with EMIT = 0 skips) one string token, quotes included. */
static void string_tok(pp *s, int emit) {
  const char *b = s->p++;
  while (s->p < s->end && *s->p != '"')
    s->p += *s->p == '\\' ? 2 : 1;
  if (s->p >= s->end) {
    s->ok = 0;
    return;
  }
  s->p++;
  if (emit)
    fwrite(b, 1, (size_t)(s->p - b), s->fp);
}

static void value(pp *s, int depth, int emit);

static void container(pp *s, int depth, int emit, char close) {
  int is_obj = close == '}';
  if (emit)
    fputc(*s->p, s->fp);
  s->p++;
  skip_ws(s);
  if (s->p < s->end && *s->p == close) {
    s->p++;
    if (emit)
      fputc(close, s->fp);
    return;
  }
  size_t items = 0, elided = 0;
  while (s->ok && s->p < s->end) {
    int show = emit && (is_obj || items < s->max_items);
    if (!show && emit)
      elided++;
    if (show) {
      if (items)
        fputc(',', s->fp);
      indent(s, depth + 1);
    }
    if (is_obj) {
      skip_ws(s);
      if (s->p >= s->end || *s->p != '"') {
        s->ok = 0;
        return;
      }
      string_tok(s, show);
      skip_ws(s);
      if (s->p >= s->end || *s->p != ':') {
        s->ok = 0;
        return;
      }
      s->p++;
      if (show)
        fputs(": ", s->fp);
    }
    value(s, depth + 1, show);
    items++;
    skip_ws(s);
    if (s->p < s->end && *s->p == ',') {
      s->p++;
      continue;
    }
    if (s->p < s->end && *s->p == close) {
      s->p++;
      break;
    }
    s->ok = 0;
    return;
  }
  if (!emit)
    return;
  if (elided) {
    fputc(',', s->fp);
    indent(s, depth + 1);
    fprintf(s->fp, "\"... [%zu more items]\"", elided);
  }
  indent(s, depth);
  fputc(close, s->fp);
}

static void value(pp *s, int depth, int emit) {
  skip_ws(s);
  if (s->p >= s->end) {
    s->ok = 0;
    return;
  }
  switch (*s->p) {
  case '{':
    container(s, depth, emit, '}');
    return;
  case '[':
    container(s, depth, emit, ']');
    return;
  case '"':
    string_tok(s, emit);
    return;
  default: {
    const char *b = s->p;
    while (s->p < s->end && !strchr(",]} \n\r\t", *s->p))
      s->p++;
    if (emit)
      fwrite(b, 1, (size_t)(s->p - b), s->fp);
  }
  }
}

void tc_json_pretty(FILE *fp, tc_str json, size_t max_items) {
  /* Dry run first, so invalid input is never half re-indented. */
  pp dry = {json.ptr, json.ptr + json.len, fp, max_items, 1};
  value(&dry, 0, 0);
  if (!dry.ok) {
    fwrite(json.ptr, 1, json.len, fp);
    return;
  }
  pp s = {json.ptr, json.ptr + json.len, fp, max_items, 1};
  value(&s, 0, 1);
}
