#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/tc_census_report.h"
#include "report/tc_jsonw.h"
#include "report/tc_outfile.h"
#include "util/tc_json_valid.h"
#include "util/tc_sysinfo.h"

/* File I, whose status is ST and whose metadata names VERSION; SAME_AS the
 * first file with the same metadata block, or UINT32_MAX when it is the
 * first (the block is written once, with it). */
static void write_trace(tc_jsonw *w, const tc_report_ctx *c, uint32_t i,
                        const tc_trace_status *st, tc_str version, uint32_t same_as) {
  const tc_trace *t = &c->corpus->traces[i];
  tc_jsonw_obj(w);
  tc_jsonw_key(w, "path");
  tc_jsonw_str(w, t->path);
  tc_jsonw_key(w, "site");
  tc_jsonw_str(w, c->corpus->sites[t->site].name);
  tc_jsonw_key(w, "status");
  tc_jsonw_str(w, st->fatal                                                     ? "failed"
                 : (st->stream_err || st->bad_events || st->shape.trailing_bytes) ? "partial"
                                                                                  : "ok");
  if (st->fatal) {
    tc_jsonw_key(w, "error");
    tc_jsonw_str(w, tc_strerror(st->fatal));
    tc_jsonw_key(w, "error_name");
    tc_jsonw_str(w, tc_err_name(st->fatal));
    if (st->fatal == TC_E_NOT_TRACE) {
      tc_jsonw_key(w, "error_json_offset");
      tc_jsonw_uint(w, st->shape.not_trace_offset);
    }
  }
  tc_jsonw_key(w, "format");
  tc_jsonw_str(w, tc_format_name(st->format));
  tc_jsonw_key(w, "trace_format");
  tc_jsonw_str(w, st->shape.perfetto ? "perfetto_protobuf" : "json");
  tc_jsonw_key(w, "file_bytes");
  tc_jsonw_uint(w, t->size);
  tc_jsonw_key(w, "compressed_bytes_read");
  tc_jsonw_uint(w, st->in_bytes);
  tc_jsonw_key(w, "json_bytes");
  tc_jsonw_uint(w, st->out_bytes);
  tc_jsonw_key(w, "elements");
  tc_jsonw_uint(w, st->elements);
  tc_jsonw_key(w, "events");
  tc_jsonw_uint(w, st->events);
  tc_jsonw_key(w, "skipped_events");
  tc_jsonw_uint(w, st->bad_events);
  tc_jsonw_key(w, "lenient_events");
  tc_jsonw_uint(w, st->lenient_events);
  tc_jsonw_key(w, "chunks");
  tc_jsonw_uint(w, st->chunks);
  if (st->stream_err) {
    tc_jsonw_key(w, "stream_error");
    tc_jsonw_str(w, tc_strerror(st->stream_err));
    tc_jsonw_key(w, "stream_error_name");
    tc_jsonw_str(w, tc_err_name(st->stream_err));
    tc_jsonw_key(w, "stream_error_json_offset");
    tc_jsonw_uint(w, st->stream_offset);
  }
  tc_jsonw_key(w, "truncated");
  tc_jsonw_bool(w, st->stream_err != TC_OK || st->shape.cut_event);
  tc_jsonw_key(w, "errors");
  tc_jsonw_arr(w);
  for (size_t k = 0; k < st->nerrors; k++) {
    tc_jsonw_obj(w);
    tc_jsonw_key(w, "event_index");
    tc_jsonw_uint(w, st->errors[k].index);
    tc_jsonw_key(w, "json_offset");
    tc_jsonw_uint(w, st->errors[k].offset);
    tc_jsonw_key(w, "error");
    tc_jsonw_str(w, tc_strerror(st->errors[k].code));
    tc_jsonw_key(w, "error_name");
    tc_jsonw_str(w, tc_err_name(st->errors[k].code));
    tc_jsonw_obj_end(w);
  }
  tc_jsonw_arr_end(w);
  tc_jsonw_key(w, "shape");
  tc_jsonw_str(w, st->shape.perfetto ? "protobuf" : st->shape.object_form ? "object" : "array");
  tc_jsonw_key(w, "unterminated");
  tc_jsonw_bool(w, st->shape.unterminated);
  tc_jsonw_key(w, "trailing_bytes");
  tc_jsonw_bool(w, st->shape.trailing_bytes);
  tc_jsonw_key(w, "trailing_data");
  if (st->shape.trailing_bytes) {
    tc_jsonw_obj(w);
    tc_jsonw_key(w, "json_offset");
    tc_jsonw_uint(w, st->shape.trailing_offset);
    tc_jsonw_key(w, "bytes");
    tc_jsonw_uint(w, st->shape.trailing_size);
    tc_jsonw_key(w, "values");
    tc_jsonw_uint(w, st->shape.trailing_values);
    tc_jsonw_obj_end(w);
  } else {
    tc_jsonw_null(w);
  }
  tc_jsonw_key(w, "events_arrays");
  tc_jsonw_uint(w, st->shape.events_arrays);
  tc_jsonw_key(w, "chrome_version");
  if (version.len)
    tc_jsonw_strn(w, version);
  else
    tc_jsonw_null(w);
  tc_jsonw_key(w, "metadata");
  if (same_as != UINT32_MAX) {
    /* Written once, with the first file that has it. */
    tc_jsonw_null(w);
    tc_jsonw_key(w, "metadata_of");
    tc_jsonw_uint(w, same_as);
  } else if (st->shape.metadata.len && !st->shape.metadata_cut &&
             tc_json_valid(st->shape.metadata)) {
    tc_jsonw_raw(w, st->shape.metadata);
  } else {
    tc_jsonw_null(w);
    if (st->shape.metadata.len) {
      tc_jsonw_key(w, "metadata_error");
      tc_jsonw_str(w, st->shape.metadata_cut ? "longer than the 1 MiB kept" : "not valid JSON");
    }
  }
  tc_jsonw_obj_end(w);
}

/* Each Chrome version seen, sorted, with how many traces carry it. */
static void write_versions(tc_jsonw *w, const tc_report_ctx *c) {
  tc_version_count *v;
  size_t n = tc_chrome_versions(c, &v);
  tc_jsonw_obj(w);
  for (size_t i = 0; i < n; i++) {
    tc_jsonw_keyn(w, v[i].version);
    tc_jsonw_uint(w, v[i].traces);
  }
  tc_jsonw_obj_end(w);
  free(v);
}

/* What the corpus scan skipped, and its warnings; "unreadable_input" is
 * the first skipped path, as earlier reports had it. */
static void write_corpus_notes(tc_jsonw *w, const tc_corpus *c) {
  if (c->nskipped) {
    tc_jsonw_key(w, "unreadable_input");
    tc_jsonw_str(w, c->skipped[0].path);
  }
  tc_jsonw_key(w, "skipped_inputs");
  tc_jsonw_arr(w);
  for (uint32_t i = 0; i < c->nskipped; i++) {
    tc_jsonw_obj(w);
    tc_jsonw_key(w, "path");
    tc_jsonw_str(w, c->skipped[i].path);
    if (c->skipped[i].line) {
      tc_jsonw_key(w, "line");
      tc_jsonw_uint(w, c->skipped[i].line);
    }
    tc_jsonw_key(w, "reason");
    tc_jsonw_str(w, c->skipped[i].why);
    tc_jsonw_obj_end(w);
  }
  tc_jsonw_arr_end(w);
  tc_jsonw_key(w, "warnings");
  tc_jsonw_arr(w);
  for (uint32_t i = 0; i < c->nwarnings; i++)
    tc_jsonw_str(w, c->warnings[i].why);
  tc_jsonw_arr_end(w);
}

tc_err tc_write_run_json(const tc_report_ctx *c, const char *outdir) {
  tc_outfile *f;
  tc_err e = tc_outfile_open(outdir, "run.json", &f);
  if (e)
    return e;
  const tc_run_totals *r = c->totals;
  tc_jsonw w;
  tc_jsonw_init(&w, tc_outfile_fp(f), 1);
  tc_jsonw_obj(&w);
  tc_jsonw_key(&w, "job");
  tc_jsonw_str(&w, c->job);
  tc_jsonw_key(&w, "manifest");
  tc_jsonw_str(&w, c->manifest);
  tc_jsonw_key(&w, "threads");
  tc_jsonw_uint(&w, r->threads);
  tc_jsonw_key(&w, "simdjson_kernel");
  tc_jsonw_str(&w, r->simd_kernel);
  tc_jsonw_key(&w, "seconds");
  tc_jsonw_num(&w, r->seconds);
  tc_jsonw_key(&w, "sites_total");
  tc_jsonw_uint(&w, c->corpus->nsites);
  tc_jsonw_key(&w, "traces");
  tc_jsonw_uint(&w, c->corpus->ntraces);
  tc_jsonw_key(&w, "file_bytes");
  tc_jsonw_uint(&w, c->corpus->bytes);
  tc_jsonw_key(&w, "json_bytes");
  tc_jsonw_uint(&w, r->out_bytes);
  tc_jsonw_key(&w, "events");
  tc_jsonw_uint(&w, r->events);
  tc_jsonw_key(&w, "skipped_events");
  tc_jsonw_uint(&w, r->bad_events);
  tc_jsonw_key(&w, "traces_with_errors");
  tc_jsonw_uint(&w, r->traces_with_errors);
  tc_jsonw_key(&w, "peak_rss_kib");
  tc_jsonw_uint(&w, tc_peak_rss_kib());
  tc_jsonw_key(&w, "json_mb_per_s");
  tc_jsonw_num(&w, r->seconds > 0 ? (double)r->out_bytes / 1e6 / r->seconds : 0);
  write_corpus_notes(&w, c->corpus);
  tc_jsonw_key(&w, "chrome_versions");
  write_versions(&w, c);
  tc_jsonw_key(&w, "sites");
  tc_jsonw_arr(&w);
  for (uint32_t i = 0; i < c->corpus->nsites; i++) {
    const tc_site *s = &c->corpus->sites[i];
    tc_jsonw_obj(&w);
    tc_jsonw_key(&w, "site");
    tc_jsonw_str(&w, s->name);
    tc_jsonw_key(&w, "traces");
    tc_jsonw_uint(&w, s->ntraces);
    tc_jsonw_key(&w, "manifest_status");
    tc_jsonw_str(&w, s->status);
    tc_jsonw_key(&w, "manifest_reason");
    tc_jsonw_str(&w, s->reason);
    tc_jsonw_obj_end(&w);
  }
  tc_jsonw_arr_end(&w);
  tc_jsonw_key(&w, "files");
  tc_jsonw_arr(&w);
  /* One status at a time, read back from the rows; each block's version
   * found once (a block is often tens of KB, shared by many traces). */
  size_t nblocks = tc_trace_rows_blocks(c->traces);
  tc_str *versions = malloc((nblocks ? nblocks : 1) * sizeof *versions);
  if (!versions)
    e = TC_E_NOMEM;
  for (uint32_t b = 0; !e && b < nblocks; b++)
    versions[b] = tc_chrome_version(tc_trace_rows_block(c->traces, b));
  unsigned char *buf = NULL;
  size_t cap = 0;
  for (uint32_t i = 0; !e && i < c->corpus->ntraces; i++) {
    tc_trace_status st;
    uint32_t block;
    e = tc_trace_rows_get(c->traces, i, &st, &block, &buf, &cap);
    if (e)
      break;
    if (block == TC_NO_BLOCK)
      write_trace(&w, c, i, &st, (tc_str){NULL, 0}, UINT32_MAX);
    else
      write_trace(&w, c, i, &st, versions[block],
                  c->traces->block_first[block] != i ? c->traces->block_first[block]
                                                      : UINT32_MAX);
  }
  free(buf);
  free(versions);
  tc_jsonw_arr_end(&w);
  tc_jsonw_obj_end(&w);
  tc_jsonw_end(&w);
  if (e) {
    tc_outfile_abort(f);
    return e;
  }
  return tc_outfile_commit(f);
}
