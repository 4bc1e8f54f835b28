/* tc_valclass: the class of strings as Chrome traces write them (each
 * expected class decided by hand from the rules in the header), the privacy
 * cut of URLs, and the number flags. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "util/tc_valclass.h"

static const struct {
  const char *s;
  tc_vclass c;
} classes[] = {
    {"", TC_VC_EMPTY},
    {"http://example.com/", TC_VC_HTTP},
    {"HTTP://EXAMPLE.COM", TC_VC_HTTP},
    {"https://www.example.com/a.js?x=1", TC_VC_HTTPS},
    {"https:", TC_VC_HTTPS},
    {"data:image/png;base64,iVBORw0KGgo=", TC_VC_DATA},
    {"blob:https://example.com/5d2c7c8e-0f1e-4b3a-9c1d-2e3f4a5b6c7d", TC_VC_BLOB},
    {"chrome://newtab/", TC_VC_CHROME},
    {"chrome-extension://abcdefghijklmnopabcdefghijklmnop/bg.js", TC_VC_CHROME_EXTENSION},
    {"chrome-untrusted://print/", TC_VC_CHROME_UNTRUSTED},
    {"devtools://devtools/bundled/inspector.html", TC_VC_DEVTOOLS},
    {"about:blank", TC_VC_ABOUT},
    {"about:srcdoc", TC_VC_ABOUT},
    {"file:///home/u/a.html", TC_VC_FILE},
    {"wss://socket.example.com/live", TC_VC_OTHER_SCHEME},
    {"chrome-search://local-ntp/", TC_VC_OTHER_SCHEME},
    {"javascript:void(0)", TC_VC_OTHER},
    {"Error: something failed", TC_VC_OTHER},
    {"key:value", TC_VC_OTHER},
    {"localhost:8080", TC_VC_OTHER},
    {"1http://x", TC_VC_OTHER},
    {"0x1a2B3c", TC_VC_HEX},
    {"0X0", TC_VC_HEX},
    {"0x", TC_VC_OTHER},
    {"0x12g", TC_VC_OTHER},
    {"E0A5C1F3B2D4968700112233445566AA", TC_VC_HEX_ID},
    {"deadbeefdeadbeef", TC_VC_HEX_ID},
    {"deadbeefdeadbee", TC_VC_OTHER},
    {"1234567890123456", TC_VC_DIGITS},
    {"42", TC_VC_DIGITS},
    {"-7", TC_VC_DIGITS},
    {"-", TC_VC_OTHER},
    {"4.5", TC_VC_OTHER},
    {"lazy", TC_VC_OTHER},
    {"a-very-long-scheme-name-that-is-longer-than-32://x", TC_VC_OTHER},
};

static void test_classes(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof classes / sizeof *classes; i++) {
    tc_vclass c = tc_valclass_str(tc_str_c(classes[i].s));
    if (c != classes[i].c)
      fail_msg("'%s': class %s, expected %s", classes[i].s, tc_valclass_name(c),
               tc_valclass_name(classes[i].c));
  }
  /* Bytes after a NUL are still part of the string. */
  tc_str withnul = {"0x1\0" "2", 5};
  assert_int_equal(tc_valclass_str(withnul), TC_VC_OTHER);
}

static void test_names(void **state) {
  (void)state;
  assert_string_equal(tc_valclass_name(TC_VC_CHROME_EXTENSION), "chrome_extension");
  assert_string_equal(tc_valclass_label(TC_VC_BLOB), "blob:");
  assert_null(tc_valclass_name(TC_VC_COUNT));
  for (int c = 0; c < TC_VC_COUNT; c++)
    assert_non_null(tc_valclass_label((tc_vclass)c));
  assert_true(tc_valclass_is_url(TC_VC_HTTP) && tc_valclass_is_url(TC_VC_OTHER_SCHEME));
  assert_false(tc_valclass_is_url(TC_VC_EMPTY) || tc_valclass_is_url(TC_VC_HEX));
}

static const struct {
  const char *in, *out;
} cuts[] = {
    {"https://www.example.com/path/a.js?q=1#f", "https://www.example.com"},
    {"https://user:pw@example.com:8443/x", "https://example.com"},
    {"http://localhost:8000/index.html", "http://localhost"},
    {"http://[::1]:8080/", "http://[::1]"},
    {"https://example.com", "https://example.com"},
    {"https://example.com?x", "https://example.com"},
    {"HTTPS://Example.COM/A", "HTTPS://Example.COM"},
    {"file:///home/user/secret.html", "file://"},
    {"blob:https://example.com/5d2c7c8e-0f1e", "blob:https://example.com"},
    {"blob:null/5d2c", "blob:"},
    {"data:image/png;base64,AAAA", "data:image/png"},
    {"data:,hello", "data:"},
    {"data:text/html,<p>hi", "data:text/html"},
    {"about:blank", "about:blank"},
    {"about:blank#frag", "about:blank"},
    {"about:srcdoc?x", "about:srcdoc"},
    {"chrome-extension://abcdefghijklmnop/bg.js", "chrome-extension://abcdefghijklmnop"},
    {"chrome://settings/passwords", "chrome://settings"},
    {"chrome:foo", "chrome:"},
    {"wss://live.example.com/socket?token=secret", "wss://live.example.com"},
    {"https:no-slashes", "https:"},
    {"https://a.com\\evil", "https://a.com"},
};

static void test_cut(void **state) {
  (void)state;
  char buf[TC_VALCLASS_CUT_MAX];
  for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
    tc_str in = tc_str_c(cuts[i].in);
    tc_str out = tc_valclass_cut(in, tc_valclass_str(in), buf);
    if (!tc_str_eqc(out, cuts[i].out))
      fail_msg("'%s' cut to '%.*s', expected '%s'", cuts[i].in, (int)out.len, out.ptr, cuts[i].out);
  }
  /* Not a URL: the string itself, not a copy. */
  tc_str s = tc_str_c("lazy");
  assert_ptr_equal(tc_valclass_cut(s, tc_valclass_str(s), buf).ptr, s.ptr);
  /* A media type too long to be one is not shown. */
  char data[200] = "data:";
  memset(data + 5, 'x', 100);
  tc_str d = tc_str_c(data);
  assert_true(tc_str_eqc(tc_valclass_cut(d, TC_VC_DATA, buf), "data:"));
  /* A host longer than the buffer is cut at its end. */
  char huge[600] = "https://";
  memset(huge + 8, 'h', 500);
  tc_str h = tc_str_c(huge);
  tc_str out = tc_valclass_cut(h, TC_VC_HTTPS, buf);
  assert_int_equal(out.len, TC_VALCLASS_CUT_MAX);
  assert_memory_equal(out.ptr, "https://hhh", 11);
}

static void test_numbers(void **state) {
  (void)state;
  assert_int_equal(tc_valclass_num(0), TC_VN_ZERO);
  assert_int_equal(tc_valclass_num(-0.0), TC_VN_ZERO);
  assert_int_equal(tc_valclass_num(-1), TC_VN_MINUS1 | TC_VN_NEG);
  assert_int_equal(tc_valclass_num(-2), TC_VN_NEG);
  assert_int_equal(tc_valclass_num(-1.5), TC_VN_NEG | TC_VN_FRAC);
  assert_int_equal(tc_valclass_num(4096), 0);
  assert_int_equal(tc_valclass_num(0.25), TC_VN_FRAC);
  assert_int_equal(tc_valclass_num(1e300), 0);
  assert_int_equal(tc_valclass_num(INFINITY), 0);
  assert_int_equal(tc_valclass_num(-INFINITY), TC_VN_NEG);
  assert_int_equal(tc_valclass_num(5e-324), TC_VN_FRAC);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_classes),
      cmocka_unit_test(test_names),
      cmocka_unit_test(test_cut),
      cmocka_unit_test(test_numbers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
