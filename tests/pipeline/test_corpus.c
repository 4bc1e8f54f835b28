/* The corpus model on directories built here: site naming, what is listed
 * and what skipped, the order, the manifest's sites, one file reached by
 * several paths, and inputs that cannot be read. Every expectation is
 * derived from the files the test itself creates. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pipeline/tc_corpus.h"
#include "testdir.h"

static void site_of_file_strips_every_ending(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"artifacts__lr__trace.json.gz", "artifacts__lr"},
      {"traces__amp-m86.trace.json", "traces__amp-m86"},
      {"some/dir/traces__load.json", "traces__load"},
      {"site.json.zst", "site"},
      {"x.gz.json.gz", "x"},             /* repeatedly, in any order */
      {"a__trace.trace.json", "a"},
      {"report.txt", "report.txt"},      /* other endings stay */
      {"json", "json"},                  /* no dot: not an ending */
      {".json", ".json"},                /* never down to an empty name */
      {"d/.gz", ".gz"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *s = tc_corpus_site_of_file(cases[i][0]);
    assert_non_null(s);
    assert_string_equal(s, cases[i][1]);
    free(s);
  }
}

/* A trace file's bytes are its path under the corpus, so sizes differ. */
static void put(const char *dir, const char *rel) {
  assert_int_equal(testdir_write(dir, rel, rel, strlen(rel)), 0);
}

/* Sites are made in reverse order, files within a site too. */
static char *make_corpus(void) {
  char *dir = testdir_new();
  assert_non_null(dir);
  static const char *const dirs[] = {"zeta", "mid", "alpha", "empty", "zeta/nested"};
  for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
    assert_int_equal(testdir_mkdir(dir, dirs[i]), 0);
  static const char *const files[] = {
      "zeta/t2.json", "zeta/t1.json.gz", "zeta/nested/deeper.json", "mid/only.json",
      "alpha/b.json", "alpha/a.json",
      "top__trace.json.gz", "alpha.trace.json", /* top-level: sites "top", "alpha" */
      /* never traces */
      "manifest.tsv", "manifest.json", "README.md", "README", ".hidden", "zeta/.hidden",
      "zeta/README.txt", "alpha/manifest.tsv",
  };
  for (size_t i = 0; i < sizeof files / sizeof *files; i++)
    put(dir, files[i]);
  return dir;
}

typedef struct {
  const char *site, *rel; /* expected order */
} listed;

/* The corpus above, as it must be listed: sites by name, traces by site
 * then path; "zeta/nested" is not a site file and the skipped names are
 * nowhere. */
static const listed expected[] = {
    {"alpha", "alpha.trace.json"}, {"alpha", "alpha/a.json"}, {"alpha", "alpha/b.json"},
    {"mid", "mid/only.json"},      {"top", "top__trace.json.gz"},
    {"zeta", "zeta/t1.json.gz"},   {"zeta", "zeta/t2.json"},
};
static const char *const expected_sites[] = {"alpha", "empty", "mid", "top", "zeta"};
#define NEXPECTED (sizeof expected / sizeof *expected)
#define NSITES (sizeof expected_sites / sizeof *expected_sites)

static uint32_t traces_of(const char *site) {
  uint32_t n = 0;
  for (size_t i = 0; i < NEXPECTED; i++)
    n += strcmp(expected[i].site, site) == 0;
  return n;
}

/* Checks C against the expected listing of the corpus at DIR, whose paths
 * may have been spelt with PREFIX in place of DIR. */
static void check_listing(const tc_corpus *c, const char *prefix) {
  assert_int_equal(c->nsites, NSITES);
  for (uint32_t i = 0; i < NSITES; i++) {
    assert_string_equal(c->sites[i].name, expected_sites[i]);
    assert_int_equal(c->sites[i].ntraces, traces_of(expected_sites[i]));
    assert_int_equal(c->sites[i].in_manifest, 0);
    assert_null(c->sites[i].status);
    assert_null(c->sites[i].reason);
  }
  assert_int_equal(c->ntraces, NEXPECTED);
  uint64_t bytes = 0;
  for (uint32_t i = 0; i < NEXPECTED; i++) {
    char *want = testdir_path(prefix, expected[i].rel);
    assert_string_equal(c->traces[i].path, want);
    free(want);
    assert_string_equal(c->sites[c->traces[i].site].name, expected[i].site);
    struct stat st;
    assert_int_equal(stat(c->traces[i].path, &st), 0);
    assert_int_equal(c->traces[i].size, strlen(expected[i].rel));
    assert_int_equal(c->traces[i].size, (uint64_t)st.st_size);
    assert_int_equal(c->traces[i].ino, (uint64_t)st.st_ino);
    bytes += c->traces[i].size;
  }
  assert_int_equal(c->bytes, bytes);
}

static void directory_listed_sorted_and_filtered(void **state) {
  (void)state;
  char *dir = make_corpus();
  const char *in[] = {dir};
  tc_corpus c;
  assert_int_equal(tc_corpus_scan(in, 1, NULL, &c), TC_OK);
  assert_null(c.problem);
  check_listing(&c, dir);
  tc_corpus_free(&c);
  testdir_free(dir);
}

/* Single files given in reverse order land in the same order as from a
 * directory; the site is the file name less its endings. */
static void file_inputs_sorted(void **state) {
  (void)state;
  char *dir = make_corpus();
  char *a = testdir_path(dir, "zeta/t2.json"), *b = testdir_path(dir, "top__trace.json.gz"),
       *d = testdir_path(dir, "alpha/b.json");
  const char *in[] = {a, b, d};
  tc_corpus c;
  assert_int_equal(tc_corpus_scan(in, 3, NULL, &c), TC_OK);
  static const char *const sites[] = {"b", "t2", "top"};
  const char *paths[] = {d, a, b};
  assert_int_equal(c.nsites, 3);
  assert_int_equal(c.ntraces, 3);
  for (uint32_t i = 0; i < 3; i++) {
    assert_string_equal(c.sites[i].name, sites[i]);
    assert_int_equal(c.sites[i].ntraces, 1);
    assert_string_equal(c.traces[i].path, paths[i]);
    assert_int_equal(c.traces[i].site, i);
  }
  tc_corpus_free(&c);
  free(a);
  free(b);
  free(d);
  testdir_free(dir);
}

static tc_err scan_with_manifest(const char *dir, const char *manifest_text, tc_corpus *c) {
  assert_int_equal(testdir_write(dir, "sites.tsv", manifest_text, strlen(manifest_text)), 0);
  char *m = testdir_path(dir, "sites.tsv");
  /* Only two of the site directories are inputs, so sites.tsv, beside
   * them, is not a trace. */
  char *alpha = testdir_path(dir, "alpha"), *zeta = testdir_path(dir, "zeta");
  const char *in[] = {zeta, alpha};
  tc_err e = tc_corpus_scan(in, 2, m, c);
  free(m);
  free(alpha);
  free(zeta);
  return e;
}

/* Given as inputs, "alpha" and "zeta" are corpus directories: each file in
 * them is a site of its own (a.json is "a") and zeta/nested is a site
 * directory. */
static void manifest_adds_sites_and_keeps_status(void **state) {
  (void)state;
  char *dir = make_corpus();
  tc_corpus c;
  /* Columns in any order, CRLF, blank lines, a row without a site, a site
   * listed twice (the first status and reason stay), a row short of
   * columns. */
  const char *text = "reason\tsite\tstatus\r\n"
                     "\tb\tok\r\n"
                     "\r\n"
                     "timeout after 60 s\tghost\tfailed\n"
                     "dns\t\tfailed\n"
                     "later reason\tghost\tlater\n"
                     "\tshort\n"
                     "crashed\tt2\tpartial\n";
  assert_int_equal(scan_with_manifest(dir, text, &c), TC_OK);
  static const struct {
    const char *name, *status, *reason;
    int in_manifest;
    uint32_t ntraces;
  } want[] = {
      {"a", NULL, NULL, 0, 1},   {"b", "ok", NULL, 1, 1},
      {"ghost", "failed", "timeout after 60 s", 1, 0},
      {"nested", NULL, NULL, 0, 1}, {"short", NULL, NULL, 1, 0},
      {"t1", NULL, NULL, 0, 1},  {"t2", "partial", "crashed", 1, 1},
  };
  /* S is the union: 5 sites with traces, 2 more from the manifest. */
  assert_int_equal(c.nsites, sizeof want / sizeof *want);
  for (uint32_t i = 0; i < c.nsites; i++) {
    const tc_site *s = &c.sites[i];
    assert_string_equal(s->name, want[i].name);
    assert_int_equal(s->in_manifest, want[i].in_manifest);
    assert_int_equal(s->ntraces, want[i].ntraces);
    if (want[i].status)
      assert_string_equal(s->status, want[i].status);
    else
      assert_null(s->status);
    if (want[i].reason)
      assert_string_equal(s->reason, want[i].reason);
    else
      assert_null(s->reason);
  }
  assert_int_equal(c.ntraces, 5);
  tc_corpus_free(&c);
  testdir_free(dir);
}

static void bad_manifests_rejected(void **state) {
  (void)state;
  char *dir = make_corpus();
  static const char *const bad[] = {
      "url\tstatus\nalpha\tok\n", /* no site column */
      "",                         /* no header */
      "\n\r\n",                   /* blank lines only */
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    tc_corpus c;
    assert_int_equal(scan_with_manifest(dir, bad[i], &c), TC_E_BAD_MANIFEST);
    /* Nothing is handed out on failure. */
    assert_null(c.sites);
    assert_null(c.traces);
    assert_int_equal(c.nsites, 0);
    assert_int_equal(c.ntraces, 0);
  }
  char *missing = testdir_path(dir, "no-such-manifest.tsv");
  const char *in[] = {dir};
  tc_corpus c;
  assert_int_equal(tc_corpus_scan(in, 1, missing, &c), TC_E_BAD_MANIFEST);
  assert_null(c.sites);
  free(missing);
  testdir_free(dir);
}

/* "dir" and "dir/" reach the same files by different spellings; listing a
 * directory twice, or with a file of it, lists each file once. */
static void same_file_counted_once(void **state) {
  (void)state;
  char *dir = make_corpus();
  char *slash = testdir_path(dir, "");
  const char *in[] = {slash, dir, dir};
  tc_corpus c;
  assert_int_equal(tc_corpus_scan(in, 3, NULL, &c), TC_OK);
  assert_null(c.problem);
  /* "DIR//x" sorts before "DIR/x": the slash spelling is first in corpus
   * order and keeps every file. */
  check_listing(&c, slash);
  tc_corpus_free(&c);
  free(slash);
  testdir_free(dir);
}

/* A symlink in another site's directory is the same file as its target:
 * one trace, its bytes counted once, kept by the site first in order. */
static void symlinked_file_counted_once(void **state) {
  (void)state;
  char *dir = make_corpus();
  assert_int_equal(testdir_mkdir(dir, "zz-links"), 0);
  char *target = testdir_path(dir, "alpha/a.json"), *link = testdir_path(dir, "zz-links/a.json");
  assert_int_equal(symlink(target, link), 0);
  const char *in[] = {dir};
  tc_corpus c;
  assert_int_equal(tc_corpus_scan(in, 1, NULL, &c), TC_OK);
  assert_int_equal(c.ntraces, NEXPECTED);
  uint64_t bytes = 0;
  for (size_t i = 0; i < NEXPECTED; i++)
    bytes += strlen(expected[i].rel);
  assert_int_equal(c.bytes, bytes);
  for (uint32_t i = 0; i < c.ntraces; i++)
    assert_string_not_equal(c.traces[i].path, link);
  assert_int_equal(c.nsites, NSITES + 1);
  assert_string_equal(c.sites[c.nsites - 1].name, "zz-links");
  assert_int_equal(c.sites[c.nsites - 1].ntraces, 0);
  tc_corpus_free(&c);
  free(target);
  free(link);
  testdir_free(dir);
}

/* A file given both inside its site folder and on its own stays with the
 * folder's site; the single-file spelling leaves no phantom site behind. */
static void file_inside_and_alone_is_one_site(void **state) {
  (void)state;
  char *dir = make_corpus();
  char *file = testdir_path(dir, "alpha/a.json");
  const char *in[] = {dir, file};
  tc_corpus c;
  assert_int_equal(tc_corpus_scan(in, 2, NULL, &c), TC_OK);
  assert_int_equal(c.nsites, NSITES);
  for (uint32_t i = 0; i < c.nsites; i++)
    assert_string_not_equal(c.sites[i].name, "a");
  assert_int_equal(c.ntraces, NEXPECTED);
  tc_corpus_free(&c);
  free(file);
  testdir_free(dir);
}

/* An input that cannot be read is named and skipped; the rest is listed.
 * Only the first problem is kept. */
static void unreadable_input_named(void **state) {
  (void)state;
  char *dir = make_corpus();
  char *missing = testdir_path(dir, "no-such-dir"), *missing2 = testdir_path(dir, "gone.json");
  const char *in[] = {missing, dir, missing2};
  tc_corpus c;
  assert_int_equal(tc_corpus_scan(in, 3, NULL, &c), TC_OK);
  assert_non_null(c.problem);
  assert_string_equal(c.problem, missing);
  check_listing(&c, dir);
  tc_corpus_free(&c);
  free(missing);
  free(missing2);
  testdir_free(dir);
}

/* A site directory without read permission: the site is still listed
 * (with no traces) and the directory is named. Root reads it anyway, so
 * then there is nothing to test. */
static void unreadable_site_dir_named(void **state) {
  (void)state;
  char *dir = make_corpus();
  char *mid = testdir_path(dir, "mid");
  assert_int_equal(chmod(mid, 0), 0);
  if (access(mid, R_OK) == 0) {
    free(mid);
    testdir_free(dir);
    skip();
  }
  const char *in[] = {dir};
  tc_corpus c;
  assert_int_equal(tc_corpus_scan(in, 1, NULL, &c), TC_OK);
  assert_non_null(c.problem);
  assert_string_equal(c.problem, mid);
  assert_int_equal(c.ntraces, NEXPECTED - traces_of("mid"));
  assert_int_equal(c.nsites, NSITES);
  assert_string_equal(c.sites[2].name, "mid");
  assert_int_equal(c.sites[2].ntraces, 0);
  tc_corpus_free(&c);
  free(mid);
  testdir_free(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(site_of_file_strips_every_ending),
      cmocka_unit_test(directory_listed_sorted_and_filtered),
      cmocka_unit_test(file_inputs_sorted),
      cmocka_unit_test(manifest_adds_sites_and_keeps_status),
      cmocka_unit_test(bad_manifests_rejected),
      cmocka_unit_test(same_file_counted_once),
      cmocka_unit_test(symlinked_file_counted_once),
      cmocka_unit_test(file_inside_and_alone_is_one_site),
      cmocka_unit_test(unreadable_input_named),
      cmocka_unit_test(unreadable_site_dir_named),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
