#include "report/tc_text.h"

#include <string.h>

#include "util/tc_json_valid.h"

/* Writes S as UTF-8, invalid bytes as U+FFFD; with CSV_QUOTED, doubles each
 * '"' for a quoted CSV cell. */
static void put(tc_wbuf *b, tc_str text, int csv_quoted) {
  if (!text.len) /* an empty tc_str may hold NULL, where even P + 0 is undefined */
    return;
  const char *s = text.ptr;
  size_t len = text.len, run = 0; /* bytes from s + run_start that go out as they are */
  size_t run_start = 0;
  for (size_t i = 0; i < len;) {
    unsigned char c = (unsigned char)s[i];
    size_t n = c < 0x80 ? 1 : tc_utf8_len((const unsigned char *)s + i, len - i);
    if (n && !(csv_quoted && c == '"')) {
      run += n;
      i += n;
      continue;
    }
    tc_wbuf_put(b, s + run_start, run);
    if (n) {
      tc_wbuf_put(b, "\"\"", 2); /* a quote doubled in a quoted CSV cell */
      i++;
    } else {
      tc_wbuf_put(b, "\xef\xbf\xbd", 3);
      i++;
    }
    run_start = i;
    run = 0;
  }
  tc_wbuf_put(b, s + run_start, run);
}

void tc_text_put(tc_wbuf *b, tc_str s) { put(b, s, 0); }

void tc_text_csv_body(tc_wbuf *b, tc_str s) { put(b, s, 1); }

static int needs_quotes(tc_str s) {
  for (size_t i = 0; i < s.len; i++)
    if (s.ptr[i] == ',' || s.ptr[i] == '"' || s.ptr[i] == '\r' || s.ptr[i] == '\n')
      return 1;
  return 0;
}

void tc_text_csv_cell(tc_wbuf *b, tc_str s, tc_csv_quote q) {
  if (q == TC_CSV_QUOTE_IF_NEEDED && !needs_quotes(s)) {
    put(b, s, 0);
    return;
  }
  tc_wbuf_putc(b, '"');
  put(b, s, 1);
  tc_wbuf_putc(b, '"');
}
