/* The whole of `tracecensus diff`, end to end, as the command line and the
 * tests call it:
 *
 *   read A -> read B -> compare -> (with OUTDIR) output set -> the four
 *   writers -> commit
 *
 * The job never prints: the outcome says the stage reached and, when it
 * failed, why, for the caller to print. Without OUTDIR the job stops after
 * the comparison and the caller prints diff.md where it wants it. */
#ifndef TC_DIFF_JOB_H
#define TC_DIFF_JOB_H

#include "diff/tc_diff.h"
#include "report/tc_outset.h"

typedef enum {
  TC_DIFF_READ_A,  /* folder A read (read_why when not) */
  TC_DIFF_READ_B,  /* folder B read */
  TC_DIFF_COMPARE, /* the comparison made (diff) */
  TC_DIFF_OUTSET,  /* the output set begun (set_why) */
  TC_DIFF_WRITE,   /* diff.md, diff.json, diff.csv, diff.html written (failed_file, errnum) */
  TC_DIFF_COMMIT,  /* the set swapped in (set_why) */
} tc_diff_stage;

/* The output set's begin, commit and abort: the command line passes its
 * signal-watching ones (cli/tc_interrupt.h); NULL hooks, or a NULL member,
 * mean tc_outset_*. */
typedef struct {
  tc_err (*set_begin)(const char *outdir, tc_outset **set, tc_why *why);
  tc_err (*set_commit)(tc_outset *set, tc_why *why);
  void (*set_abort)(tc_outset *set);
} tc_diff_hooks;

/* What the job did. It owns the sides and the diff until
 * tc_diff_outcome_free. */
typedef struct {
  tc_diff_stage stage; /* the last stage reached (the failing one when err) */
  tc_err err;
  tc_why read_why;         /* TC_DIFF_READ_A, TC_DIFF_READ_B */
  tc_why set_why;          /* the outset's failure, or a leftover it could not remove */
  const char *failed_file; /* TC_DIFF_WRITE: the file a write failed on (static) */
  tc_why write_why;        /* its path and errno */
  tc_diff_side *a, *b;
  tc_diff *diff;           /* from TC_DIFF_COMPARE on */
} tc_diff_outcome;

/* Compares output folders DIR_A (the baseline) and DIR_B and, when OUTDIR
 * is not NULL, writes the four files there as one set. Every path is
 * borrowed and must outlive OUT. Returns out->err; free OUT with
 * tc_diff_outcome_free whatever it returns. */
tc_err tc_diff_job_run(const char *dir_a, const char *dir_b, const char *outdir,
                       const tc_diff_hooks *hooks, tc_diff_outcome *out);
void tc_diff_outcome_free(tc_diff_outcome *o);

#endif
