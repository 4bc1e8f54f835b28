/* The value profile of one argument path (issue 14): what the values are,
 * in constant memory, mergeable, with nothing kept per record.
 *
 * Per JSON type (TC_JT_* of util/tc_jtype.h) a count, and the
 * sentinels 0, -1, '' (empty string), null and false.
 *   numbers  exact min and max, integer or fractional, and nearest-rank
 *            quantiles: exact while the numbers take at most
 *            TC_VP_EXACT_NUMS distinct values (a counted list, as flags,
 *            enums and sentinels do), else within TC_SKETCH_ALPHA relative
 *            error (two tc_sketch: v >= 0, and -v for the negatives, since
 *            the sketch takes no negatives; magnitudes below 1e-4 count as
 *            0)
 *   strings  length range in bytes, tc_valclass counts, the most frequent
 *            values (tc_topk, with its bounds; URLs enter cut to scheme +
 *            host unless TC_VP_WHOLE_URLS) and the number of distinct values
 *            (tc_hll, of the whole values: exact up to TC_HLL_EXACT, then
 *            1.63 % standard error)
 *   constant the first value and whether every value so far equals it:
 *            numbers by ==, strings by length and 64-bit hash (two
 *            different strings of one length collide with chance 2^-64),
 *            null and booleans by value; an array or object value ends it.
 *            A string constant is kept as it is shown (cut if a URL, then
 *            to TC_TOPK_MAXLEN). Once two values differ the first is
 *            forgotten, so the state depends only on the values.
 * Every count is exact. Merging adds counts, takes min and max, and merges
 * the sketches: all of it is order-independent except the top values
 * (tc_topk.h says what holds there and the canonical merge order) and the
 * last bits of the quantile sketches' sums, which no profile reports.
 *
 * Memory per path, in proportion to what was seen: sizeof(tc_valprof)
 * inline (at most TC_VALPROF_INLINE_MAX; 232 bytes on x86-64, all a
 * path of objects, arrays, nulls or booleans costs), then on the heap
 *   numbers  the exact list, TC_VP_NUM_BYTES per distinct value, and once
 *            it is given up the two quantile sketches instead: at most
 *            630 KB each whatever they are fed (tc_sketch.h), in practice
 *            a few KB (tests/util/test_valprof.c measures 7.7 KB for
 *            integers 0 to 4,096 and 1.2 MB, the worst case, for values
 *            spread over the whole range of doubles)
 *   strings  TC_VP_STR_BYTES at the first string, then the top values'
 *            counters (tc_topk.h: a counter per value held, at most
 *            TC_TOPK_BYTES) and the distinct count's set or registers
 *            (tc_hll.h, at most TC_HLL_BYTES; 4 KB more for a moment while
 *            it switches to registers)
 * so a path with one number costs some 250 bytes and one with a constant
 * string some 700. Nothing grows with the number of values. Adds allocate
 * only as these parts grow.
 * The profile owns all of it; tc_valprof_free releases it. Not
 * thread-safe. */
#ifndef TC_VALPROF_H
#define TC_VALPROF_H

#include <stddef.h>
#include <stdint.h>

#include "util/tc_jtype.h"
#include "util/tc_sketch.h"
#include "util/tc_bin.h"
#include "util/tc_hll.h"
#include "util/tc_topk.h"
#include "util/tc_valclass.h"

/* TC_JT_NULL .. TC_JT_OBJECT, as bit positions: types[] indices. */
#define TC_VP_NTYPES 6
enum { TC_VP_T_NULL, TC_VP_T_BOOL, TC_VP_T_NUMBER, TC_VP_T_STRING, TC_VP_T_ARRAY, TC_VP_T_OBJECT };

#define TC_VP_WHOLE_URLS 1u /* top values keep URLs whole */

#define TC_VP_EXACT_NUMS 16

#define TC_VALPROF_INLINE_MAX 256

enum { TC_VP_CONST_NONE, TC_VP_CONST_YES, TC_VP_CONST_NO };

/* The constant detector's state; all zero but `state` once values differ.
 * A string constant's text is in the string part (tc_vp_strings.kval). */
typedef struct {
  uint8_t state;                 /* TC_VP_CONST_* */
  uint8_t type;                  /* TC_JT_* of the constant */
  uint8_t kept;                  /* bytes of kval */
  uint8_t trunc;                 /* kval is cut short of the shown form */
  double num;                    /* number, or a boolean as 0/1 */
  uint64_t len, hash;            /* the string's full length and tc_xxh64 */
  uint64_t sites;                /* sites seen, counted as tc_topk counts */
  uint64_t site_first, site_last;
} tc_valprof_const;

/* One distinct number of the exact list and how often it came. */
typedef struct {
  double v;
  uint64_t count;
} tc_vp_num;

#define TC_VP_NUM_BYTES sizeof(tc_vp_num)

/* The quantile sketches, made when the exact list is given up, from it. */
typedef struct {
  tc_sketch pos;                  /* v >= 0 */
  tc_sketch negs;                 /* -v for v < 0 */
} tc_vp_sketches;

/* What only strings need, made at the first string. */
typedef struct {
  uint64_t cls[TC_VC_COUNT];
  tc_topk top;
  tc_hll distinct;
  char kval[TC_TOPK_MAXLEN];      /* a string constant as shown */
} tc_vp_strings;

#define TC_VP_STR_BYTES sizeof(tc_vp_strings)

typedef struct {
  uint32_t flags;                 /* TC_VP_*; merging needs equal flags */
  uint8_t nvals;                  /* distinct numbers in vals, or... */
  uint8_t vals_over;              /* ...1 once there were more than
                                     TC_VP_EXACT_NUMS (vals is then NULL) */
  uint8_t vals_cap;
  uint64_t n;                     /* values added */
  uint64_t types[TC_VP_NTYPES];   /* by TC_JT_* bit position */
  uint64_t falses;                /* booleans that are false */
  /* numbers */
  uint64_t zeros, minus1, frac, neg;
  double min, max;                /* exact, when types[NUMBER] > 0 */
  tc_vp_num *vals;                /* ascending; owned */
  tc_vp_sketches *sk;             /* once vals_over, else NULL; owned */
  double sums[2];                 /* while the list holds: what the sketches'
                                     sums (v >= 0, v < 0) would be, in the
                                     order the numbers came, which the
                                     encoding carries */
  /* strings */
  uint64_t len_min, len_max;
  tc_vp_strings *str;             /* once types[STRING] > 0, else NULL; owned */
  /* the constant detector */
  tc_valprof_const k;
} tc_valprof;

/* The text of P's constant as shown (kept bytes of kval): empty for any
 * constant but a string one, the only kind with a string part to read.
 * Valid while P is. */
static inline tc_str tc_valprof_const_str(const tc_valprof *p) {
  if (p->k.state != TC_VP_CONST_YES || p->k.type != TC_JT_STRING || !p->str)
    return (tc_str){"", 0};
  return (tc_str){p->str->kval, p->k.kept};
}

/* The count of strings of class C (0 when there are none). */
static inline uint64_t tc_valprof_class(const tc_valprof *p, tc_vclass c) {
  return p->str ? p->str->cls[c] : 0;
}

void tc_valprof_init(tc_valprof *p, uint32_t flags);
void tc_valprof_free(tc_valprof *p);

/* Adds a value of TYPE (one TC_JT_* bit) COUNT times in a row (at least
 * once): NUM for a number (a boolean as 0/1; NaN, which JSON cannot hold,
 * counts as 0), STR for a string (the bytes unescaped; not kept), SITE the
 * site's tag as tc_topk_add wants it, with its rule on site order. Null,
 * arrays and objects carry neither. The profile is then in the same state,
 * byte for byte (tc_valprof_encode), as after COUNT calls of tc_valprof_add:
 * the sums grow one value at a time, as theirs round. */
tc_err tc_valprof_add_n(tc_valprof *p, unsigned type, double num, tc_str str, uint64_t site,
                        uint64_t count);
static inline tc_err tc_valprof_add(tc_valprof *p, unsigned type, double num, tc_str str,
                                    uint64_t site) {
  return tc_valprof_add_n(p, type, num, str, site, 1);
}

/* DST += SRC (SRC's values after DST's, for the top values' sites).
 * TC_E_USAGE when their flags differ. */
tc_err tc_valprof_merge(tc_valprof *dst, const tc_valprof *src);

/* Nearest-rank quantile of the numbers (rank ceil(q * count), from 1):
 * exact while tc_valprof_exact_quantiles, else within TC_SKETCH_ALPHA
 * relative error; q = 0 and 1 give the exact min and max. The caller checks
 * types[] for numbers first. */
double tc_valprof_quantile(const tc_valprof *p, double q);
static inline int tc_valprof_exact_quantiles(const tc_valprof *p) { return !p->vals_over; }

/* Whether string V, seen on SITES sites, may be printed under issue 14's
 * privacy rule: '' and URLs cut to scheme + host always, any other string
 * only when seen on at least MIN_SITES sites (0 shows everything). */
int tc_valprof_may_show(tc_str v, uint64_t sites, uint64_t min_sites);

/* Appends P. Equal states give equal bytes. */
void tc_valprof_encode(const tc_valprof *p, tc_bin_buf *b);
/* Reads one encoded profile into P (initialised with any flags), checking
 * that its counts agree with each other. On failure P is left empty and R
 * says where and why. */
tc_err tc_valprof_decode(tc_bin_reader *r, tc_valprof *p);

#endif
