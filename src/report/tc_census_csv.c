#include <inttypes.h>
#include <stdlib.h>

#include "census/tc_labels.h"
#include "report/tc_census_report.h"
#include "report/tc_outfile.h"

/* RFC 4180: text fields are quoted, inner quotes doubled. */
static void csv_body(FILE *fp, tc_str s) {
  for (size_t i = 0; i < s.len; i++) {
    if (s.ptr[i] == '"')
      fputc('"', fp);
    fputc(s.ptr[i], fp);
  }
}

static void csv_text(FILE *fp, tc_str s) {
  fputc('"', fp);
  csv_body(fp, s);
  fputc('"', fp);
}

tc_err tc_write_census_csv(const tc_report_ctx *c, const char *outdir) {
  tc_outfile *f;
  tc_err e = tc_outfile_open(outdir, "census.csv", &f);
  if (e)
    return e;
  FILE *fp = tc_outfile_fp(f);
  const tc_census_result *r = &c->run->census;
  uint32_t S = c->corpus->nsites;
  fputs("name,records,sites,sites_total,usage,records_per_site,categories,phases,"
        "begin_end_pairs,flow_pairs,flow_unpaired,async_spans,async_unpaired,"
        "dur_records,dur_median_us,dur_p95_us,duration,arg_paths,devtools_known,"
        "in_devtools_recording,undeclared_args,begin_end_unmatched,devtools_recording\n",
        fp);
  for (size_t i = 0; i < r->nevents; i++) {
    const tc_res_event *ev = &r->events[i];
    csv_text(fp, ev->name);
    fprintf(fp, ",%" PRIu64 ",%" PRIu64 ",%u,%s,%.6g,", ev->records, ev->sites, S,
            tc_usage_label(ev->records, S), S ? (double)ev->records / S : 0.0);
    tc_res_cat *cats;
    size_t n = tc_split_categories(ev, &cats);
    fputc('"', fp);
    for (size_t k = 0; k < n; k++) {
      if (k)
        fputc(';', fp);
      csv_body(fp, cats[k].cat);
    }
    free(cats);
    fputs("\",\"", fp);
    int first = 1;
    for (int k = 0; k < TC_PH_COUNT; k++) {
      if (!ev->ph[k])
        continue;
      fprintf(fp, "%s%s=%" PRIu64, first ? "" : ";", tc_phase_key(k), ev->ph[k]);
      first = 0;
    }
    fprintf(fp, "\",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",",
            ev->pairs[TC_PAIR_BEGIN_END], ev->pairs[TC_PAIR_FLOW],
            ev->pairs[TC_PAIR_FLOW_UNPAIRED], ev->pairs[TC_PAIR_ASYNC],
            ev->pairs[TC_PAIR_ASYNC_UNPAIRED]);
    if (ev->dur.n) {
      double med = tc_sketch_quantile(&ev->dur, 0.5);
      fprintf(fp, "%" PRIu64 ",%.6g,%.6g,%s,", ev->dur.n, med,
              tc_sketch_quantile(&ev->dur, 0.95), tc_duration_class(ev->dur.n, ev->dur_below));
    } else {
      fputs("0,,,,", fp);
    }
    fprintf(fp, "%zu,", ev->nargs);
    if (c->devtools) {
      const tc_devtools_view *v = &c->devtools->events[i];
      fprintf(fp, "%s,%s,%zu,", v->known ? "true" : "false", v->recorded ? "true" : "false",
              v->nundeclared);
    } else {
      fputs(",,,", fp);
    }
    fprintf(fp, "%" PRIu64 ",%s\n", ev->pairs[TC_PAIR_BE_UNMATCHED],
            c->devtools ? tc_recording_level_code(c->devtools->events[i].level) : "");
  }
  return tc_outfile_commit(f);
}
