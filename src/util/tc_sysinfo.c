#include "util/tc_sysinfo.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

uint64_t tc_peak_rss_kib(void) {
  FILE *fp = fopen("/proc/self/status", "r");
  if (fp) {
    char line[256];
    unsigned long long kib;
    while (fgets(line, sizeof line, fp))
      if (sscanf(line, "VmHWM: %llu kB", &kib) == 1) {
        fclose(fp);
        return kib;
      }
    fclose(fp);
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (uint64_t)ru.ru_maxrss;
}

uint64_t tc_rss_kib(void) {
  FILE *fp = fopen("/proc/self/statm", "r");
  if (!fp)
    return 0;
  unsigned long long size, resident;
  int n = fscanf(fp, "%llu %llu", &size, &resident);
  fclose(fp);
  long page = sysconf(_SC_PAGESIZE);
  return n == 2 && page > 0 ? resident * (uint64_t)page / 1024 : 0;
}

int tc_peak_rss_reset(void) {
  FILE *fp = fopen("/proc/self/clear_refs", "w");
  if (!fp)
    return 0;
  int ok = fputs("5", fp) >= 0;
  return fclose(fp) == 0 && ok;
}

/* The value of the first /proc/cpuinfo line whose key is KEY, into BUF. */
static void cpuinfo_value(const char *key, char *buf, size_t cap) {
  buf[0] = '\0';
  FILE *fp = fopen("/proc/cpuinfo", "r");
  if (!fp)
    return;
  static char line[8192]; /* a flags line is long; one reader at a time */
  size_t klen = strlen(key);
  while (fgets(line, sizeof line, fp)) {
    if (strncmp(line, key, klen) != 0 || (line[klen] != ' ' && line[klen] != '\t' &&
                                          line[klen] != ':'))
      continue;
    const char *v = strchr(line, ':');
    if (!v)
      break;
    v++;
    while (*v == ' ')
      v++;
    snprintf(buf, cap, "%s", v);
    buf[strcspn(buf, "\n")] = '\0';
    break;
  }
  fclose(fp);
}

void tc_cpu_model(char *buf, size_t cap) { cpuinfo_value("model name", buf, cap); }

void tc_cpu_flags(char *buf, size_t cap) {
  /* The features simdjson's kernels and the chunker's scanner use. */
  static const char *const wanted[] = {"sse2",     "sse4_2",   "pclmulqdq", "popcnt",
                                       "avx",      "avx2",     "bmi1",      "bmi2",
                                       "lzcnt",    "avx512f",  "avx512bw",  "avx512vl",
                                       "avx512dq", "avx512cd", "avx512_vbmi2"};
  char all[4096];
  cpuinfo_value("flags", all, sizeof all);
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < sizeof wanted / sizeof *wanted; i++) {
    size_t n = strlen(wanted[i]);
    for (const char *p = all; (p = strstr(p, wanted[i])) != NULL; p += n) {
      if ((p == all || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) {
        int w = snprintf(buf + used, cap - used, "%s%s", used ? " " : "", wanted[i]);
        if (w > 0 && (size_t)w < cap - used)
          used += (size_t)w;
        break;
      }
    }
  }
}
