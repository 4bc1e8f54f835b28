#include "reduce/tc_trace_rows.h"

#include <stdlib.h>
#include <string.h>

#include "census/tc_census.h"
#include "procs/tc_procmap.h"
#include "util/tc_grow.h"

void tc_trace_status_codec(tc_codec *c, tc_trace_status *st,
                           void (*meta)(tc_codec *c, tc_trace_status *st)) {
  TC_CODEC_ENUM(c, st->fatal, TC_E_COUNT_);
  TC_CODEC_ENUM(c, st->stream_err, TC_E_COUNT_);
  tc_codec_u64(c, &st->stream_offset);
  TC_CODEC_ENUM(c, st->format, TC_FMT_ZSTD + 1);
  tc_codec_u64(c, &st->in_bytes);
  tc_codec_u64(c, &st->out_bytes);
  tc_codec_u64(c, &st->elements);
  tc_codec_u64(c, &st->events);
  tc_codec_u64(c, &st->bad_events);
  tc_codec_u64(c, &st->lenient_events);
  st->nerrors = tc_codec_small(c, (unsigned)st->nerrors, TC_TRACE_MAX_ERRORS);
  for (size_t i = 0; i < st->nerrors; i++) {
    tc_codec_u64(c, &st->errors[i].index);
    tc_codec_u64(c, &st->errors[i].offset);
    TC_CODEC_ENUM(c, st->errors[i].code, TC_E_COUNT_);
  }
  tc_trace_shape *sh = &st->shape;
  sh->object_form = (int)tc_codec_small(c, (unsigned)sh->object_form, 1);
  sh->unterminated = (int)tc_codec_small(c, (unsigned)sh->unterminated, 1);
  sh->trailing_bytes = (int)tc_codec_small(c, (unsigned)sh->trailing_bytes, 1);
  sh->cut_event = (int)tc_codec_small(c, (unsigned)sh->cut_event, 1);
  sh->metadata_cut = (int)tc_codec_small(c, (unsigned)sh->metadata_cut, 1);
  sh->perfetto = (int)tc_codec_small(c, (unsigned)sh->perfetto, 1);
  tc_codec_u32(c, &sh->events_arrays);
  tc_codec_u64(c, &sh->trailing_offset);
  tc_codec_u64(c, &sh->trailing_size);
  tc_codec_u64(c, &sh->trailing_values);
  tc_codec_u64(c, &sh->not_trace_offset);
  if (meta)
    meta(c, st);
  tc_codec_u64(c, &st->chunks);
}

void tc_left_list_free(tc_left_list *l) {
  if (!l)
    return;
  for (uint32_t i = 0; i < l->n; i++) {
    free(l->v[i].name);
    for (int k = 0; k < TC_LEFT_URLS; k++)
      free(l->v[i].urls[k]);
  }
  free(l->v);
  l->v = NULL;
  l->n = 0;
}

/* Names and URLs come from traces: bounded like the rest of a record. */
#define LEFT_STR_MAX ((size_t)1 << 16)

void tc_left_list_codec(tc_codec *c, tc_left_list *l) {
  l->n = tc_codec_array(c, (void **)&l->v, l->n, sizeof *l->v, 4);
  for (uint32_t i = 0; i < l->n; i++) {
    tc_left_proc *p = &l->v[i];
    tc_codec_i64(c, &p->pid);
    p->why = (uint8_t)tc_codec_small(c, p->why, TC_LEFT_COUNT - 1);
    p->kind = (uint8_t)tc_codec_small(c, p->kind, TC_PROC_KIND_COUNT_ - 1);
    tc_codec_u64(c, &p->records);
    tc_codec_str(c, &p->name, LEFT_STR_MAX);
    for (int k = 0; k < TC_LEFT_URLS; k++)
      tc_codec_str(c, &p->urls[k], LEFT_STR_MAX);
  }
}

void tc_trace_rows_init(tc_trace_rows *t) { memset(t, 0, sizeof *t); }

void tc_trace_rows_free(tc_trace_rows *t) {
  tc_spill_free(&t->rows);
  tc_map_free(&t->metas);
  free(t->block_first);
  free(t->block_traces);
  free(t->trace);
  memset(t, 0, sizeof *t);
}

tc_err tc_trace_rows_add(tc_trace_rows *t, uint32_t trace, tc_trace_status *st,
                         const tc_left_list *left) {
  uint32_t block = TC_NO_BLOCK;
  size_t row = tc_trace_rows_count(t);
  tc_err e = TC_GROW(t->trace, t->trace_cap, row + 1);
  if (!e)
    t->trace[row] = trace;
  if (!e && st->meta && st->shape.metadata.len) {
    int inserted;
    e = tc_map_intern(&t->metas, st->shape.metadata, &block, &inserted);
    if (!e)
      e = TC_GROW(t->block_first, t->first_cap, (size_t)block + 1);
    if (!e)
      e = TC_GROW(t->block_traces, t->traces_cap, (size_t)block + 1);
    if (!e) {
      if (inserted)
        t->block_first[block] = (uint32_t)row;
      t->block_traces[block]++;
    }
  }
  free(st->meta);
  st->meta = NULL;
  st->shape.metadata = (tc_str){NULL, 0};
  if (e)
    return e;
  tc_bin_buf b;
  tc_bin_buf_init(&b);
  tc_codec c = {&b, NULL};
  tc_trace_status_codec(&c, st, NULL);
  tc_bin_put_uvar(&b, block == TC_NO_BLOCK ? 0 : (uint64_t)block + 1);
  tc_left_list none = {NULL, 0};
  tc_left_list_codec(&c, left ? (tc_left_list *)left : &none);
  e = b.err ? b.err : tc_spill_append(&t->rows, b.ptr, b.len);
  tc_bin_buf_free(&b);
  return e;
}

tc_err tc_trace_rows_seal(tc_trace_rows *t) { return tc_spill_flush(&t->rows); }

tc_err tc_trace_rows_get(const tc_trace_rows *t, size_t i, tc_trace_status *out, uint32_t *block,
                         tc_left_list *left, unsigned char **buf, size_t *cap) {
  memset(out, 0, sizeof *out);
  tc_left_list got = {NULL, 0};
  if (block)
    *block = TC_NO_BLOCK;
  size_t len;
  tc_err e = tc_spill_read(&t->rows, i, buf, cap, &len);
  if (e)
    return e;
  tc_bin_reader r;
  tc_bin_reader_init(&r, *buf, len, 0);
  tc_codec c = {NULL, &r};
  tc_trace_status_codec(&c, out, NULL);
  uint64_t b = tc_bin_get_uvar(&r);
  if (b > tc_trace_rows_blocks(t))
    tc_bin_fail_at(&r, r.pos, "metadata block out of range");
  tc_left_list_codec(&c, &got);
  if ((e = tc_bin_finish(&r))) {
    memset(out, 0, sizeof *out);
    tc_left_list_free(&got);
    return e;
  }
  if (left)
    *left = got;
  else
    tc_left_list_free(&got);
  if (b) {
    tc_str m = tc_trace_rows_block(t, (uint32_t)(b - 1));
    out->meta = (char *)m.ptr;
    out->shape.metadata = m;
    if (block)
      *block = (uint32_t)(b - 1);
  }
  return TC_OK;
}
