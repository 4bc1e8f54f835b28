/* The metric parts of report.html (tc_report_metrics_html.c), for
 * tc_report_html.c. Each writes plots to FP; M is NULL when the run computed
 * no metrics, and the part says so. TC_E_NOMEM when a plot's working copy
 * could not be allocated. */
#ifndef TC_REPORT_HTML_H
#define TC_REPORT_HTML_H

#include <stdio.h>

#include "reduce/tc_metrics_reduction.h"
#include "util/tc_error.h"

/* Histogram and ECDF across sites (one page view per site) of busy rate,
 * TBT, long tasks, frame intervals and heap growth. */
tc_err tc_report_html_distributions(FILE *fp, const tc_metrics_reduction *m);

/* Each trace's busy-rate series with its long tasks, by site; a site
 * without a usable trace gets an n/a plot saying why. Only the first
 * TC_HTML_MAX_TIMELINES plots (whole sites) are drawn, and a line says how
 * many traces and sites were left out: a crawl of 10,000 sites would
 * otherwise make a page of 10,000 plots (and cost as much to write as the
 * census). */
#define TC_HTML_MAX_TIMELINES 200
tc_err tc_report_html_timelines(FILE *fp, const tc_metrics_reduction *m);

/* Whether the timelines of the next site (NTRACES of them, one n/a plot
 * when 0) are drawn, given PLOTS, those of the sites before it, which it
 * updates: the one cap the timelines and the sites table's links obey.
 * Once it says no, it says no for every later site. */
int tc_report_html_timeline_fits(size_t *plots, size_t ntraces);

/* One row per site with the figures a reader ranks sites by (busy rate,
 * long tasks, TBT, frames over budget, heap growth, user timing) and what
 * failed, each site linking to its timelines when they are drawn. */
tc_err tc_report_html_sites(FILE *fp, const tc_metrics_reduction *m);

#endif
