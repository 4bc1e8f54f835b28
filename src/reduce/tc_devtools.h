/* How DevTools' trace model sees each event of the census: whether
 * trace_engine knows its name, whether a default Performance-panel
 * recording would capture it (any of its categories is recorded), and which
 * observed argument paths the model never declares. Like the manual, an
 * event trace_engine does not know has no undeclared list: none of its
 * arguments is modelled. Only leaf paths are listed (a scalar was seen
 * there, or nothing below it was), so a list reads like the manual's. */
#ifndef TC_DEVTOOLS_H
#define TC_DEVTOOLS_H

#include <stddef.h>

#include "census/tc_schema.h"
#include "reduce/tc_census_result.h"

typedef struct {
  int known;
  int recorded;
  const tc_str *undeclared; /* paths owned by the census result, sorted */
  size_t nundeclared;
} tc_devtools_view;

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
