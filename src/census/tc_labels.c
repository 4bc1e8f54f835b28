#include "census/tc_labels.h"

const char *tc_usage_label(uint64_t records, uint64_t sites_total) {
  if (!sites_total)
    return "n/a";
  double per_site = (double)records / (double)sites_total;
  if (per_site < 2)
    return "rare";
  if (per_site < 5)
    return "low";
  if (per_site < 300)
    return "moderate";
  if (per_site < 3000)
    return "high";
  return "very high";
}

const double TC_DUR_LIMITS[TC_DUR_NLIMITS] = {10, 100, 1000};
static const char *const dur_names[TC_DUR_NLIMITS + 1] = {"very short", "short", "typical",
                                                          "long"};

const char *tc_duration_class(uint64_t n, const uint64_t below[TC_DUR_NLIMITS]) {
  if (!n)
    return "n/a";
  uint64_t rank = (n + 1) / 2;
  int i = 0;
  while (i < TC_DUR_NLIMITS && below[i] < rank)
    i++;
  return dur_names[i];
}
