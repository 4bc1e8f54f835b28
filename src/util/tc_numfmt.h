/* Number text for every report, without printf. The machine outputs have
 * one number format (tc_numfmt_num); the human reports round with %.Ng and
 * %.Nf, reproduced here byte for byte. Each function writes into BUF, which
 * the caller owns, writes no terminating NUL and returns the length. */
#ifndef TC_NUMFMT_H
#define TC_NUMFMT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Room for any text of tc_numfmt_num, tc_numfmt_g (precision up to 17) and
 * the integer functions: "-2.2250738585072014e-308" is 24 bytes. */
#define TC_NUMFMT_MAX 32

/* Room for any text of tc_numfmt_fixed with a precision up to 17: 309
 * integer digits, sign, point, fraction. */
#define TC_NUMFMT_FIXED_MAX 336

/* The machine outputs' format of a finite V: an integer below 2^53 in
 * magnitude exactly as %.0f writes it (-0 as "0"), anything else as
 * %.{p}g with the smallest p in 1..17 whose text reads back as V. Shortest
 * round-trip digits (Dragonbox) give that p and those digits directly, but
 * at a power of two the gap below V is half the gap above, and %.{p}g, which
 * rounds to the nearest p digits, can miss a p-digit text that only the
 * wider upper gap admits (46 of the 2,046 normal powers, e.g. 2^-1017); there
 * %.{p-1}e, correctly rounded, decides whether p digits do, and else p+1
 * digits always do. A non-finite V writes nothing (callers write null or an
 * empty cell). */
size_t tc_numfmt_num(double v, char buf[TC_NUMFMT_MAX]);

/* Exactly what printf("%.{precision}g", v) writes in the C locale,
 * 1 <= PRECISION <= 17 ("inf", "-nan" included). */
size_t tc_numfmt_g(double v, int precision, char buf[TC_NUMFMT_MAX]);

/* Exactly what printf("%.{precision}f", v) writes in the C locale,
 * 0 <= PRECISION <= 17. */
size_t tc_numfmt_fixed(double v, int precision, char buf[TC_NUMFMT_FIXED_MAX]);

size_t tc_numfmt_u64(uint64_t v, char buf[TC_NUMFMT_MAX]);
size_t tc_numfmt_i64(int64_t v, char buf[TC_NUMFMT_MAX]);

#ifdef __cplusplus
}
#endif

#endif
