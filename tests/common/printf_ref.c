#include "printf_ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/tc_json_valid.h"

size_t printf_ref_num(double v, char *buf, size_t cap) {
  if (v == floor(v) && fabs(v) < 9007199254740992.0)
    return (size_t)snprintf(buf, cap, "%.0f", v == 0 ? 0.0 : v);
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(buf, cap, "%.*g", prec, v);
    if (strtod(buf, NULL) == v)
      break;
  }
  return strlen(buf);
}

void printf_ref_escape(FILE *fp, tc_str s) {
  static const char hex[] = "0123456789abcdef";
  size_t run = 0;
  for (size_t i = 0; i < s.len; i++) {
    unsigned char c = (unsigned char)s.ptr[i];
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\')
      continue;
    size_t n = c >= 0x80 ? tc_utf8_len((const unsigned char *)s.ptr + i, s.len - i) : 0;
    if (n) {
      i += n - 1;
      continue;
    }
    fwrite(s.ptr + run, 1, i - run, fp);
    run = i + 1;
    switch (c) {
    case '"': fputs("\\\"", fp); break;
    case '\\': fputs("\\\\", fp); break;
    case '\n': fputs("\\n", fp); break;
    case '\r': fputs("\\r", fp); break;
    case '\t': fputs("\\t", fp); break;
    case '\b': fputs("\\b", fp); break;
    case '\f': fputs("\\f", fp); break;
    default:
      if (c < 0x20) {
        fputs("\\u00", fp);
        fputc(hex[c >> 4], fp);
        fputc(hex[c & 15], fp);
      } else {
        fputs("\\ufffd", fp);
      }
    }
  }
  fwrite(s.ptr + run, 1, s.len - run, fp);
}
