#include <math.h>
#include <string.h>

#include "report/tc_metrics_report.h"
#include "report/tc_outfile.h"


int tc_metrics_decimals(const tc_metric_field *f, double v) {
  static const char bytes[] = "_bytes";
  size_t n = f ? strlen(f->column) : 0;
  int whole = f && (f->is_count || (n > sizeof bytes - 1 &&
                                    !strcmp(f->column + n - (sizeof bytes - 1), bytes)));
  return whole || fabs(v) >= 1e6 ? 0 : 1;
}

tc_err tc__metrics_file(const tc_metrics_reduction *r, const char *outdir, const char *name,
                        void (*fill)(const tc_metrics_reduction *r, tc_metrics_cursor *c,
                                     FILE *fp), tc_why *why) {
  tc_metrics_cursor c;
  tc_err e = tc_metrics_cursor_init(&c, r);
  tc_outfile *f = NULL;
  if (!e)
    e = tc_outfile_open(outdir, name, &f, why);
  if (!e)
    fill(r, &c, tc_outfile_fp(f));
  tc_err ce = tc_metrics_cursor_free(&c);
  if (e)
    return e;
  if (ce) {
    tc_outfile_abort(f);
    return ce;
  }
  return tc_outfile_commit(f, why);
}
