/* libFuzzer target for `tracecensus diff`'s reading of output folders,
 * which may be damaged, of another version or crafted: the input is the
 * three files a census writes, census.json, run.json and metrics.json, in
 * that order, separated by SEP (a missing third file is a --no-metrics
 * run's folder). They are put in a folder, read back with tc_diff_load and,
 * when accepted, compared with themselves and with the bundled crawl's
 * outputs both ways, and every writer run on the results: no crash, no
 * undefined behaviour, no leak; a refusal names a file of the folder. A
 * folder compared with itself must show no change. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diff/tc_diff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SEP "\n--8<--\n"

static char dir[PATH_MAX];
static tc_diff_side *bundled;
static FILE *sink;
static const char *const names[] = {"census.json", "run.json", "metrics.json"};

static void put(const char *name, const uint8_t *p, size_t n) {
  char path[PATH_MAX + 32];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (!f || (n && fwrite(p, 1, n, f) != n) || fclose(f))
    abort();
}

/* The folder goes when the run ends (libFuzzer's time limit exits through
 * exit); a crash leaves it in $TMPDIR, which scripts/fuzz.sh removes. */
static void remove_dir(void) {
  char path[PATH_MAX + 32];
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    unlink(path);
  }
  rmdir(dir);
}

static void setup(void) {
  snprintf(dir, sizeof dir, "%s/tc-fuzz-diff-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  if (!mkdtemp(dir) || atexit(remove_dir) || !(sink = fopen("/dev/null", "w")))
    abort();
  tc_why why;
  if (tc_diff_load(TC_BUNDLED_OUTPUTS, &bundled, &why))
    abort(); /* the seed folder itself must read */
}

static void write_all(const tc_diff *d) {
  tc_diff_write_md(d, sink);
  tc_diff_write_json(d, sink);
  tc_diff_write_csv(d, sink);
  tc_diff_write_html(d, sink);
}

static void compare(const tc_diff_side *a, const tc_diff_side *b, int same) {
  tc_diff *d = NULL;
  if (tc_diff_compute(a, b, "a", "b", &d) == TC_OK) {
    if (same && d->changed && !d->nconditions && !d->events_why)
      abort();
    write_all(d);
  }
  tc_diff_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!sink)
    setup();
  const uint8_t *p = data, *end = data + size;
  int k = 0;
  for (; k < 3 && p <= end; k++) {
    const uint8_t *cut = memmem(p, (size_t)(end - p), SEP, sizeof SEP - 1);
    size_t n = cut ? (size_t)(cut - p) : (size_t)(end - p);
    put(names[k], p, n);
    p = cut ? cut + sizeof SEP - 1 : end + 1;
  }
  char metrics[PATH_MAX + 32];
  snprintf(metrics, sizeof metrics, "%s/metrics.json", dir);
  if (k < 3)
    unlink(metrics);
  tc_diff_side *s = NULL;
  tc_why why;
  tc_err e = tc_diff_load(dir, &s, &why);
  if (e) {
    if (!strstr(why.path, dir) && e != TC_E_NOMEM)
      abort();
  } else {
    compare(s, s, 1);
    compare(s, bundled, 0);
    compare(bundled, s, 0);
  }
  tc_diff_side_free(s);
  return 0;
}
