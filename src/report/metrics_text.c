/* Text the metrics writers copy from traces and manifests (site names,
 * paths, URLs, errors) is bytes: it goes out as UTF-8, each byte that is not
 * part of a valid sequence as U+FFFD, the way tc_jsonw writes it in the
 * JSON outputs, so a site has one spelling in every report. */

#include "report/metrics_report.h"
#include "util/tc_json_valid.h"

void tc_metrics_put_text(FILE *fp, tc_str text, int csv_quoted) {
  const char *s = text.ptr;
  size_t len = text.len;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x80) {
      if (csv_quoted && c == '"')
        fputc('"', fp);
      fputc(c, fp);
      continue;
    }
    size_t n = tc_utf8_len((const unsigned char *)s + i, len - i);
    if (n) {
      fwrite(s + i, 1, n, fp);
      i += n - 1;
    } else {
      fputs("\xef\xbf\xbd", fp);
    }
  }
}
