/* Text the writers copy from traces, manifests and output folders (site
 * names, paths, URLs, errors, event names) is bytes: it goes out as UTF-8,
 * each byte that is not part of a valid sequence as U+FFFD, the way
 * tc_jsonw writes it in the JSON outputs, so a site has one spelling in
 * every report (the metrics writers and diff's). */

#include "report/tc_wbuf.h"
#include "util/tc_json_valid.h"

void tc_wbuf_text(tc_wbuf *b, tc_str text, int csv_quoted) {
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
