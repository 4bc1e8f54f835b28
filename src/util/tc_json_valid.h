/* A strict JSON check (RFC 8259, UTF-8), for raw trace bytes the program
 * copies into its own JSON outputs (example events, trace metadata). The
 * parser does not read every value of an event, so an event it counted may
 * still hold bytes that are not JSON; those must never reach census.json. */
#ifndef TC_JSON_VALID_H
#define TC_JSON_VALID_H

#include "util/tc_str.h"

/* 1 if S is exactly one JSON value, optionally surrounded by whitespace. */
int tc_json_valid(tc_str s);

/* Length of the valid UTF-8 sequence at P (at most N bytes), or 0. */
size_t tc_utf8_len(const unsigned char *p, size_t n);

#endif
