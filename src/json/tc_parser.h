/* The C face of the simdjson On-Demand parser (the project's only C++).
 *
 * One call parses a whole chunk of events (see tc_chunker.h) and returns
 * flat arrays: per event its common fields, the set of argument paths it
 * carries with their JSON types, every value under its args (tc_leaf, for
 * the value profiles), and the values of a few argument paths the caller
 * asked for up front (for the kernels, with array element ordinals). No
 * exception crosses this boundary; each worker owns one parser. Argument
 * paths are interned per parser: ids are small dense integers stable for
 * the parser's lifetime, with the path text available from tc_parser_path. */
#ifndef TC_PARSER_H
#define TC_PARSER_H

#include <stddef.h>
#include <stdint.h>

#include "json/tc_chunker.h"
#include "json/tc_event.h"
#include "util/tc_error.h"
#include "util/tc_str.h"

#ifdef __cplusplus
extern "C" {
#endif

#include "util/tc_map.h" /* no C++ guards of its own */

enum {
  TC_EV_HAS_TS = 1 << 0,
  TC_EV_HAS_DUR = 1 << 1,
  TC_EV_HAS_PID = 1 << 2,
  TC_EV_HAS_TID = 1 << 3,
  TC_EV_HAS_NAME = 1 << 4,
  TC_EV_HAS_ARGS = 1 << 5, /* args present and an object */
  TC_EV_LENIENT = 1 << 6,  /* read only after the rewrite of tc_lenient.h */
};

/* One event's fields. Strings are unescaped and valid until the next
 * tc_parser_parse call on the same parser. */
typedef struct {
  tc_str name, cat, ph;
  tc_str id;        /* "id", else "id2"."local"/"global" prefixed "L:"/"G:"; numbers as text */
  tc_str bind_id;   /* flow v2 binding id, as text */
  tc_str scope;     /* "s" (instant scope) */
  /* name and cat interned in the parser's tables (tc_parser_names,
   * tc_parser_cats); an absent one is the empty string's id */
  uint32_t name_id, cat_id;
  double ts, dur;   /* microseconds */
  int64_t pid, tid; /* a string pid/tid becomes a hash of its text */
  uint32_t flags;   /* TC_EV_HAS_* */
  tc_err err;       /* TC_OK, or why this event could not be parsed */
  uint32_t pres_begin, npres; /* range in tc_parsed.pres */
  uint32_t want_begin, nwant; /* range in tc_parsed.wanted */
  uint32_t leaf_begin, nleaf; /* range in tc_parsed.leaves */
} tc_event;

typedef struct {
  uint32_t path; /* tc_parser_path id */
  uint8_t types; /* TC_JT_* bits seen at this path in this event */
} tc_presence;

/* One value under args, in document order: every scalar with its value,
 * every array or object with its type only (its members follow as their
 * own leaves). A repeated key gives one leaf per value. */
typedef struct {
  uint32_t path; /* tc_parser_path id */
  uint8_t type;  /* one TC_JT_* bit */
  double num;    /* NUMBER, and BOOL as 0/1 */
  tc_str str;    /* STRING, unescaped; valid until the next tc_parser_parse */
} tc_leaf;

typedef struct {
  const tc_event *events; /* chunk->nevents of them, in chunk order */
  size_t nevents;
  const tc_presence *pres;
  size_t npres;
  const tc_argval *wanted; /* slot = index into the WANTED list given at create */
  size_t nwanted;
  const tc_leaf *leaves; /* every event's argument values, in chunk order */
  size_t nleaves;
  int slow_path; /* the chunk had a bad event, so events were parsed one by one */
} tc_parsed;

typedef struct tc_parser tc_parser;

/* WANTED: argument paths (census notation) whose scalar values should be
 * returned; copied. NULL if memory fails. */
tc_parser *tc_parser_create(const char *const *wanted, size_t nwanted);
void tc_parser_free(tc_parser *p);

/* Parses every event of CHUNK. Results stay valid until the next call.
 * Returns an error only if memory fails; bad events are marked in err, an
 * empty object ({}) with TC_E_EMPTY_EVENT (Perfetto's importer drops it
 * too: it has no phase). An event that strict JSON rejects but Perfetto
 * reads (tc_lenient.h) is parsed from its rewrite and flagged TC_EV_LENIENT. */
tc_err tc_parser_parse(tc_parser *p, const tc_chunk *chunk, tc_parsed *out);

/* Text of path ID ("args.data.frame"), valid for the parser's lifetime. */
tc_str tc_parser_path(const tc_parser *p, uint32_t id);
uint32_t tc_parser_npaths(const tc_parser *p);

/* Event names and categories seen by this parser, with the ids tc_event
 * carries: interned once per event here, so later stages index dense
 * arrays by id rather than hashing the text again. Valid for the parser's
 * lifetime; ids are stable. */
const tc_map *tc_parser_names(const tc_parser *p);
const tc_map *tc_parser_cats(const tc_parser *p);

/* Id of NAME in tc_parser_names, inserting it if new (for names that reach
 * a table by another way than an event, e.g. pair counts). */
tc_err tc_parser_name_id(tc_parser *p, tc_str name, uint32_t *id);

/* Name of the simdjson kernel this build's shim was compiled for
 * ("haswell", "westmere", "fallback", ...); static. */
const char *tc_parser_kernel(void);

#ifdef __cplusplus
}
#endif

#endif
