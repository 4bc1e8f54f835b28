/* protobuf-c says only that a message did not unpack. To name the problem
 * and its byte, a refused packet is walked again here, field by field,
 * against the same descriptors protobuf-c used: a tag or value varint
 * longer than ten bytes, a wire type that is not one of 0, 1, 2, 5 or not
 * the one a known field is declared with (packed repeated scalars allowed,
 * as protobuf-c allows them), a field running past the end of its message
 * (named at its tag: the end itself may be the end of the input); known
 * message fields are walked inside. Only refused
 * packets come here, so the walk costs nothing on good traces. */
#include "proto/tc_proto_impl.h"

#define DIAG_DEPTH 32

typedef struct {
  const uint8_t *base;
  size_t at;
  tc_err code;
} diag;

static int fail(diag *d, const uint8_t *p, tc_err code) {
  d->at = (size_t)(p - d->base);
  d->code = code;
  return 0;
}

/* Reads a varint at *P (before END): 1, or 0 with D set. */
static int varint(diag *d, const uint8_t **p, const uint8_t *end, uint64_t *v) {
  const uint8_t *s = *p;
  uint64_t x = 0;
  for (unsigned k = 0; k < 10; k++) {
    if (s + k >= end)
      return fail(d, *p, TC_E_PB_LENGTH);
    x |= (uint64_t)(s[k] & 0x7f) << (7 * k);
    if (!(s[k] & 0x80)) {
      *v = x;
      *p = s + k + 1;
      return 1;
    }
  }
  return fail(d, *p, TC_E_PB_VARINT);
}

/* The wire type a field of TYPE is written with, unpacked. */
static unsigned wire_of(ProtobufCType type) {
  switch (type) {
  case PROTOBUF_C_TYPE_SFIXED32:
  case PROTOBUF_C_TYPE_FIXED32:
  case PROTOBUF_C_TYPE_FLOAT:
    return 5;
  case PROTOBUF_C_TYPE_SFIXED64:
  case PROTOBUF_C_TYPE_FIXED64:
  case PROTOBUF_C_TYPE_DOUBLE:
    return 1;
  case PROTOBUF_C_TYPE_STRING:
  case PROTOBUF_C_TYPE_BYTES:
  case PROTOBUF_C_TYPE_MESSAGE:
    return 2;
  default:
    return 0;
  }
}

/* The values of a packed field: whole varints or whole fixed-size values. */
static int packed(diag *d, const uint8_t *p, const uint8_t *end, unsigned wire) {
  if (wire != 0) {
    size_t size = wire == 1 ? 8 : 4;
    return (size_t)(end - p) % size == 0 ? 1 : fail(d, p, TC_E_PB_LENGTH);
  }
  uint64_t v;
  while (p < end)
    if (!varint(d, &p, end, &v))
      return 0;
  return 1;
}

static int walk(diag *d, const ProtobufCMessageDescriptor *desc, const uint8_t *p,
                const uint8_t *end, int depth) {
  while (p < end) {
    const uint8_t *tag_at = p;
    uint64_t tag, v;
    if (!varint(d, &p, end, &tag))
      return 0;
    unsigned wire = (unsigned)(tag & 7);
    uint64_t id = tag >> 3;
    if (wire == 3 || wire == 4 || wire > 5 || id == 0 || id > 0x1fffffff)
      return fail(d, tag_at, TC_E_PB_WIRE_TYPE);
    const ProtobufCFieldDescriptor *f =
        desc ? protobuf_c_message_descriptor_get_field(desc, (unsigned)id) : NULL;
    if (f) {
      unsigned want = wire_of(f->type);
      int may_pack = f->label == PROTOBUF_C_LABEL_REPEATED && want != 2;
      if (wire != want && !(may_pack && wire == 2))
        return fail(d, tag_at, TC_E_PB_WIRE_TYPE);
    }
    if (wire == 0) {
      if (!varint(d, &p, end, &v))
        return d->code == TC_E_PB_LENGTH ? fail(d, tag_at, TC_E_PB_LENGTH) : 0;
    } else if (wire == 1 || wire == 5) {
      size_t size = wire == 1 ? 8 : 4;
      if ((size_t)(end - p) < size)
        return fail(d, tag_at, TC_E_PB_LENGTH);
      p += size;
    } else {
      if (!varint(d, &p, end, &v))
        return d->code == TC_E_PB_LENGTH ? fail(d, tag_at, TC_E_PB_LENGTH) : 0;
      if (v > (uint64_t)(end - p))
        return fail(d, tag_at, TC_E_PB_LENGTH);
      const uint8_t *inner = p;
      p += v;
      if (f && f->type == PROTOBUF_C_TYPE_MESSAGE && depth < DIAG_DEPTH &&
          !walk(d, (const ProtobufCMessageDescriptor *)f->descriptor, inner, p, depth + 1))
        return 0;
      if (f && wire_of(f->type) != 2 && !packed(d, inner, p, wire_of(f->type)))
        return 0;
    }
  }
  return 1;
}

tc_err tc__pdiag(const ProtobufCMessageDescriptor *desc, const uint8_t *data, size_t n,
                 size_t *at) {
  diag d = {data, 0, TC_E_PB_BAD_PACKET};
  if (walk(&d, desc, data, data + n, 0)) {
    d.at = 0;
    d.code = TC_E_PB_BAD_PACKET;
  }
  *at = d.at;
  return d.code;
}
