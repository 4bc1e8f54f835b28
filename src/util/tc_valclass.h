/* Classes of argument values worth knowing in traces, and the privacy cut
 * of URLs to scheme + host.
 *
 * A string is in exactly one class, tried in this order:
 *   empty         ""
 *   a URL scheme  a scheme (RFC 3986: a letter, then letters, digits, + - .,
 *                 at most 32 in all) and ':', compared without case: http,
 *                 https, data, blob, chrome, chrome-extension,
 *                 chrome-untrusted, devtools, about, file; any other scheme
 *                 counts only when "://" follows (so "Error: x" or "a:b" is
 *                 not a URL), as "other scheme"
 *   hex           "0x" or "0X" and one or more hex digits, nothing else
 *   hex id        16 or more hex digits with at least one letter (Chrome's
 *                 frame and loader ids are 32)
 *   digits        an optional '-' and decimal digits only (ids written as
 *                 strings)
 *   other         the rest
 * The enum's values are written into partial files: append, never renumber.
 * Numbers: integer or fractional, and the sentinels 0 and -1. */
#ifndef TC_VALCLASS_H
#define TC_VALCLASS_H

#include <stddef.h>

#include "util/tc_str.h"

/* Name (stable, for machine outputs) and the label reports print. */
#define TC_VALCLASS_MAP(X)                                                     \
  X(EMPTY, "empty", "''")                                                      \
  X(HTTP, "http", "http:")                                                     \
  X(HTTPS, "https", "https:")                                                  \
  X(DATA, "data", "data:")                                                     \
  X(BLOB, "blob", "blob:")                                                     \
  X(CHROME, "chrome", "chrome:")                                               \
  X(CHROME_EXTENSION, "chrome_extension", "chrome-extension:")                 \
  X(CHROME_UNTRUSTED, "chrome_untrusted", "chrome-untrusted:")                 \
  X(DEVTOOLS, "devtools", "devtools:")                                         \
  X(ABOUT, "about", "about:")                                                  \
  X(FILE, "file", "file:")                                                     \
  X(OTHER_SCHEME, "other_scheme", "other scheme")                              \
  X(HEX, "hex", "0x hex")                                                      \
  X(HEX_ID, "hex_id", "hex id")                                                \
  X(DIGITS, "digits", "digits")                                                \
  X(OTHER, "other", "other")

typedef enum {
#define TC_VC_ENUM(id, name, label) TC_VC_##id,
  TC_VALCLASS_MAP(TC_VC_ENUM)
#undef TC_VC_ENUM
  TC_VC_COUNT
} tc_vclass;

tc_vclass tc_valclass_str(tc_str s);

/* The classes that are URLs (HTTP through OTHER_SCHEME). */
static inline int tc_valclass_is_url(tc_vclass c) {
  return c >= TC_VC_HTTP && c <= TC_VC_OTHER_SCHEME;
}

/* Static names; NULL outside the enum. */
const char *tc_valclass_name(tc_vclass c);
const char *tc_valclass_label(tc_vclass c);

/* Enough for any scheme (32) + "://" + any DNS host (253). */
#define TC_VALCLASS_CUT_MAX 320

/* The part of a URL that is safe to print: "scheme://host" (user info and
 * port dropped, so "https://u:p@a.b:8080/x?q" gives "https://a.b"),
 * "blob:" and the cut of the URL inside it, "data:" and the media type,
 * "about:" and its name without query or fragment (either only when 64
 * bytes or shorter, else nothing after the colon), and "scheme:" alone for
 * any other URL without an authority. Returns S itself when C (its class)
 * is not a URL, else a view into BUF, which it fills (no NUL); a cut form
 * longer than TC_VALCLASS_CUT_MAX is cut there. Valid while S and BUF are. */
tc_str tc_valclass_cut(tc_str s, tc_vclass c, char buf[TC_VALCLASS_CUT_MAX]);

/* Flags of a number. V is never NaN (JSON has none). */
enum {
  TC_VN_ZERO = 1 << 0,   /* == 0 (so -0 too) */
  TC_VN_MINUS1 = 1 << 1, /* == -1 */
  TC_VN_FRAC = 1 << 2,   /* finite and not an integer */
  TC_VN_NEG = 1 << 3,    /* < 0 */
};
unsigned tc_valclass_num(double v);

#endif
