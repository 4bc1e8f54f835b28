#include "diff/tc_diff_text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void tc_diff_fmt_num(double v, char *buf, size_t cap) {
  if (isnan(v)) {
    snprintf(buf, cap, "n/a");
    return;
  }
  double a = fabs(v);
  if (a < 1e15 && v == floor(v))
    snprintf(buf, cap, "%.0f", v);
  else if (a >= 1 || a == 0)
    snprintf(buf, cap, "%.2f", v);
  else {
    int decimals = 1 + (int)ceil(-log10(a));
    snprintf(buf, cap, "%.*f", decimals > 17 ? 17 : decimals, v);
  }
}

void tc_diff_fmt_change(const tc_diff_fig *f, const char *shared, char *buf, size_t cap) {
  if (!f->why)
    snprintf(buf, cap, "%+.1f %%", f->change_pct);
  else if (shared && f->why == shared)
    snprintf(buf, cap, "not comparable");
  else if (!strncmp(f->why, "n/a", 3))
    snprintf(buf, cap, "%s", f->why);
  else
    snprintf(buf, cap, "not comparable: %s", f->why);
}

const char *tc_diff_args_basis_text(const tc_diff *d) {
  return !strcmp(d->args_basis, "shared_sites")
             ? "An argument path counts on a side when a shared site has it; value profiles "
               "are the whole crawls'."
             : "Argument paths are compared over the whole crawls: a census.json has no "
               "per-path site_records (an older output).";
}
