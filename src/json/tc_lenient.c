/* One scan serves both the size and the rewrite: with OUT NULL it only
 * counts. Outside strings it remembers the last byte that was not a space,
 * so a comma is dropped only when a value precedes it and a closer follows
 * (after spaces). */
#include "json/tc_lenient.h"

#include <string.h>

#include "util/tc_json_valid.h"

static int is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

/* JSON's escapes, the ones kept as they are. */
static int known_escape(char c) { return c && strchr("\"\\/bfnrtu", c) != NULL; }

static void put(char *out, size_t *len, const char *s, size_t n) {
  if (out)
    memcpy(out + *len, s, n);
  *len += n;
}

/* Returns the rewritten length and sets *changed when it differs. */
static size_t scan(const char *in, size_t n, char *out, int *changed) {
  static const char hex[] = "0123456789abcdef";
  size_t len = 0;
  int in_str = 0;
  char last = 0; /* last byte outside strings that was not a space */
  *changed = 0;
  for (size_t i = 0; i < n; i++) {
    char c = in[i];
    if (in_str) {
      if (c == '\\' && i + 1 < n && !known_escape(in[i + 1])) {
        i++;
        *changed = 1;
      } else if (c == '\\' && i + 1 < n) {
        put(out, &len, in + i, 2);
        i++;
      } else if ((unsigned char)c < 0x20) {
        char u[6] = {'\\', 'u', '0', '0', hex[(unsigned char)c >> 4], hex[c & 15]};
        put(out, &len, u, sizeof u);
        *changed = 1;
      } else if ((unsigned char)c >= 0x80) {
        size_t k = tc_utf8_len((const unsigned char *)in + i, n - i);
        if (k) {
          put(out, &len, in + i, k);
          i += k - 1;
        } else {
          put(out, &len, "\xEF\xBF\xBD", 3); /* U+FFFD for the one bad byte */
          *changed = 1;
        }
      } else {
        if (c == '"') {
          in_str = 0;
          last = c;
        }
        put(out, &len, &c, 1);
      }
      continue;
    }
    if (c == ',' && last != '{' && last != '[' && last != ',' && last != 0) {
      size_t j = i + 1;
      while (j < n && is_space(in[j]))
        j++;
      if (j < n && (in[j] == '}' || in[j] == ']')) {
        *changed = 1;
        continue;
      }
    }
    if (c == '"')
      in_str = 1;
    if (!is_space(c))
      last = c;
    put(out, &len, &c, 1);
  }
  return len;
}

size_t tc_lenient_size(const char *in, size_t n) {
  int changed;
  size_t len = scan(in, n, NULL, &changed);
  return changed ? len : 0;
}

void tc_lenient_rewrite(const char *in, size_t n, char *out) {
  int changed;
  scan(in, n, out, &changed);
}
