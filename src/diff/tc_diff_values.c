/* Value-profile shifts: how far an argument path's values moved between
 * two crawls, from the profiles census.json gives each side (README.md,
 * "Comparing two crawls"). A shift is a share of values, 0 to 1, the
 * largest of three readings:
 *   - types: the total variation distance between the two mixes of JSON
 *     types (half the sum of the differences of their shares);
 *   - sentinels: the largest change in the share of one sentinel value
 *     (0, -1, '', null, false);
 *   - constant: 1 when both sides are constant with different values, 0.5
 *     when only one side is constant (its one value is no longer the only
 *     one, or has become it).
 * A profile either side lacks, or cannot be read (an output written before
 * value profiles, or one a hand edited), gives no shift: diff reads its
 * own outputs back as hostile input and compares what it can. */
#include <math.h>
#include <string.h>

#include "diff/tc_diff_side.h"

static const char *const type_keys[] = {"null", "bool", "number", "string", "array", "object"};
static const char *const sentinel_keys[] = {"zero", "minus_one", "empty_string", "null", "false"};
static const char *const sentinel_basis[] = {"sentinel 0", "sentinel -1", "sentinel ''",
                                             "sentinel null", "sentinel false"};
enum { NTYPES = 6, NSENTINELS = 5 };

typedef struct {
  double types[NTYPES], sentinels[NSENTINELS]; /* shares of the values */
  const tc_jval *constant;                     /* NULL when not constant */
} profile;

/* The shares of KEYS in OBJ's counts, out of VALUES; 0 when OBJ lacks one. */
static int shares(const tc_jval *obj, const char *const *keys, int n, double values, double *out) {
  if (!obj || obj->type != TC_JOBJ)
    return 0;
  for (int k = 0; k < n; k++) {
    double c;
    if (!tc_jnum(tc_jget(obj, keys[k]), &c) || !(c >= 0) || c > values)
      return 0;
    out[k] = c / values;
  }
  return 1;
}

static int read_profile(const tc_jval *v, profile *p) {
  double values;
  if (!v || !tc_jnum(tc_jget(v, "values"), &values) || !(values > 0))
    return 0;
  if (!shares(tc_jget(v, "types"), type_keys, NTYPES, values, p->types) ||
      !shares(tc_jget(v, "sentinels"), sentinel_keys, NSENTINELS, values, p->sentinels))
    return 0;
  const tc_jval *c = tc_jget(v, "constant");
  p->constant = c && c->type == TC_JOBJ ? c : NULL;
  return 1;
}

/* Whether two constants are the same value: 1, 0, or -1 when either was
 * withheld (value_na: seen on too few sites to print) and so unknown. */
static int same_constant(const tc_jval *a, const tc_jval *b) {
  const tc_jval *va = tc_jget(a, "value"), *vb = tc_jget(b, "value");
  if (!va || !vb || tc_jget(a, "value_na") || tc_jget(b, "value_na"))
    return -1;
  if (va->type != vb->type)
    return 0;
  switch (va->type) {
  case TC_JNUM:
    return va->u.num == vb->u.num;
  case TC_JBOOL:
    return !va->u.boolean == !vb->u.boolean;
  case TC_JSTR:
    return tc_str_eq(va->u.str, vb->u.str);
  case TC_JNULL:
    return 1;
  default:
    return -1;
  }
}

double tc_diff_value_shift(const tc_jval *a, const tc_jval *b, const char **basis) {
  profile pa, pb;
  *basis = NULL;
  if (!read_profile(a, &pa) || !read_profile(b, &pb))
    return 0;
  double best = 0, types = 0;
  for (int k = 0; k < NTYPES; k++)
    types += fabs(pa.types[k] - pb.types[k]);
  if (types / 2 > best) {
    best = types / 2;
    *basis = "types";
  }
  for (int k = 0; k < NSENTINELS; k++)
    if (fabs(pa.sentinels[k] - pb.sentinels[k]) > best) {
      best = fabs(pa.sentinels[k] - pb.sentinels[k]);
      *basis = sentinel_basis[k];
    }
  double c = 0;
  if (pa.constant && pb.constant)
    c = same_constant(pa.constant, pb.constant) == 0;
  else if (!pa.constant != !pb.constant)
    c = 0.5;
  if (c > best) {
    best = c;
    *basis = "constant";
  }
  return best;
}

tc_str tc_diff_profile_text(const tc_jval *v) {
  tc_str s;
  return v && tc_jstr(tc_jget(v, "profile"), &s) ? s : (tc_str){"", 0};
}
