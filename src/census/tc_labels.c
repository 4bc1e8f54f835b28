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

const char *tc_duration_label(double median_us) {
  if (median_us < 10)
    return "very short";
  if (median_us < 100)
    return "short";
  if (median_us < 1000)
    return "typical";
  return "long";
}
