#include "util/tc_xxh64.h"

#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL
#define P3 0x165667B19E3779F9ULL
#define P4 0x85EBCA77C2B2AE63ULL
#define P5 0x27D4EB2F165667C5ULL

static inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static inline uint64_t le64(const unsigned char *p) {
  return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
         (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

static inline uint64_t le32(const unsigned char *p) {
  return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
}

static inline uint64_t round64(uint64_t acc, uint64_t lane) {
  acc += lane * P2;
  return rotl(acc, 31) * P1;
}

static inline uint64_t merge_acc(uint64_t acc, uint64_t v) {
  acc ^= round64(0, v);
  return acc * P1 + P4;
}

uint64_t tc_xxh64(const void *data, size_t n, uint64_t seed) {
  const unsigned char *p = data;
  const unsigned char *end = p + n;
  uint64_t acc;
  if (n >= 32) {
    uint64_t v1 = seed + P1 + P2, v2 = seed + P2, v3 = seed, v4 = seed - P1;
    const unsigned char *limit = end - 32;
    do {
      v1 = round64(v1, le64(p));
      v2 = round64(v2, le64(p + 8));
      v3 = round64(v3, le64(p + 16));
      v4 = round64(v4, le64(p + 24));
      p += 32;
    } while (p <= limit);
    acc = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
    acc = merge_acc(acc, v1);
    acc = merge_acc(acc, v2);
    acc = merge_acc(acc, v3);
    acc = merge_acc(acc, v4);
  } else {
    acc = seed + P5;
  }
  acc += (uint64_t)n;
  for (; end - p >= 8; p += 8) {
    acc ^= round64(0, le64(p));
    acc = rotl(acc, 27) * P1 + P4;
  }
  if (end - p >= 4) {
    acc ^= le32(p) * P1;
    acc = rotl(acc, 23) * P2 + P3;
    p += 4;
  }
  for (; p < end; p++) {
    acc ^= (uint64_t)*p * P5;
    acc = rotl(acc, 11) * P1;
  }
  acc ^= acc >> 33;
  acc *= P2;
  acc ^= acc >> 29;
  acc *= P3;
  acc ^= acc >> 32;
  return acc;
}
