/* Reading facts back out of the markup the HTML layer writes: the tests
 * parse what a reader would see (bars, paths, tick labels, tooltips)
 * instead of trusting the writer's own bookkeeping. */
#ifndef SVG_PROBE_H
#define SVG_PROBE_H

#include <stddef.h>
#include <stdio.h>

/* An in-memory FILE; probe_take closes it and returns the text (the caller
 * frees it). */
typedef struct {
  FILE *fp;
  char *buf;
  size_t len;
} probe_sink;

void probe_open(probe_sink *s);
char *probe_take(probe_sink *s);

/* Occurrences of NEEDLE in HAY. */
size_t probe_count(const char *hay, const char *needle);

/* The value of attribute NAME in the tag that starts at TAG (up to its
 * '>'), copied into OUT; 0 when the tag has no such attribute. */
int probe_attr(const char *tag, const char *name, char *out, size_t cap);
double probe_attr_num(const char *tag, const char *name); /* NAN when absent */

/* The text of the first <title> after P (and before the next '<rect' or
 * '<g', so a bar's own tooltip), into OUT; 0 when there is none. */
int probe_title(const char *p, char *out, size_t cap);

/* The y coordinate of the y tick labelled LABEL (NAN when absent), and the
 * x coordinate of the x tick labelled LABEL. */
double probe_ytick(const char *svg, const char *label);
double probe_xtick(const char *svg, const char *label);

/* Whether the y (x) tick labels, in order, are exactly the NULL-terminated
 * list WANT. */
int probe_yticks_are(const char *svg, const char *const *want);
int probe_xticks_are(const char *svg, const char *const *want);

/* Fails (returns the offending attribute's position) when any geometry or
 * number attribute (x, y, width, height, d, transform, viewBox, data-v,
 * x1..y2) holds "nan" or "inf" in any case; NULL when none does. */
const char *probe_bad_number(const char *text);

/* The i-th (from 0) occurrence of NEEDLE in HAY, or NULL. */
const char *probe_nth(const char *hay, const char *needle, size_t i);

#endif
