/* A strict JSON check (RFC 8259, UTF-8), for raw trace bytes the program
 * copies into its own JSON outputs (example events, trace metadata). The
 * parser does not read every value of an event, so an event it counted may
 * still hold bytes that are not JSON; those must never reach census.json. */
#ifndef TC_JSON_VALID_H
#define TC_JSON_VALID_H

#include "util/tc_str.h"

/* 1 if S is exactly one JSON value, optionally surrounded by whitespace,
 * nested at most 1024 deep. */
int tc_json_valid(tc_str s);
/* The same, nested at most MAX_DEPTH deep. */
int tc_json_valid_within(tc_str s, int max_depth);

/* What an event must be to stand as its name's example in every report and
 * be read back by everything that reads reports (partials, diff): one
 * strict JSON object of at most TC_EXAMPLE_MAX_BYTES, nested at most
 * TC_EXAMPLE_MAX_DEPTH deep (a real event is a few levels; the diff's
 * reader takes 256). Larger events are still counted, never shown. */
#define TC_EXAMPLE_MAX_BYTES ((size_t)1 << 16)
#define TC_EXAMPLE_MAX_DEPTH 64
int tc_json_example_ok(tc_str s);

/* Length of the valid UTF-8 sequence at P (at most N bytes), or 0. */
size_t tc_utf8_len(const unsigned char *p, size_t n);

#endif
