
#include "census/tc_labels.h"
#include "report/tc_census_report.h"
#include "report/tc_outfile.h"
#include "report/tc_pretty.h"
#include "report/tc_wbuf.h"

#define TC_EXAMPLE_ITEMS 3

/* Microseconds the way a person reads them. */
static void human_us(tc_wbuf *b, double us) {
  if (us >= 1e6) {
    tc_wbuf_fixed(b, us / 1e6, 2);
    tc_wbuf_puts(b, " s");
  } else if (us >= 1e3) {
    tc_wbuf_fixed(b, us / 1e3, 1);
    tc_wbuf_puts(b, " ms");
  } else {
    tc_wbuf_fixed(b, us, 0);
    tc_wbuf_puts(b, " µs");
  }
}

/* A count with thousands separators. */
static void thousands(tc_wbuf *b, uint64_t v) {
  char s[32];
  tc_fmt_thousands(v, s, sizeof s);
  tc_wbuf_puts(b, s);
}

#define TC_UNDECLARED_SHOWN 8

/* The manual's DevTools remarks, then its "undeclared args" line. */
static void md_devtools(tc_wbuf *b, const tc_devtools_view *v) {
  char sentence[1024];
  tc_devtools_recording_sentence(v, sentence, sizeof sentence);
  if (*sentence) {
    tc_wbuf_puts(b, sentence);
    tc_wbuf_puts(b, "\n\n");
  }
  if (!v->known) {
    tc_wbuf_puts(b, "DevTools has no entry for this event in its trace model, so the Performance "
                    "panel shows its raw name with no label and no explanation.\n\n");
    return;
  }
  if (!v->nundeclared)
    return;
  tc_wbuf_puts(b, "**undeclared args** ");
  size_t shown = v->nundeclared < TC_UNDECLARED_SHOWN ? v->nundeclared : TC_UNDECLARED_SHOWN;
  for (size_t i = 0; i < shown; i++) {
    if (i)
      tc_wbuf_puts(b, ", ");
    tc_wbuf_str_to_nul(b, v->undeclared[i]);
  }
  if (v->nundeclared > shown) {
    tc_wbuf_puts(b, " and ");
    tc_wbuf_u64(b, v->nundeclared - shown);
    tc_wbuf_puts(b, " more");
  }
  tc_wbuf_puts(b, "\n\n");
}

static void md_args(tc_wbuf *b, const tc_res_event *ev) {
  if (!ev->nargs) {
    tc_wbuf_puts(b, "No record carries arguments.\n\n");
    return;
  }
  tc_wbuf_puts(b, "| argument | records | sites | types |\n|---|---:|---:|---|\n");
  for (size_t i = 0; i < ev->nargs; i++) {
    const tc_res_arg *a = &ev->args[i];
    tc_wbuf_puts(b, "| `");
    tc_wbuf_str_to_nul(b, a->path);
    tc_wbuf_puts(b, "` | ");
    thousands(b, a->records);
    tc_wbuf_puts(b, " | ");
    tc_wbuf_u64(b, a->sites);
    tc_wbuf_puts(b, " | ");
    int first = 1;
    for (int t = 0; t < 6; t++)
      if (a->types & (1u << t)) {
        if (!first)
          tc_wbuf_puts(b, ", ");
        tc_wbuf_puts(b, tc_json_type_name(1u << t));
        first = 0;
      }
    tc_wbuf_puts(b, " |\n");
  }
  tc_wbuf_putc(b, '\n');
}

static void md_event(tc_wbuf *b, const tc_res_event *ev, uint32_t S, const tc_devtools_view *dv) {
  tc_wbuf_puts(b, "## ");
  tc_wbuf_str_to_nul(b, ev->name);
  tc_wbuf_puts(b, "\n\n");
  char sentence[1024];
  tc_phase_sentence(ev, S, sentence, sizeof sentence);
  tc_wbuf_puts(b, sentence);
  tc_wbuf_puts(b, "\n\n**categories** ");
  tc_write_categories(b, ev, ", ", tc_wbuf_str_to_nul);
  tc_wbuf_puts(b, "  \n**usage** ");
  tc_wbuf_puts(b, tc_usage_label(ev->records, S));
  tc_wbuf_puts(b, " (");
  tc_wbuf_g(b, S ? (double)ev->records / S : 0.0, 3);
  tc_wbuf_puts(b, " records per surveyed site)  \n");
  if (ev->dur.n) {
    tc_wbuf_puts(b, "**duration** ");
    tc_wbuf_puts(b, tc_duration_class(ev->dur.n, ev->dur_below));
    tc_wbuf_puts(b, " (median ");
    human_us(b, tc_sketch_quantile(&ev->dur, 0.5));
    tc_wbuf_puts(b, ", p95 ");
    human_us(b, tc_sketch_quantile(&ev->dur, 0.95));
    tc_wbuf_puts(b, ", over ");
    thousands(b, ev->dur.n);
    tc_wbuf_puts(b, " records with dur)\n\n");
  } else {
    tc_wbuf_puts(b, "**duration** n/a (no record carries dur)\n\n");
  }
  if (dv)
    md_devtools(b, dv);
  md_args(b, ev);
  if (ev->example.len) {
    tc_wbuf_puts(b, "```json\n");
    tc_event_pretty(b, ev->example, TC_EXAMPLE_ITEMS);
    tc_wbuf_puts(b, "\n```\n\n");
  }
}

static void md_header(tc_wbuf *b, const tc_report_ctx *c) {
  const tc_census_result *r = c->census;
  tc_wbuf_puts(b, "# Trace event census\n\n");
  thousands(b, r->records);
  tc_wbuf_puts(b, " event records of ");
  tc_wbuf_u64(b, r->nevents);
  tc_wbuf_puts(b, " names, from ");
  tc_wbuf_u64(b, c->corpus->ntraces);
  tc_wbuf_puts(b, " traces of ");
  tc_wbuf_u64(b, c->corpus->nsites);
  tc_wbuf_puts(b, " sites.\n\n");
  if (c->schema_error) {
    tc_wbuf_puts(b, "DevTools fields are missing: the schema ");
    tc_wbuf_puts(b, c->schema_path ? c->schema_path : "");
    tc_wbuf_puts(b, " could not be read (");
    tc_wbuf_puts(b, c->schema_error);
    tc_wbuf_puts(b, ").\n\n");
  }
  if (c->totals->traces_with_errors) {
    tc_wbuf_u64(b, c->totals->traces_with_errors);
    tc_wbuf_puts(b, " traces had errors; run.json lists every one with its file and byte offset.\n\n");
  }
}

tc_err tc_write_census_md(const tc_report_ctx *c, const char *outdir) {
  tc_outfile *f;
  tc_err e = tc_outfile_open(outdir, "census.md", &f);
  if (e)
    return e;
  tc_wbuf b;
  tc_wbuf_init(&b, tc_outfile_fp(f));
  const tc_census_result *r = c->census;
  md_header(&b, c);
  for (size_t i = 0; i < r->nevents; i++)
    md_event(&b, &r->events[i], c->corpus->nsites, c->devtools ? &c->devtools->events[i] : NULL);
  if (c->devtools && c->devtools->nnever) {
    tc_wbuf_puts(&b, "## Declared by DevTools, never observed\n\n");
    tc_wbuf_u64(&b, c->devtools->nnever);
    tc_wbuf_puts(&b, " event names that trace_engine declares occur nowhere in this corpus:\n\n");
    for (size_t i = 0; i < c->devtools->nnever; i++) {
      tc_wbuf_puts(&b, "- ");
      tc_wbuf_str_to_nul(&b, c->devtools->never_observed[i]);
      tc_wbuf_putc(&b, '\n');
    }
    tc_wbuf_putc(&b, '\n');
  }
  tc_wbuf_flush(&b);
  return tc_outfile_commit(f);
}
