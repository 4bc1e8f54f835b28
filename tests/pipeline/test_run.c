/* The run, end to end over corpora written here: a plain trace with broken
 * elements, a gzip trace of many chunks, a file that is no trace, a gzip
 * trace cut in half, and a site without traces. The test keeps its own
 * model of every event it writes (name, phase, site, byte range), and the
 * census and per-trace status are checked against it; then the run is
 * repeated over thread counts and chunk sizes, here and on real traces
 * (argv[1], the third-party directory), and every result must be the same. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "census/tc_phase.h"
#include "io/tc_corpus.h"
#include "pipeline/tc_run.h"
#include "reduce/tc_metrics_reduction.h"
#include "testdir.h"
#include "metrics_rows.h"
#include "trace_rows_check.h"

static const char *real_traces_dir;

/* ---- the model: what the test wrote ---- */

#define MAX_NAMES 16
#define MAX_SITES 8
#define MAX_ERRORS 4

typedef struct {
  const char *name;
  uint64_t ph[TC_PH_COUNT];
  uint64_t site_records[MAX_SITES];
} name_model;

typedef struct {
  tc_format format;
  tc_err fatal, stream_err;
  uint64_t in_bytes, out_bytes, elements, events;
  tc_chunk_error errors[MAX_ERRORS];
  size_t nerrors;
} trace_model;

typedef struct {
  name_model names[MAX_NAMES];
  size_t nnames;
  trace_model traces[MAX_SITES];
} model;

/* A growing text; aborts the test when memory runs out. */
typedef struct {
  char *s;
  size_t len, cap;
} text;

static void text_add(text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  assert_true(n >= 0);
  if (t->len + (size_t)n + 1 > t->cap) {
    t->cap = (t->len + (size_t)n + 1) * 2;
    t->s = realloc(t->s, t->cap);
    assert_non_null(t->s);
  }
  va_start(ap, fmt);
  vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  t->len += (size_t)n;
}

static name_model *model_name(model *m, const char *name) {
  for (size_t i = 0; i < m->nnames; i++)
    if (strcmp(m->names[i].name, name) == 0)
      return &m->names[i];
  assert_true(m->nnames < MAX_NAMES);
  name_model *n = &m->names[m->nnames++];
  memset(n, 0, sizeof *n);
  n->name = name;
  return n;
}

/* Byte range of each event written, for traces that get cut. */
typedef struct {
  uint64_t start, end;
  const char *name;
  const char *ph;
} written;

/* Appends one event to T and returns where it lies. */
static written add_event(text *t, const char *name, const char *ph, int i) {
  written w = {t->len, 0, name, ph};
  text_add(t,
           "{\"name\":\"%s\",\"cat\":\"test\",\"ph\":\"%s\",\"ts\":%d,\"dur\":%d,"
           "\"pid\":1,\"tid\":%d,\"args\":{\"i\":%d}}",
           name, ph, 1000 + 10 * i, 1 + i % 7, 1 + i % 3, i);
  w.end = t->len;
  return w;
}

static void count(model *m, uint32_t site, const written *w) {
  name_model *n = model_name(m, w->name);
  n->ph[tc_phase_index(tc_str_c(w->ph))]++;
  n->site_records[site]++;
  m->traces[site].events++;
}

static void add_error(trace_model *t, uint64_t index, uint64_t offset, tc_err code) {
  assert_true(t->nerrors < MAX_ERRORS);
  t->errors[t->nerrors++] = (tc_chunk_error){index, offset, code};
}

static void gzip_text(const text *t, text *out) {
  z_stream z;
  memset(&z, 0, sizeof z);
  assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
  out->cap = deflateBound(&z, t->len);
  out->s = malloc(out->cap);
  assert_non_null(out->s);
  z.next_in = (Bytef *)t->s;
  z.avail_in = (uInt)t->len;
  z.next_out = (Bytef *)out->s;
  z.avail_out = (uInt)out->cap;
  assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
  out->len = z.total_out;
  deflateEnd(&z);
}

/* How many bytes a gzip prefix decodes to: zlib's own answer, to hold the
 * stream's truncation offset against. */
static uint64_t gunzip_prefix_len(const char *gz, size_t n) {
  z_stream z;
  memset(&z, 0, sizeof z);
  assert_int_equal(inflateInit2(&z, 31), Z_OK);
  char out[4096];
  z.next_in = (Bytef *)gz;
  z.avail_in = (uInt)n;
  int rc;
  do {
    z.next_out = (Bytef *)out;
    z.avail_out = sizeof out;
    rc = inflate(&z, Z_NO_FLUSH);
  } while (rc == Z_OK && z.avail_out == 0);
  assert_true(rc == Z_OK || rc == Z_BUF_ERROR);
  uint64_t len = z.total_out;
  inflateEnd(&z);
  return len;
}

static const char *const a_names[] = {"Paint", "Layout", "Mark", "Paint", "Layout"};
static const char *const a_phs[] = {"X", "X", "i", "X", "B"};
static const char *const b_names[] = {"Paint", "Layout", "RunTask", "GC"};

/* Site 0, "a.json": the object form, with an element that is not an
 * object and an event that is not valid JSON among good events. */
static void write_a(const char *dir, model *m) {
  text t = {0};
  trace_model *tm = &m->traces[0];
  text_add(&t, "{\"metadata\":{\"k\":\"v\"},\"traceEvents\":[\n");
  uint64_t index = 0;
  for (int i = 0; i < 5; i++, index++) {
    if (i == 2) {
      add_error(tm, index, t.len, TC_E_NOT_OBJECT);
      text_add(&t, "42,\n");
      index++;
    }
    if (i == 4) {
      add_error(tm, index, t.len, TC_E_BAD_EVENT);
      text_add(&t, "{\"name\":\"Bad\",\"ph\":\"X\",oops},\n");
      index++;
    }
    written w = add_event(&t, a_names[i], a_phs[i], i);
    count(m, 0, &w);
    text_add(&t, i < 4 ? ",\n" : "\n");
  }
  text_add(&t, "]}\n");
  tm->format = TC_FMT_PLAIN;
  tm->in_bytes = tm->out_bytes = t.len;
  tm->elements = index;
  assert_int_equal(testdir_write(dir, "a.json", t.s, t.len), 0);
  free(t.s);
}

/* Site 1, "b.json.gz": the array form, long enough for several 4 KiB
 * chunks. */
static void write_b(const char *dir, model *m) {
  text t = {0}, gz = {0};
  trace_model *tm = &m->traces[1];
  text_add(&t, "[");
  for (int i = 0; i < 300; i++) {
    written w = add_event(&t, b_names[i % 4], i % 5 == 0 ? "i" : "X", i);
    count(m, 1, &w);
    text_add(&t, i < 299 ? "," : "]");
  }
  gzip_text(&t, &gz);
  tm->format = TC_FMT_GZIP;
  tm->in_bytes = gz.len;
  tm->out_bytes = t.len;
  tm->elements = 300;
  assert_int_equal(testdir_write(dir, "b.json.gz", gz.s, gz.len), 0);
  free(t.s);
  free(gz.s);
}

/* Site 2, "c.json": not a trace at all. */
static void write_c(const char *dir, model *m) {
  static const char junk[] = "this is not a trace\n";
  trace_model *tm = &m->traces[2];
  tm->format = TC_FMT_PLAIN;
  tm->fatal = TC_E_NOT_TRACE;
  tm->in_bytes = tm->out_bytes = sizeof junk - 1;
  assert_int_equal(testdir_write(dir, "c.json", junk, sizeof junk - 1), 0);
}

/* Site 3, "d.json.gz": a gzip trace cut to half its bytes. Only the events
 * zlib decodes whole from the kept half count; one cut in two is an error. */
static void write_d(const char *dir, model *m) {
  text t = {0}, gz = {0};
  trace_model *tm = &m->traces[3];
  written w[400];
  text_add(&t, "[");
  for (int i = 0; i < 400; i++) {
    w[i] = add_event(&t, i % 2 ? "Trunc" : "Paint", "X", i * 7919 % 1000);
    text_add(&t, i < 399 ? "," : "]");
  }
  gzip_text(&t, &gz);
  size_t kept = gz.len / 2;
  uint64_t got = gunzip_prefix_len(gz.s, kept);
  assert_true(got > 0 && got < t.len);
  for (int i = 0; i < 400; i++) {
    if (w[i].end <= got) {
      count(m, 3, &w[i]);
      tm->elements++;
    } else if (w[i].start < got) {
      add_error(tm, (uint64_t)i, w[i].start, TC_E_TRUNCATED_JSON);
      tm->elements++;
    }
  }
  tm->format = TC_FMT_GZIP;
  tm->stream_err = TC_E_TRUNCATED;
  tm->in_bytes = kept;
  tm->out_bytes = got;
  assert_int_equal(testdir_write(dir, "d.json.gz", gz.s, kept), 0);
  free(t.s);
  free(gz.s);
}

#define NTRACES 4
#define NSITES 5 /* a, b, c, d and the empty directory "e" */

static char *write_corpus(model *m) {
  memset(m, 0, sizeof *m);
  char *dir = testdir_new();
  assert_non_null(dir);
  write_a(dir, m);
  write_b(dir, m);
  write_c(dir, m);
  write_d(dir, m);
  assert_int_equal(testdir_mkdir(dir, "e"), 0);
  return dir;
}

/* ---- comparing results ---- */

static const tc_res_event *find_event(const tc_census_result *r, const char *name) {
  for (size_t i = 0; i < r->nevents; i++)
    if (tc_str_eqc(r->events[i].name, name))
      return &r->events[i];
  return NULL;
}

static void check_against_model(const tc_run_result *r, const model *m) {
  uint64_t records = 0;
  for (size_t i = 0; i < m->nnames; i++) {
    const name_model *n = &m->names[i];
    const tc_res_event *ev = find_event(&r->tables.census, n->name);
    assert_non_null(ev);
    uint64_t total = 0, sites = 0;
    for (int s = 0; s < MAX_SITES; s++) {
      total += n->site_records[s];
      sites += n->site_records[s] > 0;
    }
    assert_int_equal(ev->records, total);
    assert_int_equal(ev->sites, sites);
    for (int p = 0; p < TC_PH_COUNT; p++)
      assert_int_equal(ev->ph[p], n->ph[p]);
    assert_int_equal(ev->ncats, 1);
    assert_true(tc_str_eqc(ev->cats[0].cat, "test"));
    assert_int_equal(ev->dur.n, total);
    records += total;
  }
  /* Nothing but the model's names: the broken event is not counted. */
  assert_int_equal(r->tables.census.nevents, m->nnames);
  assert_int_equal(r->tables.census.records, records);
  assert_int_equal(r->tables.totals.events, records);

  uint64_t bad = 0, in = 0, out = 0;
  for (uint32_t i = 0; i < NTRACES; i++) {
    const trace_model *tm = &m->traces[i];
    const tc_trace_status *st = run_status(&r->tables.traces, i);
    assert_int_equal(st->fatal, tm->fatal);
    assert_int_equal(st->stream_err, tm->stream_err);
    assert_int_equal(st->format, tm->format);
    assert_int_equal(st->in_bytes, tm->in_bytes);
    assert_int_equal(st->out_bytes, tm->out_bytes);
    assert_int_equal(st->elements, tm->elements);
    assert_int_equal(st->events, tm->events);
    assert_int_equal(st->bad_events, tm->nerrors);
    assert_int_equal(st->nerrors, tm->nerrors);
    for (size_t k = 0; k < tm->nerrors; k++) {
      assert_int_equal(st->errors[k].index, tm->errors[k].index);
      assert_int_equal(st->errors[k].offset, tm->errors[k].offset);
      assert_int_equal(st->errors[k].code, tm->errors[k].code);
    }
    if (tm->stream_err)
      assert_int_equal(st->stream_offset, tm->out_bytes);
    bad += tm->nerrors;
    in += tm->in_bytes;
    out += tm->out_bytes;
  }
  assert_int_equal(r->tables.totals.bad_events, bad);
  assert_int_equal(r->tables.totals.in_bytes, in);
  assert_int_equal(r->tables.totals.out_bytes, out);
  /* a (bad events), c (fatal), d (truncated). */
  assert_int_equal(r->tables.totals.traces_with_errors, 3);
  assert_true(run_status(&r->tables.traces, 0)->shape.object_form);
  assert_string_equal(run_status(&r->tables.traces, 0)->meta, "{\"k\":\"v\"}");
  assert_true(run_status(&r->tables.traces, 3)->shape.cut_event);
}

static void check_sketch_same(const tc_sketch *a, const tc_sketch *b) {
  assert_int_equal(a->n, b->n);
  assert_int_equal(a->zeros, b->zeros);
  assert_true(a->min == b->min && a->max == b->max);
  static const double qs[] = {0.1, 0.5, 0.9, 0.99};
  for (size_t i = 0; i < sizeof qs / sizeof *qs; i++)
    assert_true(tc_sketch_quantile(a, qs[i]) == tc_sketch_quantile(b, qs[i]));
}

static void check_census_same(const tc_census_result *a, const tc_census_result *b) {
  assert_int_equal(a->records, b->records);
  assert_int_equal(a->nevents, b->nevents);
  for (size_t i = 0; i < a->nevents; i++) {
    const tc_res_event *x = &a->events[i], *y = &b->events[i];
    assert_true(tc_str_eq(x->name, y->name));
    assert_int_equal(x->records, y->records);
    assert_int_equal(x->sites, y->sites);
    assert_memory_equal(x->ph, y->ph, sizeof x->ph);
    assert_memory_equal(x->pairs, y->pairs, sizeof x->pairs);
    assert_memory_equal(x->dur_below, y->dur_below, sizeof x->dur_below);
    assert_int_equal(x->ncats, y->ncats);
    for (size_t k = 0; k < x->ncats; k++) {
      assert_true(tc_str_eq(x->cats[k].cat, y->cats[k].cat));
      assert_int_equal(x->cats[k].records, y->cats[k].records);
    }
    assert_int_equal(x->nargs, y->nargs);
    for (size_t k = 0; k < x->nargs; k++) {
      assert_true(tc_str_eq(x->args[k].path, y->args[k].path));
      assert_int_equal(x->args[k].records, y->args[k].records);
      assert_int_equal(x->args[k].sites, y->args[k].sites);
      assert_int_equal(x->args[k].types, y->args[k].types);
    }
    check_sketch_same(&x->dur, &y->dur);
    assert_true(tc_str_eq(x->example, y->example));
  }
}

static void check_status_same(const tc_run_result *a, const tc_run_result *b, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    const tc_trace_status *x = run_status(&a->tables.traces, i), *y = run_status(&b->tables.traces, i);
    assert_int_equal(x->fatal, y->fatal);
    assert_int_equal(x->stream_err, y->stream_err);
    assert_int_equal(x->stream_offset, y->stream_offset);
    assert_int_equal(x->elements, y->elements);
    assert_int_equal(x->events, y->events);
    assert_int_equal(x->bad_events, y->bad_events);
    assert_int_equal(x->nerrors, y->nerrors);
    assert_memory_equal(x->errors, y->errors, x->nerrors * sizeof *x->errors);
  }
}

static int same_value(double x, double y) {
  return x == y || (isnan(x) && isnan(y));
}

/* Per-site metric values and n/a reasons, as the runs reduced them. */
static void check_metrics_same(const tc_metrics_reduction *x, const tc_metrics_reduction *y) {
  assert_int_equal(x->nsites, y->nsites);
  assert_int_equal(x->ntraces, y->ntraces);
  for (size_t s = 0; s < x->nsites; s++) {
    /* A copy of x's site: x and y may be the same reduction, read through
     * one cursor. */
    tc_site_metrics a = *reduced_site(x, s);
    char *name = strdup(a.site);
    double *values = malloc(x->nfields * sizeof *values);
    assert_non_null(values);
    memcpy(values, a.values, x->nfields * sizeof *values);
    const tc_site_metrics *b = reduced_site(y, s);
    assert_string_equal(name, b->site);
    assert_memory_equal(a.na, b->na, sizeof a.na);
    for (size_t f = 0; f < x->nfields; f++)
      assert_true(same_value(values[f], b->values[f]));
    free(name);
    free(values);
  }
}

/* ---- the tests ---- */

typedef struct {
  unsigned threads;
  size_t chunk_bytes;
  int no_metrics;
} config;

static const config configs[] = {
    {1, 0, 0}, {1, 4096, 0}, {3, 4096, 0}, {3, 0, 0}, {3, 4096, 1},
};
#define NCONFIGS (sizeof configs / sizeof *configs)

static void run_config(const tc_corpus *c, const config *cf, tc_run_result *r) {
  tc_run_opts o;
  tc_run_opts_default(&o);
  o.threads = cf->threads;
  o.chunk_bytes = cf->chunk_bytes;
  o.no_metrics = cf->no_metrics;
  tc_progress prog;
  atomic_init(&prog.bytes_done, 0);
  atomic_init(&prog.traces_done, 0);
  o.progress = &prog;
  assert_int_equal(tc_run(c, &o, r), TC_OK);
  assert_int_equal(r->tables.totals.threads, cf->threads);
  assert_int_equal(atomic_load(&prog.traces_done), c->ntraces);
  assert_int_equal(atomic_load(&prog.bytes_done), r->tables.totals.in_bytes);
  if (cf->no_metrics) {
    assert_null(r->tables.metrics);
  } else {
    assert_non_null(r->tables.metrics);
    assert_int_equal(r->tables.metrics->ntraces, c->ntraces);
  }
}

static void small_corpus_matches_model_in_every_config(void **state) {
  (void)state;
  model m;
  char *dir = write_corpus(&m);
  const char *in[] = {dir};
  tc_corpus c;
  assert_int_equal(tc_corpus_scan(in, 1, NULL, &c), TC_OK);
  assert_int_equal(c.ntraces, NTRACES);
  assert_int_equal(c.nsites, NSITES);
  tc_run_result r[NCONFIGS];
  for (size_t i = 0; i < NCONFIGS; i++) {
    run_config(&c, &configs[i], &r[i]);
    check_against_model(&r[i], &m);
    /* b is 300 events of ~110 bytes: one chunk by default, several at 4 KiB. */
    if (configs[i].chunk_bytes)
      assert_true(run_status(&r[i].tables.traces, 1)->chunks > 1);
    else
      assert_int_equal(run_status(&r[i].tables.traces, 1)->chunks, 1);
    check_census_same(&r[0].tables.census, &r[i].tables.census);
    check_status_same(&r[0], &r[i], NTRACES);
    if (r[i].tables.metrics)
      check_metrics_same(r[0].tables.metrics, r[i].tables.metrics);
  }
  /* Every site is in the metrics: the one without traces as n/a. */
  const tc_metrics_reduction *red = r[0].tables.metrics;
  assert_int_equal(red->nsites, NSITES);
  assert_int_equal(red->nsites_without_trace, 1);
  assert_string_equal(reduced_site(red, 4)->site, "e");
  assert_int_equal(reduced_site(red, 4)->ntraces, 0);
  assert_int_equal(red->ntraces_unreadable, 1);
  for (size_t i = 0; i < NCONFIGS; i++)
    tc_run_result_free(&r[i]);
  tc_corpus_free(&c);
  testdir_free(dir);
}

/* Real traces, plain and gzip, given as files in an order unlike the
 * corpus's: every configuration must agree with the first. */
static void real_traces_same_in_every_config(void **state) {
  (void)state;
  static const char *const names[] = {
      "traces__lcp-m78.json", "artifacts__blocking-time__trace.json.gz",
      "traces__frame-metrics-m90.json", "artifacts__perflog__trace.json",
      "traces__load.json",
  };
  enum { N = sizeof names / sizeof *names };
  char *paths[N];
  for (size_t i = 0; i < N; i++)
    assert_non_null(paths[i] = testdir_path(real_traces_dir, names[i]));
  tc_corpus c;
  assert_int_equal(tc_corpus_scan((const char *const *)paths, N, NULL, &c), TC_OK);
  assert_int_equal(c.nskipped, 0);
  assert_int_equal(c.ntraces, N);
  tc_run_result r[NCONFIGS];
  for (size_t i = 0; i < NCONFIGS; i++) {
    run_config(&c, &configs[i], &r[i]);
    assert_true(r[i].tables.census.records > 1000);
    assert_int_equal(r[i].tables.totals.events, r[i].tables.census.records);
    check_census_same(&r[0].tables.census, &r[i].tables.census);
    check_status_same(&r[0], &r[i], N);
    if (r[i].tables.metrics)
      check_metrics_same(r[0].tables.metrics, r[i].tables.metrics);
  }
  for (size_t i = 0; i < NCONFIGS; i++)
    tc_run_result_free(&r[i]);
  tc_corpus_free(&c);
  for (size_t i = 0; i < N; i++)
    free(paths[i]);
}

static void empty_corpus_runs(void **state) {
  (void)state;
  tc_corpus c = {0};
  tc_run_result r;
  tc_run_opts o;
  tc_run_opts_default(&o);
  o.threads = 2;
  assert_int_equal(tc_run(&c, &o, &r), TC_OK);
  assert_int_equal(r.tables.census.records, 0);
  assert_int_equal(r.tables.census.nevents, 0);
  assert_int_equal(r.tables.metrics->ntraces, 0);
  tc_run_result_free(&r);
}

/* Every limit of tc_run_opts_check at its edges, and tc_run refusing
 * options outside them (a chunk of 2 GiB would overflow the chunker's
 * 32-bit offsets) before it reads anything. */
static void options_outside_their_limits_are_refused(void **state) {
  (void)state;
  tc_run_opts o;
  char why[128];
  tc_run_opts_default(&o);
  assert_int_equal(tc_run_opts_check(&o, why, sizeof why), TC_OK);
  static const struct {
    unsigned threads;
    size_t chunk;
    unsigned inflight;
    double bucket_ms, refresh_hz;
    const char *why; /* NULL: accepted */
  } cases[] = {
      {0, 0, 0, 200, 60, NULL},
      {TC_MAX_THREADS, TC_MAX_CHUNK_BYTES, TC_MAX_INFLIGHT, 1, 1000, NULL},
      {1, TC_MIN_CHUNK_BYTES, 1, 1e9, 1e-300, NULL},
      {TC_MAX_THREADS + 1, 0, 0, 200, 60, "threads must be an integer from 0 (all CPUs) to 1024"},
      {1, TC_MIN_CHUNK_BYTES - 1, 0, 200, 60, "chunk_bytes must be an integer from 4096 to 1073741824"},
      {1, TC_MAX_CHUNK_BYTES + 1, 0, 200, 60, "chunk_bytes must be an integer from 4096 to 1073741824"},
      {1, (size_t)1 << 31, 0, 200, 60, "chunk_bytes must be an integer from 4096 to 1073741824"},
      {1, 0, TC_MAX_INFLIGHT + 1, 200, 60, "inflight must be an integer from 0 (2 per thread and 2) to 4096"},
      {1, 0, 0, 0.5, 60, "bucket_ms must be a number of at least 1"},
      {1, 0, 0, INFINITY, 60, "bucket_ms must be a number of at least 1"},
      {1, 0, 0, NAN, 60, "bucket_ms must be a number of at least 1"},
      {1, 0, 0, 200, 0, "refresh_hz must be a number above 0 and at most 1000"},
      {1, 0, 0, 200, 1000.5, "refresh_hz must be a number above 0 and at most 1000"},
      {1, 0, 0, 200, NAN, "refresh_hz must be a number above 0 and at most 1000"},
  };
  tc_corpus empty = {0};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tc_run_opts_default(&o);
    o.threads = cases[i].threads;
    o.chunk_bytes = cases[i].chunk;
    o.inflight = cases[i].inflight;
    o.kernels.bucket_ms = cases[i].bucket_ms;
    o.kernels.refresh_hz = cases[i].refresh_hz;
    why[0] = '\0';
    tc_err want = cases[i].why ? TC_E_USAGE : TC_OK;
    assert_int_equal(tc_run_opts_check(&o, why, sizeof why), want);
    assert_int_equal(tc_run_opts_check(&o, NULL, 0), want);
    if (cases[i].why)
      assert_string_equal(why, cases[i].why);
    /* the kernels refuse them too, rather than fall back to a default */
    int kernels_ok = !(cases[i].why && (strncmp(cases[i].why, "bucket", 6) == 0 ||
                                        strncmp(cases[i].why, "refresh", 7) == 0));
    tc_kernels *k = tc_kernels_create(&o.kernels);
    assert_int_equal(k != NULL, kernels_ok);
    tc_kernels_free(k);
    if (!cases[i].why)
      continue;
    tc_run_result r;
    assert_int_equal(tc_run(&empty, &o, &r), TC_E_USAGE);
    tc_run_result_free(&r);
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s THIRD_PARTY_TRACES_DIR\n", argv[0]);
    return 2;
  }
  real_traces_dir = argv[1];
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(small_corpus_matches_model_in_every_config),
      cmocka_unit_test(real_traces_same_in_every_config),
      cmocka_unit_test(empty_corpus_runs),
      cmocka_unit_test(options_outside_their_limits_are_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
