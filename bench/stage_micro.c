/* The per-stage micro benchmark (zstd's fullbench beside its benchzstd):
 * each stage of the pipeline alone, on one thread, over one trace held in
 * memory, so a change to one stage is measured without the others' noise.
 *
 *   stage_micro [--reps N] TRACE
 *
 * Stages, each timed over the whole trace, interleaved rep by rep:
 *   decompress  tc_stream over the file's bytes in memory (zstd, gzip or
 *               plain), 1 MiB reads, as the run reads
 *   chunk       tc_chunker over the decompressed JSON in 1 MiB pieces
 *   parse       tc_parser_parse of every chunk
 *   census      tc_census_add_chunk and tc_route_chunk of every parsed chunk
 *               (parsing untimed), as the run's "census tables" stage
 *   walk        the plain On-Demand walk of the same file (json/tc_walk.h),
 *               decompression included, for scale
 * Prints the median, min and max MB/s of decompressed JSON per stage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "census/tc_census.h"
#include "io/tc_stream.h"
#include "json/tc_chunker.h"
#include "json/tc_parser.h"
#include "json/tc_walk.h"
#include "kernels/tc_kernels.h"
#include "pipeline/tc_bench.h"
#include "pipeline/tc_route.h"
#include "pipeline/tc_seq.h"
#include "pipeline/tc_stage_clock.h"

#define PIECE (1u << 20)
#define MAX_REPS 1000

enum { S_DECOMPRESS, S_CHUNK, S_PARSE, S_CENSUS, S_WALK, S_COUNT };
static const char *const names[S_COUNT] = {"decompress", "chunk", "parse", "census", "walk"};

static char *read_file(const char *path, size_t *len) {
  FILE *fp = fopen(path, "rb");
  if (!fp)
    return NULL;
  fseek(fp, 0, SEEK_END);
  long n = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  char *b = malloc(n > 0 ? (size_t)n : 1);
  if (b && fread(b, 1, (size_t)n, fp) != (size_t)n) {
    free(b);
    b = NULL;
  }
  fclose(fp);
  *len = (size_t)n;
  return b;
}

/* The decompressed JSON, into *JSON (grown as needed). */
static size_t decompress(const char *file, size_t flen, char **json, size_t *cap) {
  tc_stream *s;
  if (tc_stream_open_mem(file, flen, &s))
    return 0;
  size_t n = 0, got;
  for (;;) {
    if (*cap < n + PIECE) {
      *cap = (n + PIECE) * 2;
      *json = realloc(*json, *cap);
    }
    if (tc_stream_read(s, *json + n, PIECE, &got) || got == 0)
      break;
    n += got;
  }
  tc_stream_close(s);
  return n;
}

static size_t chunk_all(const char *json, size_t n, tc_chunk ***out) {
  tc_chunker *ch = tc_chunker_create(1u << 20, (size_t)512 << 20);
  size_t nchunks = 0, cap = 0;
  tc_chunk **chunks = NULL;
  for (size_t off = 0; off < n;) {
    size_t len = n - off < PIECE ? n - off : PIECE, pos = 0;
    while (pos < len) {
      tc_chunk *ready = NULL;
      if (tc_chunker_feed(ch, json + off, len, &pos, &ready))
        pos = len;
      if (ready) {
        if (nchunks == cap)
          chunks = realloc(chunks, (cap = cap ? cap * 2 : 64) * sizeof *chunks);
        chunks[nchunks++] = ready;
      }
    }
    off += len;
  }
  tc_chunk *last = NULL;
  tc_chunker_finish(ch, &last);
  if (last) {
    chunks = realloc(chunks, (nchunks + 1) * sizeof *chunks);
    chunks[nchunks++] = last;
  }
  tc_chunker_free(ch);
  *out = chunks;
  return nchunks;
}

static void free_chunks(tc_chunk **c, size_t n) {
  for (size_t i = 0; i < n; i++)
    tc_chunk_free(c[i]);
  free(c);
}

int main(int argc, char **argv) {
  unsigned reps = 5;
  const char *path = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      reps = (unsigned)atoi(argv[++i]);
    else
      path = argv[i];
  }
  if (!path || reps < 1 || reps > MAX_REPS) {
    fputs("usage: stage_micro [--reps N] TRACE\n", stderr);
    return 2;
  }
  size_t flen;
  char *file = read_file(path, &flen);
  if (!file) {
    perror(path);
    return 2;
  }
  size_t nwanted;
  const char *const *wanted = tc_kernels_arg_paths(&nwanted);
  tc_parser *parser = tc_parser_create(wanted, nwanted);
  char *json = NULL;
  size_t cap = 0, n = 0;
  static double sec[S_COUNT][MAX_REPS];
  for (unsigned r = 0; r < reps; r++) {
    uint64_t t0 = tc_clock_ns();
    n = decompress(file, flen, &json, &cap);
    sec[S_DECOMPRESS][r] = (double)(tc_clock_ns() - t0) * 1e-9;

    tc_chunk **chunks;
    t0 = tc_clock_ns();
    size_t nchunks = chunk_all(json, n, &chunks);
    sec[S_CHUNK][r] = (double)(tc_clock_ns() - t0) * 1e-9;

    tc_parsed p;
    t0 = tc_clock_ns();
    for (size_t i = 0; i < nchunks; i++)
      tc_parser_parse(parser, chunks[i], &p);
    sec[S_PARSE][r] = (double)(tc_clock_ns() - t0) * 1e-9;

    /* A fresh census per rep, as a run starts with empty tables. */
    tc_census_worker *w = tc_census_worker_create(1, parser);
    tc_router *router = tc_router_create(parser);
    uint64_t census_ns = 0;
    for (size_t i = 0; i < nchunks; i++) {
      tc_parser_parse(parser, chunks[i], &p);
      tc_seq seq;
      tc_seq_init(&seq);
      t0 = tc_clock_ns();
      tc_census_add_chunk(w, (tc_origin){0, 0}, chunks[i], &p);
      tc_route_chunk(router, chunks[i], &p, 1, &seq);
      census_ns += tc_clock_ns() - t0;
      tc_seq_free(&seq);
    }
    sec[S_CENSUS][r] = (double)census_ns * 1e-9;
    tc_census_worker_free(w);
    tc_router_free(router);
    free_chunks(chunks, nchunks);

    tc_walk *wk = tc_walk_create(0);
    t0 = tc_clock_ns();
    tc_walk_file(wk, path);
    sec[S_WALK][r] = (double)(tc_clock_ns() - t0) * 1e-9;
    tc_walk_free(wk);
  }
  printf("%s: %.1f MB on disk, %.1f MB of JSON; %u interleaved reps, one thread\n", path,
         flen / 1e6, n / 1e6, reps);
  printf("  %-12s %10s %10s %10s  (MB/s of JSON)\n", "stage", "median", "min", "max");
  for (int s = 0; s < S_COUNT; s++) {
    tc_bench_stat st = tc_bench_stats(sec[s], reps);
    printf("  %-12s %10.1f %10.1f %10.1f\n", names[s], n / 1e6 / st.median, n / 1e6 / st.max,
           n / 1e6 / st.min);
  }
  free(json);
  free(file);
  tc_parser_free(parser);
  return 0;
}
