#include <stdlib.h>

#include "census/tc_labels.h"
#include "report/tc_census_report.h"
#include "report/tc_valprof_text.h"
#include "report/tc_html.h"
#include "report/tc_pretty.h"
#include "report/tc_text.h"
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

/* V with DECIMALS decimals and thousands separators, never an exponent. */
static void put_num(tc_wbuf *b, double v, int decimals) {
  char s[64];
  tc_html_fmt_num(v, decimals, s, sizeof s);
  tc_wbuf_puts(b, s);
}

/* The event's anchor, as report.html names its section. */
static void event_id(tc_wbuf *b, tc_str name) { tc_html_id_wbuf(b, "ev", name); }

static void anchor(tc_wbuf *b, tc_str name) {
  tc_wbuf_puts(b, "<a id=\"");
  event_id(b, name);
  tc_wbuf_puts(b, "\"></a>");
}

/* [NAME](#its section) */
static void event_link(tc_wbuf *b, tc_str name) {
  tc_wbuf_putc(b, '[');
  tc_text_md(b, name);
  tc_wbuf_puts(b, "](#");
  event_id(b, name);
  tc_wbuf_putc(b, ')');
}

#define TC_UNDECLARED_SHOWN 8

/* The manual's DevTools remarks, then its "undeclared args" line. */
static void md_devtools(tc_wbuf *b, const tc_devtools_view *v) {
  char sentence[1024];
  tc_devtools_recording_sentence(v, sentence, sizeof sentence);
  if (*sentence) { /* it may name the event */
    tc_text_md(b, tc_str_c(sentence));
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
    tc_text_md_code(b, v->undeclared[i], TC_MD_OUTSIDE_TABLE);
  }
  if (v->nundeclared > shown) {
    tc_wbuf_puts(b, " and ");
    tc_wbuf_u64(b, v->nundeclared - shown);
    tc_wbuf_puts(b, " more");
  }
  tc_wbuf_puts(b, "\n\n");
}

/* The arguments' table with a value profile per path, then the manual's
 * sentence for each constant or sentinel-dominated path. */
static void md_args(tc_wbuf *b, const tc_res_event *ev, const tc_census_result *r) {
  uint32_t value_sites = r->value_sites;
  if (!ev->nargs) {
    tc_wbuf_puts(b, "No record carries arguments.\n\n");
    return;
  }
  tc_wbuf_puts(b, "| argument | records | sites | types | values |\n|---|---:|---:|---|---|\n");
  for (size_t i = 0; i < ev->nargs; i++) {
    const tc_res_arg *a = &ev->args[i];
    tc_wbuf_puts(b, "| ");
    tc_text_md_code(b, a->path, TC_MD_IN_TABLE);
    tc_wbuf_puts(b, " | ");
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
    tc_wbuf_puts(b, " | ");
    char line[TC_VALUE_LINE_MAX];
    if (a->values)
      tc_valprof_render(a->values, value_sites, line, sizeof line);
    if (a->values) {
      tc_text_md(b, tc_str_c(line));
    } else {
      tc_wbuf_puts(b, "n/a (");
      tc_text_md(b, tc_str_c(tc_values_na(r)));
      tc_wbuf_putc(b, ')');
    }
    tc_wbuf_puts(b, " |\n");
  }
  tc_wbuf_putc(b, '\n');
  int any = 0;
  for (size_t i = 0; i < ev->nargs; i++) {
    char sentence[TC_VALUE_LINE_MAX + 256];
    if (!tc_value_sentence(ev, &ev->args[i], value_sites, sentence, sizeof sentence))
      continue;
    tc_wbuf_puts(b, any++ ? "  \n" : "");
    tc_text_md(b, tc_str_c(sentence));
  }
  if (any)
    tc_wbuf_puts(b, "\n\n");
}

static void md_event(tc_wbuf *b, const tc_res_event *ev, uint32_t S, const tc_devtools_view *dv,
                     const tc_census_result *r) {
  anchor(b, ev->name);
  tc_wbuf_puts(b, "\n\n## ");
  tc_text_md(b, ev->name);
  tc_wbuf_puts(b, "\n\n");
  char sentence[1024];
  tc_phase_sentence(ev, S, sentence, sizeof sentence);
  tc_wbuf_puts(b, sentence);
  tc_wbuf_puts(b, "\n\n**categories** ");
  tc_write_categories(b, ev, ", ", tc_text_md);
  tc_wbuf_puts(b, "  \n**usage** ");
  tc_wbuf_puts(b, tc_usage_label(ev->records, S));
  tc_wbuf_puts(b, " (");
  put_num(b, S ? (double)ev->records / S : 0.0, 2);
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
  md_args(b, ev, r);
  if (ev->example.len) {
    tc_wbuf_puts(b, "```json\n");
    tc_event_pretty(b, ev->example, TC_EXAMPLE_ITEMS);
    tc_wbuf_puts(b, "\n```\n\n");
  }
}

static void md_header(tc_wbuf *b, const tc_report_ctx *c) {
  const tc_census_result *r = c->census;
  tc_wbuf_puts(b, "# Trace event census\n\n**corpus** ");
  tc_str root = tc_corpus_root(c->corpus);
  if (root.len)
    tc_text_md(b, root);
  else
    tc_wbuf_puts(b, "n/a (no trace was found)");
  if (c->manifest) {
    tc_wbuf_puts(b, ", manifest ");
    tc_text_md(b, tc_str_c(c->manifest));
  }
  uint32_t with_traces = 0;
  for (uint32_t i = 0; i < c->corpus->nsites; i++)
    with_traces += c->corpus->sites[i].ntraces > 0;
  tc_wbuf_puts(b, "  \n**sites** ");
  thousands(b, c->corpus->nsites);
  tc_wbuf_puts(b, " surveyed (S), ");
  thousands(b, with_traces);
  tc_wbuf_puts(b, " with traces  \n**traces** ");
  thousands(b, c->corpus->ntraces);
  tc_wbuf_puts(b, ", holding ");
  thousands(b, r->records);
  tc_wbuf_puts(b, " event records of ");
  thousands(b, r->nevents);
  tc_wbuf_puts(b, " names in the scope  \n**scope** ");
  tc_wbuf_puts(b, tc_scope_name(r->scope));
  tc_wbuf_puts(b, ": ");
  tc_wbuf_puts(b, tc_scope_text(r->scope));
  uint64_t left = r->left[TC_LEFT_BROWSER_UI] + r->left[TC_LEFT_OTHER_RENDERER];
  if (left) {
    tc_wbuf_puts(b, "; ");
    thousands(b, left);
    tc_wbuf_puts(b, " records left out (");
    thousands(b, r->left[TC_LEFT_BROWSER_UI]);
    tc_wbuf_puts(b, " of Chrome's own UI, ");
    thousands(b, r->left[TC_LEFT_OTHER_RENDERER]);
    tc_wbuf_puts(b, " of other renderers; run.json names each process)");
  }
  tc_wbuf_puts(b, "  \n**Chrome** ");
  tc_version_count *v;
  size_t nv = tc_chrome_versions(c, &v);
  for (size_t i = 0; i < nv; i++) {
    if (i)
      tc_wbuf_puts(b, ", ");
    tc_text_md(b, v[i].version);
    tc_wbuf_puts(b, " (");
    thousands(b, v[i].traces);
    tc_wbuf_puts(b, v[i].traces == 1 ? " trace" : " traces");
    tc_wbuf_puts(b, v[i].from_manifest ? ", from the manifest)" : ")");
  }
  free(v);
  if (!nv)
    tc_wbuf_puts(b, "n/a (no trace's metadata names its product-version, nor does a manifest)");
  tc_wbuf_puts(b, "  \n**DevTools schema** ");
  if (c->schema_error) {
    tc_wbuf_puts(b, "n/a: ");
    tc_text_md(b, tc_str_c(c->schema_path ? c->schema_path : ""));
    tc_wbuf_puts(b, " could not be read (");
    tc_text_md(b, tc_str_c(c->schema_error));
    tc_wbuf_puts(b, "), so the DevTools fields are missing");
  } else {
    /* Not its path, which differs per checkout: the same run prints the
     * same page anywhere. */
    if (c->schema_generator)
      tc_text_md(b, tc_str_c(c->schema_generator));
    else
      tc_wbuf_puts(b, "n/a (it names no generator)");
    tc_wbuf_puts(b, " (tools/schema/README.md says how it is made from DevTools' sources)");
  }
  tc_wbuf_puts(b, "\n\n");
  if (c->totals->traces_with_errors) {
    tc_wbuf_u64(b, c->totals->traces_with_errors);
    tc_wbuf_puts(b, " traces had errors; run.json lists every one with its file and byte offset.\n\n");
  }
  tc_wbuf_puts(
      b,
      "## Rules in brief\n\n"
      "- **records**: event objects with that name; **sites**: sites with at least one; S counts "
      "every surveyed site, those the crawl left without a trace included.\n"
      "- **usage** from records per surveyed site (records / S): rare < 2 ≤ low < 5 ≤ moderate "
      "< 300 ≤ high < 3000 ≤ very high.\n"
      "- **duration** from the nearest-rank median of `dur`: very short < 10 µs ≤ short < "
      "100 µs ≤ typical < 1 ms ≤ long.\n"
      "- **DevTools-known**: the event has an entry in DevTools' trace model (trace_engine); "
      "**undeclared args** are observed argument paths its declaration does not name.\n"
      "- **categories**: each record's `cat` split on commas; **arg paths**: every path under "
      "`args`, objects joined by `.`, array elements as `[]`.\n\n"
      "The README's \"Definitions the numbers follow\" states every rule in full.\n\n"
      "## Contents\n\n"
      "- [Summary of every event](#summary)\n"
      "- [Events by category](#by-category)\n"
      "- One section per event, in name order without regard to case (A to Z, `a` and `A` "
      "together)\n");
  if (r->noutside)
    tc_wbuf_puts(b, "- [Seen only outside the scope](#outside-scope)\n");
  if (c->devtools && c->devtools->nnever)
    tc_wbuf_puts(b, "- [Declared by DevTools, never observed](#never-observed)\n");
  tc_wbuf_putc(b, '\n');
}

/* The events the scope left out whole, with where their records were. */
static void md_outside(tc_wbuf *b, const tc_census_result *r) {
  tc_wbuf_puts(b, "<a id=\"outside-scope\"></a>\n\n## Seen only outside the scope\n\n");
  thousands(b, r->noutside);
  tc_wbuf_puts(b, " event names occur only in processes the scope (");
  tc_wbuf_puts(b, tc_scope_name(r->scope));
  tc_wbuf_puts(b, ") leaves out; they are counted nowhere above.\n\n"
                  "| event | records of Chrome's own UI | sites | records of other renderers | sites |\n"
                  "|---|---:|---:|---:|---:|\n");
  for (size_t i = 0; i < r->noutside; i++) {
    const tc_res_event *ev = &r->outside[i];
    tc_wbuf_puts(b, "| ");
    tc_text_md(b, ev->name);
    for (int k = 0; k < TC_LEFT_COUNT; k++) {
      tc_wbuf_puts(b, " | ");
      thousands(b, ev->left[k]);
      tc_wbuf_puts(b, " | ");
      thousands(b, ev->left_sites[k]);
    }
    tc_wbuf_puts(b, " |\n");
  }
  tc_wbuf_putc(b, '\n');
}

/* One row per event, in ORDER. */
static void md_summary(tc_wbuf *b, const tc_report_ctx *c, const tc_res_event **order) {
  const tc_census_result *r = c->census;
  uint32_t S = c->corpus->nsites;
  tc_wbuf_puts(b, "<a id=\"summary\"></a>\n\n## Summary\n\n"
                  "| event | records | sites | usage | duration | DevTools-known | undeclared args |\n"
                  "|---|---:|---:|---|---|---|---:|\n");
  for (size_t i = 0; i < r->nevents; i++) {
    const tc_res_event *ev = order[i];
    const tc_devtools_view *dv = c->devtools ? &c->devtools->events[ev - r->events] : NULL;
    tc_wbuf_puts(b, "| ");
    event_link(b, ev->name);
    tc_wbuf_puts(b, " | ");
    thousands(b, ev->records);
    tc_wbuf_puts(b, " | ");
    thousands(b, ev->sites);
    tc_wbuf_puts(b, " | ");
    tc_wbuf_puts(b, tc_usage_label(ev->records, S));
    tc_wbuf_puts(b, " | ");
    tc_wbuf_puts(b, ev->dur.n ? tc_duration_class(ev->dur.n, ev->dur_below) : "n/a (no dur)");
    tc_wbuf_puts(b, " | ");
    tc_wbuf_puts(b, !dv ? "n/a (no schema)" : dv->known ? "yes" : "no");
    tc_wbuf_puts(b, " | ");
    if (dv)
      thousands(b, dv->nundeclared);
    else
      tc_wbuf_puts(b, "n/a (no schema)");
    tc_wbuf_puts(b, " |\n");
  }
  tc_wbuf_putc(b, '\n');
}

/* Each category with links to its events. */
static void md_categories(tc_wbuf *b, const tc_census_result *r) {
  tc_wbuf_puts(b, "<a id=\"by-category\"></a>\n\n## Events by category\n\n"
                  "Every event under each of its categories; categories and events in name "
                  "order without regard to case.\n\n");
  tc_cat_member *m;
  size_t n = tc_category_index(r, &m);
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && tc_str_eq(m[j].cat, m[i].cat))
      j++;
    tc_wbuf_puts(b, "- **");
    if (m[i].cat.len)
      tc_text_md(b, m[i].cat);
    else
      tc_wbuf_puts(b, "(no category)");
    tc_wbuf_puts(b, "** (");
    thousands(b, j - i);
    tc_wbuf_puts(b, "): ");
    for (size_t k = i; k < j; k++) {
      if (k > i)
        tc_wbuf_puts(b, ", ");
      event_link(b, m[k].event->name);
    }
    tc_wbuf_putc(b, '\n');
    i = j;
  }
  free(m);
  tc_wbuf_putc(b, '\n');
}

static tc_err fill_md(const tc_report_ctx *c, FILE *fp) {
  const tc_census_result *r = c->census;
  const tc_res_event **order = tc_events_by_name(r);
  if (!order)
    return TC_E_NOMEM;
  tc_wbuf b;
  tc_wbuf_init(&b, fp);
  md_header(&b, c);
  md_summary(&b, c, order);
  md_categories(&b, r);
  for (size_t i = 0; i < r->nevents; i++)
    md_event(&b, order[i], c->corpus->nsites,
             c->devtools ? &c->devtools->events[order[i] - r->events] : NULL, c->census);
  free(order);
  if (r->noutside)
    md_outside(&b, r);
  if (c->devtools && c->devtools->nnever) {
    tc_wbuf_puts(&b, "<a id=\"never-observed\"></a>\n\n## Declared by DevTools, never observed\n\n");
    tc_wbuf_u64(&b, c->devtools->nnever);
    tc_wbuf_puts(&b, " event names that trace_engine declares occur nowhere in this corpus:\n\n");
    for (size_t i = 0; i < c->devtools->nnever; i++) {
      tc_wbuf_puts(&b, "- ");
      tc_text_md(&b, c->devtools->never_observed[i]);
      tc_wbuf_putc(&b, '\n');
    }
    tc_wbuf_putc(&b, '\n');
  }
  tc_wbuf_flush(&b);
  return TC_OK;
}

tc_err tc_write_census_md(const tc_report_ctx *c, const char *outdir, tc_why *why) {
  return tc__census_file(c, outdir, "census.md", fill_md, why);
}
