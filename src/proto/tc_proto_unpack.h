/* protobuf-c alone over a whole Perfetto trace in memory: every
 * TracePacket unpacked by the generated code with the default allocator,
 * then freed, nothing kept. It is what a straightforward protobuf-c
 * program over a trace does at least, so it is the anchor the Perfetto
 * reader is measured against (`tracecensus bench --baseline` through
 * json/tc_walk.h, and bench/proto_decode). Unpacking materialises every
 * field, values included, so for protobuf the key-only and the value walk
 * are this one walk. */
#ifndef TC_PROTO_UNPACK_H
#define TC_PROTO_UNPACK_H

#include <stddef.h>
#include <stdint.h>

/* Unpacks the packets of the N bytes at P (a decompressed trace) in order,
 * stopping at the first malformed tag or length. Returns the packets that
 * unpacked; *BAD (may be NULL) gets those that did not (or whose memory
 * failed: protobuf-c does not tell the two apart). */
uint64_t tc_proto_unpack_all(const unsigned char *p, size_t n, uint64_t *bad);

#endif
