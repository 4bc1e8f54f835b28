#include "diff/tc_diff_job.h"

#include <string.h>

#include "report/tc_outfile.h"

/* The four writers into the set's staging folder DIR. */
static tc_err write_files(const tc_diff *d, const char *dir, tc_diff_outcome *o) {
  static const struct {
    const char *name;
    void (*write)(const tc_diff *, FILE *);
  } files[] = {{"diff.md", tc_diff_write_md},
               {"diff.json", tc_diff_write_json},
               {"diff.csv", tc_diff_write_csv},
               {"diff.html", tc_diff_write_html}};
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    tc_outfile *f;
    o->failed_file = files[i].name;
    tc_err e = tc_outfile_open(dir, files[i].name, &f, &o->write_why);
    if (!e) {
      files[i].write(d, tc_outfile_fp(f));
      e = tc_outfile_commit(f, &o->write_why);
    }
    if (e)
      return e;
  }
  o->failed_file = NULL;
  return TC_OK;
}

tc_err tc_diff_job_run(const char *dir_a, const char *dir_b, const char *outdir,
                       const tc_diff_hooks *hooks, tc_diff_outcome *o) {
  memset(o, 0, sizeof *o);
  tc_diff_hooks h = hooks ? *hooks : (tc_diff_hooks){0};
  if (!h.set_begin)
    h.set_begin = tc_outset_begin;
  if (!h.set_commit)
    h.set_commit = tc_outset_commit;
  if (!h.set_abort)
    h.set_abort = tc_outset_abort;
  o->stage = TC_DIFF_READ_A;
  if ((o->err = tc_diff_load(dir_a, &o->a, &o->read_why)))
    return o->err;
  o->stage = TC_DIFF_READ_B;
  if ((o->err = tc_diff_load(dir_b, &o->b, &o->read_why)))
    return o->err;
  o->stage = TC_DIFF_COMPARE;
  if ((o->err = tc_diff_compute(o->a, o->b, dir_a, dir_b, &o->diff)) || !outdir)
    return o->err;
  o->stage = TC_DIFF_OUTSET;
  tc_outset *set;
  if ((o->err = h.set_begin(outdir, &set, &o->set_why)))
    return o->err;
  o->stage = TC_DIFF_WRITE;
  if ((o->err = write_files(o->diff, tc_outset_dir(set), o))) {
    h.set_abort(set);
    return o->err;
  }
  o->stage = TC_DIFF_COMMIT;
  return o->err = h.set_commit(set, &o->set_why);
}

void tc_diff_outcome_free(tc_diff_outcome *o) {
  tc_diff_free(o->diff);
  tc_diff_side_free(o->a);
  tc_diff_side_free(o->b);
  memset(o, 0, sizeof *o);
}
