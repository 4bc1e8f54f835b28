#include <inttypes.h>

#include "census/tc_labels.h"
#include "report/tc_census_report.h"
#include "report/tc_outfile.h"
#include "report/tc_pretty.h"

#define TC_MAX_CATS 64
#define TC_EXAMPLE_ITEMS 3

/* Microseconds the way a person reads them. */
static void human_us(FILE *fp, double us) {
  if (us >= 1e6)
    fprintf(fp, "%.2f s", us / 1e6);
  else if (us >= 1e3)
    fprintf(fp, "%.1f ms", us / 1e3);
  else
    fprintf(fp, "%.0f µs", us);
}

static void md_event(FILE *fp, const tc_res_event *ev, uint32_t S) {
  fprintf(fp, "## %.*s\n\n", (int)ev->name.len, ev->name.len ? ev->name.ptr : "(unnamed)");
  char sentence[1024];
  tc_phase_sentence(ev, S, sentence, sizeof sentence);
  fprintf(fp, "%s\n\n", sentence);
  tc_res_cat cats[TC_MAX_CATS];
  size_t n = tc_split_categories(ev, cats, TC_MAX_CATS);
  fputs("**categories** ", fp);
  for (size_t k = 0; k < n; k++)
    fprintf(fp, "%s%.*s", k ? ", " : "", (int)cats[k].cat.len, cats[k].cat.ptr);
  fprintf(fp, "  \n**usage** %s (%.1f records per surveyed site)  \n",
          tc_usage_label(ev->records, S), S ? (double)ev->records / S : 0.0);
  if (ev->dur.n) {
    double med = tc_sketch_quantile(&ev->dur, 0.5);
    fprintf(fp, "**duration** %s (median ", tc_duration_label(med));
    human_us(fp, med);
    fputs(", p95 ", fp);
    human_us(fp, tc_sketch_quantile(&ev->dur, 0.95));
    char k[32];
    tc_fmt_thousands(ev->dur.n, k, sizeof k);
    fprintf(fp, ", over %s records with dur)\n\n", k);
  } else {
    fputs("**duration** n/a (no record carries dur)\n\n", fp);
  }
  if (ev->nargs) {
    fputs("| argument | records | sites | types |\n|---|---:|---:|---|\n", fp);
    for (size_t i = 0; i < ev->nargs; i++) {
      const tc_res_arg *a = &ev->args[i];
      char rec[32];
      tc_fmt_thousands(a->records, rec, sizeof rec);
      fprintf(fp, "| `%.*s` | %s | %" PRIu64 " | ", (int)a->path.len, a->path.ptr, rec, a->sites);
      int first = 1;
      for (int b = 0; b < 6; b++)
        if (a->types & (1u << b)) {
          fprintf(fp, "%s%s", first ? "" : ", ", tc_json_type_name(1u << b));
          first = 0;
        }
      fputs(" |\n", fp);
    }
    fputc('\n', fp);
  } else {
    fputs("No record carries arguments.\n\n", fp);
  }
  if (ev->example.len) {
    fputs("```json\n", fp);
    tc_json_pretty(fp, ev->example, TC_EXAMPLE_ITEMS);
    fputs("\n```\n\n", fp);
  }
}

tc_err tc_write_census_md(const tc_report_ctx *c, const char *outdir) {
  tc_outfile *f;
  tc_err e = tc_outfile_open(outdir, "census.md", &f);
  if (e)
    return e;
  FILE *fp = tc_outfile_fp(f);
  const tc_census_result *r = &c->run->census;
  uint32_t S = c->corpus->nsites;
  char recs[32];
  tc_fmt_thousands(r->records, recs, sizeof recs);
  fprintf(fp, "# Trace event census\n\n%s event records of %zu names, from %u traces of %u sites.\n\n",
          recs, r->nevents, c->corpus->ntraces, S);
  if (c->run->traces_with_errors)
    fprintf(fp, "%u traces had errors; run.json lists every one with its file and byte offset.\n\n",
            c->run->traces_with_errors);
  for (size_t i = 0; i < r->nevents; i++)
    md_event(fp, &r->events[i], S);
  return tc_outfile_commit(f);
}
