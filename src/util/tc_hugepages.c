#include "util/tc_hugepages.h"

#include <stdio.h>
#include <string.h>

#define HUGETLB "glibc.malloc.hugetlb"

tc_thp_mode tc_thp_mode_parse(const char *enabled) {
  static const struct {
    const char *mark;
    tc_thp_mode mode;
  } modes[] = {{"[always]", TC_THP_ALWAYS}, {"[madvise]", TC_THP_MADVISE}, {"[never]", TC_THP_NEVER}};
  for (size_t i = 0; enabled && i < sizeof modes / sizeof *modes; i++)
    if (strstr(enabled, modes[i].mark))
      return modes[i].mode;
  return TC_THP_UNKNOWN;
}

tc_thp_mode tc_thp_mode_now(void) {
  FILE *fp = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (!fp)
    return TC_THP_UNKNOWN;
  char line[128];
  tc_thp_mode mode = fgets(line, sizeof line, fp) ? tc_thp_mode_parse(line) : TC_THP_UNKNOWN;
  fclose(fp);
  return mode;
}

const char *tc_thp_mode_name(tc_thp_mode mode) {
  static const char *const names[] = {"unknown", "never", "madvise", "always"};
  return names[mode];
}

/* Where TUNABLES sets glibc.malloc.hugetlb last: the start of its value, or
 * NULL. Tunables are name=value pairs separated by colons. */
static const char *hugetlb_value(const char *tunables) {
  const char *found = NULL;
  for (const char *p = tunables; p && *p;) {
    size_t n = strcspn(p, ":");
    if (n > sizeof HUGETLB && !strncmp(p, HUGETLB "=", sizeof HUGETLB))
      found = p + sizeof HUGETLB;
    p += n + (p[n] == ':');
  }
  return found;
}

int tc_hugetlb_tunables(tc_thp_mode mode, const char *tunables, char *buf, size_t cap) {
  if (mode != TC_THP_MADVISE || (tunables && strstr(tunables, HUGETLB)))
    return 0;
  int n = tunables && *tunables ? snprintf(buf, cap, "%s:" HUGETLB "=1", tunables)
                                : snprintf(buf, cap, HUGETLB "=1");
  return n >= 0 && (size_t)n < cap;
}

void tc_hugetlb_setting(const char *tunables, char *buf, size_t cap) {
  const char *v = hugetlb_value(tunables);
  size_t n = v ? strcspn(v, ":") : 0;
  snprintf(buf, cap, "%.*s", (int)n, v ? v : "");
}
