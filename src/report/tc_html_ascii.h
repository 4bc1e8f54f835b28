/* A stream that passes a page through as ASCII: every character past
 * U+007F becomes a numeric character reference ("µ" is "&#181;"), which
 * the browser shows as the same character.
 *
 * Why: Chromium decodes a UTF-8 page on a fast path only while its bytes
 * are ASCII, and report.html has a non-ASCII character in nearly every
 * event section ("µs", "·"); at 500 sites x 3,000 names the decoder's time
 * more than halved with references instead (bench/README.md, report.html
 * at 500 sites).
 *
 * Only for markup: a reference means nothing inside <script> or <style>,
 * whose text the page writes as ASCII (tests/report/test_html.c checks).
 * Bytes that are not valid UTF-8 become "&#65533;" (U+FFFD), as the
 * escaper's repair would make them. */
#ifndef TC_HTML_ASCII_H
#define TC_HTML_ASCII_H

#include <stdio.h>

/* A write-only stream over TO (which stays the caller's, open after
 * fclose of the result); fclose flushes it into TO and returns EOF when a
 * write to TO failed. NULL when out of memory. */
FILE *tc_html_ascii_open(FILE *to);

#endif
