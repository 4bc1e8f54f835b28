/* The writers' text as it was made before tc_numfmt and tc_wbuf: numbers by
 * rounds of snprintf + strtod, escaping through stdio. Kept only as the
 * reference the tests and bench/writers_micro compare the product with. */
#ifndef TC_PRINTF_REF_H
#define TC_PRINTF_REF_H

#include <stddef.h>
#include <stdio.h>

#include "util/tc_str.h"

/* The number format of the machine outputs: %.0f for an integer below
 * 2^53 (-0 as 0), else the shortest %.{p}g, p = 1..17, that strtod reads
 * back as V. V finite. Returns the length written into BUF. */
size_t printf_ref_num(double v, char *buf, size_t cap);

/* tc_json_escape as it was: runs through fwrite, escapes through fputs and
 * fputc. */
void printf_ref_escape(FILE *fp, tc_str s);

#endif
