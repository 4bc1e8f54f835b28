/* The census merge, end to end from JSON text: four small traces over three
 * sites are cut by the chunker into one-event chunks, parsed, and added by
 * two workers that each see parts of the same traces (and of other sites);
 * pairs are folded per trace in trace order, as the pipeline does. The
 * merged tables are compared with a plain model computed here from the
 * event table below, then merged again with the workers swapped and
 * compared field by field. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "census/tc_census.h"
#include "census/tc_pairing.h"
#include "json/tc_chunker.h"
#include "json/tc_parser.h"
#include "pipeline/tc_route.h"
#include "reduce/tc_census_fold.h"
#include "util/tc_sketch.h"

#define NSITES 3
#define NTRACES 4
#define NWORKERS 2

/* The workers' tables, site by site out of NW workers and folded in site
 * order, as the run's window does. */
static tc_err merge_workers(tc_census_worker *const *workers, size_t nw, uint32_t nsites,
                           tc_census_result *out) {
  memset(out, 0, sizeof *out);
  tc_census_fold *f = tc_census_fold_create();
  if (!f)
    return TC_E_NOMEM;
  tc_err e = TC_OK;
  for (uint32_t s = 0; s < nsites && !e; s++) {
    tc_site_census sc;
    tc_site_census_init(&sc);
    if (!(e = tc_site_census_extract(workers, nw, s, 0, NULL, NULL, &sc)))
      e = tc_census_fold_add(f, s, &sc);
    tc_site_census_free(&sc);
  }
  if (e) {
    tc_census_fold_free(f);
    return e;
  }
  return tc_census_fold_finish(f, out);
}

static const uint32_t trace_site[NTRACES] = {0, 0, 1, 2};
/* The worker whose fold completes each trace's sequence gets its pairs. */
static const int trace_folder[NTRACES] = {0, 1, 0, 1};

typedef struct {
  const char *path;
  uint8_t type;
} path_type;

typedef struct {
  uint8_t trace, worker;
  const char *name, *cat, *ph;
  double dur;         /* < 0: no "dur" */
  const char *id;     /* NULL: no "id" */
  const char *args;   /* JSON object, or NULL */
  path_type paths[4]; /* what ARGS holds, in census notation */
} spec;

#define OBJ TC_JT_OBJECT
#define STR TC_JT_STRING
#define NUM TC_JT_NUMBER

/* Within a trace, events are listed in trace order. */
static const spec specs[] = {
    /* trace 0, site 0 */
    {0, 0, "Paint", "devtools.timeline", "X", 10, NULL, "{\"data\":{\"frame\":\"F1\"}}",
     {{"args.data", OBJ}, {"args.data.frame", STR}}},
    {0, 1, "Paint", "devtools.timeline", "X", 20, NULL, "{\"data\":{\"frame\":\"F1\",\"nodeId\":3}}",
     {{"args.data", OBJ}, {"args.data.frame", STR}, {"args.data.nodeId", NUM}}},
    {0, 0, "Layout", "blink,devtools.timeline", "B", -1, NULL, NULL, {{0}}},
    {0, 1, "Layout", "blink,devtools.timeline", "E", -1, NULL, NULL, {{0}}},
    {0, 0, "RunTask", "toplevel", "X", 100, NULL, "{\"src_file\":\"a.cc\"}",
     {{"args.src_file", STR}}},
    {0, 1, "Flow", "cc", "s", -1, "7", NULL, {{0}}},
    {0, 0, "Layout", "a.cat", "X", 2.5, NULL, NULL, {{0}}},
    /* trace 1, site 0 */
    {1, 1, "Paint", "devtools.timeline", "X", 30, NULL, "{\"data\":{\"frame\":7,\"nodeId\":4}}",
     {{"args.data", OBJ}, {"args.data.frame", NUM}, {"args.data.nodeId", NUM}}},
    {1, 0, "Flow", "cc", "f", -1, "7", NULL, {{0}}}, /* its s is in another trace */
    {1, 0, "Paint", "blink", "X", 5, NULL, NULL, {{0}}},
    /* trace 2, site 1 */
    {2, 0, "Paint", "devtools.timeline", "X", 40, NULL,
     "{\"data\":{\"frame\":\"F2\",\"nodeId\":5,\"layerId\":1}}",
     {{"args.data", OBJ}, {"args.data.frame", STR}, {"args.data.nodeId", NUM},
      {"args.data.layerId", NUM}}},
    {2, 1, "Layout", "devtools.timeline", "X", 15, NULL, NULL, {{0}}},
    {2, 1, "Flow", "cc", "s", -1, "8", NULL, {{0}}},
    {2, 0, "Flow", "cc", "f", -1, "8", NULL, {{0}}},
    /* trace 3, site 2 */
    {3, 1, "RunTask", "toplevel", "X", 50, NULL, "{\"src_file\":\"b.cc\"}", {{"args.src_file", STR}}},
    {3, 0, "RunTask", "toplevel", "X", 60, NULL, "{\"src_file\":\"c.cc\"}", {{"args.src_file", STR}}},
    {3, 1, "Other", "", "i", -1, NULL, NULL, {{0}}},
    {3, 0, "Other", "blink", "i", -1, NULL, NULL, {{0}}},
};
#define NSPECS (sizeof specs / sizeof *specs)

static char *event_json[NSPECS];  /* the text written into the traces */
static uint32_t trace_index[NSPECS]; /* position of the event in its trace */

static size_t npaths(const spec *s) {
  size_t n = 0;
  while (n < 4 && s->paths[n].path)
    n++;
  return n;
}

static void make_event_json(void) {
  uint32_t pos[NTRACES] = {0};
  for (size_t i = 0; i < NSPECS; i++) {
    const spec *s = &specs[i];
    char dur[48] = "", id[48] = "", args[256] = "";
    if (s->dur >= 0)
      snprintf(dur, sizeof dur, ",\"dur\":%g", s->dur);
    if (s->id)
      snprintf(id, sizeof id, ",\"id\":\"%s\"", s->id);
    if (s->args)
      snprintf(args, sizeof args, ",\"args\":%s", s->args);
    trace_index[i] = pos[s->trace]++;
    char buf[1024];
    snprintf(buf, sizeof buf,
             "{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"%s\",\"ts\":%u,\"pid\":1,\"tid\":1%s%s%s}",
             s->name, s->cat, s->ph, 1000 * s->trace + 10 * trace_index[i], dur, id, args);
    event_json[i] = strdup(buf);
  }
}

/* ---- running the pipeline's steps by hand ------------------------------ */

typedef struct {
  tc_parser *parser[NWORKERS];
  tc_census_worker *w[NWORKERS];
} workers;

/* Chunks trace T, hands each one-event chunk to the worker its spec names,
 * and folds the trace's ordered events into the pairing of its folder. */
static void run_trace(workers *ws, uint32_t t) {
  size_t cap = 2, len = 0;
  char *text = malloc(cap);
  assert_non_null(text);
  strcpy(text, "[");
  len = 1;
  size_t ids[NSPECS], n = 0;
  for (size_t i = 0; i < NSPECS; i++) {
    if (specs[i].trace != t)
      continue;
    size_t el = strlen(event_json[i]);
    cap = len + el + 3;
    text = realloc(text, cap);
    assert_non_null(text);
    if (n)
      text[len++] = ',';
    memcpy(text + len, event_json[i], el);
    len += el;
    text[len] = '\0';
    ids[n++] = i;
  }
  text[len++] = ']';

  tc_chunker *ch = tc_chunker_create(1, 1 << 20);
  assert_non_null(ch);
  tc_chunk *chunks[NSPECS + 1];
  size_t nchunks = 0, pos = 0;
  while (pos < len) {
    tc_chunk *ready = NULL;
    assert_int_equal(tc_chunker_feed(ch, text, len, &pos, &ready), TC_OK);
    if (ready)
      chunks[nchunks++] = ready;
  }
  tc_chunk *last = NULL;
  assert_int_equal(tc_chunker_finish(ch, &last), TC_OK);
  if (last)
    chunks[nchunks++] = last;
  uint64_t nerr;
  size_t kept;
  tc_chunker_errors(ch, &nerr, &kept);
  assert_int_equal(nerr, 0);
  tc_chunker_free(ch);
  assert_int_equal(nchunks, n);

  tc_pairing *pairing = tc_pairing_create();
  assert_non_null(pairing);
  tc_origin o = {trace_site[t], t};
  for (size_t c = 0; c < nchunks; c++) {
    assert_int_equal(chunks[c]->nevents, 1);
    int k = specs[ids[c]].worker;
    tc_parsed p;
    assert_int_equal(tc_parser_parse(ws->parser[k], chunks[c], &p), TC_OK);
    assert_int_equal(p.nevents, 1);
    assert_int_equal(p.events[0].err, TC_OK);
    tc_seq seq;
    tc_seq_init(&seq);
    tc_router *router = tc_router_create(ws->parser[k]);
    assert_non_null(router);
    assert_int_equal(tc_census_add_chunk(ws->w[k], o, chunks[c], &p), TC_OK);
    assert_int_equal(tc_route_chunk(router, chunks[c], &p, 0, &seq), TC_OK);
    for (size_t i = 0; i < seq.nevents; i++)
      assert_int_equal(tc_pairing_feed(pairing, &seq.events[i]), TC_OK);
    tc_router_free(router);
    tc_seq_free(&seq);
    tc_chunk_free(chunks[c]);
  }
  assert_int_equal(tc_pairing_finish(pairing, ws->w[trace_folder[t]], trace_site[t], (uint32_t)t), TC_OK);
  tc_pairing_free(pairing);
  free(text);
}

static int setup(void **state) {
  workers *ws = calloc(1, sizeof *ws);
  if (!ws)
    return -1;
  for (int k = 0; k < NWORKERS; k++) {
    ws->parser[k] = tc_parser_create(NULL, 0);
    ws->w[k] = ws->parser[k] ? tc_census_worker_create(NSITES, ws->parser[k]) : NULL;
    if (!ws->w[k])
      return -1;
  }
  make_event_json();
  /* The traces are added in an order unlike the corpus order. */
  static const uint32_t order[NTRACES] = {2, 0, 3, 1};
  for (int t = 0; t < NTRACES; t++)
    run_trace(ws, order[t]);
  *state = ws;
  return 0;
}

static int teardown(void **state) {
  workers *ws = *state;
  for (int k = 0; k < NWORKERS; k++) {
    tc_census_worker_free(ws->w[k]);
    tc_parser_free(ws->parser[k]);
  }
  free(ws);
  for (size_t i = 0; i < NSPECS; i++)
    free(event_json[i]);
  return 0;
}

/* ---- the model --------------------------------------------------------- */

static int spec_is(const spec *s, tc_str name) { return tc_str_eqc(name, s->name); }

static uint64_t model_sites(tc_str name) {
  int seen[NSITES] = {0};
  uint64_t n = 0;
  for (size_t i = 0; i < NSPECS; i++)
    if (spec_is(&specs[i], name) && !seen[trace_site[specs[i].trace]]++)
      n++;
  return n;
}

typedef struct {
  const char *text;
  uint64_t records;
} model_cat;

static int cmp_model_cat(const void *a, const void *b) {
  const model_cat *x = a, *y = b;
  if (x->records != y->records)
    return x->records > y->records ? -1 : 1;
  return strcmp(x->text, y->text);
}

static void check_cats(const tc_res_event *e) {
  model_cat cats[NSPECS];
  size_t n = 0;
  for (size_t i = 0; i < NSPECS; i++) {
    if (!spec_is(&specs[i], e->name))
      continue;
    size_t k = 0;
    while (k < n && strcmp(cats[k].text, specs[i].cat))
      k++;
    if (k == n)
      cats[n++] = (model_cat){specs[i].cat, 0};
    cats[k].records++;
  }
  qsort(cats, n, sizeof *cats, cmp_model_cat);
  assert_int_equal(e->ncats, n);
  for (size_t k = 0; k < n; k++) {
    assert_true(tc_str_eqc(e->cats[k].cat, cats[k].text));
    assert_int_equal(e->cats[k].records, cats[k].records);
  }
}

typedef struct {
  const char *path;
  uint64_t records;
  int site_seen[NSITES];
  uint8_t types;
} model_arg;

static int cmp_model_arg(const void *a, const void *b) {
  return strcmp(((const model_arg *)a)->path, ((const model_arg *)b)->path);
}

static void check_args(const tc_res_event *e) {
  model_arg args[4 * NSPECS];
  memset(args, 0, sizeof args);
  size_t n = 0;
  for (size_t i = 0; i < NSPECS; i++) {
    if (!spec_is(&specs[i], e->name))
      continue;
    for (size_t p = 0; p < npaths(&specs[i]); p++) {
      size_t k = 0;
      while (k < n && strcmp(args[k].path, specs[i].paths[p].path))
        k++;
      if (k == n)
        args[n++].path = specs[i].paths[p].path;
      args[k].records++;
      args[k].site_seen[trace_site[specs[i].trace]] = 1;
      args[k].types |= specs[i].paths[p].type;
    }
  }
  qsort(args, n, sizeof *args, cmp_model_arg);
  assert_int_equal(e->nargs, n);
  for (size_t k = 0; k < n; k++) {
    uint64_t sites = 0;
    for (int s = 0; s < NSITES; s++)
      sites += (uint64_t)args[k].site_seen[s];
    if (!tc_str_eqc(e->args[k].path, args[k].path))
      fail_msg("%s: arg %zu is %.*s, want %s", e->name.ptr, k, (int)e->args[k].path.len,
               e->args[k].path.ptr, args[k].path);
    assert_int_equal(e->args[k].records, args[k].records);
    assert_int_equal(e->args[k].sites, sites);
    assert_int_equal(e->args[k].types, args[k].types);
  }
}

static void check_phases(const tc_res_event *e) {
  uint64_t ph[TC_PH_COUNT] = {0};
  for (size_t i = 0; i < NSPECS; i++)
    if (spec_is(&specs[i], e->name))
      ph[tc_phase_index(tc_str_c(specs[i].ph))]++;
  for (int k = 0; k < TC_PH_COUNT; k++)
    assert_int_equal(e->ph[k], ph[k]);
}

/* B/E and s/f here are written so that each trace's pairs are plain to
 * count: a B followed by its E, and s/f sharing an id within one trace. */
static void check_pairs(const tc_res_event *e) {
  uint64_t want[TC_PAIR_COUNT] = {0};
  for (uint32_t t = 0; t < NTRACES; t++) {
    uint64_t b = 0, en = 0, s = 0, f = 0;
    for (size_t i = 0; i < NSPECS; i++) {
      if (specs[i].trace != t || !spec_is(&specs[i], e->name))
        continue;
      b += specs[i].ph[0] == 'B';
      en += specs[i].ph[0] == 'E';
      s += specs[i].ph[0] == 's';
      f += specs[i].ph[0] == 'f';
    }
    uint64_t be = b < en ? b : en, sf = s < f ? s : f;
    want[TC_PAIR_BEGIN_END] += be;
    want[TC_PAIR_BE_UNMATCHED] += b + en - 2 * be;
    want[TC_PAIR_FLOW] += sf;
    want[TC_PAIR_FLOW_UNPAIRED] += s + f - 2 * sf;
  }
  for (int k = 0; k < TC_PAIR_COUNT; k++)
    assert_int_equal(e->pairs[k], want[k]);
}

static void check_dur(const tc_res_event *e) {
  tc_sketch want;
  tc_sketch_init(&want);
  for (size_t i = 0; i < NSPECS; i++)
    if (spec_is(&specs[i], e->name) && specs[i].dur >= 0)
      assert_int_equal(tc_sketch_add(&want, specs[i].dur), TC_OK);
  assert_int_equal(e->dur.n, want.n);
  if (want.n) {
    assert_true(e->dur.min == want.min);
    assert_true(e->dur.max == want.max);
    for (int q = 0; q <= 100; q++)
      assert_true(tc_sketch_quantile(&e->dur, q / 100.0) == tc_sketch_quantile(&want, q / 100.0));
  }
  tc_sketch_free(&want);
}

/* Most argument paths first, then the earliest site, trace and position. */
static void check_example(const tc_res_event *e) {
  size_t best = NSPECS;
  for (size_t i = 0; i < NSPECS; i++) {
    if (!spec_is(&specs[i], e->name))
      continue;
    if (best == NSPECS) {
      best = i;
      continue;
    }
    const spec *a = &specs[i], *b = &specs[best];
    size_t na = npaths(a), nb = npaths(b);
    uint32_t sa = trace_site[a->trace], sb = trace_site[b->trace];
    if (na != nb ? na > nb
                 : sa != sb ? sa < sb
                            : a->trace != b->trace ? a->trace < b->trace
                                                   : trace_index[i] < trace_index[best])
      best = i;
  }
  assert_true(best < NSPECS);
  if (!tc_str_eqc(e->example, event_json[best]))
    fail_msg("%s: example %.*s, want %s", specs[best].name, (int)e->example.len, e->example.ptr,
             event_json[best]);
}

static void check_against_model(const tc_census_result *r) {
  assert_int_equal(r->records, NSPECS);
  size_t distinct = 0;
  for (size_t i = 0; i < NSPECS; i++) {
    size_t j = 0;
    while (j < i && strcmp(specs[j].name, specs[i].name))
      j++;
    distinct += j == i;
  }
  assert_int_equal(r->nevents, distinct);
  for (size_t k = 0; k < r->nevents; k++) {
    const tc_res_event *e = &r->events[k];
    if (k)
      assert_true(tc_str_cmp(r->events[k - 1].name, e->name) < 0);
    uint64_t records = 0;
    for (size_t i = 0; i < NSPECS; i++)
      records += (uint64_t)spec_is(&specs[i], e->name);
    assert_int_equal(e->records, records);
    assert_int_equal(e->sites, model_sites(e->name));
    check_phases(e);
    check_pairs(e);
    check_cats(e);
    check_args(e);
    check_dur(e);
    check_example(e);
  }
}

static void test_matches_model(void **state) {
  workers *ws = *state;
  tc_census_result r;
  assert_int_equal(merge_workers(ws->w, NWORKERS, NSITES, &r), TC_OK);
  check_against_model(&r);
  tc_census_result_free(&r);
}

/* ---- worker order ------------------------------------------------------ */

static void assert_same_str(tc_str a, tc_str b) {
  assert_int_equal(a.len, b.len);
  if (a.len)
    assert_memory_equal(a.ptr, b.ptr, a.len);
}

static void assert_same_result(const tc_census_result *a, const tc_census_result *b) {
  assert_int_equal(a->records, b->records);
  assert_int_equal(a->nevents, b->nevents);
  for (size_t k = 0; k < a->nevents; k++) {
    const tc_res_event *x = &a->events[k], *y = &b->events[k];
    assert_same_str(x->name, y->name);
    assert_int_equal(x->records, y->records);
    assert_int_equal(x->sites, y->sites);
    assert_memory_equal(x->ph, y->ph, sizeof x->ph);
    assert_memory_equal(x->pairs, y->pairs, sizeof x->pairs);
    assert_int_equal(x->ncats, y->ncats);
    for (size_t c = 0; c < x->ncats; c++) {
      assert_same_str(x->cats[c].cat, y->cats[c].cat);
      assert_int_equal(x->cats[c].records, y->cats[c].records);
    }
    assert_int_equal(x->nargs, y->nargs);
    for (size_t c = 0; c < x->nargs; c++) {
      assert_same_str(x->args[c].path, y->args[c].path);
      assert_int_equal(x->args[c].records, y->args[c].records);
      assert_int_equal(x->args[c].sites, y->args[c].sites);
      assert_int_equal(x->args[c].types, y->args[c].types);
    }
    assert_int_equal(x->dur.n, y->dur.n);
    assert_int_equal(x->dur.zeros, y->dur.zeros);
    assert_true(x->dur.min == y->dur.min && x->dur.max == y->dur.max);
    for (int q = 0; q <= 100; q++)
      assert_true(tc_sketch_quantile(&x->dur, q / 100.0) == tc_sketch_quantile(&y->dur, q / 100.0));
    assert_same_str(x->example, y->example);
  }
}

static void test_worker_order_irrelevant(void **state) {
  workers *ws = *state;
  tc_census_worker *swapped[NWORKERS] = {ws->w[1], ws->w[0]};
  tc_census_result ab, ba;
  assert_int_equal(merge_workers(ws->w, NWORKERS, NSITES, &ab), TC_OK);
  assert_int_equal(merge_workers(swapped, NWORKERS, NSITES, &ba), TC_OK);
  assert_same_result(&ab, &ba);
  check_against_model(&ba);
  tc_census_result_free(&ab);
  tc_census_result_free(&ba);
}

/* The result owns its strings: it must stay readable after the workers
 * are gone. */
static void test_result_outlives_workers(void **state) {
  (void)state;
  void *st = NULL;
  assert_int_equal(setup(&st), 0);
  workers *ws = st;
  tc_census_result r;
  assert_int_equal(merge_workers(ws->w, NWORKERS, NSITES, &r), TC_OK);
  for (int k = 0; k < NWORKERS; k++) {
    tc_census_worker_free(ws->w[k]);
    tc_parser_free(ws->parser[k]);
    ws->w[k] = NULL;
    ws->parser[k] = NULL;
  }
  check_against_model(&r);
  tc_census_result_free(&r);
  teardown(&st);
}

/* One worker that saw nothing, and no workers at all. */
static void test_empty_workers(void **state) {
  workers *ws = *state;
  tc_parser *p = tc_parser_create(NULL, 0);
  assert_non_null(p);
  tc_census_worker *idle = tc_census_worker_create(NSITES, p);
  assert_non_null(idle);
  tc_census_worker *three[3] = {idle, ws->w[0], ws->w[1]};
  tc_census_result r;
  assert_int_equal(merge_workers(three, 3, NSITES, &r), TC_OK);
  check_against_model(&r);
  tc_census_result_free(&r);
  assert_int_equal(merge_workers(&idle, 1, NSITES, &r), TC_OK);
  assert_int_equal(r.nevents, 0);
  assert_int_equal(r.records, 0);
  tc_census_result_free(&r);
  assert_int_equal(merge_workers(NULL, 0, NSITES, &r), TC_OK);
  assert_int_equal(r.nevents, 0);
  tc_census_result_free(&r);
  tc_census_worker_free(idle);
  tc_parser_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_matches_model, setup, teardown),
      cmocka_unit_test_setup_teardown(test_worker_order_irrelevant, setup, teardown),
      cmocka_unit_test_setup_teardown(test_empty_workers, setup, teardown),
      cmocka_unit_test(test_result_outlives_workers),
  };
  return cmocka_run_group_tests_name("census_merge", tests, NULL, NULL);
}
