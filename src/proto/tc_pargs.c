/* An event's args object from its debug annotations, as Chrome's JSON
 * writes them (Perfetto's debug_annotation_parser.cc and export_json.cc):
 * each annotation is a member under its name (inline or interned);
 * dict_entries become an object and array_values an array, so paths read
 * args.a.b and args.a[]; NestedValue (the older encoding) likewise; bool,
 * int, uint and double values as JSON numbers and literals (NaN and the
 * infinities as strings), strings (inline or interned) as strings,
 * pointers as "0x..." strings; legacy_json_value embedded as JSON when it
 * is one valid JSON value, else kept as a string of its text. An annotation
 * with no value (an empty dict or array, which the wire cannot tell apart)
 * and a typed proto_value are left out, as Perfetto's JSON export leaves
 * them out. TaskExecution's source location becomes src_file, src_func
 * and src_line, the names Chrome's JSON gives it.
 *
 * The nested fields are declared bytes in tc_perfetto.proto and unpacked
 * here one level at a time, into the packet's allocator, so nesting is
 * bounded by TC_PROTO_MAX_ARG_DEPTH (deeper: the event is left out,
 * TC_E_PB_DEPTH) however protobuf-c would recurse. */
#include "proto/tc_proto_impl.h"
#include "util/tc_json_valid.h"

typedef struct {
  tc_proto *r;
  const tc_pseq *q;
  tc_pbuf *b;
} args_ctx;

static int has_value(const Tcpb__DebugAnnotation *a) {
  return a->n_dict_entries || a->n_array_values || a->has_nested_value || a->has_bool_value ||
         a->has_uint_value || a->has_int_value || a->has_double_value || a->has_string_value ||
         a->has_string_value_iid || a->has_pointer_value || a->has_legacy_json_value;
}

static tc_err annotation(args_ctx *c, const Tcpb__DebugAnnotation *a, int depth);

/* A's name and the colon: inline, interned on the sequence, or "" (an
 * array element has none). */
static tc_err key(args_ctx *c, const Tcpb__DebugAnnotation *a) {
  if (a->has_name) {
    tc__pbuf_str(c->b, a->name.data, a->name.len);
  } else if (a->has_name_iid) {
    const tc_pival *s = tc__pseq_lookup(c->q, TC_PI_ANNOT, a->name_iid);
    if (!s)
      return TC_E_PB_INTERNED;
    tc__pbuf_str(c->b, s->a.ptr, s->a.len);
  } else {
    tc__pbuf_put(c->b, "\"\"", 2);
  }
  tc__pbuf_put(c->b, ":", 1);
  return TC_OK;
}

static Tcpb__DebugAnnotation *unpack_annotation(args_ctx *c, ProtobufCBinaryData d) {
  return tcpb__debug_annotation__unpack(&c->r->alloc.pc, d.len, d.data);
}

/* The children of A: members of an object (named) or elements of an array. */
static tc_err children(args_ctx *c, ProtobufCBinaryData *v, size_t n, int named, int depth) {
  tc__pbuf_put(c->b, named ? "{" : "[", 1);
  int first = 1;
  for (size_t i = 0; i < n; i++) {
    Tcpb__DebugAnnotation *x = unpack_annotation(c, v[i]);
    if (!x)
      return TC_E_PB_BAD_PACKET;
    if (!has_value(x))
      continue;
    if (!first)
      tc__pbuf_put(c->b, ",", 1);
    first = 0;
    tc_err e = named ? key(c, x) : TC_OK;
    if (!e)
      e = annotation(c, x, depth + 1);
    if (e)
      return e;
  }
  tc__pbuf_put(c->b, named ? "}" : "]", 1);
  return TC_OK;
}

static tc_err nested(args_ctx *c, ProtobufCBinaryData d, int depth) {
  if (depth > TC_PROTO_MAX_ARG_DEPTH)
    return TC_E_PB_DEPTH;
  Tcpb__NestedValue *v = tcpb__nested_value__unpack(&c->r->alloc.pc, d.len, d.data);
  if (!v)
    return TC_E_PB_BAD_PACKET;
  if (v->has_nested_type && (v->nested_type == 1 || v->nested_type == 2)) {
    int dict = v->nested_type == 1;
    size_t n = dict ? (v->n_dict_keys < v->n_dict_values ? v->n_dict_keys : v->n_dict_values)
                    : v->n_array_values;
    tc__pbuf_put(c->b, dict ? "{" : "[", 1);
    for (size_t i = 0; i < n; i++) {
      if (i)
        tc__pbuf_put(c->b, ",", 1);
      if (dict) {
        tc__pbuf_str(c->b, v->dict_keys[i].data, v->dict_keys[i].len);
        tc__pbuf_put(c->b, ":", 1);
      }
      tc_err e = nested(c, dict ? v->dict_values[i] : v->array_values[i], depth + 1);
      if (e)
        return e;
    }
    tc__pbuf_put(c->b, dict ? "}" : "]", 1);
  } else if (v->has_int_value) {
    tc__pbuf_i64(c->b, v->int_value);
  } else if (v->has_double_value) {
    tc__pbuf_num(c->b, v->double_value);
  } else if (v->has_bool_value) {
    tc__pbuf_puts(c->b, v->bool_value ? "true" : "false");
  } else if (v->has_string_value) {
    tc__pbuf_str(c->b, v->string_value.data, v->string_value.len);
  } else {
    tc__pbuf_puts(c->b, "null");
  }
  return TC_OK;
}

/* A's value, which has_value said exists. */
static tc_err annotation(args_ctx *c, const Tcpb__DebugAnnotation *a, int depth) {
  if (depth > TC_PROTO_MAX_ARG_DEPTH)
    return TC_E_PB_DEPTH;
  if (a->n_dict_entries)
    return children(c, a->dict_entries, a->n_dict_entries, 1, depth);
  if (a->n_array_values)
    return children(c, a->array_values, a->n_array_values, 0, depth);
  if (a->has_nested_value)
    return nested(c, a->nested_value, depth + 1);
  tc_pbuf *b = c->b;
  if (a->has_bool_value) {
    tc__pbuf_puts(b, a->bool_value ? "true" : "false");
  } else if (a->has_uint_value) {
    tc__pbuf_u64(b, a->uint_value);
  } else if (a->has_int_value) {
    tc__pbuf_i64(b, a->int_value);
  } else if (a->has_double_value) {
    tc__pbuf_num(b, a->double_value);
  } else if (a->has_string_value) {
    tc__pbuf_str(b, a->string_value.data, a->string_value.len);
  } else if (a->has_string_value_iid) {
    const tc_pival *s = tc__pseq_lookup(c->q, TC_PI_STRVAL, a->string_value_iid);
    if (!s)
      return TC_E_PB_INTERNED;
    tc__pbuf_str(b, s->a.ptr, s->a.len);
  } else if (a->has_pointer_value) {
    tc__pbuf_hex(b, a->pointer_value);
  } else {
    tc_str j = {(const char *)a->legacy_json_value.data, a->legacy_json_value.len};
    if (tc_json_valid(j))
      tc__pbuf_put(b, j.ptr, j.len);
    else
      tc__pbuf_str(b, j.ptr, j.len);
  }
  return TC_OK;
}

static void member(args_ctx *c, const char *key) {
  if (c->b->len)
    tc__pbuf_put(c->b, ",", 1);
  tc__pbuf_puts(c->b, key);
}

/* TaskExecution.posted_from, as Chrome's JSON names its parts. */
static tc_err task(args_ctx *c, const Tcpb__TaskExecution *t) {
  if (!t || !t->has_posted_from_iid)
    return TC_OK;
  const tc_pival *s = tc__pseq_lookup(c->q, TC_PI_SRCLOC, t->posted_from_iid);
  if (!s)
    return TC_E_PB_INTERNED;
  member(c, "\"src_file\":");
  tc__pbuf_str(c->b, s->a.ptr, s->a.len);
  member(c, "\"src_func\":");
  tc__pbuf_str(c->b, s->b.ptr, s->b.len);
  if (s->has_line) {
    member(c, "\"src_line\":");
    tc__pbuf_u64(c->b, s->line);
  }
  return TC_OK;
}

tc_err tc__pargs(tc_proto *r, const tc_pseq *q, const Tcpb__TrackEvent *e) {
  args_ctx c = {r, q, &r->args};
  for (size_t i = 0; i < e->n_debug_annotations; i++) {
    const Tcpb__DebugAnnotation *a = e->debug_annotations[i];
    if (!has_value(a))
      continue;
    if (c.b->len)
      tc__pbuf_put(c.b, ",", 1);
    tc_err err = key(&c, a);
    if (!err)
      err = annotation(&c, a, 1);
    if (err)
      return err;
  }
  tc_err err = task(&c, e->task_execution);
  if (err)
    return err;
  return c.b->oom ? TC_E_NOMEM : TC_OK;
}
