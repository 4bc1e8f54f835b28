#include "util/tc_tsv.h"

#include <string.h>

size_t tc_tsv_split(char *line, char **f, size_t max) {
  size_t n = 0;
  f[n++] = line;
  for (char *p = line; *p && n < max; p++)
    if (*p == '\t') {
      *p = '\0';
      f[n++] = p + 1;
    }
  return n;
}

int tc_tsv_column(char *const *f, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(f[i], name) == 0)
      return (int)i;
  return -1;
}
