/* How DevTools' trace model sees each event of the census: whether
 * trace_engine knows its name, whether a Performance-panel recording
 * captures it by default, only with a setting on (Invalidation tracking,
 * Enable CSS selector stats, advanced paint, Show all events: the list
 * tools/schema derives from the DevTools front end) or never, and which
 * observed argument paths the model never declares. Like the manual, an
 * event trace_engine does not know has no undeclared list: none of its
 * arguments is modelled. Only leaf paths are listed (a scalar was seen
 * there, or nothing below it was), so a list reads like the manual's. */
#ifndef TC_DEVTOOLS_H
#define TC_DEVTOOLS_H

#include <stddef.h>

#include "census/tc_schema.h"
#include "reduce/tc_census_result.h"

/* How a DevTools Performance recording covers an event, in the manual's
 * three levels. */
typedef enum {
  TC_RECORDING_DEFAULT,      /* any of its categories is in a default recording */
  TC_RECORDING_WITH_SETTING, /* only with a setting turned on (settings below) */
  TC_RECORDING_NEVER,        /* under no setting: record `category` yourself */
} tc_recording_level;

/* "default", "with_setting", "never"; static. */
const char *tc_recording_level_code(tc_recording_level l);

#define TC_DEVTOOLS_MAX_SETTINGS 8

typedef struct {
  int known;
  int recorded; /* level == TC_RECORDING_DEFAULT */
  tc_recording_level level;
  tc_str settings[TC_DEVTOOLS_MAX_SETTINGS]; /* titles, sorted; borrowed from the schema */
  size_t nsettings;
  tc_str category; /* WITH_SETTING: the category the settings record; NEVER: the event's
                      first category (most records); borrowed from the census result */
  const tc_str *undeclared; /* paths owned by the census result, sorted */
  size_t nundeclared;
} tc_devtools_view;

/* The manual's sentence for V's level ("A DevTools Performance recording
 * contains this event only with ..."), into BUF; "" for the default level. */
void tc_devtools_recording_sentence(const tc_devtools_view *v, char *buf, size_t cap);

typedef struct {
  tc_devtools_view *events;  /* parallel to result->events */
  tc_str *never_observed;    /* names the schema knows, absent from the corpus */
  size_t nnever;
  tc_str *paths_;            /* backing store of every undeclared list */
} tc_devtools;

/* Computes the views of R under S into *OUT; free with tc_devtools_free. */
tc_err tc_devtools_compute(const tc_census_result *r, const tc_schema *s, tc_devtools *out);
void tc_devtools_free(tc_devtools *d);

#endif
