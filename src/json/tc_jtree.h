/* A whole small JSON document as a read-only tree: how tracecensus reads
 * its own outputs back (census.json, metrics.json, run.json for `diff`).
 *
 * The simdjson On-Demand parser behind it lives in tc_jtree.cpp, the only
 * C++ of this reader; no exception crosses this boundary. The tree owns
 * every node and string (one arena, freed by tc_jtree_free), so the input
 * buffer may be freed right after parsing. Memory is a fixed multiple of
 * the input's size (one node per JSON value, strings copied once). */
#ifndef TC_JTREE_H
#define TC_JTREE_H

#include <stddef.h>
#include <stdint.h>

#include "util/tc_error.h"
#include "util/tc_str.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { TC_JNULL, TC_JBOOL, TC_JNUM, TC_JSTR, TC_JARR, TC_JOBJ } tc_jtype;

typedef struct tc_jval tc_jval;
struct tc_jval {
  tc_jtype type;
  uint32_t n;    /* TC_JARR, TC_JOBJ: how many items */
  tc_str key;    /* the member's name inside an object (unescaped), else empty */
  union {
    int boolean;          /* TC_JBOOL */
    double num;           /* TC_JNUM: integers above 2^53 lose their last digits */
    tc_str str;           /* TC_JSTR: unescaped UTF-8 */
    const tc_jval *items; /* TC_JARR, TC_JOBJ: n of them in document order */
  } u;
};

typedef struct tc_jtree tc_jtree;

/* Maximum nesting of arrays and objects; deeper documents are refused. */
enum { TC_JTREE_MAX_DEPTH = 256 };

/* Parses the LEN bytes at BUF: strict JSON, one object or array, nothing
 * after it but white space, numbers within a double's range (no output of
 * tracecensus holds another). Errors: TC_E_BAD_JSON with WHY filled,
 * TC_E_NOMEM. */
tc_err tc_jtree_parse(const char *buf, size_t len, tc_jtree **out, tc_why *why);

const tc_jval *tc_jtree_root(const tc_jtree *t);

void tc_jtree_free(tc_jtree *t); /* accepts NULL */

/* The first member KEY of object V; NULL when V is NULL, not an object or
 * has no such member. */
const tc_jval *tc_jget(const tc_jval *v, const char *key);

/* Typed reads: whether V is there with that type (then *OUT is set). */
int tc_jnum(const tc_jval *v, double *out);
int tc_jstr(const tc_jval *v, tc_str *out);

#ifdef __cplusplus
}
#endif

#endif
