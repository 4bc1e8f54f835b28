/* Test helper: the invariants of every tc_parser_parse result, shared by
 * the unit tests and the parser fuzz target (see test_check.h). */
#ifndef TC_TEST_PARSE_CHECK_H
#define TC_TEST_PARSE_CHECK_H

#include <stddef.h>

#include "json/tc_parser.h"

/* Fails unless OUT, parsed from CHUNK by P (created with NWANTED wanted
 * paths), has one event per chunk event; ranges that tile the presence and
 * wanted arrays; bad events (only on the slow path) that carry nothing;
 * known path ids, each once per event, whose text starts with "args";
 * wanted values in known slots with one scalar type bit; and strings that
 * can be read. */
void parsed_assert_sane(const tc_parser *p, const tc_chunk *chunk, const tc_parsed *out,
                        size_t nwanted);

#endif
