/* A small streaming JSON writer for the machine outputs. It tracks nesting
 * so commas and indentation are always right, and prints numbers in one
 * fixed way (tc_numfmt_num: integers exactly, reals in the shortest %g form
 * that reads back the same), so outputs are byte-stable. Text goes through
 * the writer's own buffer; the stream receives it in large blocks and at
 * the end of every top-level value, so between top-level values the stream
 * holds everything written and the caller may write to it directly. */
#ifndef TC_JSONW_H
#define TC_JSONW_H

#include <stdint.h>
#include <stdio.h>

#include "report/tc_wbuf.h"
#include "util/tc_str.h"

#define TC_JSONW_MAX_DEPTH 64

typedef struct {
  tc_wbuf out;       /* in front of the borrowed stream */
  int depth;
  int indent;        /* spaces per level; 0 = compact */
  unsigned char first[TC_JSONW_MAX_DEPTH]; /* no member written yet at this level */
  unsigned char after_key;
} tc_jsonw;

void tc_jsonw_init(tc_jsonw *w, FILE *fp, int indent);

void tc_jsonw_obj(tc_jsonw *w);   /* { */
void tc_jsonw_obj_end(tc_jsonw *w);
void tc_jsonw_arr(tc_jsonw *w);   /* [ */
void tc_jsonw_arr_end(tc_jsonw *w);

void tc_jsonw_key(tc_jsonw *w, const char *k);
void tc_jsonw_keyn(tc_jsonw *w, tc_str k);

void tc_jsonw_str(tc_jsonw *w, const char *s); /* NULL writes null */
void tc_jsonw_strn(tc_jsonw *w, tc_str s);
void tc_jsonw_int(tc_jsonw *w, int64_t v);
void tc_jsonw_uint(tc_jsonw *w, uint64_t v);
void tc_jsonw_num(tc_jsonw *w, double v); /* NaN/inf write null */
void tc_jsonw_bool(tc_jsonw *w, int v);
void tc_jsonw_null(tc_jsonw *w);

/* Writes already-valid JSON text as one value (e.g. a kept raw event). */
void tc_jsonw_raw(tc_jsonw *w, tc_str json);

/* An object's member in one call: key K, then the value as above. */
void tc_jsonw_kstr(tc_jsonw *w, const char *k, const char *s);
void tc_jsonw_kstrn(tc_jsonw *w, const char *k, tc_str s);
void tc_jsonw_kint(tc_jsonw *w, const char *k, int64_t v);
void tc_jsonw_kuint(tc_jsonw *w, const char *k, uint64_t v);
void tc_jsonw_knum(tc_jsonw *w, const char *k, double v);
void tc_jsonw_kbool(tc_jsonw *w, const char *k, int v);
void tc_jsonw_knull(tc_jsonw *w, const char *k);
void tc_jsonw_kobj(tc_jsonw *w, const char *k); /* "k": { */
void tc_jsonw_karr(tc_jsonw *w, const char *k); /* "k": [ */
void tc_jsonw_kraw(tc_jsonw *w, const char *k, tc_str json);

/* A name that came from a file name (a site's folder) under K, as text;
 * when it is not valid UTF-8 the text has U+FFFD for some bytes and two
 * names can read the same, so its exact bytes follow in lowercase hex
 * under K with "_hex" appended, by which readers (diff) tell them apart. */
void tc_jsonw_kname(tc_jsonw *w, const char *k, tc_str name);

/* Ends a document: the newline after its top-level value. */
void tc_jsonw_end(tc_jsonw *w);

/* Appends S escaped as a JSON string body (no quotes) to B: controls,
 * quote and backslash escaped, valid UTF-8 as it is, every byte of an
 * invalid sequence as \ufffd (file names need not be UTF-8). */
void tc_json_escape(tc_wbuf *b, tc_str s);

#endif
