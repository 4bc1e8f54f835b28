#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/tc_census_report.h"
#include "report/tc_jsonw.h"
#include "util/tc_json_valid.h"
#include "util/tc_sysinfo.h"

/* The processes of a trace the census scope left out. */
static void write_left(tc_jsonw *w, const tc_left_list *left) {
  tc_jsonw_karr(w, "processes_outside_scope");
  for (uint32_t k = 0; k < left->n; k++) {
    const tc_left_proc *p = &left->v[k];
    tc_jsonw_obj(w);
    tc_jsonw_kint(w, "pid", p->pid);
    tc_jsonw_kstr(w, "left_out_as", tc_left_name(p->why));
    tc_jsonw_kstr(w, "kind", tc_proc_kind_code((tc_proc_kind)p->kind));
    tc_jsonw_kstr(w, "process_name", p->name);
    tc_jsonw_karr(w, "urls");
    for (int u = 0; u < TC_LEFT_URLS && p->urls[u]; u++)
      tc_jsonw_str(w, p->urls[u]);
    tc_jsonw_arr_end(w);
    tc_jsonw_kuint(w, "records", p->records);
    tc_jsonw_obj_end(w);
  }
  tc_jsonw_arr_end(w);
}

/* File I, whose status is ST and whose metadata names VERSION; SAME_AS the
 * first file with the same metadata block, or UINT32_MAX when it is the
 * first (the block is written once, with it). */
static void write_trace(tc_jsonw *w, const tc_report_ctx *c, const tc_str *versions, uint32_t i,
                        const tc_trace_status *st, const tc_left_list *left, uint32_t block,
                        uint32_t same_as) {
  const tc_trace *t = &c->corpus->traces[i];
  tc_jsonw_obj(w);
  tc_jsonw_kname(w, "path", tc_str_c(t->path));
  tc_jsonw_kname(w, "site", tc_str_c(c->corpus->sites[t->site].name));
  int partial = st->stream_err || st->bad_events || st->shape.trailing_bytes;
  tc_jsonw_kstr(w, "status", st->fatal ? "failed" : partial ? "partial" : "ok");
  if (st->fatal) {
    tc_jsonw_kstr(w, "error", tc_strerror(st->fatal));
    tc_jsonw_kstr(w, "error_name", tc_err_name(st->fatal));
    if (st->fatal == TC_E_NOT_TRACE) {
      tc_jsonw_kuint(w, "error_json_offset", st->shape.not_trace_offset);
    }
  }
  tc_jsonw_kstr(w, "format", tc_format_name(st->format));
  tc_jsonw_kstr(w, "trace_format", st->shape.perfetto ? "perfetto_protobuf" : "json");
  tc_jsonw_kuint(w, "file_bytes", t->size);
  tc_jsonw_kuint(w, "compressed_bytes_read", st->in_bytes);
  tc_jsonw_kuint(w, "json_bytes", st->out_bytes);
  tc_jsonw_kuint(w, "elements", st->elements);
  tc_jsonw_kuint(w, "events", st->events);
  tc_jsonw_kuint(w, "skipped_events", st->bad_events);
  tc_jsonw_kuint(w, "lenient_events", st->lenient_events);
  tc_jsonw_kuint(w, "chunks", st->chunks);
  if (st->stream_err) {
    tc_jsonw_kstr(w, "stream_error", tc_strerror(st->stream_err));
    tc_jsonw_kstr(w, "stream_error_name", tc_err_name(st->stream_err));
    tc_jsonw_kuint(w, "stream_error_json_offset", st->stream_offset);
  }
  tc_jsonw_kbool(w, "truncated", st->stream_err != TC_OK || st->shape.cut_event);
  tc_jsonw_karr(w, "errors");
  for (size_t k = 0; k < st->nerrors; k++) {
    tc_jsonw_obj(w);
    tc_jsonw_kuint(w, "event_index", st->errors[k].index);
    tc_jsonw_kuint(w, "json_offset", st->errors[k].offset);
    tc_jsonw_kstr(w, "error", tc_strerror(st->errors[k].code));
    tc_jsonw_kstr(w, "error_name", tc_err_name(st->errors[k].code));
    tc_jsonw_obj_end(w);
  }
  tc_jsonw_arr_end(w);
  tc_jsonw_kstr(w, "shape", st->shape.perfetto      ? "protobuf"
                            : st->shape.object_form ? "object"
                                                    : "array");
  tc_jsonw_kbool(w, "unterminated", st->shape.unterminated);
  tc_jsonw_kbool(w, "trailing_bytes", st->shape.trailing_bytes);
  tc_jsonw_key(w, "trailing_data");
  if (st->shape.trailing_bytes) {
    tc_jsonw_obj(w);
    tc_jsonw_kuint(w, "json_offset", st->shape.trailing_offset);
    tc_jsonw_kuint(w, "bytes", st->shape.trailing_size);
    tc_jsonw_kuint(w, "values", st->shape.trailing_values);
    tc_jsonw_obj_end(w);
  } else {
    tc_jsonw_null(w);
  }
  tc_jsonw_kuint(w, "events_arrays", st->shape.events_arrays);
  write_left(w, left);
  int from_manifest;
  tc_str version = tc_trace_chrome_version(c, versions, i, block, &from_manifest);
  tc_jsonw_key(w, "chrome_version");
  if (version.len)
    tc_jsonw_strn(w, version);
  else
    tc_jsonw_null(w);
  tc_jsonw_kstr(w, "chrome_version_from",
                !version.len ? NULL : from_manifest ? "manifest" : "metadata");
  tc_jsonw_key(w, "metadata");
  if (same_as != UINT32_MAX) {
    /* Written once, with the first file that has it. */
    tc_jsonw_null(w);
    tc_jsonw_kuint(w, "metadata_of", same_as);
  } else if (st->shape.metadata.len && !st->shape.metadata_cut &&
             tc_json_valid_within(st->shape.metadata, TC_EXAMPLE_MAX_DEPTH)) {
    tc_jsonw_raw(w, st->shape.metadata);
  } else {
    tc_jsonw_null(w);
    if (st->shape.metadata.len) {
      tc_jsonw_kstr(w, "metadata_error",
                    st->shape.metadata_cut ? "longer than the 1 MiB kept"
                                           : "not valid JSON, or nested deeper than 64");
    }
  }
  tc_jsonw_obj_end(w);
}

/* Each Chrome version seen, sorted, with how many traces carry it (the
 * manifest's and the metadata's of one text together). */
static void write_versions(tc_jsonw *w, const tc_report_ctx *c) {
  tc_version_count *v;
  size_t n = tc_chrome_versions(c, &v);
  tc_jsonw_obj(w);
  for (size_t i = 0; i < n;) {
    uint32_t traces = 0;
    size_t j = i;
    for (; j < n && tc_str_eq(v[j].version, v[i].version); j++)
      traces += v[j].traces;
    tc_jsonw_keyn(w, v[i].version);
    tc_jsonw_uint(w, traces);
    i = j;
  }
  tc_jsonw_obj_end(w);
  free(v);
}

/* What the corpus scan skipped, and its warnings; "unreadable_input" is
 * the first skipped path, as earlier reports had it. */
static void write_corpus_notes(tc_jsonw *w, const tc_corpus *c) {
  if (c->nskipped) {
    tc_jsonw_kstr(w, "unreadable_input", c->skipped[0].path);
  }
  tc_jsonw_karr(w, "skipped_inputs");
  for (uint32_t i = 0; i < c->nskipped; i++) {
    tc_jsonw_obj(w);
    tc_jsonw_kstr(w, "path", c->skipped[i].path);
    if (c->skipped[i].line) {
      tc_jsonw_kuint(w, "line", c->skipped[i].line);
    }
    tc_jsonw_kstr(w, "reason", c->skipped[i].why);
    tc_jsonw_obj_end(w);
  }
  tc_jsonw_arr_end(w);
  tc_jsonw_karr(w, "warnings");
  for (uint32_t i = 0; i < c->nwarnings; i++)
    tc_jsonw_str(w, c->warnings[i].why);
  tc_jsonw_arr_end(w);
}

/* The facts of the host rather than of the input, in run.json's order:
 * threads, kernel and wall time come before the corpus facts, peak memory
 * and throughput after them. NUL writes each as null (they are in
 * host.json). */
enum host_part { HOST_STARTUP, HOST_END };

static void host_uint(tc_jsonw *w, int nul, const char *key, uint64_t v) {
  if (nul)
    tc_jsonw_knull(w, key);
  else
    tc_jsonw_kuint(w, key, v);
}

static void host_num(tc_jsonw *w, int nul, const char *key, double v) {
  if (nul)
    tc_jsonw_knull(w, key);
  else
    tc_jsonw_knum(w, key, v);
}

static void write_host_facts(tc_jsonw *w, const tc_report_ctx *c, int nul, enum host_part part) {
  const tc_run_totals *r = c->totals;
  if (part == HOST_STARTUP) {
    host_uint(w, nul, "threads", r->threads);
    tc_jsonw_kstr(w, "simdjson_kernel", nul ? NULL : r->simd_kernel);
    host_num(w, nul, "seconds", r->seconds);
    return;
  }
  host_uint(w, nul, "peak_rss_kib", nul ? 0 : tc_peak_rss_kib());
  /* A merge measured no JSON throughput of its own. */
  host_num(w, nul || r->merged_folders || r->seconds <= 0, "json_mb_per_s",
           r->seconds > 0 ? (double)r->out_bytes / 1e6 / r->seconds : 0);
}

static tc_err fill_host(const tc_report_ctx *c, FILE *fp) {
  tc_jsonw w;
  tc_jsonw_init(&w, fp, 1);
  tc_jsonw_obj(&w);
  write_host_facts(&w, c, 0, HOST_STARTUP);
  write_host_facts(&w, c, 0, HOST_END);
  tc_jsonw_obj_end(&w);
  tc_jsonw_end(&w);
  return TC_OK;
}

tc_err tc_write_host_json(const tc_report_ctx *c, const char *outdir, tc_why *why) {
  return tc__census_file(c, outdir, "host.json", fill_host, why);
}

static tc_err fill_run(const tc_report_ctx *c, FILE *fp) {
  const tc_run_totals *r = c->totals;
  tc_jsonw w;
  tc_jsonw_init(&w, fp, 1);
  tc_jsonw_obj(&w);
  tc_jsonw_kstr(&w, "job", c->job);
  tc_jsonw_kstr(&w, "manifest", c->manifest);
  write_host_facts(&w, c, c->timings_apart, HOST_STARTUP);
  tc_jsonw_kstr(&w, "scope", tc_scope_name(c->census->scope));
  tc_jsonw_kuint(&w, "sites_total", c->corpus->nsites);
  tc_jsonw_kuint(&w, "traces", c->corpus->ntraces);
  tc_jsonw_kuint(&w, "file_bytes", c->corpus->bytes);
  tc_jsonw_kuint(&w, "json_bytes", r->out_bytes);
  tc_jsonw_kuint(&w, "protobuf_bytes", r->proto_bytes);
  tc_jsonw_kuint(&w, "events", r->events);
  tc_jsonw_kuint(&w, "skipped_events", r->bad_events);
  tc_jsonw_kuint(&w, "traces_with_errors", r->traces_with_errors);
  write_host_facts(&w, c, c->timings_apart, HOST_END);
  if (c->timings_apart)
    tc_jsonw_kstr(&w, "host_facts_in", "host.json");
  tc_jsonw_kuint(&w, "merged_folders", r->merged_folders);
  write_corpus_notes(&w, c->corpus);
  tc_jsonw_key(&w, "chrome_versions");
  write_versions(&w, c);
  tc_jsonw_karr(&w, "sites");
  for (uint32_t i = 0; i < c->corpus->nsites; i++) {
    const tc_site *s = &c->corpus->sites[i];
    tc_jsonw_obj(&w);
    tc_jsonw_kname(&w, "site", tc_str_c(s->name));
    tc_jsonw_kuint(&w, "traces", s->ntraces);
    tc_jsonw_kstr(&w, "manifest_status", s->status);
    tc_jsonw_kstr(&w, "manifest_reason", s->reason);
    tc_jsonw_kstr(&w, "manifest_chrome_version", s->chrome_version);
    tc_jsonw_obj_end(&w);
  }
  tc_jsonw_arr_end(&w);
  tc_jsonw_karr(&w, "files");
  /* One status at a time, read back from the rows. */
  tc_str *versions = tc_block_versions(c);
  tc_err e = versions ? TC_OK : TC_E_NOMEM;
  unsigned char *buf = NULL;
  size_t cap = 0;
  for (size_t i = 0; !e && i < tc_trace_rows_count(c->traces); i++) {
    tc_trace_status st;
    tc_left_list left;
    uint32_t block;
    e = tc_trace_rows_get(c->traces, i, &st, &block, &left, &buf, &cap);
    if (e)
      break;
    /* metadata_of counts files as written: rows. */
    write_trace(&w, c, versions, tc_trace_rows_trace(c->traces, i), &st, &left, block,
                block != TC_NO_BLOCK && c->traces->block_first[block] != i
                    ? c->traces->block_first[block]
                    : UINT32_MAX);
    tc_left_list_free(&left);
  }
  free(buf);
  free(versions);
  tc_jsonw_arr_end(&w);
  tc_jsonw_obj_end(&w);
  tc_jsonw_end(&w);
  return e;
}

tc_err tc_write_run_json(const tc_report_ctx *c, const char *outdir, tc_why *why) {
  return tc__census_file(c, outdir, "run.json", fill_run, why);
}
