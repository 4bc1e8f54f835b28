/* The command line, parsed with getopt_long (zstd's and hyperfine's
 * conventions: -T0, -T 0 and --threads=0 alike, options before or after
 * operands, "--" ends the options, -q, -v, -V, -h on every command). */
#ifndef TC_ARGS_H
#define TC_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "census/tc_census.h"
#include "util/tc_error.h"

typedef enum {
  TC_CMD_HELP,
  TC_CMD_VERSION,
  TC_CMD_CENSUS,
  TC_CMD_RUN,
  TC_CMD_MERGE,
  TC_CMD_DIFF,
  TC_CMD_BENCH
} tc_cmd;

typedef struct {
  tc_cmd cmd;
  tc_cmd help_for;   /* TC_CMD_HELP: the command asked about, or TC_CMD_HELP for all */
  int verbosity;     /* -1 with -q, else the number of -v */
  int threads_set;   /* -T given */
  unsigned threads;  /* 0 = online CPUs */
  size_t chunk_bytes;/* 0 = the run's default */
  int no_metrics;
  int whole_urls;        /* --whole-urls */
  int scope_set;         /* --scope given */
  tc_census_scope scope;
  int value_sites_set;   /* --value-sites given */
  uint32_t value_sites;
  const char *outdir, *manifest, *schema; /* census (outdir: diff too); NULL when not given */
  const char *job;                        /* run */
  const char *state;                      /* census, run: --state DIR, or NULL */
  unsigned shard, nshards;                /* --shard I/N; nshards 0 when not given */
  const char *diff_a, *diff_b;            /* diff: the two output folders */
  unsigned runs, warmup;                  /* bench */
  int baseline;                           /* bench */
  const char *export_json, *export_md;    /* bench; NULL when not given */
  const char **inputs;                    /* census, bench: malloc'd, into argv; merge: the STATEDIRs */
  int ninputs;
} tc_args;

/* Parses ARGV (argv[0] is the program; getopt may reorder the rest) into
 * *A, whose strings point into ARGV. On a usage error returns TC_E_USAGE
 * with a one-line reason in WHY (CAP bytes) and a->cmd set to the command
 * it was for, so the right usage can be shown. Free with tc_args_free
 * either way. */
tc_err tc_args_parse(int argc, char **argv, tc_args *a, char *why, size_t cap);

void tc_args_free(tc_args *a);

/* The usage text of CMD (TC_CMD_HELP: every command), static. */
const char *tc_args_usage(tc_cmd cmd);

#endif
