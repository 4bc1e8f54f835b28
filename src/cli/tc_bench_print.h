/* What `tracecensus bench` shows, after hyperfine's conventions: a table for
 * people (on the terminal) and exports for machines (--export-json,
 * --export-markdown). Every figure comes from tc_bench_summarize; the JSON
 * holds raw numbers in fixed units (seconds, MB/s of decompressed JSON,
 * events/s, KiB) with null for what was not measured. The caller owns FP. */
#ifndef TC_BENCH_PRINT_H
#define TC_BENCH_PRINT_H

#include <stdio.h>

#include "pipeline/tc_bench.h"

void tc_bench_write_table(const tc_bench_result *r, FILE *fp);
void tc_bench_write_json(const tc_bench_result *r, FILE *fp);
void tc_bench_write_markdown(const tc_bench_result *r, FILE *fp);

#endif
