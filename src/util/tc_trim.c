#include "util/tc_trim.h"

int tc_trim_due(tc_trim_pacer *p, uint64_t rss_kib) {
  if (!rss_kib)
    return 1;
  if (!p->first_kib) {
    p->first_kib = rss_kib;
    return 0;
  }
  return rss_kib > p->first_kib + p->first_kib / 16;
}
