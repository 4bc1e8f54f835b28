#include "ref_split.h"

#include <stdlib.h>
#include <string.h>

#include "test_check.h"

/* Metadata up to this size must be kept whole (the chunker keeps 1 MiB). */
#define REF_META_KEPT (64u * 1024)
/* Levels whose bracket kinds are checked, as in the chunker. */
#define REF_KIND_LEVELS 64

static int is_ws(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

static size_t skip_ws(const char *p, size_t i, size_t n) {
  while (i < n && is_ws(p[i]))
    i++;
  return i;
}

/* Skips the value at P[i]; *complete = 0 when the input ends inside it,
 * *mismatched = 1 when a closer of the wrong kind for its level ends it. */
static size_t skip_value(const char *p, size_t i, size_t n, int *complete, int *mismatched) {
  *complete = 1;
  *mismatched = 0;
  if (p[i] == '"' || p[i] == '{' || p[i] == '[') {
    char opener[REF_KIND_LEVELS]; /* opener[d]: the bracket that opened level d + 1 */
    int depth = 0, in_str = 0;
    for (; i < n; i++) {
      char c = p[i];
      if (in_str) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          in_str = 0;
          if (depth == 0)
            return i + 1;
        }
      } else if (c == '"') {
        in_str = 1;
      } else if (c == '{' || c == '[') {
        if (depth < REF_KIND_LEVELS)
          opener[depth] = c;
        depth++;
      } else if (c == '}' || c == ']') {
        depth--;
        if (depth < REF_KIND_LEVELS && opener[depth] != (c == '}' ? '{' : '[')) {
          *mismatched = 1;
          return i + 1;
        }
        if (depth == 0)
          return i + 1;
      }
    }
    *complete = 0;
    return n;
  }
  while (i < n && !is_ws(p[i]) && p[i] != ',' && p[i] != ']' && p[i] != '}')
    i++;
  return i;
}

/* The closers (and spaces) after a value that a mismatched closer ended
 * belong to it. */
static size_t skip_bad_tail(const char *p, size_t i, size_t n) {
  while (i < n && (is_ws(p[i]) || p[i] == ']' || p[i] == '}'))
    i++;
  return i;
}

void ref_trace_add(ref_trace *t, uint64_t offset, size_t len, int is_object, int complete,
                   int mismatched) {
  if (t->n == t->cap) {
    t->cap = t->cap ? t->cap * 2 : 64;
    t->elems = realloc(t->elems, t->cap * sizeof *t->elems);
    check(t->elems);
  }
  ref_elem *e = &t->elems[t->n++];
  e->offset = offset;
  e->len = len;
  e->is_object = is_object;
  e->complete = complete;
  e->mismatched = mismatched;
}

void ref_trace_free(ref_trace *t) {
  free(t->elems);
  memset(t, 0, sizeof *t);
}

/* The elements of an array whose '[' was just before P[i]. */
static size_t split_array(const char *p, size_t i, size_t n, ref_trace *t, int *closed) {
  for (;;) {
    while (i < n && (is_ws(p[i]) || p[i] == ','))
      i++;
    if (i >= n) {
      *closed = 0;
      return n;
    }
    if (p[i] == ']') {
      *closed = 1;
      return i + 1;
    }
    size_t start = i;
    int complete, bad;
    i = skip_value(p, i, n, &complete, &bad);
    if (i == start)
      i++; /* a stray '}' is a one-byte element */
    ref_trace_add(t, start, i - start, p[start] == '{', complete, bad);
    if (bad)
      i = skip_bad_tail(p, i, n);
  }
}

/* Returns the index past the object's '}', or N. */
static size_t split_object(const char *p, size_t i, size_t n, ref_trace *t) {
  for (;;) {
    while (i < n && (is_ws(p[i]) || p[i] == ','))
      i++;
    if (i >= n || p[i] == '}') {
      t->unterminated = i >= n;
      return i >= n ? n : i + 1;
    }
    int complete, bad;
    size_t key = i;
    i = skip_value(p, i, n, &complete, &bad);
    if (bad) {
      i = skip_bad_tail(p, i, n);
      continue;
    }
    size_t keylen = i - key;
    i = skip_ws(p, i, n);
    if (i < n && p[i] == ':')
      i = skip_ws(p, i + 1, n);
    if (i >= n) {
      t->unterminated = 1;
      return n;
    }
    if (keylen == 13 && memcmp(p + key, "\"traceEvents\"", 13) == 0 && p[i] == '[') {
      int closed;
      t->found_events = 1;
      t->events_arrays++;
      i = split_array(p, i + 1, n, t, &closed);
      if (!closed) {
        t->unterminated = 1;
        return n;
      }
      continue;
    }
    size_t start = i;
    i = skip_value(p, i, n, &complete, &bad);
    if (keylen == 10 && memcmp(p + key, "\"metadata\"", 10) == 0 && !t->has_meta) {
      t->has_meta = 1;
      t->meta_offset = start;
      t->meta_len = i - start;
    }
    if (!complete) {
      t->unterminated = 1;
      return n;
    }
    if (bad)
      i = skip_bad_tail(p, i, n);
  }
}

/* Values after the trace: commas, brackets and braces between them are
 * not values. */
static void split_tail(const char *p, size_t i, size_t n, ref_trace *t) {
  i = skip_ws(p, i, n);
  if (i >= n)
    return;
  t->trailing = 1;
  t->trail_offset = i;
  t->trail_size = n - i;
  while (i < n) {
    if (is_ws(p[i]) || p[i] == ',' || p[i] == '[' || p[i] == ']' || p[i] == '}') {
      i++;
      continue;
    }
    int complete, bad;
    i = skip_value(p, i, n, &complete, &bad);
    t->trail_values++;
    if (bad)
      i = skip_bad_tail(p, i, n);
  }
}

int ref_split(const char *p, size_t n, ref_trace *t) {
  memset(t, 0, sizeof *t);
  size_t i = n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  i = skip_ws(p, i, n);
  if (i >= n || (p[i] != '[' && p[i] != '{'))
    return 0;
  if (p[i] == '{') {
    t->object_form = 1;
    i = split_object(p, i + 1, n, t);
  } else {
    int closed;
    t->found_events = 1;
    t->events_arrays = 1;
    i = split_array(p, i + 1, n, t, &closed);
    t->unterminated = !closed;
  }
  split_tail(p, i, n, t);
  return 1;
}

void ref_assert_tail(const chunk_run *r, const ref_trace *t) {
  check_eq(r->shape.events_arrays, t->events_arrays);
  check_eq(r->shape.trailing_bytes, t->trailing);
  check_eq(r->shape.trailing_offset, t->trail_offset);
  check_eq(r->shape.trailing_size, t->trail_size);
  check_eq(r->shape.trailing_values, t->trail_values);
}

static tc_err expected_error(const char *in, const ref_elem *e, size_t max_event) {
  if (!e->complete)
    return TC_E_TRUNCATED_JSON;
  if (in[e->offset] != '{')
    return TC_E_NOT_OBJECT;
  if (e->mismatched)
    return TC_E_BAD_BRACKETS;
  if (max_event && e->len > max_event)
    return TC_E_EVENT_TOO_BIG;
  return TC_OK;
}

void ref_assert_run(const chunk_run *r, const char *in, size_t n, const ref_trace *t,
                    size_t max_event) {
  size_t ci = 0, ei = 0, nerr = 0, nev = 0;
  for (size_t k = 0; k < t->n; k++) {
    const ref_elem *e = &t->elems[k];
    check(e->offset + e->len <= n);
    tc_err code = expected_error(in, e, max_event);
    if (code != TC_OK) {
      if (nerr < r->nkept) {
        check_eq(r->errors[nerr].index, k);
        check_eq(r->errors[nerr].offset, e->offset);
        check_eq(r->errors[nerr].code, code);
      }
      nerr++;
      continue;
    }
    while (ci < r->nchunks && ei >= r->chunks[ci]->nevents) {
      ci++;
      ei = 0;
    }
    check(ci < r->nchunks);
    const tc_chunk *c = r->chunks[ci];
    const tc_chunk_event *ce = &c->events[ei++];
    check_eq(ce->index, k);
    check_eq(ce->offset, e->offset);
    check_eq(ce->end - ce->start, e->len);
    check_mem(c->buf + ce->start, in + e->offset, e->len);
    nev++;
  }
  check_eq(chunk_run_nevents(r), nev);
  check_eq(r->nerrors, nerr);
  check_eq(r->elements, t->n);
  check_eq(r->feed_rc, TC_OK);
  check_eq(r->finish_rc, t->found_events ? TC_OK : TC_E_NO_EVENTS);
  check_eq(r->shape.object_form, t->object_form);
  check_eq(r->shape.unterminated, t->unterminated);
  if (!t->has_meta) {
    check_eq(r->shape.metadata.len, 0);
  } else if (t->meta_len <= REF_META_KEPT || !r->shape.metadata_cut) {
    check_eq(r->shape.metadata_cut, 0);
    check_eq(r->shape.metadata.len, t->meta_len);
    check_mem(r->shape.metadata.ptr, in + t->meta_offset, t->meta_len);
  }
}
