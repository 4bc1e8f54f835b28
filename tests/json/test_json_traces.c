/* The JSON stage on real traces (../shared/traces/third-party, read-only).
 *
 * The chunker is checked against the byte-wise reference splitter, fed in
 * several piece sizes with several chunk targets. The parser is checked
 * against json_oracle.py, which reads each trace with Python's json module:
 * every event's fields, its argument paths with their JSON types, and the
 * values of some wanted paths with their array element ordinals.
 *
 * Arguments: PYTHON ORACLE_SCRIPT TRACE_DIR. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "chunk_run.h"
#include "parse_check.h"
#include "ref_split.h"
#include "json/tc_chunker.h"
#include "json/tc_parser.h"

static const char *python, *oracle, *trace_dir;

/* Paths the kernels ask for, plus a boolean, a string and a long numeric
 * array, so that every value type and deep element ordinals occur. */
static const char *const wanted[] = {
    "args.data.frame",
    "args.frame",
    "args.data.frames[].processId",
    "args.data.frames[].frame",
    "args.data.isMainFrame",
    "args.data.url",
    "args.data.type",
    "args.data.cpuProfile.timeDeltas[]",
    "args.data.timeDeltas[]",
    "args.data.cpuProfile.nodes[].callFrame.functionName",
    "args.data.cpuProfile.nodes[].id",
    "args.snapshot",
};
#define NWANTED (sizeof wanted / sizeof wanted[0])

typedef struct {
  char **names;
  size_t n;
} trace_list;

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static trace_list list_traces(void) {
  trace_list l = {0};
  DIR *d = opendir(trace_dir);
  assert_non_null(d);
  struct dirent *de;
  while ((de = readdir(d))) {
    if (de->d_name[0] == '.')
      continue;
    l.names = realloc(l.names, (l.n + 1) * sizeof *l.names);
    assert_non_null(l.names);
    size_t len = strlen(trace_dir) + strlen(de->d_name) + 2;
    l.names[l.n] = malloc(len);
    assert_non_null(l.names[l.n]);
    snprintf(l.names[l.n], len, "%s/%s", trace_dir, de->d_name);
    l.n++;
  }
  closedir(d);
  qsort(l.names, l.n, sizeof *l.names, cmp_names);
  assert_true(l.n > 0);
  return l;
}

static void free_traces(trace_list *l) {
  for (size_t i = 0; i < l->n; i++)
    free(l->names[i]);
  free(l->names);
}

/* The decompressed bytes of PATH (zlib reads plain files as they are). */
static char *load_trace(const char *path, size_t *n) {
  gzFile f = gzopen(path, "rb");
  assert_non_null(f);
  size_t cap = 1 << 20, len = 0;
  char *buf = malloc(cap);
  assert_non_null(buf);
  int got;
  while ((got = gzread(f, buf + len, (unsigned)(cap - len))) > 0) {
    len += (size_t)got;
    if (len == cap) {
      cap *= 2;
      buf = realloc(buf, cap);
      assert_non_null(buf);
    }
  }
  assert_int_equal(got, 0);
  gzclose(f);
  *n = len;
  return buf;
}

/* ---- chunker ---- */

static void test_chunker_matches_reference(void **state) {
  (void)state;
  static const struct {
    size_t piece, target, max_event;
  } runs[] = {
      {0, 64 << 10, 0},       {65536, 64 << 10, 0}, {4093, 64 << 10, 0},
      {1 << 20, 16 << 10, 0}, {777, 1 << 20, 2000},
  };
  trace_list l = list_traces();
  uint64_t events = 0, bytes = 0;
  for (size_t t = 0; t < l.n; t++) {
    size_t n;
    char *in = load_trace(l.names[t], &n);
    ref_trace ref;
    assert_true(ref_split(in, n, &ref));
    chunk_run first;
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
      chunk_run r;
      chunk_run_feed(&r, in, n, runs[k].target, runs[k].max_event, &runs[k].piece, 1);
      chunk_run_assert_well_formed(&r, in, n, runs[k].target);
      ref_assert_run(&r, in, n, &ref, runs[k].max_event);
      ref_assert_tail(&r, &ref);
      if (k == 0)
        first = r;
      else if (runs[k].target == runs[0].target && runs[k].max_event == runs[0].max_event)
        chunk_run_assert_same(&first, &r);
      if (k)
        chunk_run_free(&r);
    }
    events += chunk_run_nevents(&first);
    bytes += n;
    chunk_run_free(&first);
    ref_trace_free(&ref);
    free(in);
  }
  print_message("chunker: %zu traces, %llu bytes, %llu events agree with the reference\n", l.n,
                (unsigned long long)bytes, (unsigned long long)events);
  free_traces(&l);
}

/* ---- parser against json_oracle.py ---- */

typedef struct {
  FILE *f;
  char *line;
  size_t cap;
  char *field[16];
  int nfield;
} oracle_reader;

/* Reads the next record into fields; 0 at the end. */
static int next_record(oracle_reader *o) {
  ssize_t got = getline(&o->line, &o->cap, o->f);
  if (got <= 0)
    return 0;
  if (o->line[got - 1] == '\n')
    o->line[got - 1] = '\0';
  o->nfield = 0;
  for (char *p = o->line; o->nfield < 16;) {
    o->field[o->nfield++] = p;
    char *sp = strchr(p, ' ');
    if (!sp)
      break;
    *sp = '\0';
    p = sp + 1;
  }
  return 1;
}

static int hexval(char c) { return c <= '9' ? c - '0' : c - 'a' + 10; }

/* Does the oracle's 'h'-hex string spell S? */
static int hex_is(const char *h, tc_str s) {
  assert_int_equal(h[0], 'h');
  size_t n = strlen(h + 1) / 2;
  if (n != s.len)
    return 0;
  for (size_t i = 0; i < n; i++)
    if (hexval(h[1 + 2 * i]) * 16 + hexval(h[2 + 2 * i]) != (unsigned char)s.ptr[i])
      return 0;
  return 1;
}

static void check_text(const char *want, tc_str got) {
  if (strcmp(want, "?") == 0)
    return;
  if (strcmp(want, "-") == 0)
    assert_int_equal(got.len, 0);
  else
    assert_true(hex_is(want, got));
}

static void check_signed(const char *want, int has, int64_t got) {
  if (strcmp(want, "?") == 0)
    return;
  if (strcmp(want, "-") == 0) {
    assert_false(has);
    return;
  }
  assert_true(has);
  if (strcmp(want, "S") == 0)
    assert_true(got >= 0);
  else
    assert_int_equal(got, strtoll(want, NULL, 10));
}

static void check_fields(const oracle_reader *o, const tc_event *ev, uint64_t index) {
  assert_int_equal(o->nfield, 12);
  assert_int_equal(strtoull(o->field[1], NULL, 10), index);
  assert_int_equal(ev->err, TC_OK);
  const char *const *f = (const char *const *)o->field;
  if (strcmp(f[2], "-") == 0) {
    assert_false(ev->flags & TC_EV_HAS_NAME);
    assert_int_equal(ev->name.len, 0);
  } else {
    assert_true(ev->flags & TC_EV_HAS_NAME);
    check_text(f[2], ev->name);
  }
  check_text(f[3], ev->cat);
  check_text(f[4], ev->ph);
  if (strcmp(f[5], "-") == 0) {
    assert_false(ev->flags & TC_EV_HAS_TS);
  } else {
    assert_true(ev->flags & TC_EV_HAS_TS);
    assert_true(ev->ts == strtod(f[5], NULL));
  }
  if (strcmp(f[6], "-") == 0) {
    assert_true(ev->dur == -1);
  } else {
    assert_true(ev->flags & TC_EV_HAS_DUR);
    assert_true(ev->dur == strtod(f[6], NULL));
  }
  check_signed(f[7], ev->flags & TC_EV_HAS_PID, ev->pid);
  check_signed(f[8], ev->flags & TC_EV_HAS_TID, ev->tid);
  check_text(f[9], ev->id);
  check_text(f[10], ev->bind_id);
  check_text(f[11], ev->scope);
}

static void check_wanted(const oracle_reader *o, const tc_argval *a) {
  assert_int_equal(o->nfield, 5);
  assert_int_equal(a->slot, strtoul(o->field[1], NULL, 10));
  assert_int_equal(a->type, strtoul(o->field[2], NULL, 10));
  assert_int_equal(a->elem, strtoul(o->field[3], NULL, 10));
  const char *v = o->field[4];
  if (a->type == TC_JT_STRING)
    check_text(v, a->str);
  else if (a->type != TC_JT_NULL)
    assert_true(a->num == strtod(v, NULL));
}

typedef struct {
  char *hexpath;
  unsigned types;
  int seen;
} want_path;

/* Compares the event's presence, merged by path text, with the oracle's. */
static void check_presence(const tc_parser *p, const tc_parsed *out, const tc_event *ev,
                           want_path *w, size_t nw) {
  size_t matched = 0;
  for (uint32_t i = 0; i < ev->npres; i++) {
    const tc_presence *pr = &out->pres[ev->pres_begin + i];
    tc_str path = tc_parser_path(p, pr->path);
    size_t k = 0;
    while (k < nw && !hex_is(w[k].hexpath, path))
      k++;
    assert_true(k < nw);
    if (!w[k].seen++)
      matched++;
    w[k].types &= ~(unsigned)pr->types;
  }
  assert_int_equal(matched, nw);
  for (size_t k = 0; k < nw; k++)
    assert_int_equal(w[k].types, 0);
}

typedef struct {
  uint64_t events, paths, values;
} parse_totals;

static void check_trace_parse(const char *path, parse_totals *tot) {
  size_t n;
  char *in = load_trace(path, &n);
  chunk_run r;
  chunk_run_feed(&r, in, n, 256 << 10, 0, NULL, 0);
  assert_int_equal(r.finish_rc, TC_OK);

  char cmd[4096];
  size_t len = (size_t)snprintf(cmd, sizeof cmd, "'%s' '%s' '%s'", python, oracle, path);
  for (size_t i = 0; i < NWANTED; i++)
    len += (size_t)snprintf(cmd + len, sizeof cmd - len, " '%s'", wanted[i]);
  assert_true(len < sizeof cmd);
  oracle_reader o = {0};
  o.f = popen(cmd, "r");
  assert_non_null(o.f);

  tc_parser *p = tc_parser_create(wanted, NWANTED);
  assert_non_null(p);
  want_path *w = NULL;
  size_t wcap = 0;
  int have = next_record(&o);
  for (size_t c = 0; c < r.nchunks; c++) {
    tc_parsed out;
    assert_int_equal(tc_parser_parse(p, r.chunks[c], &out), TC_OK);
    parsed_assert_sane(p, r.chunks[c], &out, NWANTED);
    assert_int_equal(out.slow_path, 0);
    for (size_t k = 0; k < out.nevents; k++) {
      const tc_event *ev = &out.events[k];
      assert_true(have && strcmp(o.field[0], "E") == 0);
      check_fields(&o, ev, r.chunks[c]->events[k].index);
      size_t nw = 0, nval = 0;
      while ((have = next_record(&o)) && strcmp(o.field[0], "E") != 0) {
        if (strcmp(o.field[0], "W") == 0) {
          assert_true(nval < ev->nwant);
          check_wanted(&o, &out.wanted[ev->want_begin + nval++]);
          continue;
        }
        assert_string_equal(o.field[0], "P");
        if (nw == wcap) {
          wcap = wcap ? wcap * 2 : 64;
          w = realloc(w, wcap * sizeof *w);
          assert_non_null(w);
        }
        w[nw].hexpath = strdup(o.field[1]);
        w[nw].types = (unsigned)strtoul(o.field[2], NULL, 10);
        w[nw].seen = 0;
        nw++;
      }
      assert_int_equal(nval, ev->nwant);
      check_presence(p, &out, ev, w, nw);
      for (size_t i = 0; i < nw; i++)
        free(w[i].hexpath);
      tot->events++;
      tot->paths += nw;
      tot->values += nval;
    }
  }
  assert_false(have);
  assert_int_equal(pclose(o.f), 0);
  free(o.line);
  free(w);
  tc_parser_free(p);
  chunk_run_free(&r);
  free(in);
}

static void test_parser_matches_oracle(void **state) {
  (void)state;
  trace_list l = list_traces();
  parse_totals tot = {0};
  for (size_t t = 0; t < l.n; t++)
    check_trace_parse(l.names[t], &tot);
  print_message("parser: %zu traces, %llu events, %llu (event, path) pairs, %llu wanted values "
                "agree with json_oracle.py\n",
                l.n, (unsigned long long)tot.events, (unsigned long long)tot.paths,
                (unsigned long long)tot.values);
  assert_true(tot.values > 0);
  free_traces(&l);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s PYTHON ORACLE_SCRIPT TRACE_DIR\n", argv[0]);
    return 2;
  }
  python = argv[1];
  oracle = argv[2];
  trace_dir = argv[3];
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_chunker_matches_reference),
      cmocka_unit_test(test_parser_matches_oracle),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
