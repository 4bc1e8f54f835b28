/* One census worker fed a chunk parsed here: per site and name the records
 * by phase and those with arguments, categories as written, argument paths
 * with their types, the dur sketch and exact counts below the class limits,
 * the example (shortest strict-JSON event first), and pair counts added by
 * the fold. Every expectation is counted from the events written below. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "census/tc_census.h"
#include "site_tables.h"
#include "json/tc_chunker.h"
#include "json/tc_parser.h"

/* Site 1 of 2. Below the preferred size, the example is the event with the
 * most argument paths: the third Paint has four, but is not strict JSON (a
 * trailing comma only Perfetto's rules read), so it is never the example;
 * the first, with three, is. */
static const char trace[] =
    "[{\"name\":\"Paint\",\"cat\":\"devtools.timeline\",\"ph\":\"X\",\"ts\":1,\"dur\":5,"
    "\"pid\":1,\"tid\":1,\"args\":{\"data\":{\"frame\":\"F\",\"nodeId\":3}}},"
    "{\"name\":\"Paint\",\"cat\":\"blink\",\"ph\":\"X\",\"ts\":2,\"dur\":500}, "
    "{\"name\":\"Paint\",\"ph\":\"X\",\"dur\":50,\"args\":{\"a\":1,\"b\":2,\"c\":3,\"d\":4},}, "
    "{\"name\":\"Layout\",\"cat\":\"blink,devtools.timeline\",\"ph\":\"B\",\"ts\":3,"
    "\"args\":{}},"
    "{\"name\":\"Layout\",\"cat\":\"blink,devtools.timeline\",\"ph\":\"E\",\"ts\":4},"
    "{\"name\":\"Layout\",\"ph\":\"XY\",\"ts\":5,\"dur\":5000,\"args\":{\"n\":[1,2]}}]";

static tc_parser *parser;
static tc_census_worker *worker;

static int setup(void **state) {
  (void)state;
  parser = tc_parser_create(NULL, 0);
  worker = parser ? tc_census_worker_create(2, parser) : NULL;
  if (!worker)
    return -1;
  tc_chunker *ch = tc_chunker_create(1 << 20, 1 << 20);
  size_t pos = 0, len = sizeof trace - 1;
  tc_chunk *c = NULL, *last = NULL;
  if (!ch || tc_chunker_feed(ch, trace, len, &pos, &c) || c || pos != len ||
      tc_chunker_finish(ch, &last) || !last)
    return -1;
  tc_parsed p;
  tc_err e = tc_parser_parse(parser, last, &p);
  if (!e && p.nevents != 6)
    return -1;
  if (!e)
    e = tc_census_add_chunk(worker, (tc_origin){1, 0}, last, &p);
  tc_chunk_free(last);
  tc_chunker_free(ch);
  return e ? -1 : 0;
}

static int teardown(void **state) {
  (void)state;
  tc_census_worker_free(worker);
  tc_parser_free(parser);
  return 0;
}

static uint32_t name_id(const char *name) {
  uint32_t id = tc_map_find(tc_census_names(worker), tc_str_c(name));
  assert_int_not_equal(id, UINT32_MAX);
  return id;
}

static uint32_t path_id(const char *path) {
  for (uint32_t i = 0; i < tc_parser_npaths(parser); i++)
    if (tc_str_eqc(tc_parser_path(parser, i), path))
      return i;
  fail_msg("no path %s", path);
  return UINT32_MAX;
}

static void phases_and_records_with_args(void **state) {
  (void)state;
  assert_null(site_tables(worker, 0)); /* nothing of site 0 */
  const tc_site_acc *s = site_tables(worker, 1);
  assert_non_null(s);
  const tc_name_counts *paint = tc_site_name(s, name_id("Paint"));
  assert_int_equal(paint->ph[tc_phase_index(tc_str_c("X"))], 3);
  assert_int_equal(paint->ph_args[tc_phase_index(tc_str_c("X"))], 2);
  const tc_name_counts *layout = tc_site_name(s, name_id("Layout"));
  assert_int_equal(layout->ph[tc_phase_index(tc_str_c("B"))], 1);
  assert_int_equal(layout->ph[tc_phase_index(tc_str_c("E"))], 1);
  assert_int_equal(layout->ph[TC_PH_OTHER], 1); /* "XY" is no letter */
  /* "args":{} holds no path: no arguments */
  assert_int_equal(layout->ph_args[tc_phase_index(tc_str_c("B"))], 0);
  assert_int_equal(layout->ph_args[TC_PH_OTHER], 1);
}

static void categories_as_written(void **state) {
  (void)state;
  const tc_site_acc *s = site_tables(worker, 1);
  const tc_map *cats = tc_census_cats(worker);
  struct {
    const char *name, *cat;
    uint64_t n;
  } want[] = {{"Paint", "devtools.timeline", 1}, {"Paint", "blink", 1}, {"Paint", "", 1},
              {"Layout", "blink,devtools.timeline", 2}, {"Layout", "", 1}};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    uint32_t cid = tc_map_find(cats, tc_str_c(want[i].cat));
    assert_int_not_equal(cid, UINT32_MAX);
    uint32_t slot = tc_imap_find(&s->cat_idx, (uint64_t)name_id(want[i].name) << 32 | cid);
    assert_int_not_equal(slot, UINT32_MAX);
    assert_int_equal(s->cat_counts[slot], want[i].n);
  }
}

static void argument_paths_and_types(void **state) {
  (void)state;
  const tc_site_acc *s = site_tables(worker, 1);
  struct {
    const char *name, *path;
    uint64_t n;
    uint8_t types;
  } want[] = {{"Paint", "args.data", 1, TC_JT_OBJECT},
              {"Paint", "args.data.frame", 1, TC_JT_STRING},
              {"Paint", "args.data.nodeId", 1, TC_JT_NUMBER},
              {"Layout", "args.n", 1, TC_JT_ARRAY},
              {"Layout", "args.n[]", 1, TC_JT_NUMBER}}; /* once per record */
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    uint32_t slot =
        tc_imap_find(&s->path_idx, (uint64_t)name_id(want[i].name) << 32 | path_id(want[i].path));
    assert_int_not_equal(slot, UINT32_MAX);
    assert_int_equal(s->paths[slot].records, want[i].n);
    assert_int_equal(s->paths[slot].types, want[i].types);
  }
}

/* The duration and example details of NAME in site 1, where the chunk went. */
static const tc_name_detail *detail(const char *name) {
  const tc_site_acc *s = site_tables(worker, 1);
  const tc_name_counts *c = tc_site_name(s, name_id(name));
  assert_non_null(c);
  return &s->detail[c - s->names];
}

static void durations(void **state) {
  (void)state;
  const tc_sketch *d = &detail("Paint")->dur;
  assert_int_equal(d->n, 3);
  assert_true(d->min == 5 && d->max == 500);
  const uint64_t *below = detail("Paint")->dur_below;
  assert_int_equal(below[0], 1); /* < 10 us: 5 */
  assert_int_equal(below[1], 2); /* < 100 us: 5, 50 */
  assert_int_equal(below[2], 3); /* < 1 ms */
  d = &detail("Layout")->dur; /* B and E carry no dur */
  assert_int_equal(d->n, 1);
  assert_true(d->min == 5000);
}

static void example_is_a_strict_event(void **state) {
  (void)state;
  const tc_example *ex = &detail("Paint")->ex;
  assert_true(ex->have);
  assert_int_equal(ex->site, 1);
  assert_int_equal(ex->index, 0);
  assert_int_equal(ex->neg_paths, UINT32_MAX - 3);
  const char *want = "{\"name\":\"Paint\",\"cat\":\"devtools.timeline\",\"ph\":\"X\",\"ts\":1,"
                     "\"dur\":5,\"pid\":1,\"tid\":1,\"args\":{\"data\":{\"frame\":\"F\",\"nodeId\":3}}}";
  assert_int_equal(ex->len, strlen(want));
  assert_memory_equal(ex->raw, want, ex->len);
  /* within the preferred size, more argument paths first, then corpus
   * order; anything before nothing */
  tc_example a = {1, 0, UINT32_MAX - 2, 0, 0, 5, NULL, 10}, b = a;
  b.oversize = 1;
  b.neg_paths = 0;
  assert_true(tc_example_cmp(&a, &b) < 0);
  b = a;
  b.neg_paths = UINT32_MAX - 3;
  assert_true(tc_example_cmp(&b, &a) < 0);
  b = a;
  b.index = 4;
  assert_true(tc_example_cmp(&b, &a) < 0);
  b.have = 0;
  assert_true(tc_example_cmp(&a, &b) < 0);
}

static void pairs_from_the_fold(void **state) {
  (void)state;
  uint64_t pairs[TC_PAIR_COUNT] = {0};
  pairs[TC_PAIR_BEGIN_END] = 1;
  assert_int_equal(tc_census_add_pairs(worker, 1, 0, 7, tc_str_c("Layout"), pairs), TC_OK);
  assert_int_equal(tc_census_add_pairs(worker, 1, 0, 7, tc_str_c("Layout"), pairs), TC_OK);
  const tc_name_counts *layout = tc_site_name(site_tables(worker, 1), name_id("Layout"));
  assert_int_equal(layout->pairs[TC_PAIR_BEGIN_END], 2);
  /* a name the fold saw first (pairs of a name with no record here) */
  assert_int_equal(tc_census_add_pairs(worker, 0, 0, 7, tc_str_c("Flow"), pairs), TC_OK);
  assert_non_null(site_tables(worker, 0));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(phases_and_records_with_args),
      cmocka_unit_test(categories_as_written),
      cmocka_unit_test(argument_paths_and_types),
      cmocka_unit_test(durations),
      cmocka_unit_test(example_is_a_strict_event),
      cmocka_unit_test(pairs_from_the_fold),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
