#include "report/tc_metrics_report.h"
#include "report/tc_outfile.h"

tc_err tc__metrics_file(const tc_metrics_reduction *r, const char *outdir, const char *name,
                        void (*fill)(const tc_metrics_reduction *r, FILE *fp)) {
  tc_outfile *f;
  tc_err e = tc_outfile_open(outdir, name, &f);
  if (e)
    return e;
  fill(r, tc_outfile_fp(f));
  return tc_outfile_commit(f);
}
