#include "cli/tc_bench_print.h"

#include <math.h>
#include <string.h>

#include "reduce/tc_run_facts.h"
#include "report/tc_jsonw.h"
#include "report/tc_text.h"
#include "util/tc_error.h"

/* The walks by tc_bench_walk_kind. The value walk is the headline: it reads
 * every value, as the census does. */
static const char *const walk_label[TC_BENCH_NWALKS] = {"plain On-Demand walk (keys)",
                                                        "value walk (every args value)"};
static const char *const walk_short[TC_BENCH_NWALKS] = {"plain walk", "value walk"};
static const char *const walk_key[TC_BENCH_NWALKS] = {"plain_walk", "value_walk"};

/* "1 thread", "2 threads"; "1 run", ... */
static const char *plural(unsigned n) { return n == 1 ? "" : "s"; }

static void table_line(FILE *fp, const char *label, const tc_bench_line *l) {
  char share[16] = "";
  if (!isnan(l->share))
    snprintf(share, sizeof share, "%5.1f %%", 100 * l->share);
  fprintf(fp, "  %-22s %7s %10.1f %10.1f %10.1f %11.3f s\n", label, share, l->mb_per_s.median,
          l->mb_per_s.min, l->mb_per_s.max, l->seconds.median);
}

void tc_bench_write_table(const tc_bench_result *r, FILE *fp) {
  tc_bench_summary s;
  tc_bench_summarize(r, &s);
  const char *unit = tc_decompressed_unit(r->json_bytes, r->proto_bytes);
  fprintf(fp, "tracecensus bench: %u sites, %u traces, %.1f MB on disk, %.1f MB of %s, %llu events\n",
          r->sites, r->traces, r->file_bytes / 1e6, r->json_bytes / 1e6, unit,
          (unsigned long long)r->events);
  fprintf(fp, "  CPU %s (%s); simdjson kernel %s; %u thread%s\n",
          r->cpu_model[0] ? r->cpu_model : "unknown", r->cpu_flags[0] ? r->cpu_flags : "flags unknown",
          r->simd_kernel, r->threads, plural(r->threads));
  fprintf(fp, "  census: scope %s, metrics %s, %s URLs, value sites %u, chunks of %zu B\n",
          tc_scope_name(r->scope), r->no_metrics ? "off" : "on", r->whole_urls ? "whole" : "cut",
          r->value_sites, r->chunk_bytes);
  tc_text_term_printf(fp, "  heap pages: transparent huge pages %s, glibc.malloc.hugetlb %s\n", r->thp_mode,
          r->malloc_hugetlb[0] ? r->malloc_hugetlb : "unset");
  tc_text_term_printf(fp, "  %u run%s after %u warm-up%s; reports written under %s, removed after each run\n\n",
          r->nsamples, plural(r->nsamples), r->warmup, plural(r->warmup), r->tmpdir);
  fprintf(fp, "  %-22s %7s %10s %10s %10s %13s\n", "stage", "share", "MB/s med", "min", "max",
          "time med");
  for (int k = 0; k < TC_CLOCK_COUNT; k++)
    table_line(fp, tc_clock_stage_label((tc_clock_stage)k), &s.stage[k]);
  table_line(fp, "whole run (wall)", &s.whole);
  table_line(fp, "whole run (CPU time)", &s.cpu);
  fprintf(fp,
          "  stage times are CPU time summed over the threads: MB/s of %s per stage is one\n"
          "  core's; the shares are of the stages' sum\n",
          unit);
  fprintf(fp, "\n  events/s  %.0f (min %.0f, max %.0f)\n", s.events_per_s.median, s.events_per_s.min,
          s.events_per_s.max);
  fprintf(fp, "  peak RSS  %.1f MiB (min %.1f, max %.1f)%s\n", s.peak_rss_kib.median / 1024,
          s.peak_rss_kib.min / 1024, s.peak_rss_kib.max / 1024,
          r->rss_reset ? "" : "; the peak could not be reset between runs: the process's");
  fprintf(fp, "  idle      workers asleep %.1f %% of threads x the run's wall time; the main\n"
              "            thread waiting for sites to fold %.1f %% of it\n",
          100 * s.worker_idle_share, 100 * s.fold_wait_share);
  if (!r->baseline)
    return;
  fprintf(fp, "\n  baseline, same process, interleaved with the runs, one thread:\n");
  fprintf(fp, "  %-28s %12s %12s\n", "", "wall", "CPU time");
  for (int k = 0; k < TC_BENCH_NWALKS; k++)
    fprintf(fp, "  %-28s %7.1f MB/s %7.1f MB/s\n", walk_label[k], s.walk[k].mb_per_s.median,
            s.walk_cpu[k].mb_per_s.median);
  fprintf(fp, "  %-28s %7.1f MB/s %7.1f MB/s\n", "decompression alone",
          s.decompress.mb_per_s.median, s.decompress_cpu.mb_per_s.median);
  for (int k = TC_BENCH_NWALKS - 1; k >= 0; k--) {
    char label[40];
    snprintf(label, sizeof label, "tracecensus / %s", walk_short[k]);
    if (isnan(s.ratio_walk[k]))
      tc_text_term_printf(fp, "  %-28s n/a (the walk failed on %s: %s)\n", label, r->walks[k].err_path,
              tc_strerror(r->walks[k].err));
    else
      fprintf(fp, "  %-28s %11.2fx %11.2fx\n", label, s.ratio_walk[k], s.ratio_walk_cpu[k]);
  }
  fprintf(fp, "  %-28s %11.2fx %11.2fx\n", "tracecensus / decompression", s.ratio_decompress,
          s.ratio_decompress_cpu);
  fprintf(fp, "  (ratios: medians of the per-run ratios, tracecensus at %u thread%s)\n",
          r->threads, plural(r->threads));
}

static void json_stat(tc_jsonw *w, const char *key, tc_bench_stat st) {
  tc_jsonw_kobj(w, key);
  tc_jsonw_knum(w, "median", st.median);
  tc_jsonw_knum(w, "min", st.min);
  tc_jsonw_knum(w, "max", st.max);
  tc_jsonw_obj_end(w);
}

/* One line's figures, and the per-run seconds GET reads. */
static void json_line(tc_jsonw *w, const tc_bench_result *r, const tc_bench_line *l,
                      tc_bench_series which, int k) {
  json_stat(w, "seconds", l->seconds);
  json_stat(w, "mb_per_s", l->mb_per_s);
  tc_jsonw_karr(w, "times");
  for (unsigned i = 0; i < r->nsamples; i++)
    tc_jsonw_num(w, tc_bench_seconds(&r->samples[i], which, k));
  tc_jsonw_arr_end(w);
}

/* Opens the object KEY of one baseline (left open for the caller's own
 * members): wall and CPU lines, per-run times (walk K), the bytes it read. */
static void json_baseline(tc_jsonw *w, const tc_bench_result *r, const char *key,
                          const tc_bench_line *wall, const tc_bench_line *cpu,
                          tc_bench_series series, int k, uint64_t bytes) {
  tc_jsonw_kobj(w, key);
  json_line(w, r, wall, series, k);
  tc_jsonw_kobj(w, "cpu");
  json_line(w, r, cpu, series == TC_BENCH_WALK ? TC_BENCH_WALK_CPU : TC_BENCH_DECOMPRESS_CPU, k);
  tc_jsonw_obj_end(w);
  tc_jsonw_kuint(w, "json_bytes", bytes);
}

void tc_bench_write_json(const tc_bench_result *r, FILE *fp) {
  tc_bench_summary s;
  tc_bench_summarize(r, &s);
  tc_jsonw w;
  tc_jsonw_init(&w, fp, 2);
  tc_jsonw_obj(&w);
  tc_jsonw_kuint(&w, "runs", r->nsamples);
  tc_jsonw_kuint(&w, "warmup", r->warmup);
  tc_jsonw_kuint(&w, "threads", r->threads);
  tc_jsonw_kstr(&w, "scope", tc_scope_name(r->scope));
  tc_jsonw_kbool(&w, "no_metrics", r->no_metrics);
  tc_jsonw_kbool(&w, "whole_urls", r->whole_urls);
  tc_jsonw_kuint(&w, "value_sites", r->value_sites);
  tc_jsonw_kuint(&w, "chunk_bytes", r->chunk_bytes);
  tc_jsonw_kstr(&w, "simdjson_kernel", r->simd_kernel);
  tc_jsonw_kstr(&w, "cpu_model", r->cpu_model);
  tc_jsonw_karr(&w, "cpu_flags");
  for (const char *p = r->cpu_flags; *p;) {
    size_t n = strcspn(p, " ");
    tc_jsonw_strn(&w, (tc_str){p, n});
    p += n;
    p += *p == ' ';
  }
  tc_jsonw_arr_end(&w);
  tc_jsonw_kstr(&w, "thp_mode", r->thp_mode);
  tc_jsonw_kstr(&w, "malloc_hugetlb", r->malloc_hugetlb);
  tc_jsonw_kstr(&w, "outputs", "temporary folder, removed after each run");
  tc_jsonw_kuint(&w, "sites", r->sites);
  tc_jsonw_kuint(&w, "traces", r->traces);
  tc_jsonw_kuint(&w, "file_bytes", r->file_bytes);
  tc_jsonw_kuint(&w, "json_bytes", r->json_bytes);
  tc_jsonw_kuint(&w, "protobuf_bytes", r->proto_bytes);
  tc_jsonw_kuint(&w, "events", r->events);
  tc_jsonw_karr(&w, "stages");
  for (int k = 0; k < TC_CLOCK_COUNT; k++) {
    tc_jsonw_obj(&w);
    tc_jsonw_kstr(&w, "stage", tc_clock_stage_key((tc_clock_stage)k));
    tc_jsonw_kstr(&w, "label", tc_clock_stage_label((tc_clock_stage)k));
    tc_jsonw_knum(&w, "share", s.stage[k].share);
    json_line(&w, r, &s.stage[k], TC_BENCH_STAGE, k);
    tc_jsonw_obj_end(&w);
  }
  tc_jsonw_arr_end(&w);
  tc_jsonw_kobj(&w, "whole");
  json_line(&w, r, &s.whole, TC_BENCH_WALL, 0);
  tc_jsonw_kobj(&w, "cpu");
  json_line(&w, r, &s.cpu, TC_BENCH_CPU, 0);
  tc_jsonw_obj_end(&w);
  json_stat(&w, "events_per_s", s.events_per_s);
  json_stat(&w, "peak_rss_kib", s.peak_rss_kib);
  tc_jsonw_kbool(&w, "peak_rss_per_run", r->rss_reset);
  tc_jsonw_knum(&w, "workers_idle_share", s.worker_idle_share);
  tc_jsonw_knum(&w, "fold_wait_share", s.fold_wait_share);
  tc_jsonw_obj_end(&w);
  tc_jsonw_key(&w, "baseline");
  if (!r->baseline) {
    tc_jsonw_null(&w);
  } else {
    tc_jsonw_obj(&w);
    for (int k = 0; k < TC_BENCH_NWALKS; k++) {
      json_baseline(&w, r, walk_key[k], &s.walk[k], &s.walk_cpu[k], TC_BENCH_WALK, k,
                    r->walks[k].bytes);
      tc_jsonw_kuint(&w, "events", r->walks[k].events);
      if (k == TC_BENCH_VALUES)
        tc_jsonw_kuint(&w, "values", r->walks[k].values);
      tc_jsonw_kstr(&w, "error", r->walks[k].err ? tc_strerror(r->walks[k].err) : NULL);
      tc_jsonw_kstr(&w, "error_path", r->walks[k].err ? r->walks[k].err_path : NULL);
      tc_jsonw_obj_end(&w);
    }
    json_baseline(&w, r, "decompress", &s.decompress, &s.decompress_cpu, TC_BENCH_DECOMPRESS, 0,
                  r->decompress_bytes);
    tc_jsonw_obj_end(&w);
    tc_jsonw_kobj(&w, "ratios");
    tc_jsonw_knum(&w, "to_plain_walk", s.ratio_walk[TC_BENCH_KEYS]);
    tc_jsonw_knum(&w, "to_decompress", s.ratio_decompress);
    tc_jsonw_knum(&w, "to_plain_walk_cpu", s.ratio_walk_cpu[TC_BENCH_KEYS]);
    tc_jsonw_knum(&w, "to_decompress_cpu", s.ratio_decompress_cpu);
    tc_jsonw_knum(&w, "to_value_walk", s.ratio_walk[TC_BENCH_VALUES]);
    tc_jsonw_knum(&w, "to_value_walk_cpu", s.ratio_walk_cpu[TC_BENCH_VALUES]);
    tc_jsonw_obj_end(&w);
    tc_jsonw_obj_end(&w);
  }
  tc_jsonw_obj_end(&w);
  tc_jsonw_end(&w);
}

static void md_line(FILE *fp, const char *label, const tc_bench_line *l) {
  fprintf(fp, "| %s | ", label);
  if (isnan(l->share))
    fputs("", fp);
  else
    fprintf(fp, "%.1f %%", 100 * l->share);
  fprintf(fp, " | %.1f | %.1f | %.1f | %.4f |\n", l->mb_per_s.median, l->mb_per_s.min,
          l->mb_per_s.max, l->seconds.median);
}

void tc_bench_write_markdown(const tc_bench_result *r, FILE *fp) {
  tc_bench_summary s;
  tc_bench_summarize(r, &s);
  fprintf(fp, "| Stage | Share | MB/s (median) | MB/s (min) | MB/s (max) | Seconds (median) |\n");
  fprintf(fp, "|:---|---:|---:|---:|---:|---:|\n");
  for (int k = 0; k < TC_CLOCK_COUNT; k++)
    md_line(fp, tc_clock_stage_label((tc_clock_stage)k), &s.stage[k]);
  md_line(fp, "whole run (wall)", &s.whole);
  md_line(fp, "whole run (CPU time)", &s.cpu);
  if (r->baseline) {
    for (int k = 0; k < TC_BENCH_NWALKS; k++) {
      char label[48];
      snprintf(label, sizeof label, "%s (baseline)", walk_label[k]);
      md_line(fp, label, &s.walk[k]);
    }
    md_line(fp, "decompression alone (baseline)", &s.decompress);
    fprintf(fp, "\n| Ratio | wall | CPU time |\n|:---|---:|---:|\n");
    for (int k = TC_BENCH_NWALKS - 1; k >= 0; k--) {
      if (isnan(s.ratio_walk[k]))
        fprintf(fp, "| tracecensus / %s | n/a (%s) | n/a |\n", walk_short[k],
                tc_strerror(r->walks[k].err));
      else
        fprintf(fp, "| tracecensus / %s | %.2f | %.2f |\n", walk_short[k], s.ratio_walk[k],
                s.ratio_walk_cpu[k]);
    }
    fprintf(fp, "| tracecensus / decompression | %.2f | %.2f |\n", s.ratio_decompress,
            s.ratio_decompress_cpu);
  }
  fprintf(fp, "\n%u run%s after %u warm-up%s, %u thread%s, simdjson kernel %s, CPU %s.\n",
          r->nsamples, plural(r->nsamples), r->warmup, plural(r->warmup), r->threads,
          plural(r->threads), r->simd_kernel, r->cpu_model[0] ? r->cpu_model : "unknown");
  fprintf(fp, "Census: scope %s, metrics %s, %s URLs, value sites %u, chunks of %zu bytes.\n",
          tc_scope_name(r->scope), r->no_metrics ? "off" : "on", r->whole_urls ? "whole" : "cut",
          r->value_sites, r->chunk_bytes);
}
