// Number text through Dragonbox (shortest round-trip digits) and C++17
// std::to_chars, whose precision forms the standard defines as printf's in
// the C locale; no printf, no strtod, no locale.
#include "util/tc_numfmt.h"

#include <charconv>
#include <cmath>
#include <cstring>

#include <dragonbox/dragonbox.h>

namespace {

// A decimal d1.d2d3... x 10^x, digits without trailing zeros.
struct decimal {
  char d[24];
  int n;
  int x;
};

// The digits and exponent of std::to_chars' scientific text "-d.ddde+xx".
decimal from_scientific(const char *b, const char *e) {
  decimal r{};
  const char *p = b + (*b == '-');
  for (; p < e && *p != 'e'; p++)
    if (*p != '.')
      r.d[r.n++] = *p;
  p += 1 + (p + 1 < e && p[1] == '+');
  std::from_chars(p, e, r.x);
  while (r.n > 1 && r.d[r.n - 1] == '0')
    r.n--;
  return r;
}

// %.{p}g's layout of a value already rounded to P significant digits:
// positional when -4 <= x < p, else d.ddde+xx; trailing zeros dropped.
size_t layout_g(bool neg, const decimal &v, int p, char *buf) {
  char *o = buf;
  if (neg)
    *o++ = '-';
  if (v.x >= -4 && v.x < p) {
    if (v.x >= 0) {
      int whole = v.n < v.x + 1 ? v.n : v.x + 1;
      std::memcpy(o, v.d, (size_t)whole);
      o += whole;
      for (int i = whole; i <= v.x; i++)
        *o++ = '0';
      if (v.n > v.x + 1) {
        *o++ = '.';
        std::memcpy(o, v.d + v.x + 1, (size_t)(v.n - v.x - 1));
        o += v.n - v.x - 1;
      }
    } else {
      *o++ = '0';
      *o++ = '.';
      for (int i = 0; i < -v.x - 1; i++)
        *o++ = '0';
      std::memcpy(o, v.d, (size_t)v.n);
      o += v.n;
    }
  } else {
    *o++ = v.d[0];
    if (v.n > 1) {
      *o++ = '.';
      std::memcpy(o, v.d + 1, (size_t)(v.n - 1));
      o += v.n - 1;
    }
    *o++ = 'e';
    *o++ = v.x < 0 ? '-' : '+';
    int ax = v.x < 0 ? -v.x : v.x;
    if (ax < 10)
      *o++ = '0';
    o = std::to_chars(o, o + 4, ax).ptr;
  }
  return (size_t)(o - buf);
}

bool same_digits(const decimal &a, const decimal &b) {
  return a.n == b.n && a.x == b.x && std::memcmp(a.d, b.d, (size_t)a.n) == 0;
}

} // namespace

extern "C" size_t tc_numfmt_num(double v, char buf[TC_NUMFMT_MAX]) {
  if (!std::isfinite(v))
    return 0;
  if (v == std::floor(v) && std::fabs(v) < 9007199254740992.0)
    return tc_numfmt_i64((int64_t)v, buf);
  auto s = jkj::dragonbox::to_decimal(v, jkj::dragonbox::policy::sign::ignore);
  decimal d{};
  d.n = (int)(std::to_chars(d.d, d.d + sizeof d.d, s.significand).ptr - d.d);
  d.x = s.exponent + d.n - 1;
  int p = d.n;
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  if ((bits & ((UINT64_C(1) << 52) - 1)) == 0) {
    // A power of two: the shortest digits may lie in the upper gap only,
    // farther than the nearest p digits, which then do not read back; p+1
    // digits always do (their half unit is under a tenth of the gap).
    char t[40];
    auto e = std::to_chars(t, t + sizeof t, v, std::chars_format::scientific, p - 1);
    if (!same_digits(from_scientific(t, e.ptr), d)) {
      e = std::to_chars(t, t + sizeof t, v, std::chars_format::scientific, p);
      d = from_scientific(t, e.ptr);
      p++;
    }
  }
  return layout_g(std::signbit(v), d, p, buf);
}

extern "C" size_t tc_numfmt_g(double v, int precision, char buf[TC_NUMFMT_MAX]) {
  auto r = std::to_chars(buf, buf + TC_NUMFMT_MAX, v, std::chars_format::general, precision);
  return r.ec == std::errc() ? (size_t)(r.ptr - buf) : 0;
}

extern "C" size_t tc_numfmt_fixed(double v, int precision, char buf[TC_NUMFMT_FIXED_MAX]) {
  auto r = std::to_chars(buf, buf + TC_NUMFMT_FIXED_MAX, v, std::chars_format::fixed, precision);
  return r.ec == std::errc() ? (size_t)(r.ptr - buf) : 0;
}

extern "C" size_t tc_numfmt_u64(uint64_t v, char buf[TC_NUMFMT_MAX]) {
  return (size_t)(std::to_chars(buf, buf + TC_NUMFMT_MAX, v).ptr - buf);
}

extern "C" size_t tc_numfmt_i64(int64_t v, char buf[TC_NUMFMT_MAX]) {
  return (size_t)(std::to_chars(buf, buf + TC_NUMFMT_MAX, v).ptr - buf);
}
