/* Builders for the kernel unit tests: events fed through the public API
 * as the census pass feeds them (each passes tc_kernels_wants first), and
 * the finish that hands the metrics back. Timestamps are given in ms. */
#ifndef KEVENTS_H
#define KEVENTS_H

#include <stdint.h>

#include "kernels/tc_kernels.h"
#include "report/tc_metrics_report.h"

#define MS 1000.0 /* trace timestamps are microseconds */
#define MAIN 1    /* the main thread's tid in every test process */

/* Fails the test unless |GOT - WANT| <= EPS. */
void near(double got, double want, double eps, const char *what);
#define NEAR(got, want) near((got), (want), 1e-6, #got)

tc_kernels *kernels(void); /* default options */
tc_kernels *kernels_with(const tc_kernel_opts *o);
void feed(tc_kernels *k, tc_kevent ev, const tc_argval *args, uint32_t nargs);
tc_argval str_arg(const char *path, const char *s, uint32_t elem);
tc_argval num_arg(const char *path, double v, uint32_t elem);
tc_argval bool_arg(const char *path, int v, uint32_t elem);
tc_kevent event(const char *name, const char *cat, char ph, int64_t pid, int64_t tid, double ts);
void thread_name(tc_kernels *k, int64_t pid, int64_t tid, const char *name);
/* A complete task NAME on (PID, MAIN). */
void task_named(tc_kernels *k, const char *name, int64_t pid, double start_ms, double dur_ms);
/* Thread (PID, TID) has events from FROM to TO (microseconds). */
void span(tc_kernels *k, int64_t pid, int64_t tid, double from, double to);
/* Finishes and frees K; the metrics are the caller's. */
tc_trace_metrics *finish_ref(tc_kernels *k, const char *site, const char *trace, int truncated);
tc_trace_metrics *finish(tc_kernels *k);

/* A metrics writer (tc_write_metrics_csv, ...). */
typedef tc_err (*metrics_writer)(const tc_metrics_reduction *, const char *, tc_why *);

/* The one file FN writes from R, read back from a scratch folder;
 * malloc'd, NUL-terminated. */
char *report_of(const tc_metrics_reduction *r, metrics_writer fn);

/* Records for the metrics set and writer tests (tests/reduce,
 * tests/report): a page with one task of LONG_MS (none when < 0) in a 1 s
 * window; a trace that could not be read, for WHY. */
tc_trace_metrics *trace_with(const char *site, const char *path, double long_ms);
tc_trace_metrics *unreadable_trace(const char *site, const char *path, tc_err why);

/* The index of COLUMN among R's fields; fails the test when none. */
size_t field_index(const tc_metrics_reduction *r, const char *column);

#endif
