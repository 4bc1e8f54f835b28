/* Framing: the top level of a trace is `repeated TracePacket packet = 1`,
 * each a tag byte 0x0a, a varint length and that many bytes. protobuf-c
 * unpacks whole messages only, so this small state machine finds each
 * packet's bytes in a stream that arrives in pieces of any size: a packet
 * that lies wholly in one piece is unpacked where it lies, one that
 * straddles pieces is copied (at most TC_PROTO_PACKET_MAX bytes). Other
 * top-level fields are skipped, as protobuf skips unknown fields; a packet
 * over the size limit is skipped and named. A tag or length that cannot be
 * read breaks the framing: nothing after it can be found, so the reader
 * stops there and says where. */
#include <stdlib.h>
#include <string.h>

#include "proto/tc_proto_impl.h"

enum { F_TAG, F_LEN, F_BODY, F_SKIP_LEN, F_SKIP_VARINT, F_SKIP, F_TOO_BIG };

/* Feeds one byte of a varint; 1 when it ended, -1 when it is too long. */
static int varint_byte(tc_proto *r, uint8_t b) {
  if (r->fshift >= 70)
    return -1;
  if (r->fshift < 64)
    r->fval |= (uint64_t)(b & 0x7f) << r->fshift;
  r->fshift += 7;
  if (b & 0x80)
    return r->fshift >= 70 ? -1 : 0;
  return 1;
}

static void start_varint(tc_proto *r, int state) {
  r->fstate = state;
  r->fval = 0;
  r->fshift = 0;
}

static tc_err broken(tc_proto *r, tc_err code) {
  r->broken = code;
  r->broken_at = r->pkt_offset;
  tc__proto_skip(r, r->pkt_offset, code);
  return code;
}

/* After a tag: where the bytes that follow go. */
static tc_err after_tag(tc_proto *r) {
  uint64_t tag = r->fval;
  unsigned wire = (unsigned)(tag & 7);
  uint64_t field = tag >> 3;
  if (field == 0 || wire == 3 || wire == 4 || wire > 5 || (field == 1 && wire != 2))
    return broken(r, TC_E_PB_WIRE_TYPE);
  if (field == 1) {
    start_varint(r, F_LEN);
  } else if (wire == 0) {
    start_varint(r, F_SKIP_VARINT);
  } else if (wire == 2) {
    start_varint(r, F_SKIP_LEN);
  } else {
    r->skip_left = wire == 1 ? 8 : 4;
    r->fstate = F_SKIP;
  }
  return TC_OK;
}

static void after_len(tc_proto *r) {
  r->pkt_len = r->fval;
  r->pkt_got = 0;
  if (r->pkt_len > TC_PROTO_PACKET_MAX) {
    tc__proto_skip(r, r->pkt_offset, TC_E_PB_TOO_BIG);
    r->skip_left = r->pkt_len;
    r->fstate = F_TOO_BIG;
  } else {
    r->fstate = F_BODY;
  }
}

/* The packet's bytes from DATA[*i]; 1 when the packet was handled. */
static int body(tc_proto *r, const uint8_t *data, size_t n, size_t *i) {
  size_t avail = n - *i;
  uint64_t want = r->pkt_len - r->pkt_got;
  if (r->pkt_got == 0 && avail >= want) {
    size_t len = (size_t)want;
    r->pos += len;
    *i += len;
    tc__proto_packet(r, data + *i - len, len);
    r->fstate = F_TAG;
    r->fval = 0;
    r->fshift = 0;
    return 1;
  }
  if (r->pkt_cap < r->pkt_len) {
    uint8_t *p = realloc(r->pkt, (size_t)r->pkt_len);
    if (!p) {
      r->fail = TC_E_NOMEM;
      return 0;
    }
    r->pkt = p;
    r->pkt_cap = (size_t)r->pkt_len;
  }
  size_t take = avail < want ? avail : (size_t)want;
  memcpy(r->pkt + r->pkt_got, data + *i, take);
  r->pkt_got += take;
  r->pos += take;
  *i += take;
  if (r->pkt_got < r->pkt_len)
    return 0;
  tc__proto_packet(r, r->pkt, (size_t)r->pkt_len);
  start_varint(r, F_TAG);
  return 1;
}

tc_err tc_proto_feed(tc_proto *r, const unsigned char *data, size_t n, size_t *pos) {
  if (r->broken)
    return r->broken;
  size_t i = *pos;
  while (i < n && !r->fail) {
    int st = r->fstate;
    if (st == F_BODY) {
      int done = body(r, data, n, &i);
      if (done)
        break;
      continue;
    }
    if (st == F_SKIP || st == F_TOO_BIG) {
      uint64_t take = n - i < r->skip_left ? n - i : r->skip_left;
      i += (size_t)take;
      r->pos += take;
      r->skip_left -= take;
      if (!r->skip_left)
        start_varint(r, F_TAG);
      continue;
    }
    if (st == F_TAG && r->fshift == 0)
      r->pkt_offset = r->pos;
    int end = varint_byte(r, data[i]);
    i++;
    r->pos++;
    if (end < 0) {
      *pos = i;
      return broken(r, TC_E_PB_VARINT);
    }
    if (!end)
      continue;
    tc_err e = TC_OK;
    if (st == F_TAG) {
      e = after_tag(r);
    } else if (st == F_LEN) {
      after_len(r);
      if (r->fstate == F_BODY && r->pkt_len == 0) {
        /* An empty packet is a packet (of defaults), read at once so that
         * one at the very end is not taken for a cut. */
        tc__proto_packet(r, (const uint8_t *)"", 0);
        start_varint(r, F_TAG);
        break;
      }
    } else if (st == F_SKIP_LEN) {
      r->skip_left = r->fval;
      r->fstate = F_SKIP;
      if (!r->skip_left)
        start_varint(r, F_TAG);
    } else {
      start_varint(r, F_TAG);
    }
    if (e) {
      *pos = i;
      return e;
    }
  }
  *pos = i;
  return r->fail;
}

/* Called by tc_proto_finish: the stream ended; was it inside something? */
void tc__pframe_end(tc_proto *r) {
  if (r->broken)
    return;
  int inside = r->fstate != F_TAG || r->fshift != 0;
  if (!inside)
    return;
  r->cut = 1;
  if (r->fstate != F_TOO_BIG)
    tc__proto_skip(r, r->pkt_offset, TC_E_PB_TRUNCATED);
}
