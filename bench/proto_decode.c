/* The Perfetto reader's speed beside the library's own limit (issue 22):
 * one thread, one protobuf trace held in memory (decompressed first), each
 * stage timed over the whole trace, interleaved rep by rep, medians.
 *
 *   proto_decode [--reps N] TRACE        (plain, gzip or zstd)
 *
 *   unpack  protobuf-c alone (proto/tc_proto_unpack.h): every
 *           TracePacket unpacked and freed, nothing else: what decoding
 *           the same packets costs at least
 *   read    tc_proto: the same packets unpacked and made into JSON events,
 *           handed to a sink that only counts them
 * Prints per stage the median MB/s of protobuf bytes and million events per
 * second (events: those the reader makes), and min and max MB/s. The
 * stages after it (the chunker with the reader inside, the parser, the
 * census tables) are stage_micro's, which reads a protobuf trace too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/tc_stream.h"
#include "proto/tc_proto.h"
#include "proto/tc_proto_unpack.h"
#include "util/tc_time.h"

#define PIECE (1u << 20)
#define MAX_REPS 1000

enum { S_UNPACK, S_READ, S_COUNT };
static const char *const names[S_COUNT] = {"unpack", "read"};

static unsigned char *load(const char *path, size_t *len) {
  tc_stream *s;
  if (tc_stream_open(path, &s))
    return NULL;
  size_t n = 0, cap = 0, got;
  unsigned char *b = NULL;
  for (;;) {
    if (cap < n + PIECE) {
      cap = (n + PIECE) * 2;
      unsigned char *nb = realloc(b, cap);
      if (!nb) {
        free(b);
        tc_stream_close(s);
        return NULL;
      }
      b = nb;
    }
    if (tc_stream_read(s, b + n, PIECE, &got) || got == 0)
      break;
    n += got;
  }
  tc_stream_close(s);
  *len = n;
  return b;
}

static tc_err count_event(void *ctx, const char *json, size_t len, uint64_t offset) {
  (void)json;
  (void)len;
  (void)offset;
  (*(uint64_t *)ctx)++;
  return TC_OK;
}

static void count_skip(void *ctx, uint64_t offset, tc_err code) {
  (void)ctx;
  (void)offset;
  (void)code;
}

static uint64_t read_all(const unsigned char *p, size_t n) {
  uint64_t events = 0;
  tc_proto_sink sink = {count_event, count_skip, &events};
  tc_proto *r = tc_proto_create(&sink);
  for (size_t off = 0; r && off < n;) {
    size_t len = n - off < PIECE ? n - off : PIECE, pos = 0;
    while (pos < len)
      if (tc_proto_feed(r, p + off, len, &pos))
        break;
    off += len;
  }
  if (r)
    tc_proto_finish(r);
  tc_proto_free(r);
  return events;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  int reps = 7;
  const char *path = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      reps = atoi(argv[++i]);
    else
      path = argv[i];
  }
  if (!path || reps < 1 || reps > MAX_REPS) {
    fprintf(stderr, "usage: proto_decode [--reps N] TRACE\n");
    return 2;
  }
  size_t n;
  unsigned char *p = load(path, &n);
  if (!p) {
    fprintf(stderr, "proto_decode: cannot read %s\n", path);
    return 1;
  }
  static double secs[S_COUNT][MAX_REPS];
  uint64_t events = 0, packets = 0;
  for (int r = 0; r < reps; r++) {
    double t0 = tc_now_seconds();
    packets = tc_proto_unpack_all(p, n, NULL);
    double t1 = tc_now_seconds();
    events = read_all(p, n);
    double t2 = tc_now_seconds();
    secs[S_UNPACK][r] = t1 - t0;
    secs[S_READ][r] = t2 - t1;
  }
  printf("%s: %.1f MB of protobuf, %llu packets, %llu events; %d reps, one thread\n", path,
         (double)n / 1e6, (unsigned long long)packets, (unsigned long long)events, reps);
  printf("%-7s %10s %12s %10s %10s\n", "stage", "MB/s", "Mevents/s", "min MB/s", "max MB/s");
  /* Reps were interleaved, so the ratio of medians compares like with like. */
  for (int s = 0; s < S_COUNT; s++) {
    qsort(secs[s], (size_t)reps, sizeof secs[s][0], cmp_double);
    double med = secs[s][reps / 2];
    printf("%-7s %10.1f %12.2f %10.1f %10.1f\n", names[s], (double)n / 1e6 / med,
           (double)events / 1e6 / med, (double)n / 1e6 / secs[s][reps - 1],
           (double)n / 1e6 / secs[s][0]);
  }
  printf("read / unpack: x%.2f\n", secs[S_UNPACK][reps / 2] / secs[S_READ][reps / 2]);
  free(p);
  return 0;
}
