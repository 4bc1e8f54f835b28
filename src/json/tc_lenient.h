/* Perfetto's JSON importer reads events that strict JSON rejects; so does
 * the census, by rewriting such an event into the strict JSON it means.
 *
 * What its parser (trace_processor/util/json_parser.h) accepts and this
 * rewrites, outside strings and in them:
 *   - a comma after the last member or element: {"a":1,} [1,2,]
 *     (only after a value; "{,}" and ",," stay errors, as there);
 *   - raw control characters (bytes below 0x20) in strings, written as
 *     \u00XX so the value keeps them;
 *   - an unknown escape such as "\q", which it drops with its backslash;
 *   - bytes in strings that are not UTF-8 (it never checks), each written
 *     as U+FFFD, as the reports write such text.
 * Anything else stays as it was, so the strict parser still rejects it. */
#ifndef TC_LENIENT_H
#define TC_LENIENT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes the rewrite of IN[0..n) takes, or 0 when it would change nothing
 * (the event is bad for some other reason, or not at all). */
size_t tc_lenient_size(const char *in, size_t n);

/* Writes the rewrite into OUT, which holds tc_lenient_size(in, n) bytes. */
void tc_lenient_rewrite(const char *in, size_t n, char *out);

#ifdef __cplusplus
}
#endif

#endif
