
#include "census/tc_labels.h"
#include "report/tc_census_report.h"
#include "report/tc_outfile.h"
#include "report/tc_wbuf.h"

/* RFC 4180: text fields are quoted, inner quotes doubled. */
static void csv_body(tc_wbuf *b, tc_str s) {
  if (!s.len) /* an empty tc_str may hold NULL, where even P + 0 is undefined */
    return;
  const char *p = s.ptr, *end = s.ptr + s.len, *q;
  while (p < end && (q = memchr(p, '"', (size_t)(end - p)))) {
    tc_wbuf_put(b, p, (size_t)(q - p) + 1);
    tc_wbuf_putc(b, '"');
    p = q + 1;
  }
  tc_wbuf_put(b, p, (size_t)(end - p));
}

static void csv_text(tc_wbuf *b, tc_str s) {
  tc_wbuf_putc(b, '"');
  csv_body(b, s);
  tc_wbuf_putc(b, '"');
}

/* ",V" for each of N counts. */
static void counts(tc_wbuf *b, const uint64_t *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    tc_wbuf_putc(b, ',');
    tc_wbuf_u64(b, v[i]);
  }
}

static void row(tc_wbuf *b, const tc_res_event *ev, uint32_t S, const tc_devtools_view *v) {
  csv_text(b, ev->name);
  const uint64_t rs[] = {ev->records, ev->sites, S};
  counts(b, rs, 3);
  tc_wbuf_putc(b, ',');
  tc_wbuf_puts(b, tc_usage_label(ev->records, S));
  tc_wbuf_putc(b, ',');
  tc_wbuf_g(b, S ? (double)ev->records / S : 0.0, 6);
  tc_wbuf_put(b, ",\"", 2);
  tc_write_categories(b, ev, ";", csv_body);
  tc_wbuf_put(b, "\",\"", 3);
  int first = 1;
  for (int k = 0; k < TC_PH_COUNT; k++) {
    if (!ev->ph[k])
      continue;
    if (!first)
      tc_wbuf_putc(b, ';');
    tc_wbuf_puts(b, tc_phase_key(k));
    tc_wbuf_putc(b, '=');
    tc_wbuf_u64(b, ev->ph[k]);
    first = 0;
  }
  tc_wbuf_putc(b, '"');
  const uint64_t pairs[] = {ev->pairs[TC_PAIR_BEGIN_END], ev->pairs[TC_PAIR_FLOW],
                            ev->pairs[TC_PAIR_FLOW_UNPAIRED], ev->pairs[TC_PAIR_ASYNC],
                            ev->pairs[TC_PAIR_ASYNC_UNPAIRED], ev->dur.n};
  counts(b, pairs, 6);
  tc_wbuf_putc(b, ',');
  if (ev->dur.n) {
    tc_wbuf_g(b, tc_sketch_quantile(&ev->dur, 0.5), 6);
    tc_wbuf_putc(b, ',');
    tc_wbuf_g(b, tc_sketch_quantile(&ev->dur, 0.95), 6);
    tc_wbuf_putc(b, ',');
    tc_wbuf_puts(b, tc_duration_class(ev->dur.n, ev->dur_below));
    tc_wbuf_putc(b, ',');
  } else {
    tc_wbuf_put(b, ",,,", 3);
  }
  tc_wbuf_u64(b, ev->nargs);
  tc_wbuf_putc(b, ',');
  if (v) {
    tc_wbuf_puts(b, v->known ? "true," : "false,");
    tc_wbuf_puts(b, v->recorded ? "true," : "false,");
    tc_wbuf_u64(b, v->nundeclared);
  } else {
    tc_wbuf_put(b, ",,", 2);
  }
  counts(b, &ev->pairs[TC_PAIR_BE_UNMATCHED], 1);
  tc_wbuf_putc(b, ',');
  if (v)
    tc_wbuf_puts(b, tc_recording_level_code(v->level));
  tc_wbuf_putc(b, '\n');
}

tc_err tc_write_census_csv(const tc_report_ctx *c, const char *outdir) {
  tc_outfile *f;
  tc_err e = tc_outfile_open(outdir, "census.csv", &f);
  if (e)
    return e;
  tc_wbuf b;
  tc_wbuf_init(&b, tc_outfile_fp(f));
  const tc_census_result *r = c->census;
  tc_wbuf_puts(&b, "name,records,sites,sites_total,usage,records_per_site,categories,phases,"
                  "begin_end_pairs,flow_pairs,flow_unpaired,async_spans,async_unpaired,"
                  "dur_records,dur_median_us,dur_p95_us,duration,arg_paths,devtools_known,"
                  "in_devtools_recording,undeclared_args,begin_end_unmatched,devtools_recording\n");
  for (size_t i = 0; i < r->nevents; i++)
    row(&b, &r->events[i], c->corpus->nsites, c->devtools ? &c->devtools->events[i] : NULL);
  tc_wbuf_flush(&b);
  return tc_outfile_commit(f);
}
