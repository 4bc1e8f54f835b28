#include "census/tc_phase.h"

#include <stdlib.h>
#include <string.h>

static const char *const keys[TC_PH_COUNT] = {
    "B", "E", "X", "I", "i", "b", "n", "e", "S", "T", "p", "F", "s", "t", "f", "P",
    "N", "O", "D", "M", "C", "R", "c", "V", "v", "(", ")", "=", "<", ">", ""};

int tc_phase_index(tc_str ph) {
  if (ph.len != 1 || ph.ptr[0] == '\0')
    return TC_PH_OTHER;
  const char *p = strchr(TC_PH_LETTERS, ph.ptr[0]);
  return p ? (int)(p - TC_PH_LETTERS) : TC_PH_OTHER;
}

const char *tc_phase_key(int idx) {
  if (idx < 0 || idx >= TC_PH_COUNT)
    return "";
  return keys[idx];
}

static int by_key(const void *a, const void *b) {
  return strcmp(keys[*(const int *)a], keys[*(const int *)b]);
}

void tc_phase_sorted(int order[TC_PH_COUNT]) {
  for (int i = 0; i < TC_PH_COUNT; i++)
    order[i] = i;
  qsort(order, TC_PH_COUNT, sizeof *order, by_key);
}
