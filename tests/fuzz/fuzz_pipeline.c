/* libFuzzer target for the whole pipeline: the input is one trace file in
 * a corpus that also holds two good traces, and it goes through everything
 * a census run does (corpus scan, stream, chunker, parser, census tables,
 * pairing, metric kernels, merge, DevTools view, every report writer).
 *
 * Each input runs twice, with one thread and 1 MiB chunks and with two
 * threads and chunks of 4,096 to 8,176 bytes (the smallest tc_run takes,
 * TC_MIN_CHUNK_BYTES, plus 16 times the first byte), and must:
 *   - finish without a sanitizer report or leak;
 *   - write byte-identical census.json/csv/md and metrics.json/csv/md both
 *     times (run.json holds timings, so only its presence is checked);
 *   - leave the good traces counted exactly, with no error;
 *   - account for every element of the fuzzed trace: events counted plus
 *     elements skipped never exceed the elements seen.
 * Seeds: small real traces (tests/fuzz/seeds_pipeline.py), and in
 * tests/fuzz/seeds/pipeline/ the inputs that once broke it (rewrite-padding:
 * a broken event read as whole after a longer lenient rewrite, in some
 * chunkings only; tests/json/test_parser.c pins it). */
#define _XOPEN_SOURCE 700 /* nftw */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ftw.h>

#include "census/tc_schema.h"
#include "io/tc_corpus.h"
#include "pipeline/tc_run.h"
#include "reduce/tc_devtools.h"
#include "report/tc_metrics_report.h"
#include "report/tc_census_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Two good traces: B/E pairs, a flow, a complete main-thread task. */
static const char good_a[] =
    "{\"traceEvents\":[{\"name\":\"TracingStartedInBrowser\",\"ph\":\"I\",\"ts\":1,\"pid\":1,"
    "\"tid\":1,\"cat\":\"disabled-by-default-devtools.timeline\",\"args\":{\"data\":{\"frames\":"
    "[{\"frame\":\"F\",\"processId\":2,\"url\":\"http://a/\"}]}}},"
    "{\"name\":\"RunTask\",\"ph\":\"X\",\"ts\":10,\"dur\":70000,\"pid\":2,\"tid\":3,"
    "\"cat\":\"disabled-by-default-devtools.timeline\"},"
    "{\"name\":\"B1\",\"ph\":\"B\",\"ts\":20,\"pid\":2,\"tid\":3},"
    "{\"name\":\"B1\",\"ph\":\"E\",\"ts\":30,\"pid\":2,\"tid\":3}],"
    "\"metadata\":{\"product-version\":\"Chrome/1\"}}";
static const char good_b[] =
    "[{\"name\":\"f\",\"ph\":\"s\",\"id\":7,\"cat\":\"c\",\"ts\":5,\"pid\":1,\"tid\":1},"
    "{\"name\":\"f\",\"ph\":\"f\",\"id\":7,\"cat\":\"c\",\"ts\":6,\"pid\":1,\"tid\":1},"
    "{\"name\":\"X\",\"ph\":\"X\",\"ts\":7,\"dur\":3.5,\"pid\":1,\"tid\":1,\"args\":{\"n\":[1,2]}}]";
enum { GOOD_A_EVENTS = 4, GOOD_B_EVENTS = 3 };

static char dir[256], corpus[300], fuzzed[340];
static tc_schema *schema;

static void put_file(const char *path, const void *p, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0)
    abort();
}

static void make_site(const char *site, const char *text) {
  char p[400];
  snprintf(p, sizeof p, "%s/%s", corpus, site);
  if (mkdir(p, 0700) != 0)
    abort();
  snprintf(p, sizeof p, "%s/%s/trace.json", corpus, site);
  put_file(p, text, strlen(text));
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

/* An empty folder at PATH: the writers create files that must not exist. */
static void fresh_dir(const char *path) {
  nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  if (mkdir(path, 0700) != 0)
    abort();
}

static void cleanup(void) {
  nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  tc_schema_free(schema);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  snprintf(dir, sizeof dir, "%s/tc-fuzz-pipeline-XXXXXX", base);
  if (!mkdtemp(dir))
    abort();
  snprintf(corpus, sizeof corpus, "%s/corpus", dir);
  if (mkdir(corpus, 0700) != 0)
    abort();
  make_site("good-a", good_a);
  make_site("good-b", good_b);
  make_site("fuzzed", "[]");
  atexit(cleanup);
  snprintf(fuzzed, sizeof fuzzed, "%s/fuzzed/trace.json", corpus);
  int line;
  /* Without the schema the DevTools fields are null; the rest still runs. */
  if (tc_schema_load(TC_DEFAULT_SCHEMA, &schema, &line) != TC_OK)
    schema = NULL;
  return 0;
}

#define NCOMPARED 8

typedef struct {
  char *bytes[NCOMPARED];
  size_t len[NCOMPARED];
} outputs;

static const char *const compared[NCOMPARED] = {"census.json",  "census.csv",  "census.md",
                                                "census_args.csv", "metrics.json", "metrics.csv",
                                                "metrics.md", "report.html"};

static void read_outputs(const char *out, outputs *o) {
  for (int i = 0; i < NCOMPARED; i++) {
    char p[400];
    snprintf(p, sizeof p, "%s/%s", out, compared[i]);
    FILE *f = fopen(p, "rb");
    if (!f)
      abort();
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    o->bytes[i] = malloc((size_t)n + 1);
    if (!o->bytes[i] || fread(o->bytes[i], 1, (size_t)n, f) != (size_t)n)
      abort();
    o->len[i] = (size_t)n;
    fclose(f);
  }
  char p[400];
  snprintf(p, sizeof p, "%s/run.json", out);
  if (access(p, R_OK) != 0)
    abort();
}

static void check_good(const tc_corpus *c, const tc_run_result *r, const char *site,
                       uint64_t events) {
  for (uint32_t i = 0; i < c->ntraces; i++) {
    if (strcmp(c->sites[c->traces[i].site].name, site) != 0)
      continue;
    tc_trace_status status;
    const tc_trace_status *st = &status;
    unsigned char *buf = NULL;
    size_t cap = 0;
    tc_err e = tc_trace_rows_get(&r->tables.traces, i, &status, NULL, NULL, &buf, &cap);
    free(buf);
    if (e || st->fatal || st->stream_err || st->bad_events || st->events != events ||
        st->shape.trailing_bytes)
      abort();
    return;
  }
  abort();
}

/* One census of the corpus into OUT, as `tracecensus census` runs it. */
static void census(unsigned threads, size_t chunk, const char *out, outputs *o) {
  const char *in[] = {corpus};
  tc_corpus c;
  if (tc_corpus_scan(in, 1, NULL, &c) != TC_OK || c.ntraces != 3)
    abort();
  tc_run_opts opts;
  tc_run_opts_default(&opts);
  opts.threads = threads;
  opts.chunk_bytes = chunk;
  tc_run_result r;
  if (tc_run(&c, &opts, &r) != TC_OK)
    abort();
  check_good(&c, &r, "good-a", GOOD_A_EVENTS);
  check_good(&c, &r, "good-b", GOOD_B_EVENTS);
  unsigned char *buf = NULL;
  size_t cap = 0;
  for (uint32_t i = 0; i < c.ntraces; i++) {
    tc_trace_status st;
    if (tc_trace_rows_get(&r.tables.traces, i, &st, NULL, NULL, &buf, &cap) ||
        st.events + st.bad_events > st.elements)
      abort();
  }
  free(buf);
  tc_devtools dt;
  int have_dt = schema && tc_devtools_compute(&r.tables.census, schema, &dt) == TC_OK;
  fresh_dir(out);
  tc_report_ctx ctx = {&c, &r.tables.census, &r.tables.traces, &r.tables.totals, NULL, NULL, have_dt ? &dt : NULL,
                       TC_DEFAULT_SCHEMA, schema ? tc_schema_generator(schema) : NULL,
                       have_dt ? NULL : "no schema"};
  const tc_metrics_reduction *mr = r.tables.metrics;
  if (tc_write_census_json(&ctx, out, NULL) || tc_write_census_csv(&ctx, out, NULL) ||
      tc_write_census_md(&ctx, out, NULL) || tc_write_census_args_csv(&ctx, out, NULL) ||
      tc_write_run_json(&ctx, out, NULL) ||
      tc_write_metrics_csv(mr, out, NULL) || tc_write_metrics_json(mr, out, NULL) ||
      tc_write_metrics_md(mr, out, NULL) || tc_write_report_html(&ctx, mr, out, NULL))
    abort();
  read_outputs(out, o);
  if (have_dt)
    tc_devtools_free(&dt);
  tc_run_result_free(&r);
  tc_corpus_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  put_file(fuzzed, data + 1, size - 1);
  char out1[400], out2[400];
  snprintf(out1, sizeof out1, "%s/out1", dir);
  snprintf(out2, sizeof out2, "%s/out2", dir);
  outputs a, b;
  census(1, 1u << 20, out1, &a);
  census(2, TC_MIN_CHUNK_BYTES + (size_t)data[0] * 16, out2, &b);
  for (int i = 0; i < NCOMPARED; i++) {
    if (a.len[i] != b.len[i] || memcmp(a.bytes[i], b.bytes[i], a.len[i]) != 0) {
      fprintf(stderr, "fuzz_pipeline: %s differs between the two runs\n", compared[i]);
      abort();
    }
    free(a.bytes[i]);
    free(b.bytes[i]);
  }
  return 0;
}
