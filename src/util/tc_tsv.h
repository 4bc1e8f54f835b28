/* Tab-separated lines (manifests, the schema file): split in place. */
#ifndef TC_TSV_H
#define TC_TSV_H

#include <stddef.h>

/* Splits LINE on tabs in place into at most MAX fields (the last keeps any
 * further tabs); returns the field count. */
size_t tc_tsv_split(char *line, char **f, size_t max);

/* Index of the field equal to NAME among F[0..n), or -1. */
int tc_tsv_column(char *const *f, size_t n, const char *name);

#endif
