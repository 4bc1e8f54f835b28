#include "report/tc_census_report.h"
#include "report/tc_outfile.h"

tc_err tc__census_file(const tc_report_ctx *c, const char *outdir, const char *name,
                       tc_err (*fill)(const tc_report_ctx *c, FILE *fp), tc_why *why) {
  tc_outfile *f;
  tc_err e = tc_outfile_open(outdir, name, &f, why);
  if (e)
    return e;
  if ((e = fill(c, tc_outfile_fp(f)))) {
    tc_outfile_abort(f);
    return e;
  }
  return tc_outfile_commit(f, why);
}
