#include "pipeline/tc_stage_clock.h"

static const char *const labels[TC_CLOCK_COUNT] = {
    "read + decompress", "chunk", "parse", "census tables", "kernels", "site fold", "write"};
static const char *const keys[TC_CLOCK_COUNT] = {
    "read_decompress", "chunk", "parse", "census_tables", "kernels", "site_fold", "write"};

const char *tc_clock_stage_label(tc_clock_stage s) { return labels[s]; }
const char *tc_clock_stage_key(tc_clock_stage s) { return keys[s]; }
