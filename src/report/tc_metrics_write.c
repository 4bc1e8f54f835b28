#include <stdio.h>

#include "report/tc_metrics_report.h"
#include "report/tc_outfile.h"

typedef void (*writer_fn)(const tc_metrics_reduction *r, FILE *fp);

static tc_err write_one(const char *dir, const char *name, writer_fn fn,
                        const tc_metrics_reduction *r) {
  tc_outfile *f;
  tc_err e = tc_outfile_open(dir, name, &f);
  if (e)
    return e;
  fn(r, tc_outfile_fp(f));
  return tc_outfile_commit(f);
}

tc_err tc_metrics_write(const tc_metrics_set *s, const char *outdir) {
  tc_metrics_reduction *r;
  tc_err e = tc_metrics_reduce(s, &r);
  if (e)
    return e;
  if (!(e = write_one(outdir, "metrics.csv", tc_metrics_write_csv, r)) &&
      !(e = write_one(outdir, "metrics.json", tc_metrics_write_json, r)))
    e = write_one(outdir, "metrics.md", tc_metrics_write_md, r);
  tc_metrics_reduction_free(r);
  return e;
}
