/* Reading tests/oracle/manual_entries.tsv (the manual's entries, one a
 * line, header first) in cmocka tests: any problem fails the test. */
#ifndef TC_MANUAL_TSV_H
#define TC_MANUAL_TSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
  FILE *fp;
  char line[8192];
  char *f[32]; /* fields of the current row */
  size_t nh;   /* header fields */
  int lineno;
  char header[8192];
  char *h[32];
} manual_tsv;

/* Opens PATH and reads its header. */
void manual_tsv_open(manual_tsv *t, const char *path);

/* Index of column NAME. */
int manual_tsv_col(const manual_tsv *t, const char *name);

/* Reads the next row into t->f; 0 at the end of the file. */
int manual_tsv_next(manual_tsv *t);

/* Field COL of the current row as a count. */
uint64_t manual_tsv_count(const manual_tsv *t, int col);

void manual_tsv_close(manual_tsv *t);

#endif
