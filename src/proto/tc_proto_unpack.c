#include "proto/tc_proto_unpack.h"

#include "proto/tc_perfetto.pb-c.h"
#include "util/tc_varint.h"

uint64_t tc_proto_unpack_all(const unsigned char *p, size_t n, uint64_t *bad) {
  size_t i = 0;
  uint64_t tag, len, ok = 0, failed = 0;
  /* Field 1 of Trace, length-delimited: tag (1 << 3) | 2. */
  while (i < n && tc_varint(p, n, &i, &tag) == 1 && tag == 0x0a &&
         tc_varint(p, n, &i, &len) == 1 && len <= n - i) {
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
