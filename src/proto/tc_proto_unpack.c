#include "proto/tc_proto_unpack.h"

#include "proto/tc_perfetto.pb-c.h"

static int varint(const unsigned char *p, size_t n, size_t *i, uint64_t *v) {
  uint64_t x = 0;
  for (unsigned k = 0; k < 10 && *i < n; k++) {
    unsigned char c = p[(*i)++];
    x |= (uint64_t)(c & 0x7f) << (7 * k);
    if (!(c & 0x80)) {
      *v = x;
      return 1;
    }
  }
  return 0;
}

uint64_t tc_proto_unpack_all(const unsigned char *p, size_t n, uint64_t *bad) {
  size_t i = 0;
  uint64_t tag, len, ok = 0, failed = 0;
  /* Field 1 of Trace, length-delimited: tag (1 << 3) | 2. */
  while (i < n && varint(p, n, &i, &tag) && tag == 0x0a && varint(p, n, &i, &len) &&
         len <= n - i) {
    Tcpb__TracePacket *t = tcpb__trace_packet__unpack(NULL, (size_t)len, p + i);
    if (t) {
      tcpb__trace_packet__free_unpacked(t, NULL);
      ok++;
    } else {
      failed++;
    }
    i += (size_t)len;
  }
  if (bad)
    *bad = failed;
  return ok;
}
