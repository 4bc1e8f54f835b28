/* A page with every building block of the HTML report layer (a sortable,
 * filterable table with tag, link, number and n/a cells; sections and a
 * table of contents; each plot type, an n/a plot included) from data known
 * by construction, so the layer is tested, in C and in a real browser,
 * before the full report exists. Only the tests use it. */
#ifndef DEMO_PAGE_H
#define DEMO_PAGE_H

#include <stddef.h>
#include <stdio.h>

#include "util/tc_error.h"

/* The summary table's rows, for tests that check filtering and sorting. */
typedef struct {
  const char *name;
  const char *cats; /* comma-separated */
  long long records;
  int sites;
  int undeclared;   /* -1: n/a (DevTools does not know the event) */
  double median_us; /* NaN: no record with dur */
} demo_event;

extern const demo_event demo_events[];
extern const size_t demo_nevents;

/* Writes the page to FP; *PLOTS gets the number of <svg> plots written. */
tc_err demo_page_write(FILE *fp, size_t *plots);

#endif
