#include "manual_tsv.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/tc_tsv.h"

void manual_tsv_open(manual_tsv *t, const char *path) {
  memset(t, 0, sizeof *t);
  t->fp = fopen(path, "r");
  if (!t->fp)
    fail_msg("cannot open %s", path);
  if (!fgets(t->header, sizeof t->header, t->fp))
    fail_msg("%s: no header line", path);
  t->header[strcspn(t->header, "\r\n")] = '\0';
  t->nh = tc_tsv_split(t->header, t->h, 32);
  t->lineno = 1;
}

int manual_tsv_col(const manual_tsv *t, const char *name) {
  int c = tc_tsv_column(t->h, t->nh, name);
  if (c < 0)
    fail_msg("manual_entries.tsv has no column %s", name);
  return c;
}

int manual_tsv_next(manual_tsv *t) {
  if (!fgets(t->line, sizeof t->line, t->fp))
    return 0;
  t->lineno++;
  t->line[strcspn(t->line, "\r\n")] = '\0';
  size_t n = tc_tsv_split(t->line, t->f, 32);
  if (n < t->nh)
    fail_msg("manual_entries.tsv line %d: %zu fields, header has %zu", t->lineno, n, t->nh);
  return 1;
}

uint64_t manual_tsv_count(const manual_tsv *t, int col) {
  const char *s = t->f[col];
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end || end == s)
    fail_msg("manual_entries.tsv line %d: bad count '%s'", t->lineno, s);
  return v;
}

void manual_tsv_close(manual_tsv *t) {
  if (t->fp)
    fclose(t->fp);
  t->fp = NULL;
}
