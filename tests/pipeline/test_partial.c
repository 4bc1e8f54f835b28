/* Partial state files (pipeline/tc_partial.h) as the run writes them, on
 * the real third-party traces (argv[1]), one site each: every site partial
 * and the shard record decode and encode back to exactly their bytes; a
 * second run with the same state folder reuses every site and gives the
 * same census; every truncation, a flipped byte and another format version
 * are refused with an offset inside the file; a touched trace makes its
 * site run again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/time.h>

#include "io/tc_corpus.h"
#include "pipeline/tc_partial.h"
#include "pipeline/tc_run.h"
#include "pipeline/tc_state.h"
#include "testdir.h"

static const char *traces_dir;

static void scan(tc_corpus *c) {
  const char *in[] = {traces_dir};
  assert_int_equal(tc_corpus_scan(in, 1, NULL, c), TC_OK);
  assert_true(c->nsites > 3);
}

static void run_with_state(const tc_corpus *c, const char *state, tc_run_result *r) {
  tc_run_opts o;
  tc_run_opts_default(&o);
  o.threads = 2;
  o.state_dir = state;
  tc_why why;
  char *settings = tc_partial_settings(!o.no_metrics, &o.kernels, o.scope, o.value_flags);
  assert_non_null(settings);
  int lock, again;
  assert_int_equal(tc_state_begin(state, c, settings, 0, 1, o.value_sites, NULL, NULL, &lock, &why),
                   TC_OK);
  /* One run at a time: a second begin, even from this process, is turned
   * away naming the holder, and holds nothing. */
  assert_int_equal(tc_state_begin(state, c, settings, 0, 1, o.value_sites, NULL, NULL, &again, &why),
                   TC_E_STATE_BUSY);
  assert_int_equal(why.pid, (long)getpid());
  assert_int_equal(again, -1);
  free(settings);
  assert_int_equal(tc_run(c, &o, r), TC_OK);
  close(lock);
}

static unsigned char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  *len = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *p = malloc(*len ? *len : 1);
  assert_non_null(p);
  assert_int_equal(fread(p, 1, *len, f), *len);
  fclose(f);
  return p;
}

/* Decode, encode, compare; then every cut and a flipped byte are refused
 * with an offset within the bytes. */
static void check_site_file(const char *path) {
  size_t len;
  unsigned char *bytes = slurp(path, &len);
  tc_partial_site p;
  tc_why why;
  assert_int_equal(tc_partial_site_decode(bytes, len, &p, &why), TC_OK);
  unsigned char *again;
  size_t alen;
  assert_int_equal(tc_partial_site_encode(p.settings, &p.unit, &again, &alen), TC_OK);
  assert_int_equal(alen, len);
  assert_memory_equal(again, bytes, len);
  free(again);
  tc_partial_site_free(&p);
  size_t step = len / 97 + 1;
  for (size_t cut = 0; cut < len; cut += step) {
    tc_err e = tc_partial_site_decode(bytes, cut, &p, &why);
    assert_int_not_equal(e, TC_OK);
    assert_true(why.offset <= cut);
    assert_non_null(why.reason);
  }
  bytes[len / 2] ^= 0x20;
  assert_int_equal(tc_partial_site_decode(bytes, len, &p, &why), TC_E_BAD_BINARY);
  assert_true(why.offset < len);
  bytes[len / 2] ^= 0x20;
  bytes[8] = (unsigned char)(TC_PARTIAL_VERSION + 1);
  assert_int_equal(tc_partial_site_decode(bytes, len, &p, &why), TC_E_PARTIAL_VERSION);
  assert_int_equal(why.offset, 8);
  free(bytes);
}

static void census_equal(const tc_census_result *a, const tc_census_result *b) {
  assert_int_equal(a->nevents, b->nevents);
  assert_int_equal(a->records, b->records);
  for (size_t i = 0; i < a->nevents; i++) {
    assert_true(tc_str_eq(a->events[i].name, b->events[i].name));
    assert_int_equal(a->events[i].sites, b->events[i].sites);
    assert_int_equal(a->events[i].nargs, b->events[i].nargs);
    assert_true(tc_str_eq(a->events[i].example, b->events[i].example));
    assert_int_equal(a->events[i].dur.n, b->events[i].dur.n);
  }
}

static void state_round_trip(void **unused) {
  (void)unused;
  tc_corpus c;
  scan(&c);
  char *state = testdir_path(testdir_scratch, "state");
  tc_run_result first, second;
  run_with_state(&c, state, &first);
  assert_int_equal(first.sites_saved, c.nsites);
  assert_int_equal(first.sites_reused, 0);
  DIR *d = opendir(state);
  assert_non_null(d);
  struct dirent *de;
  int sites = 0;
  while ((de = readdir(d))) {
    if (strncmp(de->d_name, "site-", 5) != 0)
      continue;
    char *p = testdir_path(state, de->d_name);
    check_site_file(p);
    free(p);
    sites++;
  }
  closedir(d);
  assert_int_equal(sites, (int)c.nsites);
  char *rec = tc_partial_record_path(state);
  tc_partial_record r;
  tc_why why;
  assert_int_equal(tc_partial_record_read(rec, &r, &why), TC_OK);
  assert_int_equal(r.nsites, c.nsites);
  assert_int_equal(r.nshards, 1);
  tc_partial_record_free(&r);
  free(rec);

  run_with_state(&c, state, &second);
  assert_int_equal(second.sites_reused, c.nsites);
  assert_int_equal(second.traces_reused, c.ntraces);
  assert_int_equal(second.sites_saved, 0);
  census_equal(&first.tables.census, &second.tables.census);
  assert_int_equal(first.tables.totals.events, second.tables.totals.events);
  tc_run_result_free(&second);
  tc_run_result_free(&first);

  /* A trace whose mtime moved: its site runs again, the rest are reused. */
  struct timeval tv[2] = {{1000000000, 0}, {1000000000, 0}};
  char *copy = testdir_path(testdir_scratch, "copy");
  tc_corpus_free(&c);
  assert_int_equal(testdir_mkdir(testdir_scratch, "copy"), 0);
  char *src = NULL;
  {
    const char *in[] = {traces_dir};
    tc_corpus full;
    assert_int_equal(tc_corpus_scan(in, 1, NULL, &full), TC_OK);
    size_t len;
    unsigned char *bytes = slurp(full.traces[0].path, &len);
    const char *slash = strrchr(full.traces[0].path, '/');
    assert_int_equal(testdir_write(copy, slash + 1, bytes, len), 0);
    src = testdir_path(copy, slash + 1);
    free(bytes);
    tc_corpus_free(&full);
  }
  const char *in[] = {src};
  assert_int_equal(tc_corpus_scan(in, 1, NULL, &c), TC_OK);
  char *state2 = testdir_path(testdir_scratch, "state2");
  run_with_state(&c, state2, &second);
  tc_run_result_free(&second);
  assert_int_equal(utimes(src, tv), 0);
  run_with_state(&c, state2, &second);
  assert_int_equal(second.sites_reused, 0);
  assert_int_equal(second.sites_saved, 1);
  tc_run_result_free(&second);
  tc_corpus_free(&c);
  free(src);
  free(copy);
  free(state2);
  free(state);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_partial THIRD_PARTY_DIR\n");
    return 2;
  }
  traces_dir = argv[1];
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(state_round_trip, testdir_setup, testdir_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
