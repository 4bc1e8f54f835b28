/* A protobuf base-128 varint read from a buffer in memory: shared by the
 * format sniffer (io/tc_sniff.c) and the plain decode
 * (proto/tc_proto_unpack.c), which both walk top-level fields. */
#ifndef TC_VARINT_H
#define TC_VARINT_H

#include <stddef.h>
#include <stdint.h>

/* Reads a varint at P[*I..N) into *V, moving *I past it: 1 read, 0 cut by
 * the end, -1 longer than ten bytes. */
static inline int tc_varint(const unsigned char *p, size_t n, size_t *i, uint64_t *v) {
  uint64_t x = 0;
  for (unsigned k = 0; k < 10; k++) {
    if (*i >= n)
      return 0;
    unsigned char b = p[(*i)++];
    x |= (uint64_t)(b & 0x7f) << (7 * k);
    if (!(b & 0x80)) {
      *v = x;
      return 1;
    }
  }
  return -1;
}

#endif
