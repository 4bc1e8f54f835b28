/* The corpus model on directories built here: site naming, what is listed
 * and what skipped, the order, the manifest's sites, one file reached by
 * several paths, and inputs that cannot be read. Every expectation is
 * derived from the files the test itself creates. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/tc_corpus.h"
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
 * then path; "zeta/nested" is not a site file (it is noted as skipped) and
 * the ignored names are nowhere. */
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
    bytes += c->traces[i].size;
  }
  assert_int_equal(c->bytes, bytes);
}

/* The one entry of the corpus above that is noted as skipped. */
static void assert_nested_skipped(const tc_corpus *c, const char *dir) {
  char *nested = testdir_path(dir, "zeta/nested");
  assert_int_equal(c->nskipped, 1);
  assert_string_equal(c->skipped[0].path, nested);
  assert_string_equal(c->skipped[0].why,
                      "a folder inside a site folder (traces lie directly in it)");
  free(nested);
}

static void directory_listed_sorted_and_filtered(void **state) {
  (void)state;
  char *dir = make_corpus();
  const char *in[] = {dir};
  tc_corpus c;
  assert_int_equal(tc_corpus_scan(in, 1, NULL, &c), TC_OK);
  assert_nested_skipped(&c, dir);
  assert_int_equal(c.nwarnings, 0);
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
  /* The row with an empty site cell is named by its line, not dropped. */
  assert_int_equal(c.nskipped, 1);
  assert_int_equal(c.skipped[0].line, 5);
  assert_string_equal(c.skipped[0].why, "row has an empty site cell; ignored");
  tc_corpus_free(&c);
  testdir_free(dir);
}

/* A byte order mark before the header, a site column far to the right
 * (past any fixed field limit) and rows short of it. */
static void manifest_bom_and_wide_rows(void **state) {
  (void)state;
  char *dir = make_corpus();
  char text[8192] = "\xEF\xBB\xBF";
  for (int i = 0; i < 80; i++)
    snprintf(text + strlen(text), sizeof text - strlen(text), "col%d\t", i);
  strcat(text, "site\tstatus\n");
  for (int row = 0; row < 2; row++) {
    for (int i = 0; i < 80; i++)
      strcat(text, "v\t");
    strcat(text, row ? "far\tfailed\n" : "b\tok\n");
  }
  strcat(text, "too\tshort\n");
  tc_corpus c;
  assert_int_equal(scan_with_manifest(dir, text, &c), TC_OK);
  const tc_site *far = NULL, *b = NULL;
  for (uint32_t i = 0; i < c.nsites; i++) {
    if (strcmp(c.sites[i].name, "far") == 0)
      far = &c.sites[i];
    if (strcmp(c.sites[i].name, "b") == 0)
      b = &c.sites[i];
  }
  assert_non_null(far);
  assert_non_null(b);
  assert_int_equal(far->in_manifest, 1);
  assert_string_equal(far->status, "failed");
  assert_string_equal(b->status, "ok");
  assert_int_equal(c.nskipped, 1);
  assert_int_equal(c.skipped[0].line, 4);
  assert_string_equal(c.skipped[0].why, "row has no site column; ignored");
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
  assert_int_equal(tc_corpus_scan(in, 1, missing, &c), TC_E_OPEN);
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

/* Every input that cannot be read is named and skipped, with why; the
 * rest is listed. */
static void unreadable_inputs_named(void **state) {
  (void)state;
  char *dir = make_corpus();
  char *missing = testdir_path(dir, "no-such-dir"), *missing2 = testdir_path(dir, "gone.json");
  const char *in[] = {missing2, dir, missing};
  tc_corpus c;
  assert_int_equal(tc_corpus_scan(in, 3, NULL, &c), TC_OK);
  /* By path, whatever the order given: gone.json, no-such-dir, zeta/nested. */
  assert_int_equal(c.nskipped, 3);
  assert_string_equal(c.skipped[0].path, missing2);
  assert_string_equal(c.skipped[1].path, missing);
  for (int i = 0; i < 2; i++)
    assert_string_equal(c.skipped[i].why, "cannot be read: No such file or directory");
  check_listing(&c, dir);
  tc_corpus_free(&c);
  free(missing);
  free(missing2);
  testdir_free(dir);
}

/* No input at all can be read: no sites, every input named, and nothing
 * sorted or searched through a null array (UBSan checks that). */
static void nothing_readable(void **state) {
  (void)state;
  const char *in[] = {"/nonexistent/tc-a", "/nonexistent/tc-b"};
  tc_corpus c;
  assert_int_equal(tc_corpus_scan(in, 2, NULL, &c), TC_OK);
  assert_int_equal(c.nsites, 0);
  assert_int_equal(c.ntraces, 0);
  assert_int_equal(c.nskipped, 2);
  assert_string_equal(c.skipped[0].path, in[0]);
  assert_string_equal(c.skipped[1].path, in[1]);
  tc_corpus_free(&c);
  assert_int_equal(tc_corpus_scan(NULL, 0, NULL, &c), TC_OK);
  assert_int_equal(c.nsites + c.ntraces + c.nskipped, 0);
  tc_corpus_free(&c);
}

/* Entries of a site folder that are not regular files are named with what
 * they are and never opened (a FIFO would block); the traces beside them
 * are listed. */
static void non_regular_entries_skipped(void **state) {
  (void)state;
  char *dir = testdir_new();
  assert_non_null(dir);
  assert_int_equal(testdir_mkdir(dir, "s"), 0);
  assert_int_equal(testdir_mkdir(dir, "s/sub"), 0);
  put(dir, "s/good.json");
  char *fifo = testdir_path(dir, "s/fifo.json"), *loop = testdir_path(dir, "s/loop.json"),
       *dangling = testdir_path(dir, "s/dangling.json"), *zero = testdir_path(dir, "s/zero.json"),
       *top_fifo = testdir_path(dir, "top.json");
  assert_int_equal(mkfifo(fifo, 0600), 0);
  assert_int_equal(mkfifo(top_fifo, 0600), 0);
  assert_int_equal(symlink(loop, loop), 0);
  assert_int_equal(symlink("/nonexistent/tc-target", dangling), 0);
  assert_int_equal(symlink("/dev/zero", zero), 0);
  const char *in[] = {dir, fifo};
  tc_corpus c;
  assert_int_equal(tc_corpus_scan(in, 2, NULL, &c), TC_OK);
  assert_int_equal(c.ntraces, 1);
  assert_int_equal(c.nsites, 1);
  assert_int_equal(c.sites[0].ntraces, 1);
  static const struct {
    const char *rel, *why;
  } want[] = {
      {"s/dangling.json", "a dangling symlink"},
      {"s/fifo.json", "a FIFO, not a regular file"}, /* as an entry */
      {"s/fifo.json", "a FIFO, not a regular file"}, /* and as an input */
      {"s/loop.json", "a symlink loop"},
      {"s/sub", "a folder inside a site folder (traces lie directly in it)"},
      {"s/zero.json", "a character device, not a regular file"},
      {"top.json", "a FIFO, not a regular file"},
  };
  assert_int_equal(c.nskipped, sizeof want / sizeof *want);
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    char *p = testdir_path(dir, want[i].rel);
    assert_string_equal(c.skipped[i].path, p);
    assert_string_equal(c.skipped[i].why, want[i].why);
    assert_int_equal(c.skipped[i].line, 0);
    free(p);
  }
  tc_corpus_free(&c);
  free(fifo);
  free(loop);
  free(dangling);
  free(zero);
  free(top_fifo);
  testdir_free(dir);
}

/* Hard links are separate files (cp -al, rsync --link-dest): twenty site
 * folders each holding a link to one file are twenty sites with a trace. */
static void hard_links_are_separate_traces(void **state) {
  (void)state;
  char *dir = testdir_new();
  assert_non_null(dir);
  assert_int_equal(testdir_mkdir(dir, "c"), 0);
  put(dir, "one.json");
  char *target = testdir_path(dir, "one.json"), *corpus = testdir_path(dir, "c");
  for (int i = 0; i < 20; i++) {
    char rel[32];
    snprintf(rel, sizeof rel, "c/site%02d", i);
    assert_int_equal(testdir_mkdir(dir, rel), 0);
    snprintf(rel, sizeof rel, "c/site%02d/trace.json", i);
    char *p = testdir_path(dir, rel);
    assert_int_equal(link(target, p), 0);
    free(p);
  }
  const char *in[] = {corpus};
  tc_corpus c;
  assert_int_equal(tc_corpus_scan(in, 1, NULL, &c), TC_OK);
  assert_int_equal(c.nsites, 20);
  assert_int_equal(c.ntraces, 20);
  for (uint32_t i = 0; i < 20; i++) {
    assert_int_equal(c.sites[i].ntraces, 1);
    assert_int_equal(c.traces[i].site, i);
  }
  assert_int_equal(c.bytes, 20 * strlen("one.json"));
  tc_corpus_free(&c);
  free(target);
  free(corpus);
  testdir_free(dir);
}

/* Input files that share a site name are each named by their folder, with
 * a warning; two in folders of one name are one site, with another. The
 * same file given twice is one trace and no reason to rename. */
static void input_files_sharing_a_name(void **state) {
  (void)state;
  char *dir = testdir_new();
  assert_non_null(dir);
  static const char *const dirs[] = {"a", "b", "x", "x/b"};
  for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
    assert_int_equal(testdir_mkdir(dir, dirs[i]), 0);
  put(dir, "a/trace.json.zst");
  put(dir, "b/trace.json");
  put(dir, "x/b/trace.json");
  put(dir, "a/solo.json");
  char *p1 = testdir_path(dir, "a/trace.json.zst"), *p2 = testdir_path(dir, "b/trace.json"),
       *p3 = testdir_path(dir, "x/b/trace.json"), *p4 = testdir_path(dir, "a/solo.json");
  const char *in[] = {p2, p1, p3, p4, p4};
  tc_corpus c;
  assert_int_equal(tc_corpus_scan(in, 5, NULL, &c), TC_OK);
  assert_int_equal(c.nsites, 3);
  assert_string_equal(c.sites[0].name, "a");
  assert_string_equal(c.sites[1].name, "b");
  assert_string_equal(c.sites[2].name, "solo");
  assert_int_equal(c.sites[0].ntraces, 1);
  assert_int_equal(c.sites[1].ntraces, 2);
  assert_int_equal(c.sites[2].ntraces, 1);
  assert_int_equal(c.ntraces, 4);
  assert_int_equal(c.nskipped, 0);
  assert_int_equal(c.nwarnings, 2);
  /* Warnings are sorted by their text and name the smallest paths, so the
   * order given does not matter. */
  char want[2048];
  snprintf(want, sizeof want,
           "2 input files lie in folders named \"b\" and are one site (%s, %s)", p2, p3);
  assert_string_equal(c.warnings[0].why, want);
  snprintf(want, sizeof want,
           "3 input files map to the site name \"trace\"; each is named by its folder instead "
           "(%s is site \"a\")",
           p1);
  assert_string_equal(c.warnings[1].why, want);
  tc_corpus_free(&c);
  free(p1);
  free(p2);
  free(p3);
  free(p4);
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
  assert_int_equal(c.nskipped, 2);
  assert_string_equal(c.skipped[0].path, mid);
  assert_string_equal(c.skipped[0].why, "cannot be listed: Permission denied");
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
      cmocka_unit_test(manifest_bom_and_wide_rows),
      cmocka_unit_test(bad_manifests_rejected),
      cmocka_unit_test(same_file_counted_once),
      cmocka_unit_test(symlinked_file_counted_once),
      cmocka_unit_test(file_inside_and_alone_is_one_site),
      cmocka_unit_test(unreadable_inputs_named),
      cmocka_unit_test(nothing_readable),
      cmocka_unit_test(non_regular_entries_skipped),
      cmocka_unit_test(hard_links_are_separate_traces),
      cmocka_unit_test(input_files_sharing_a_name),
      cmocka_unit_test(unreadable_site_dir_named),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
