/* libFuzzer target for tc_jtree, the reader diff uses on output folders
 * that may be damaged or of another version. Any bytes: no crash, no leak;
 * an accepted input is strict JSON (util's independent check) and its
 * tree is whole (every node walked, every string readable); a refused one
 * says where, inside the input, or that its first pass knows no place. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "json/tc_jtree.h"
#include "util/tc_json_valid.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile unsigned char sink;

static void touch(tc_str s) {
  for (size_t i = 0; i < s.len; i++)
    sink ^= (unsigned char)s.ptr[i];
}

static void walk(const tc_jval *v, int depth) {
  if (depth > TC_JTREE_MAX_DEPTH)
    abort();
  touch(v->key);
  if (v->type == TC_JSTR)
    touch(v->u.str);
  if (v->type == TC_JARR || v->type == TC_JOBJ)
    for (uint32_t i = 0; i < v->n; i++)
      walk(&v->u.items[i], depth + 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tc_jtree *t = NULL;
  tc_why why;
  tc_err e = tc_jtree_parse((const char *)data, size, &t, &why);
  if (e == TC_OK) {
    if (!tc_json_valid((tc_str){(const char *)data, size}))
      abort();
    walk(tc_jtree_root(t), 0);
  } else if (e != TC_E_BAD_JSON || t || !why.reason[0] ||
             (why.has_offset && why.offset > size)) {
    abort();
  }
  tc_jtree_free(t);
  return 0;
}
