/* Magic numbers first; then the protobuf test, which walks field tags and
 * lengths only as far as the head goes.
 *
 * A Perfetto trace is Trace { repeated TracePacket packet = 1; }, so it
 * starts with 0x0a, a varint length and the first packet's fields. 0x0a is
 * also '\n', which may start a JSON trace; JSON text holds no control byte
 * but tab, newline and carriage return, while a packet's tags and short
 * lengths are such bytes. So the head is a Perfetto trace when its first
 * packet walks as protobuf and either holds such a byte or ends exactly
 * where a second packet (0x0a) or the head does. Other binary data that
 * walks as two or more protobuf fields is protobuf that is not a trace. */
#include "io/tc_sniff.h"

#include <stdint.h>
#include <string.h>

#include "util/tc_varint.h"

static int starts(const unsigned char *p, size_t n, const char *magic, size_t m) {
  return n >= m && memcmp(p, magic, m) == 0;
}

static int is_space(unsigned char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

/* A control byte that JSON never holds outside a (lenient) string. */
static int is_control(unsigned char c) { return c < 0x20 && !is_space(c); }

/* Walks fields from P[i] to END (a message's end; the head may stop
 * before it, at N). Returns the whole fields read, or -1 if a tag, wire
 * type or length is impossible. */
static long walk_fields(const unsigned char *p, size_t n, size_t i, uint64_t end) {
  long fields = 0;
  size_t stop = end < n ? (size_t)end : n;
  while (i < stop) {
    uint64_t tag, v;
    int r = tc_varint(p, stop, &i, &tag);
    if (r <= 0)
      return r < 0 ? -1 : fields;
    unsigned wire = (unsigned)(tag & 7);
    if (tag >> 3 == 0 || tag >> 3 > 0x1fffffff)
      return -1;
    if (wire == 0) {
      if ((r = tc_varint(p, stop, &i, &v)) <= 0)
        return r < 0 ? -1 : fields;
    } else if (wire == 1 || wire == 5) {
      i += wire == 1 ? 8 : 4;
    } else if (wire == 2) {
      if ((r = tc_varint(p, stop, &i, &v)) < 0)
        return -1;
      if (r == 0)
        return fields;
      if (v > end - i)
        return -1;
      i += (size_t)v;
    } else {
      return -1; /* groups (3, 4) and 6, 7 */
    }
    if (i > end)
      return -1;
    if (i <= stop)
      fields++;
  }
  return fields;
}

static int has_control(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (is_control(p[i]))
      return 1;
  return 0;
}

static int perfetto(const unsigned char *p, size_t n) {
  size_t i = 1;
  uint64_t len;
  if (n < 2 || p[0] != 0x0a || tc_varint(p, n, &i, &len) != 1 || len > UINT32_MAX)
    return 0;
  uint64_t end = i + len;
  long fields = walk_fields(p, n, i, end);
  if (fields < 0 || (fields == 0 && len > 0))
    return 0;
  size_t seen = end < n ? (size_t)end : n;
  if (has_control(p + 1, seen - 1))
    return 1;
  return end <= n && (end == n || p[end] == 0x0a);
}

tc_sniff_kind tc_sniff(const unsigned char *p, size_t n) {
  if (starts(p, n, "\x1f\x8b", 2))
    return TC_SNIFF_GZIP;
  if (starts(p, n, "\x28\xb5\x2f\xfd", 4) ||
      (n >= 4 && (p[0] & 0xf0) == 0x50 && p[1] == 0x2a && p[2] == 0x4d && p[3] == 0x18))
    return TC_SNIFF_ZSTD;
  if (starts(p, n, "PK\x03\x04", 4) || starts(p, n, "PK\x05\x06", 4))
    return TC_SNIFF_ZIP;
  if (starts(p, n, "\x89PNG\r\n\x1a\n", 8))
    return TC_SNIFF_PNG;
  if (starts(p, n, "\xff\xd8\xff", 3))
    return TC_SNIFF_JPEG;
  if (starts(p, n, "GIF87a", 6) || starts(p, n, "GIF89a", 6))
    return TC_SNIFF_GIF;
  if (starts(p, n, "%PDF-", 5))
    return TC_SNIFF_PDF;
  if (perfetto(p, n))
    return TC_SNIFF_PERFETTO;
  size_t i = 0;
  while (i < n && is_space(p[i]))
    i++;
  if (i < n && (p[i] == '[' || p[i] == '{'))
    return TC_SNIFF_TEXT;
  if (has_control(p, n))
    return walk_fields(p, n, 0, UINT64_MAX) > 1 ? TC_SNIFF_PROTOBUF : TC_SNIFF_BINARY;
  return TC_SNIFF_TEXT;
}

int tc_sniff_needs_head(unsigned char c) {
  /* '\n' may start a Perfetto trace; the others start a magic number (0x50
   * to 0x5f: zstd's skippable frames, and 'P' of zip; but '[', 0x5b, starts
   * a JSON array), and control bytes and bytes above 0x7f but a byte order
   * mark's start binary data. */
  return c == '\n' || c == 0x1f || c == 0x28 || (c >= 0x50 && c <= 0x5f && c != '[') || c == 0x89 ||
         c == 0xff || c == 'G' || c == '%' || is_control(c) || (c >= 0x80 && c != 0xEF);
}

tc_err tc_sniff_error(tc_sniff_kind kind) {
  switch (kind) {
  case TC_SNIFF_TEXT:
  case TC_SNIFF_PERFETTO:
    return TC_OK;
  case TC_SNIFF_PROTOBUF:
    return TC_E_NOT_TRACE_PROTOBUF;
  case TC_SNIFF_GZIP:
    return TC_E_NOT_TRACE_GZIP;
  case TC_SNIFF_ZSTD:
    return TC_E_NOT_TRACE_ZSTD;
  case TC_SNIFF_ZIP:
    return TC_E_NOT_TRACE_ZIP;
  case TC_SNIFF_PNG:
    return TC_E_NOT_TRACE_PNG;
  case TC_SNIFF_JPEG:
    return TC_E_NOT_TRACE_JPEG;
  case TC_SNIFF_GIF:
    return TC_E_NOT_TRACE_GIF;
  case TC_SNIFF_PDF:
    return TC_E_NOT_TRACE_PDF;
  case TC_SNIFF_BINARY:
    break;
  }
  return TC_E_NOT_TRACE_BINARY;
}
