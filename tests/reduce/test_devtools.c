/* DevTools' view of census results built here by hand, under the schema of
 * tests/common/schema_fixture.h: the three recording levels and their
 * sentences, the settings a category needs, undeclared leaf paths (only for
 * events trace_engine knows), and the names declared but never seen. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "json/tc_event.h"
#include "reduce/tc_devtools.h"
#include "schema_fixture.h"

#define INVALIDATION "disabled-by-default-devtools.timeline.invalidationTracking"
/* A string literal as a tc_str. */
#define S(lit) {lit, sizeof lit - 1}

static tc_res_cat layout_cats[] = {{S("devtools.timeline"), 3}};
static tc_res_arg layout_args[] = {
    {.path = S("args.data.x"), .records = 3, .sites = 1, .types = TC_JT_NUMBER}};
static tc_res_cat parse_cats[] = {{S("," INVALIDATION ","), 4}, {S("blink"), 2}};
static tc_res_arg parse_args[] = {
    /* has children: not a leaf */
    {.path = S("args.beginData"), .records = 2, .sites = 1, .types = TC_JT_OBJECT},
    {.path = S("args.beginData.frame"), .records = 2, .sites = 1, .types = TC_JT_STRING},
    {.path = S("args.beginData.url"), .records = 2, .sites = 1, .types = TC_JT_STRING},
    /* an empty object is a leaf */
    {.path = S("args.empty"), .records = 1, .sites = 1, .types = TC_JT_OBJECT},
};
static tc_res_cat unknown_cats[] = {{S("toplevel"), 1}};
static tc_res_arg unknown_args[] = {
    {.path = S("args.x"), .records = 1, .sites = 1, .types = TC_JT_BOOL}};
static tc_res_cat never_cats[] = {{S("disabled-by-default-foo"), 1}};

static void views_of_each_level(void **state) {
  (void)state;
  tc_res_event ev[4] = {0};
  ev[0].name = tc_str_c("Layout");
  ev[0].cats = layout_cats, ev[0].ncats = 1, ev[0].args = layout_args, ev[0].nargs = 1;
  ev[1].name = tc_str_c("ParseHTML");
  ev[1].cats = parse_cats, ev[1].ncats = 2, ev[1].args = parse_args, ev[1].nargs = 4;
  ev[2].name = tc_str_c("Unknown");
  ev[2].cats = unknown_cats, ev[2].ncats = 1, ev[2].args = unknown_args, ev[2].nargs = 1;
  ev[3].name = tc_str_c("Z");
  ev[3].cats = never_cats, ev[3].ncats = 1;
  tc_census_result r = {0};
  r.events = ev;
  r.nevents = 4;
  char *path = schema_fixture_write(SCHEMA_FIXTURE);
  assert_non_null(path);
  tc_schema *s;
  int line;
  assert_int_equal(tc_schema_load(path, &s, &line), TC_OK);
  tc_devtools d;
  assert_int_equal(tc_devtools_compute(&r, s, &d), TC_OK);
  char sentence[512];

  /* a category recorded by default */
  const tc_devtools_view *v = &d.events[0];
  assert_true(v->known);
  assert_int_equal(v->level, TC_RECORDING_DEFAULT);
  assert_true(v->recorded);
  assert_int_equal(v->nundeclared, 1); /* Layout declares nothing */
  assert_true(tc_str_eqc(v->undeclared[0], "args.data.x"));
  tc_devtools_recording_sentence(v, sentence, sizeof sentence);
  assert_string_equal(sentence, "");

  /* the first category (most records; empty fields of the cat string
   * skipped) with a setting decides: the invalidation category has two, and
   * being disabled by default it is not under "Show all events"; blink,
   * which would be, comes later */
  v = &d.events[1];
  assert_int_equal(v->level, TC_RECORDING_WITH_SETTING);
  assert_true(tc_str_eqc(v->category, INVALIDATION));
  assert_int_equal(v->nsettings, 2);
  assert_int_equal(v->nundeclared, 2);
  assert_true(tc_str_eqc(v->undeclared[0], "args.beginData.frame"));
  assert_true(tc_str_eqc(v->undeclared[1], "args.empty"));
  tc_devtools_recording_sentence(v, sentence, sizeof sentence);
  assert_string_equal(sentence, "A DevTools Performance recording contains this event only with "
                                "Enable advanced paint instrumentation (slow) or Invalidation "
                                "tracking turned on, which records " INVALIDATION ".");

  /* a category not disabled by default: "Show all events"; an event
   * trace_engine does not know has no undeclared list */
  v = &d.events[2];
  assert_false(v->known);
  assert_int_equal(v->level, TC_RECORDING_WITH_SETTING);
  assert_int_equal(v->nsettings, 1);
  assert_true(tc_str_eqc(v->settings[0], "Show all events"));
  assert_int_equal(v->nundeclared, 0);

  /* disabled by default with no setting of its own: never */
  v = &d.events[3];
  assert_int_equal(v->level, TC_RECORDING_NEVER);
  assert_string_equal(tc_recording_level_code(v->level), "never");
  tc_devtools_recording_sentence(v, sentence, sizeof sentence);
  assert_string_equal(sentence, "A DevTools Performance recording does not contain this event. "
                                "Record disabled-by-default-foo with your own trace "
                                "configuration to get it.");

  /* Paint is declared and never seen */
  assert_int_equal(d.nnever, 1);
  assert_true(tc_str_eqc(d.never_observed[0], "Paint"));
  tc_devtools_free(&d);
  tc_schema_free(s);
  unlink(path);
  free(path);
}

/* A corpus whose every trace failed: no events, every name never seen. */
static void empty_census(void **state) {
  (void)state;
  char *path = schema_fixture_write(SCHEMA_FIXTURE);
  tc_schema *s;
  int line;
  assert_int_equal(tc_schema_load(path, &s, &line), TC_OK);
  tc_census_result r = {0};
  tc_devtools d;
  assert_int_equal(tc_devtools_compute(&r, s, &d), TC_OK);
  assert_int_equal(d.nnever, 3);
  tc_devtools_free(&d);
  tc_schema_free(s);
  unlink(path);
  free(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(views_of_each_level),
      cmocka_unit_test(empty_census),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
