#include "report/tc_pretty.h"

#include <stdlib.h>
#include <string.h>

/* The manual prints an array of scalars on one line and cuts it after this
 * many elements; arrays holding objects or arrays get one element per line
 * and the caller's MAX_ITEMS. */
#define TC_PRETTY_INLINE_ITEMS 8
/* The deepest value re-indented; deeper input is written as it is (the
 * recursion below is bounded by it, whatever the input). Examples are at
 * most TC_EXAMPLE_MAX_DEPTH deep. */
#define TC_PRETTY_MAX_DEPTH 128

typedef struct {
  const char *p, *end;
  tc_wbuf *out;
  size_t max_items;
  int ok;
} pp;

/* What ends a number, true, false or null: ",]} \n\r\t" and NUL. */
static const unsigned char ends_scalar[256] = {
    ['\0'] = 1, [','] = 1, [']'] = 1, ['}'] = 1, [' '] = 1, ['\n'] = 1, ['\r'] = 1, ['\t'] = 1};

static void skip_ws(pp *s) {
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\n' || *s->p == '\r' || *s->p == '\t'))
    s->p++;
}

static void indent(pp *s, int depth) {
  tc_wbuf_putc(s->out, '\n');
  for (int i = 0; i < depth; i++)
    tc_wbuf_put(s->out, "  ", 2);
}

/* Copies (or with EMIT = 0 skips) one string token, quotes included. */
static void string_tok(pp *s, int emit) {
  const char *b = s->p++;
  for (;;) { /* a quote ends the string unless an odd run of backslashes
                precedes it */
    const char *q = memchr(s->p, '"', (size_t)(s->end - s->p));
    if (!q) {
      s->ok = 0;
      return;
    }
    const char *r = q;
    while (r > b + 1 && r[-1] == '\\')
      r--;
    s->p = q + 1;
    if ((q - r) % 2 == 0)
      break;
  }
  if (emit)
    tc_wbuf_put(s->out, b, (size_t)(s->p - b));
}

static void value(pp *s, int depth, int emit);

/* The string that stands for the elided elements. */
static void more_items(tc_wbuf *out, size_t n) {
  tc_wbuf_put(out, "\"... [", 6);
  tc_wbuf_u64(out, n);
  tc_wbuf_put(out, " more items]\"", 13);
}

/* Whether the array at S->p holds scalars only (the input is known valid). */
static int scalars_only(const pp *s) {
  pp t = *s;
  t.p++;
  for (;;) {
    skip_ws(&t);
    if (t.p >= t.end || *t.p == '{' || *t.p == '[')
      return 0;
    if (*t.p == ']')
      return 1;
    value(&t, 0, 0);
    skip_ws(&t);
    if (t.p < t.end && *t.p == ',')
      t.p++;
  }
}

/* ["a", "b", ..., "... [N more items]"] on one line. */
static void inline_array(pp *s, int depth) {
  tc_wbuf_putc(s->out, '[');
  s->p++;
  size_t items = 0;
  for (;;) {
    skip_ws(s);
    if (*s->p == ']')
      break;
    int show = items < TC_PRETTY_INLINE_ITEMS;
    if (show && items)
      tc_wbuf_put(s->out, ", ", 2);
    value(s, depth + 1, show);
    items++;
    skip_ws(s);
    if (*s->p == ',')
      s->p++;
  }
  s->p++;
  if (items > TC_PRETTY_INLINE_ITEMS) {
    tc_wbuf_put(s->out, ", ", 2);
    more_items(s->out, items - TC_PRETTY_INLINE_ITEMS);
  }
  tc_wbuf_putc(s->out, ']');
}

static void container(pp *s, int depth, int emit, char close) {
  if (depth >= TC_PRETTY_MAX_DEPTH) {
    s->ok = 0;
    return;
  }
  int is_obj = close == '}';
  if (emit && !is_obj && scalars_only(s)) {
    inline_array(s, depth);
    return;
  }
  if (emit)
    tc_wbuf_putc(s->out, *s->p);
  s->p++;
  skip_ws(s);
  if (s->p < s->end && *s->p == close) {
    s->p++;
    if (emit)
      tc_wbuf_putc(s->out, close); /* "args": {} on one line */
    return;
  }
  size_t items = 0, elided = 0;
  int closed = 0;
  while (s->ok && s->p < s->end) {
    int show = emit && (is_obj || items < s->max_items);
    if (!show && emit)
      elided++;
    if (show) {
      if (items)
        tc_wbuf_putc(s->out, ',');
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
        tc_wbuf_put(s->out, ": ", 2);
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
      closed = 1;
      break;
    }
    s->ok = 0;
    return;
  }
  if (!closed)
    s->ok = 0; /* "[" or "{" with nothing after it */
  if (!emit)
    return;
  if (elided) {
    tc_wbuf_putc(s->out, ',');
    indent(s, depth + 1);
    more_items(s->out, elided);
  }
  indent(s, depth);
  tc_wbuf_putc(s->out, close);
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
    while (s->p < s->end && !ends_scalar[(unsigned char)*s->p])
      s->p++;
    if (s->p == b)
      s->ok = 0; /* a missing value: "[1,]", "{\"a\":}" */
    if (emit)
      tc_wbuf_put(s->out, b, (size_t)(s->p - b));
  }
  }
}

void tc_json_pretty(tc_wbuf *out, tc_str json, size_t max_items) {
  /* Dry run first, so invalid input is never half re-indented. */
  pp dry = {json.ptr, json.ptr + json.len, out, max_items, 1};
  value(&dry, 0, 0);
  skip_ws(&dry);
  if (!dry.ok || dry.p != dry.end) {
    tc_wbuf_str(out, json);
    return;
  }
  pp s = {json.ptr, json.ptr + json.len, out, max_items, 1};
  value(&s, 0, 1);
}

/* The manual's order of an event's keys; others follow in their own order,
 * and args comes last. */
static const char *const event_keys[] = {"name",  "cat",     "ph",      "ts",      "dur", "tdur",
                                         "tts",   "pid",     "tid",     "s",       "id",  "id2",
                                         "scope", "bind_id", "flow_in", "flow_out"};
#define N_EVENT_KEYS (sizeof event_keys / sizeof *event_keys)

typedef struct {
  const char *key, *key_end, *value; /* the key token, quotes included; the value's start */
  int rank;
} member;

static int rank_of(const char *key, const char *end) {
  size_t len = (size_t)(end - key) - 2;
  for (size_t i = 0; i < N_EVENT_KEYS; i++)
    if (strlen(event_keys[i]) == len && memcmp(key + 1, event_keys[i], len) == 0)
      return (int)i;
  return len == 4 && memcmp(key + 1, "args", 4) == 0 ? (int)N_EVENT_KEYS + 1 : (int)N_EVENT_KEYS;
}

void tc_event_pretty(tc_wbuf *out, tc_str json, size_t max_items) {
  pp s = {json.ptr, json.ptr + json.len, out, max_items, 1};
  skip_ws(&s);
  size_t n = 0, cap = 0;
  member *m = NULL;
  if (s.p < s.end && *s.p == '{') {
    s.p++;
    for (skip_ws(&s); s.ok && s.p < s.end && *s.p == '"';) {
      member one = {s.p, NULL, NULL, 0};
      string_tok(&s, 0);
      one.key_end = s.p;
      skip_ws(&s);
      if (!s.ok || s.p >= s.end || *s.p != ':')
        break;
      s.p++;
      skip_ws(&s);
      one.value = s.p;
      value(&s, 1, 0);
      one.rank = rank_of(one.key, one.key_end);
      if (n == cap) {
        member *g = realloc(m, (cap = cap ? 2 * cap : 16) * sizeof *m);
        if (!g)
          break;
        m = g;
      }
      m[n++] = one;
      skip_ws(&s);
      if (s.p < s.end && *s.p == ',')
        s.p++;
      skip_ws(&s);
    }
  }
  /* Anything but a whole object of members is laid out as it stands. */
  int whole = s.ok && s.p < s.end && *s.p == '}';
  if (whole) {
    s.p++;
    skip_ws(&s);
  }
  if (!whole || s.p != s.end || n == 0) {
    free(m);
    tc_json_pretty(out, json, max_items);
    return;
  }
  tc_wbuf_putc(out, '{');
  size_t done = 0;
  for (int r = 0; r <= (int)N_EVENT_KEYS + 1; r++)
    for (size_t i = 0; i < n; i++) {
      if (m[i].rank != r)
        continue;
      tc_wbuf_puts(out, done++ ? ",\n  " : "\n  ");
      tc_wbuf_put(out, m[i].key, (size_t)(m[i].key_end - m[i].key));
      tc_wbuf_put(out, ": ", 2);
      pp v = {m[i].value, json.ptr + json.len, out, max_items, 1};
      value(&v, 1, 1);
    }
  tc_wbuf_put(out, "\n}", 2);
  free(m);
}
