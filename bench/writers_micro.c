/* The writers' two inner loops, old against new on the same inputs:
 * numbers (the stdio-era snprintf + strtod rounds against tc_numfmt through
 * tc_wbuf) and string escaping (runs through fwrite and escapes through
 * stdio against tc_json_escape into tc_wbuf). Output goes to /dev/null.
 *
 *   writers_micro KERNEL     runs one kernel once, for
 *                            valgrind --tool=callgrind --toggle-collect=KERNEL
 *                            (bench/writers_bench.py divides by the units)
 *   writers_micro --time [REPS]
 *                            every kernel REPS times (default 9), interleaved;
 *                            median nanoseconds per unit
 *
 * Kernels: num_old_report, num_new_report (values as the reports hold them:
 * records per site, durations with three decimals, quantiles, ms from us),
 * num_old_bits, num_new_bits (random bit patterns, 17 digits mostly),
 * escape_old, escape_new (event names and argument paths as
 * bench/wide_corpus.py writes them: one in 16 with bytes to escape, one in
 * 16 with UTF-8). Units: numbers, and bytes of text escaped. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "printf_ref.h"
#include "report/tc_jsonw.h"

#define NUMS 100000
#define NAMES 100000

static double report_vals[NUMS], bit_vals[NUMS];
static char *names[NAMES];
static size_t name_len[NAMES], name_bytes;
static FILE *devnull;
static tc_wbuf out;

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static void make_inputs(void) {
  static const double sites[] = {3, 35, 300};
  for (int i = 0; i < NUMS; i++) {
    uint64_t r = next();
    switch (i % 4) {
    case 0: report_vals[i] = (double)(1 + r % 100000) / sites[r % 3]; break;
    case 1: report_vals[i] = (double)(r % 9973) + (double)(r % 1000) / 1000; break;
    case 2: report_vals[i] = (double)(r % 100000000) / 1e3; break;
    default: report_vals[i] = (double)(r % 1000000) * 1.0078125; break;
    }
    uint64_t b;
    do
      b = next();
    while (((b >> 52) & 0x7ff) == 0x7ff);
    memcpy(&bit_vals[i], &b, sizeof b);
  }
  for (int i = 0; i < NAMES; i++) {
    char s[128];
    int n;
    if (i % 16 == 3)
      n = snprintf(s, sizeof s, "Synthetic.Wide.EventName.%06d.\"quoted\"\\back\tslash", i);
    else if (i % 16 == 7)
      n = snprintf(s, sizeof s, "Synthetic.Wide.EventName.%06d.r\xc3\xa9sum\xc3\xa9.\xe6\x97\xa5", i);
    else if (i % 2)
      n = snprintf(s, sizeof s, "a%d.v", i);
    else
      n = snprintf(s, sizeof s, "Synthetic.Wide.EventName.%06d", i);
    names[i] = malloc((size_t)n);
    memcpy(names[i], s, (size_t)n);
    name_len[i] = (size_t)n;
    name_bytes += (size_t)n;
  }
}

static void nums_old(const double *v) {
  char buf[40];
  for (int i = 0; i < NUMS; i++) {
    printf_ref_num(v[i], buf, sizeof buf);
    fputs(buf, devnull);
  }
  fflush(devnull);
}

static void nums_new(const double *v) {
  for (int i = 0; i < NUMS; i++)
    tc_wbuf_num(&out, v[i]);
  tc_wbuf_flush(&out);
  fflush(devnull);
}

__attribute__((noinline)) void num_old_report(void) { nums_old(report_vals); }
__attribute__((noinline)) void num_new_report(void) { nums_new(report_vals); }
__attribute__((noinline)) void num_old_bits(void) { nums_old(bit_vals); }
__attribute__((noinline)) void num_new_bits(void) { nums_new(bit_vals); }

__attribute__((noinline)) void escape_old(void) {
  for (int i = 0; i < NAMES; i++)
    printf_ref_escape(devnull, (tc_str){names[i], name_len[i]});
  fflush(devnull);
}

__attribute__((noinline)) void escape_new(void) {
  for (int i = 0; i < NAMES; i++)
    tc_json_escape(&out, (tc_str){names[i], name_len[i]});
  tc_wbuf_flush(&out);
  fflush(devnull);
}

static const struct {
  const char *name;
  void (*fn)(void);
  int bytes; /* units are bytes of text, not numbers */
} kernels[] = {
    {"num_old_report", num_old_report, 0}, {"num_new_report", num_new_report, 0},
    {"num_old_bits", num_old_bits, 0},     {"num_new_bits", num_new_bits, 0},
    {"escape_old", escape_old, 1},         {"escape_new", escape_new, 1},
};
#define NKERNELS (sizeof kernels / sizeof *kernels)

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int timed(int reps) {
  double *t = calloc(NKERNELS * (size_t)reps, sizeof *t);
  if (!t)
    return 1;
  for (int r = 0; r < reps; r++)
    for (size_t k = 0; k < NKERNELS; k++) {
      double t0 = now_ns();
      kernels[k].fn();
      t[k * (size_t)reps + (size_t)r] = now_ns() - t0;
    }
  printf("median of %d interleaved runs, ns per unit:\n", reps);
  for (size_t k = 0; k < NKERNELS; k++) {
    qsort(t + k * (size_t)reps, (size_t)reps, sizeof *t, cmp_double);
    double units = kernels[k].bytes ? (double)name_bytes : NUMS;
    printf("  %-16s %10.2f ns per %s\n", kernels[k].name, t[k * (size_t)reps + (size_t)reps / 2] / units,
           kernels[k].bytes ? "byte" : "number");
  }
  free(t);
  return 0;
}

int main(int argc, char **argv) {
  devnull = fopen("/dev/null", "w");
  if (!devnull || argc < 2) {
    fprintf(stderr, "usage: writers_micro KERNEL | --time [REPS]\n");
    return 2;
  }
  tc_wbuf_init(&out, devnull);
  make_inputs();
  if (!strcmp(argv[1], "--units")) { /* for the driver */
    printf("numbers %d bytes %zu\n", NUMS, name_bytes);
    return 0;
  }
  if (!strcmp(argv[1], "--time"))
    return timed(argc > 2 ? atoi(argv[2]) : 9);
  for (size_t k = 0; k < NKERNELS; k++)
    if (!strcmp(argv[1], kernels[k].name)) {
      kernels[k].fn();
      return 0;
    }
  fprintf(stderr, "writers_micro: no kernel %s\n", argv[1]);
  return 2;
}
