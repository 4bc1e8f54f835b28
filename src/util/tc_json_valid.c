#include "util/tc_json_valid.h"

#define TC_JSON_MAX_DEPTH 1024

typedef struct {
  const unsigned char *p, *end;
  int depth, max_depth;
} jv;

static void ws(jv *j) {
  while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\r' || *j->p == '\t'))
    j->p++;
}

size_t tc_utf8_len(const unsigned char *p, size_t n) {
  unsigned char c = p[0];
  if (c < 0x80)
    return 1;
  size_t len;
  unsigned lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0)
      lo = 0xA0; /* overlong */
    if (c == 0xED)
      hi = 0x9F; /* surrogates */
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0)
      lo = 0x90;
    if (c == 0xF4)
      hi = 0x8F;
  } else {
    return 0;
  }
  if (n < len || p[1] < lo || p[1] > hi)
    return 0;
  for (size_t i = 2; i < len; i++)
    if (p[i] < 0x80 || p[i] > 0xBF)
      return 0;
  return len;
}

static int hex(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int string(jv *j) {
  j->p++; /* opening quote */
  while (j->p < j->end) {
    unsigned char c = *j->p;
    if (c == '"') {
      j->p++;
      return 1;
    }
    if (c < 0x20)
      return 0;
    if (c == '\\') {
      if (j->end - j->p < 2)
        return 0;
      unsigned char e = j->p[1];
      if (e == 'u') {
        if (j->end - j->p < 6 || !hex(j->p[2]) || !hex(j->p[3]) || !hex(j->p[4]) || !hex(j->p[5]))
          return 0;
        j->p += 6;
      } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' ||
                 e == 'r' || e == 't') {
        j->p += 2;
      } else {
        return 0;
      }
      continue;
    }
    size_t len = tc_utf8_len(j->p, (size_t)(j->end - j->p));
    if (!len)
      return 0;
    j->p += len;
  }
  return 0;
}

static int digits(jv *j) {
  const unsigned char *b = j->p;
  while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
    j->p++;
  return j->p > b;
}

static int number(jv *j) {
  if (*j->p == '-')
    j->p++;
  if (j->p >= j->end)
    return 0;
  if (*j->p == '0')
    j->p++;
  else if (!digits(j))
    return 0;
  if (j->p < j->end && *j->p == '.') {
    j->p++;
    if (!digits(j))
      return 0;
  }
  if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
    j->p++;
    if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
      j->p++;
    if (!digits(j))
      return 0;
  }
  return 1;
}

static int literal(jv *j, const char *lit) {
  for (; *lit; lit++, j->p++)
    if (j->p >= j->end || *j->p != (unsigned char)*lit)
      return 0;
  return 1;
}

static int value(jv *j);

static int container(jv *j, unsigned char close) {
  if (++j->depth > j->max_depth)
    return 0;
  j->p++;
  ws(j);
  if (j->p < j->end && *j->p == close) {
    j->p++;
    j->depth--;
    return 1;
  }
  for (;;) {
    if (close == '}') {
      ws(j);
      if (j->p >= j->end || *j->p != '"' || !string(j))
        return 0;
      ws(j);
      if (j->p >= j->end || *j->p != ':')
        return 0;
      j->p++;
    }
    if (!value(j))
      return 0;
    ws(j);
    if (j->p >= j->end)
      return 0;
    if (*j->p == ',') {
      j->p++;
      continue;
    }
    if (*j->p != close)
      return 0;
    j->p++;
    j->depth--;
    return 1;
  }
}

static int value(jv *j) {
  ws(j);
  if (j->p >= j->end)
    return 0;
  switch (*j->p) {
  case '{': return container(j, '}');
  case '[': return container(j, ']');
  case '"': return string(j);
  case 't': return literal(j, "true");
  case 'f': return literal(j, "false");
  case 'n': return literal(j, "null");
  default: return number(j);
  }
}

int tc_json_valid_within(tc_str s, int max_depth) {
  jv j = {(const unsigned char *)s.ptr, (const unsigned char *)s.ptr + s.len, 0, max_depth};
  if (!value(&j))
    return 0;
  ws(&j);
  return j.p == j.end;
}

int tc_json_valid(tc_str s) { return tc_json_valid_within(s, TC_JSON_MAX_DEPTH); }

int tc_json_example_ok(tc_str s) {
  return s.len && s.len <= TC_EXAMPLE_MAX_BYTES && s.ptr[0] == '{' &&
         tc_json_valid_within(s, TC_EXAMPLE_MAX_DEPTH);
}
