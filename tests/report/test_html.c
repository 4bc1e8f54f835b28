/* The HTML layer: escaping and UTF-8 repair, ids that never collide,
 * number formatting, table markup (sort keys, n/a cells, tags), and the
 * demo page as a whole: self-contained (nothing it could fetch), the same
 * bytes every time, one SVG per plot, every row as wide as the header. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo_page.h"
#include "report/tc_html.h"
#include "report/tc_html_ascii.h"
#include "svg_probe.h"

static char *escaped(const char *s, size_t n) {
  probe_sink k;
  probe_open(&k);
  tc_html_escape(k.fp, (tc_str){s, n});
  return probe_take(&k);
}

#define FFFD "\xEF\xBF\xBD"

static void expect_escape(const char *in, size_t n, const char *want) {
  char *got = escaped(in, n);
  assert_string_equal(got, want);
  free(got);
}

static void test_escape(void **state) {
  (void)state;
  const char *s = "<a href='x'>&\"";
  expect_escape(s, strlen(s), "&lt;a href=&#39;x&#39;&gt;&amp;&quot;");
  /* Valid UTF-8 passes: 2, 3 and 4 bytes. */
  s = "\xC3\xA9\xE2\x82\xAC\xF0\x9D\x84\x9E";
  expect_escape(s, strlen(s), s);
  /* A stray byte, an overlong '/', a surrogate, above U+10FFFF, and a
   * sequence cut short: each bad byte or sequence one U+FFFD. */
  expect_escape("\xFF", 1, FFFD);
  expect_escape("\xC0\xAF", 2, FFFD FFFD);
  expect_escape("\xED\xA0\x80", 3, FFFD FFFD FFFD);
  expect_escape("\xF4\x90\x80\x80", 4, FFFD FFFD FFFD FFFD);
  expect_escape("a\xE2\x82", 3, "a" FFFD FFFD);
  /* Controls (C0, DEL, C1) go, tab, newline and CR stay; NUL is a byte. */
  expect_escape("\x01\x7F\xC2\x85", 4, FFFD FFFD FFFD);
  expect_escape("\t\n\r", 3, "\t\n\r");
  expect_escape("a\0b", 3, "a" FFFD "b");
  /* Element text: quotes as they are, everything else as above. */
  probe_sink t;
  probe_open(&t);
  s = "<a href='x'>&\"\x01";
  tc_html_escape_text(t.fp, tc_str_c(s));
  char *text = probe_take(&t);
  assert_string_equal(text, "&lt;a href='x'&gt;&amp;\"" FFFD);
  free(text);
  /* Into a writer's buffer: the same bytes as into a stream, on random
   * bytes, long plain runs and entities past the stream's block. */
  static tc_wbuf w;
  static char in[5000];
  uint64_t x = 2463534242ULL;
  for (int round = 0; round < 50; round++) {
    size_t n = (size_t)(round * 97 % sizeof in);
    for (size_t i = 0; i < n; i++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      in[i] = round % 3 ? (char)x : "ab&<\"\xC3\xA9"[x % 7];
    }
    char *want = escaped(in, n);
    probe_sink k;
    probe_open(&k);
    tc_wbuf_init(&w, k.fp);
    tc_html_escape_wbuf(&w, (tc_str){in, n});
    tc_wbuf_flush(&w);
    char *got = probe_take(&k);
    assert_string_equal(got, want);
    free(got);
    free(want);
  }
}

static char *id_of(const char *name) {
  probe_sink k;
  probe_open(&k);
  tc_html_id(k.fp, "ev", tc_str_c(name));
  return probe_take(&k);
}

static void test_ids(void **state) {
  (void)state;
  static const struct {
    const char *name, *id;
  } cases[] = {{"ParseHTML", "ev-ParseHTML"},     {"a b", "ev-a_20b"}, {"a_20b", "ev-a_5f20b"},
               {"v8.compile", "ev-v8_2ecompile"}, {"", "ev-"},         {"\xC3\xA9", "ev-_c3_a9"}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *got = id_of(cases[i].name);
    assert_string_equal(got, cases[i].id);
    free(got);
  }
  /* A name whose id outgrows the writers' scratch: into a stream and into
   * a tc_wbuf alike, every byte in its place. */
  char name[700];
  for (size_t i = 0; i + 1 < sizeof name; i++)
    name[i] = (char)(i % 3 ? 'a' + i % 26 : 0x80 + i % 100);
  name[sizeof name - 1] = 0;
  char *want = id_of(name);
  assert_int_equal(strlen(want), 3 + 466 + 233 * 3); /* "ev-", plain, _XX */
  static tc_wbuf w;
  probe_sink k;
  probe_open(&k);
  tc_wbuf_init(&w, k.fp);
  tc_html_id_wbuf(&w, "ev", tc_str_c(name));
  tc_wbuf_flush(&w);
  char *got = probe_take(&k);
  assert_string_equal(got, want);
  free(got);
  free(want);
}

static void expect_num(double v, int decimals, const char *want) {
  char buf[64];
  tc_html_fmt_num(v, decimals, buf, sizeof buf);
  assert_string_equal(buf, want);
}

static void test_fmt_num(void **state) {
  (void)state;
  expect_num(12345.678, 1, "12,345.7");
  expect_num(-1234.56, 0, "-1,235");
  expect_num(999.96, 1, "1,000.0");
  expect_num(0, 0, "0");
  expect_num(-0.0, 2, "0.00");
  expect_num(-0.04, 1, "0.0");        /* rounds to zero: no sign */
  expect_num(0.5, 12, "0.500000000"); /* decimals capped at 9 */
  expect_num(42, -3, "42");
  /* Past 2^64 too: one grouping rule for every report number (the value
   * profiles have always grouped such integers). */
  expect_num(1e20, 0, "100,000,000,000,000,000,000");
  /* Against printf's %.*f and the grouping of its integer digits, on
   * random magnitudes, signs and decimals. */
  uint64_t x = 88172645463325252ULL;
  for (int i = 0; i < 20000; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    double v = (double)(x >> 11) / (double)(1ULL << (x % 53)) * (x & 1 ? -1 : 1);
    int d = (int)(x >> 60) % 10;
    char raw[400], want[448];
    snprintf(raw, sizeof raw, "%.*f", d, fabs(v));
    size_t ilen = strcspn(raw, "."), o = 0;
    if (v < 0 && strspn(raw, "0.") != strlen(raw))
      want[o++] = '-';
    for (size_t k = 0; k < strlen(raw); k++) {
      if (k && k < ilen && (ilen - k) % 3 == 0 && ilen <= 19)
        want[o++] = ',';
      want[o++] = raw[k];
    }
    want[o] = 0;
    expect_num(v, d, want);
  }
}

static char *table(void) {
  static const tc_html_col cols[] = {
      {"name", NULL, "the <name>", TC_HTML_TEXT, 1},
      {"records", "count", NULL, TC_HTML_NUM, 0},
      {"median", "ms", NULL, TC_HTML_NUM, 0},
  };
  probe_sink k;
  probe_open(&k);
  tc_html_table_begin(k.fp, "t1", "A & B", cols, 3);
  tc_html_row_begin(k.fp);
  tc_str tags[2] = {tc_str_c("x"), tc_str_c("y<z")};
  tc_html_cell_tags(k.fp, tags, 2);
  tc_html_cell_int(k.fp, INT64_MIN);
  tc_html_cell_num(k.fp, NAN, 1);
  tc_html_row_end(k.fp);
  tc_html_row_begin(k.fp);
  tc_html_cell_link(k.fp, tc_str_c("v8.compile"), "ev", tc_str_c("v8.compile"));
  tc_html_cell_int(k.fp, 58996);
  tc_html_cell_num(k.fp, 2.345, 2);
  tc_html_row_end(k.fp);
  tc_html_table_end(k.fp);
  return probe_take(&k);
}

static void test_table(void **state) {
  (void)state;
  char *t = table();
  assert_non_null(strstr(t, "<div class=\"tc-controls\" id=\"t1-controls\">"));
  assert_non_null(strstr(t, "<caption>A &amp; B</caption>"));
  assert_non_null(strstr(t, "data-kind=\"text\" data-select data-label=\"name\" "
                            "title=\"the &lt;name&gt;\""));
  assert_non_null(strstr(t, "<th scope=\"col\" class=\"num\" data-kind=\"num\"><button "
                            "type=\"button\">records<span class=\"unit\">count</span>"));
  assert_non_null(strstr(t, "<span class=\"tag\">x</span><span class=\"tag\">y&lt;z</span>"));
  assert_non_null(strstr(t, "data-v=\"-9223372036854775808\">-9,223,372,036,854,775,808</td>"));
  /* No data-v: the script sorts n/a after every number. */
  assert_non_null(strstr(t, "<td class=\"na\" title=\"not a finite number\">n/a</td>"));
  assert_non_null(strstr(t, "<td><a href=\"#ev-v8_2ecompile\">v8.compile</a></td>"));
  assert_non_null(strstr(t, "data-v=\"58996\">58,996</td>"));
  /* The sort key is the exact value (2.345 is 2.34500000000000019984 as a
   * double, so it shows as 2.35). */
  assert_non_null(strstr(t, "data-v=\"2.3450000000000002\">2.35</td>"));
  free(t);
}

static char *demo(size_t *plots) {
  probe_sink k;
  probe_open(&k);
  assert_int_equal(demo_page_write(k.fp, plots), TC_OK);
  return probe_take(&k);
}

/* Nothing in the page can make the browser fetch: no tag holds a URL, no
 * link leaves the page, no src, no <link>, <img>, <iframe>, <object> or
 * <embed>, no url() or @import in the style sheet, and the script neither
 * fetches nor imports. Text the data carries (a URL in an example) is
 * text and may stay. */
static void test_demo_self_contained(void **state) {
  (void)state;
  size_t plots;
  char *page = demo(&plots);
  for (const char *p = page; (p = strchr(p, '<'));) {
    const char *end;
    if (!strncmp(p, "<style>", 7) || !strncmp(p, "<script>", 8)) {
      int style = p[1] == 's' && p[2] == 't';
      end = strstr(p, style ? "</style>" : "</script>");
      assert_non_null(end);
      char *body = strndup(p, (size_t)(end - p));
      static const char *const banned[] = {"url(",           "@import", "http", "fetch",
                                           "XMLHttpRequest", "import(", "src",  NULL};
      for (int b = 0; banned[b]; b++)
        if (style || b >= 2)
          assert_null(strstr(body, banned[b]));
      free(body);
      p = end + 2;
      continue;
    }
    end = strchr(p, '>');
    assert_non_null(end);
    char *tag = strndup(p, (size_t)(end - p + 1));
    assert_null(strstr(tag, "http:"));
    assert_null(strstr(tag, "https:"));
    assert_null(strstr(tag, " src="));
    static const char *const elems[] = {"<link", "<img", "<iframe", "<object", "<embed", NULL};
    for (int e = 0; elems[e]; e++)
      assert_false(!strncmp(tag, elems[e], strlen(elems[e])));
    char href[256];
    if (probe_attr(tag, "href", href, sizeof href))
      assert_true(href[0] == '#');
    free(tag);
    p = end;
  }
  /* The URL the data carries is there, as text. */
  assert_non_null(strstr(page, "<code>https://news-01.example/index.html</code>"));
  free(page);
}

static void test_demo_structure(void **state) {
  (void)state;
  size_t plots;
  char *page = demo(&plots);
  assert_int_equal(plots, 14);
  assert_int_equal(probe_count(page, "<svg "), plots);
  assert_int_equal(probe_count(page, "</svg>"), plots);
  for (size_t i = 0; i < plots; i++) {
    const char *svg = probe_nth(page, "<svg ", i), *end = strstr(svg, "</svg>");
    const char *n = strstr(svg, "class=\"n\"");
    assert_true(n && n < end);
    assert_int_equal(strncmp(strchr(n, '>') + 1, "n = ", 4), 0);
  }
  assert_null(probe_bad_number(page));
  assert_int_equal(probe_count(page, "<section"), probe_count(page, "</section>"));
  /* Every section the table of contents names exists. */
  for (const char *a = strstr(page, "<li class=\"l"); a; a = strstr(a + 1, "<li class=\"l")) {
    char href[256], want[300];
    assert_true(probe_attr(strstr(a, "<a "), "href", href, sizeof href));
    snprintf(want, sizeof want, "<section id=\"%s\">", href + 1);
    assert_non_null(strstr(page, want));
  }
  /* The summary table: one row per event, seven cells a row, one header
   * cell a column. */
  const char *body = strstr(page, "<tbody>"), *end = strstr(page, "</tbody>");
  assert_int_equal(probe_count(strstr(page, "<thead>"), "<th ") - probe_count(end, "<th "), 7);
  size_t rows = 0;
  for (const char *r = strstr(body, "<tr>"); r && r < end; r = strstr(r + 1, "<tr>"), rows++) {
    const char *re = strstr(r, "</tr>");
    size_t cells = 0;
    for (const char *c = strstr(r, "<td"); c && c < re; c = strstr(c + 1, "<td"))
      cells++;
    assert_int_equal(cells, 7);
  }
  assert_int_equal(rows, demo_nevents);
  free(page);
}

/* S (N bytes) through tc_html_ascii_open, written in pieces of STEP
 * bytes (0: at once), as the page writer's stdio hands them over. */
static char *as_ascii(const char *s, size_t n, size_t step) {
  probe_sink k;
  probe_open(&k);
  FILE *fp = tc_html_ascii_open(k.fp);
  assert_non_null(fp);
  setvbuf(fp, NULL, _IONBF, 0); /* each fwrite below is one write */
  for (size_t i = 0; i < n; i += step ? step : n)
    fwrite(s + i, 1, step && n - i > step ? step : n - i, fp);
  assert_int_equal(fclose(fp), 0);
  return probe_take(&k);
}

static void test_ascii(void **state) {
  (void)state;
  /* 2, 3 and 4 bytes; a stray byte and a cut sequence as U+FFFD; ASCII,
   * entities included, as it is. */
  const char s[] = "a\xC2\xB5s \xE2\x89\xA4 \xF0\x9F\x98\x80 &amp; \xFF z \xE2\x82";
  const char *want = "a&#181;s &#8804; &#128512; &amp; &#65533; z &#65533;";
  for (size_t step = 0; step <= 5; step++) {
    char *got = as_ascii(s, sizeof s - 1, step);
    assert_string_equal(got, want);
    free(got);
  }
  /* The page's own CSS and script are ASCII: references would mean
   * nothing inside <style> and <script>. */
  probe_sink k;
  probe_open(&k);
  tc_html_begin(k.fp, "t");
  tc_html_end(k.fp);
  char *page = probe_take(&k);
  for (const char *c = page; *c; c++)
    assert_true((unsigned char)*c < 0x80);
  free(page);
}

static void test_demo_deterministic(void **state) {
  (void)state;
  size_t a_plots, b_plots;
  char *a = demo(&a_plots), *b = demo(&b_plots);
  assert_string_equal(a, b);
  free(a);
  free(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_escape),
      cmocka_unit_test(test_ascii),
      cmocka_unit_test(test_ids),
      cmocka_unit_test(test_fmt_num),
      cmocka_unit_test(test_table),
      cmocka_unit_test(test_demo_self_contained),
      cmocka_unit_test(test_demo_structure),
      cmocka_unit_test(test_demo_deterministic),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
