#include "chunk_run.h"

#include <stdlib.h>
#include <string.h>

#include "io/tc_sniff.h"
#include "test_check.h"
#include "util/tc_json_valid.h"

static void keep_chunk(chunk_run *r, tc_chunk *c) {
  tc_chunk **cs = realloc(r->chunks, (r->nchunks + 1) * sizeof *cs);
  check(cs);
  cs[r->nchunks++] = c;
  r->chunks = cs;
}

/* Feeds one piece until the chunker has taken all of it. HELD: the
 * stream's first byte makes the chunker hold its head (io/tc_sniff.h). */
static void feed_piece(chunk_run *r, tc_chunker *ch, const char *in, size_t len, int held) {
  char *piece = malloc(len);
  check(piece);
  memcpy(piece, in, len);
  size_t pos = 0;
  while (pos < len) {
    size_t before = pos;
    tc_chunk *ready = NULL;
    tc_err e = tc_chunker_feed(ch, piece, len, &pos, &ready);
    check(pos <= len);
    if (ready)
      keep_chunk(r, ready);
    if (e) {
      check(!ready);
      r->feed_rc = e;
      break;
    }
    /* It only stops early to hand over a chunk, which takes a whole event
     * (of this piece, or of the held head it reads first). */
    check(pos == len || (ready && (pos > before || held)));
  }
  free(piece);
}

void chunk_run_feed(chunk_run *r, const char *in, size_t n, size_t target, size_t max_event,
                    const size_t *pieces, size_t npieces) {
  memset(r, 0, sizeof *r);
  tc_chunker *ch = tc_chunker_create(target, max_event);
  check(ch);
  size_t done = 0;
  for (size_t k = 0; done < n && r->feed_rc == TC_OK; k++) {
    size_t len = n - done;
    size_t want = npieces ? pieces[k % npieces] : 0;
    if (want && want < len)
      len = want;
    feed_piece(r, ch, in + done, len, tc_sniff_needs_head((unsigned char)in[0]));
    done += len;
  }
  tc_chunk *last = NULL;
  r->finish_rc = tc_chunker_finish(ch, &last);
  if (last)
    keep_chunk(r, last);
  size_t kept;
  const tc_chunk_error *errs = tc_chunker_errors(ch, &r->nerrors, &kept);
  check(kept <= TC_CHUNKER_MAX_ERRORS);
  check(kept == r->nerrors || (kept == TC_CHUNKER_MAX_ERRORS && r->nerrors > kept));
  r->nkept = kept;
  r->errors = malloc((kept ? kept : 1) * sizeof *r->errors);
  check(r->errors);
  if (kept)
    memcpy(r->errors, errs, kept * sizeof *errs);
  r->elements = tc_chunker_elements(ch);
  tc_chunker_shape(ch, &r->shape);
  /* As the engine keeps it: taken, NUL-terminated, and a JSON trace's
   * handed over rather than copied. */
  r->metadata = tc_chunker_take_metadata(ch);
  check(r->shape.metadata.len == 0 ? !r->metadata : r->metadata != NULL);
  check(!r->metadata || r->metadata[r->shape.metadata.len] == '\0');
  r->shape.metadata.ptr = r->metadata;
  tc_trace_shape after;
  tc_chunker_shape(ch, &after);
  check(after.metadata.len == (r->shape.perfetto ? r->shape.metadata.len : 0));
  tc_chunker_free(ch);
}

void chunk_run_free(chunk_run *r) {
  for (size_t i = 0; i < r->nchunks; i++)
    tc_chunk_free(r->chunks[i]);
  free(r->chunks);
  free(r->errors);
  free(r->metadata);
  memset(r, 0, sizeof *r);
}

size_t chunk_run_nevents(const chunk_run *r) {
  size_t n = 0;
  for (size_t i = 0; i < r->nchunks; i++)
    n += r->chunks[i]->nevents;
  return n;
}

void chunk_run_assert_same(const chunk_run *a, const chunk_run *b) {
  check_eq(a->feed_rc, b->feed_rc);
  check_eq(a->finish_rc, b->finish_rc);
  check_eq(a->nchunks, b->nchunks);
  for (size_t i = 0; i < a->nchunks; i++) {
    const tc_chunk *x = a->chunks[i], *y = b->chunks[i];
    check_eq(x->seq, y->seq);
    check_eq(x->len, y->len);
    check_mem(x->buf, y->buf, x->len);
    check_eq(x->nevents, y->nevents);
    for (uint32_t k = 0; k < x->nevents; k++) {
      check_eq(x->events[k].start, y->events[k].start);
      check_eq(x->events[k].end, y->events[k].end);
      check_eq(x->events[k].offset, y->events[k].offset);
      check_eq(x->events[k].index, y->events[k].index);
    }
  }
  check_eq(a->nerrors, b->nerrors);
  check_eq(a->nkept, b->nkept);
  for (size_t i = 0; i < a->nkept; i++) {
    check_eq(a->errors[i].index, b->errors[i].index);
    check_eq(a->errors[i].offset, b->errors[i].offset);
    check_eq(a->errors[i].code, b->errors[i].code);
  }
  check_eq(a->elements, b->elements);
  check_eq(a->shape.object_form, b->shape.object_form);
  check_eq(a->shape.unterminated, b->shape.unterminated);
  check_eq(a->shape.trailing_bytes, b->shape.trailing_bytes);
  check_eq(a->shape.trailing_offset, b->shape.trailing_offset);
  check_eq(a->shape.trailing_size, b->shape.trailing_size);
  check_eq(a->shape.trailing_values, b->shape.trailing_values);
  check_eq(a->shape.events_arrays, b->shape.events_arrays);
  check_eq(a->shape.cut_event, b->shape.cut_event);
  check_eq(a->shape.metadata_cut, b->shape.metadata_cut);
  check_eq(a->shape.perfetto, b->shape.perfetto);
  check_eq(a->shape.metadata.len, b->shape.metadata.len);
  if (a->shape.metadata.len)
    check_mem(a->shape.metadata.ptr, b->shape.metadata.ptr, a->shape.metadata.len);
}

/* A Perfetto trace's events are made, not copied: each must be one JSON
 * object, made from a packet at a non-decreasing offset; each error one the
 * reader names; chunks are cut between packets once full. */
static void assert_perfetto_well_formed(const chunk_run *r, size_t n, size_t target) {
  for (size_t i = 0; i < r->nkept; i++) {
    const tc_chunk_error *e = &r->errors[i];
    check((e->code >= TC_E_PB_TRUNCATED && e->code <= TC_E_PB_DEPTH) ||
          e->code == TC_E_EVENT_TOO_BIG);
    check(e->offset < n && e->index < r->elements);
    check(i == 0 || e->index > r->errors[i - 1].index);
  }
  uint64_t prev_index = 0, prev_offset = 0;
  int have_prev = 0;
  for (size_t i = 0; i < r->nchunks; i++) {
    const tc_chunk *c = r->chunks[i];
    check_eq(c->seq, i);
    check(c->nevents >= 1);
    check_eq(c->buf[0], '[');
    check_eq(c->buf[c->len - 1], ']');
    for (uint32_t k = 0; k < c->nevents; k++) {
      const tc_chunk_event *e = &c->events[k];
      check_eq(c->buf[e->start], '{');
      check_eq(c->buf[e->end], k + 1 < c->nevents ? ',' : ']');
      check(tc_json_valid((tc_str){c->buf + e->start, e->end - e->start}));
      check(e->offset < n);
      check(!have_prev || (e->index > prev_index && e->offset >= prev_offset));
      have_prev = 1;
      prev_index = e->index;
      prev_offset = e->offset;
    }
    if (i + 1 < r->nchunks)
      check(c->len - 1 >= target || c->nevents >= TC_CHUNK_MAX_EVENTS);
  }
}

void chunk_run_assert_well_formed(const chunk_run *r, const char *in, size_t n, size_t target) {
  /* Every element is an event or an error; errors come in element order. */
  check_eq(r->elements, chunk_run_nevents(r) + r->nerrors);
  if (r->shape.perfetto) {
    assert_perfetto_well_formed(r, n, target);
    return;
  }
  for (size_t i = 0; i < r->nkept; i++) {
    const tc_chunk_error *e = &r->errors[i];
    check(e->code == TC_E_NOT_OBJECT || e->code == TC_E_EVENT_TOO_BIG ||
          e->code == TC_E_TRUNCATED_JSON || e->code == TC_E_BAD_BRACKETS);
    check(e->offset < n && e->index < r->elements);
    check(i == 0 || e->index > r->errors[i - 1].index);
  }
  int have_prev = 0;
  uint64_t prev_index = 0, prev_offset = 0;
  for (size_t i = 0; i < r->nchunks; i++) {
    const tc_chunk *c = r->chunks[i];
    check_eq(c->seq, i);
    check(c->nevents >= 1);
    check(c->len >= 2 && c->len + TC_JSON_PADDING <= c->cap);
    check_eq(c->buf[0], '[');
    check_eq(c->buf[c->len - 1], ']');
    /* The padding must be readable: let AddressSanitizer see it read. */
    volatile unsigned char sink = 0;
    for (size_t k = 0; k < TC_JSON_PADDING; k++)
      sink ^= (unsigned char)c->buf[c->len + k];
    (void)sink;
    uint32_t expect_start = 1;
    for (uint32_t k = 0; k < c->nevents; k++) {
      const tc_chunk_event *e = &c->events[k];
      check_eq(e->start, expect_start);
      check(e->end > e->start && e->end < c->len);
      check_eq(c->buf[e->start], '{');
      /* The outermost level's kind is always checked: "{]" is no event. */
      check_eq(c->buf[e->end - 1], '}');
      check_eq(c->buf[e->end], k + 1 < c->nevents ? ',' : ']');
      expect_start = e->end + 1;
      size_t elen = e->end - e->start;
      check(e->offset + elen <= n);
      check_mem(c->buf + e->start, in + e->offset, elen);
      if (have_prev) {
        check(e->index > prev_index);
        check(e->offset >= prev_offset + 2); /* "{}" at least */
      }
      have_prev = 1;
      prev_index = e->index;
      prev_offset = e->offset;
    }
    check_eq(expect_start, c->len);
    /* Cut as soon as an event brings the chunk to TARGET or to
     * TC_CHUNK_MAX_EVENTS, and not before. */
    check(c->nevents <= TC_CHUNK_MAX_EVENTS);
    if (i + 1 < r->nchunks)
      check(c->len - 1 >= target || c->nevents == TC_CHUNK_MAX_EVENTS);
    /* A stream the chunker held for tc_sniff and that ended before the
     * head filled is read at finish, which hands out one chunk. */
    int held_to_finish = n < TC_SNIFF_HEAD && n && tc_sniff_needs_head((unsigned char)in[0]);
    if (c->nevents > 1 && !(held_to_finish && i + 1 == r->nchunks))
      check(c->events[c->nevents - 2].end < target);
  }
}
