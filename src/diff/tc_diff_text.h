/* Number and change text shared by diff.md and diff.html (private to
 * src/diff): what a person reads, rounded; diff.json keeps the raw
 * numbers. */
#ifndef TC_DIFF_TEXT_H
#define TC_DIFF_TEXT_H

#include <stddef.h>

#include "diff/tc_diff.h"

/* V for reading: integers whole, others with two decimals, or with as many
 * as show two significant digits below 1; never an exponent. "n/a" for
 * NAN. */
void tc_diff_fmt_num(double v, char *buf, size_t cap);

/* A change as "+12.5 %"; else "not comparable" when F's reason is SHARED
 * (stated once above the table), F's reason as it is when the figure is
 * n/a, else "not comparable: " and the reason. */
void tc_diff_fmt_change(const tc_diff_fig *f, const char *shared, char *buf, size_t cap);

/* One sentence on which sites an event's argument paths were compared
 * over (D's args_basis), for the line above the ranking. */
const char *tc_diff_args_basis_text(const tc_diff *d);

#endif
