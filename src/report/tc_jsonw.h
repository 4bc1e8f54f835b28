/* A small streaming JSON writer for the machine outputs. It tracks nesting
 * so commas and indentation are always right, and prints numbers in one
 * fixed way (integers exactly, reals with %.17g trimmed to the shortest
 * form that reads back the same), so outputs are byte-stable. */
#ifndef TC_JSONW_H
#define TC_JSONW_H

#include <stdint.h>
#include <stdio.h>

#include "util/tc_str.h"

#define TC_JSONW_MAX_DEPTH 64

typedef struct {
  FILE *fp;          /* borrowed */
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

/* Writes S escaped as a JSON string body (no quotes) to FP. */
void tc_json_escape(FILE *fp, tc_str s);

#endif
