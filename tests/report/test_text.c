/* report/tc_text: the one writer per output format of text from traces
 * (Markdown text, Markdown code span, CSV cell, terminal), byte for byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/tc_text.h"

/* What one writer call puts out, as a NUL-free check needs: its bytes and
 * their count. */
typedef struct {
  char *buf;
  size_t len;
} out;

typedef enum { MD, CODE, CODE_TABLE, CSV_ALWAYS, CSV_IF_NEEDED, TERM } fmt;

static out run(fmt f, const char *s, size_t n) {
  out o = {NULL, 0};
  FILE *fp = open_memstream(&o.buf, &o.len);
  assert_non_null(fp);
  tc_wbuf *b = malloc(sizeof *b);
  assert_non_null(b);
  tc_wbuf_init(b, fp);
  tc_str t = {s, n};
  switch (f) {
  case MD: tc_text_md(b, t); break;
  case CODE: tc_text_md_code(b, t, TC_MD_OUTSIDE_TABLE); break;
  case CODE_TABLE: tc_text_md_code(b, t, TC_MD_IN_TABLE); break;
  case CSV_ALWAYS: tc_text_csv_cell(b, t, TC_CSV_QUOTE_ALWAYS); break;
  case CSV_IF_NEEDED: tc_text_csv_cell(b, t, TC_CSV_QUOTE_IF_NEEDED); break;
  case TERM: tc_text_term(b, t); break;
  }
  tc_wbuf_flush(b);
  free(b);
  fclose(fp);
  return o;
}

/* F writes the N bytes of S exactly as WANT (a C string: no NUL). */
static void expect_n(fmt f, const char *s, size_t n, const char *want) {
  out o = run(f, s, n);
  assert_int_equal(o.len, strlen(want));
  assert_memory_equal(o.buf, want, o.len);
  free(o.buf);
}

static void expect(fmt f, const char *s, const char *want) { expect_n(f, s, strlen(s), want); }

static void test_markdown_text(void **state) {
  (void)state;
  expect(MD, "RunTask", "RunTask");
  expect(MD, "uint32_t", "uint32_t");          /* intraword _: CommonMark leaves it */
  expect(MD, "_x_ a__b", "\\_x\\_ a\\_\\_b"); /* emphasis-capable _ */
  expect(MD, "\x1b]0;x\x07", "\\x1b\\]0;x\\x07");
  expect(MD, "\x1b[31m", "\\x1b\\[31m");
  expect_n(MD, "a\0b", 3, "a\\x00b");
  expect(MD, "a\nb\r\tc\x7f", "a\\x0ab\\x0d\\x09c\\x7f");
  expect(MD, "a\xc2\x85z", "a\\u0085z"); /* C1 NEL */
  expect(MD, "<script>alert(1)</script>", "\\<script\\>alert(1)\\</script\\>");
  expect(MD, "<img src=x onerror=alert(1)>", "\\<img src=x onerror=alert(1)\\>");
  expect(MD, "a|b", "a\\|b");
  expect(MD, "`x` *y* [z](u) #h &amp; ~~s~~ !\\",
         "\\`x\\` \\*y\\* \\[z\\](u) \\#h \\&amp; \\~\\~s\\~\\~ \\!\\\\");
  expect(MD, "=HYPERLINK(\"x\")", "=HYPERLINK(\"x\")");
  expect(MD, "bad\xff\xc3(", "bad\xef\xbf\xbd\xef\xbf\xbd("); /* invalid UTF-8: U+FFFD */
  expect(MD, "é€𝄞", "é€𝄞");
}

static void test_markdown_code_span(void **state) {
  (void)state;
  expect(CODE, "args.data.url", "`args.data.url`");
  expect(CODE_TABLE, "args.data.url", "`args.data.url`");
  expect(CODE, "a`b", "``a`b``");
  expect(CODE, "a```b``c", "````a```b``c````"); /* a run of 3 inside: fence of 4 */
  expect(CODE, "`x", "`` `x ``");               /* a backtick at an end: padded */
  expect(CODE, "x`", "`` x` ``");
  expect(CODE, " x ", "`  x  `"); /* CommonMark strips one space each side */
  expect(CODE, "", "` `");
  expect(CODE, "a|b", "`a|b`");
  expect(CODE_TABLE, "a|b", "`a\\|b`");
  expect(CODE_TABLE, "<script>_*#", "`<script>_*#`"); /* nothing else is special in code */
  expect_n(CODE_TABLE, "a\0\n\x1b[31m", 8, "`a\\x00\\x0a\\x1b[31m`");
  expect(CODE, "\xff", "`\xef\xbf\xbd`");
}

static void test_csv_cell(void **state) {
  (void)state;
  expect(CSV_ALWAYS, "RunTask", "\"RunTask\"");
  expect(CSV_IF_NEEDED, "RunTask", "RunTask");
  expect(CSV_ALWAYS, "=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\"");
  expect(CSV_IF_NEEDED, "=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\"");
  expect(CSV_IF_NEEDED, "=1+2", "'=1+2");
  expect(CSV_ALWAYS, "-5", "\"'-5\""); /* a text cell; numbers never come here */
  expect(CSV_IF_NEEDED, "+1", "'+1");
  expect(CSV_IF_NEEDED, "@SUM(A1)", "'@SUM(A1)");
  expect(CSV_IF_NEEDED, "\tx", "'\tx");
  expect(CSV_IF_NEEDED, "\rx", "'\\x0dx"); /* CR leads: guarded, and written \x0d */
  expect(CSV_IF_NEEDED, "a-b=c", "a-b=c"); /* only the first character counts */
  expect_n(CSV_ALWAYS, "a\0b", 3, "\"a\\x00b\"");
  expect(CSV_ALWAYS, "a\x1b[31m\x7f", "\"a\\x1b[31m\\x7f\"");
  expect(CSV_ALWAYS, "a\nb\tc", "\"a\nb\tc\""); /* LF and TAB stay inside quotes */
  expect(CSV_IF_NEEDED, "a\nb", "\"a\nb\"");
  expect(CSV_IF_NEEDED, "a,b", "\"a,b\"");
  expect(CSV_ALWAYS, "<script>|`", "\"<script>|`\"");
  expect(CSV_ALWAYS, "bad\xff", "\"bad\xef\xbf\xbd\"");
  /* The body of a cell the caller quotes: the ' only where the cell begins. */
  out o = {NULL, 0};
  FILE *fp = open_memstream(&o.buf, &o.len);
  tc_wbuf *b = malloc(sizeof *b);
  tc_wbuf_init(b, fp);
  tc_text_csv_body(b, tc_str_c("-a\""), 1);
  tc_wbuf_putc(b, ';');
  tc_text_csv_body(b, tc_str_c("-b"), 0);
  tc_wbuf_flush(b);
  free(b);
  fclose(fp);
  assert_int_equal(o.len, strlen("'-a\"\";-b"));
  assert_memory_equal(o.buf, "'-a\"\";-b", o.len);
  free(o.buf);
}

static void test_terminal(void **state) {
  (void)state;
  expect(TERM, "RunTask", "RunTask");
  expect(TERM, "\x1b]0;x\x07", "\\x1b]0;x\\x07");
  expect(TERM, "\x1b[31mred", "\\x1b[31mred");
  expect_n(TERM, "a\0b", 3, "a\\x00b");
  expect(TERM, "a\nb\r\t", "a\\x0ab\\x0d\\x09");
  expect(TERM, "bad\xff\xc3(", "bad\\xff\\xc3("); /* the exact bytes */
  expect(TERM, "\xc2\x9b", "\\u009b");            /* C1 CSI */
  expect(TERM, "<script>|`=", "<script>|`=");
  expect(TERM, "é", "é");
  /* 2,000 bytes: the first 1,024 shown, then its full length. */
  char big[2000];
  memset(big, 'a', sizeof big);
  char want[1024 + 32];
  memset(want, 'a', 1024);
  strcpy(want + 1024, "\xe2\x80\xa6(2000 bytes)");
  expect_n(TERM, big, sizeof big, want);
  /* A character across the cut is left out whole; controls past it never
   * show. */
  memset(big, 'a', sizeof big);
  memcpy(big + 1023, "\xe2\x82\xac", 3);
  big[1500] = '\x1b';
  memset(want, 'a', 1023);
  strcpy(want + 1023, "\xe2\x80\xa6(2000 bytes)");
  expect_n(TERM, big, sizeof big, want);
  /* Exactly 1,024 bytes: not cut. */
  char edge[1025];
  memset(edge, 'b', 1024);
  edge[1024] = '\0';
  expect_n(TERM, edge, 1024, edge);
}

static void test_terminal_printf(void **state) {
  (void)state;
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&buf, &len);
  int r = tc_text_term_printf(fp,
                              "tracecensus: %s: event %llu at %s %d, %.1f%% %zu %5.2f [%-4s|%3s] "
                              "%.*s %c\n",
                              "a\x1b[31m\nb", 12345ULL, "JSON byte", -7, 99.5, (size_t)3, 2.5, "x",
                              "y", 3, "abc\x07zzz", '\x1b');
  fclose(fp);
  assert_int_equal(r, 0);
  const char *want =
      "tracecensus: a\\x1b[31m\\x0ab: event 12345 at JSON byte -7, 99.5% 3  2.50 [x   |  y] abc "
      "\\x1b\n";
  assert_string_equal(buf, want);
  free(buf);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_markdown_text),    cmocka_unit_test(test_markdown_code_span),
      cmocka_unit_test(test_csv_cell),         cmocka_unit_test(test_terminal),
      cmocka_unit_test(test_terminal_printf),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
