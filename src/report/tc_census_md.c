#include <inttypes.h>
#include <stdlib.h>

#include "census/tc_labels.h"
#include "report/tc_census_report.h"
#include "report/tc_outfile.h"
#include "report/tc_pretty.h"

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

#define TC_UNDECLARED_SHOWN 8

/* The manual's DevTools remarks, then its "undeclared args" line. */
static void md_devtools(FILE *fp, const tc_devtools_view *v) {
  char sentence[1024];
  tc_devtools_recording_sentence(v, sentence, sizeof sentence);
  if (*sentence)
    fprintf(fp, "%s\n\n", sentence);
  if (!v->known) {
    fputs("DevTools has no entry for this event in its trace model, so the Performance panel "
          "shows its raw name with no label and no explanation.\n\n",
          fp);
    return;
  }
  if (!v->nundeclared)
    return;
  fputs("**undeclared args** ", fp);
  size_t shown = v->nundeclared < TC_UNDECLARED_SHOWN ? v->nundeclared : TC_UNDECLARED_SHOWN;
  for (size_t i = 0; i < shown; i++)
    fprintf(fp, "%s%.*s", i ? ", " : "", (int)v->undeclared[i].len, v->undeclared[i].ptr);
  if (v->nundeclared > shown)
    fprintf(fp, " and %zu more", v->nundeclared - shown);
  fputs("\n\n", fp);
}

static void md_event(FILE *fp, const tc_res_event *ev, uint32_t S, const tc_devtools_view *dv) {
  fprintf(fp, "## %.*s\n\n", (int)ev->name.len, ev->name.len ? ev->name.ptr : "(unnamed)");
  char sentence[1024];
  tc_phase_sentence(ev, S, sentence, sizeof sentence);
  fprintf(fp, "%s\n\n", sentence);
  tc_res_cat *cats;
  size_t n = tc_split_categories(ev, &cats);
  fputs("**categories** ", fp);
  for (size_t k = 0; k < n; k++)
    fprintf(fp, "%s%.*s", k ? ", " : "", (int)cats[k].cat.len, cats[k].cat.ptr);
  free(cats);
  fprintf(fp, "  \n**usage** %s (%.3g records per surveyed site)  \n",
          tc_usage_label(ev->records, S), S ? (double)ev->records / S : 0.0);
  if (ev->dur.n) {
    double med = tc_sketch_quantile(&ev->dur, 0.5);
    fprintf(fp, "**duration** %s (median ", tc_duration_class(ev->dur.n, ev->dur_below));
    human_us(fp, med);
    fputs(", p95 ", fp);
    human_us(fp, tc_sketch_quantile(&ev->dur, 0.95));
    char k[32];
    tc_fmt_thousands(ev->dur.n, k, sizeof k);
    fprintf(fp, ", over %s records with dur)\n\n", k);
  } else {
    fputs("**duration** n/a (no record carries dur)\n\n", fp);
  }
  if (dv)
    md_devtools(fp, dv);
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
    tc_event_pretty(fp, ev->example, TC_EXAMPLE_ITEMS);
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
  if (c->schema_error)
    fprintf(fp, "DevTools fields are missing: the schema %s could not be read (%s).\n\n",
            c->schema_path ? c->schema_path : "", c->schema_error);
  if (c->run->traces_with_errors)
    fprintf(fp, "%u traces had errors; run.json lists every one with its file and byte offset.\n\n",
            c->run->traces_with_errors);
  for (size_t i = 0; i < r->nevents; i++)
    md_event(fp, &r->events[i], S, c->devtools ? &c->devtools->events[i] : NULL);
  if (c->devtools && c->devtools->nnever) {
    fprintf(fp, "## Declared by DevTools, never observed\n\n%zu event names that trace_engine "
                "declares occur nowhere in this corpus:\n\n",
            c->devtools->nnever);
    for (size_t i = 0; i < c->devtools->nnever; i++)
      fprintf(fp, "- %.*s\n", (int)c->devtools->never_observed[i].len,
              c->devtools->never_observed[i].ptr);
    fputc('\n', fp);
  }
  return tc_outfile_commit(f);
}
