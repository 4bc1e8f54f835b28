/* What tc_sniff says of first bytes: each magic, a Perfetto trace (and the
 * JSON texts that also start with '\n'), other protobuf, binary data, text;
 * and that tc_sniff_needs_head holds back exactly the first bytes that may
 * start something else than JSON. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "io/tc_sniff.h"
#include "pb_build.h"

static tc_sniff_kind sniff(const char *p, size_t n) { return tc_sniff((const unsigned char *)p, n); }

#define SNIFF_LIT(s) sniff((s), sizeof(s) - 1)

static void test_magics(void **state) {
  (void)state;
  assert_int_equal(SNIFF_LIT("\x1f\x8b\x08\x00"), TC_SNIFF_GZIP);
  assert_int_equal(SNIFF_LIT("\x28\xb5\x2f\xfd\x00"), TC_SNIFF_ZSTD);
  assert_int_equal(SNIFF_LIT("\x50\x2a\x4d\x18\x00"), TC_SNIFF_ZSTD); /* skippable frame */
  assert_int_equal(SNIFF_LIT("PK\x03\x04rest"), TC_SNIFF_ZIP);
  assert_int_equal(SNIFF_LIT("PK\x05\x06"), TC_SNIFF_ZIP);
  assert_int_equal(SNIFF_LIT("\x89PNG\r\n\x1a\n\0\0"), TC_SNIFF_PNG);
  assert_int_equal(SNIFF_LIT("\xff\xd8\xff\xe0"), TC_SNIFF_JPEG);
  assert_int_equal(SNIFF_LIT("GIF89a..."), TC_SNIFF_GIF);
  assert_int_equal(SNIFF_LIT("GIF87a"), TC_SNIFF_GIF);
  assert_int_equal(SNIFF_LIT("%PDF-1.7\n"), TC_SNIFF_PDF);
  /* One byte short of each magic is not it. */
  assert_int_equal(SNIFF_LIT("GIF89"), TC_SNIFF_TEXT);
  assert_int_equal(SNIFF_LIT("%PDF"), TC_SNIFF_TEXT);
  assert_int_equal(tc_sniff_error(TC_SNIFF_ZIP), TC_E_NOT_TRACE_ZIP);
  assert_int_equal(tc_sniff_error(TC_SNIFF_TEXT), TC_OK);
  assert_int_equal(tc_sniff_error(TC_SNIFF_PERFETTO), TC_OK);
  assert_int_equal(tc_sniff_error(TC_SNIFF_BINARY), TC_E_NOT_TRACE_BINARY);
}

static void test_perfetto_and_json_that_starts_alike(void **state) {
  (void)state;
  /* A packet with a timestamp and a sequence id: control bytes (tags). */
  pb p = {0}, t = {0};
  pb_u(&p, 8, 1000);
  pb_u(&p, 10, 1);
  pb_msg(&t, 1, &p);
  assert_int_equal(tc_sniff(t.p, t.len), TC_SNIFF_PERFETTO);
  /* Cut inside its first packet after one whole field: still one. */
  assert_int_equal(tc_sniff(t.p, 5), TC_SNIFF_PERFETTO);
  /* Cut before any whole field: too little to call it a trace. */
  assert_int_equal(tc_sniff(t.p, 3), TC_SNIFF_BINARY);
  pb_free(&t);
  /* A packet of printable bytes only (field 12 'b', length 32 ' '), that
   * ends exactly where the head does. */
  char printable[36] = "\n\"b ";
  memset(printable + 4, 'x', 32);
  assert_int_equal(sniff(printable, 36), TC_SNIFF_PERFETTO);
  /* The same followed by a byte that cannot start a second packet. */
  char more[37];
  memcpy(more, printable, 36);
  more[36] = 'x';
  assert_int_equal(sniff(more, 37), TC_SNIFF_TEXT);
  /* JSON after a newline: '[' and '{' are group tags, or the lengths run
   * past the head with no control byte: text. */
  assert_int_equal(SNIFF_LIT("\n[{\"name\":\"a\"}]"), TC_SNIFF_TEXT);
  assert_int_equal(SNIFF_LIT("\n\n[]"), TC_SNIFF_TEXT);
  assert_int_equal(SNIFF_LIT("\n  [{\"ph\":\"X\"}]"), TC_SNIFF_TEXT);
  assert_int_equal(SNIFF_LIT("\n{\"traceEvents\":[]}"), TC_SNIFF_TEXT);
  assert_int_equal(SNIFF_LIT("\nhello"), TC_SNIFF_TEXT);
  assert_int_equal(SNIFF_LIT("\n"), TC_SNIFF_TEXT);
}

static void test_other_binary(void **state) {
  (void)state;
  /* Two protobuf fields that are no TracePacket field 1. */
  assert_int_equal(SNIFF_LIT("\x08\x96\x01\x12\x03" "abc"), TC_SNIFF_PROTOBUF);
  /* One field only: too little to call it protobuf. */
  assert_int_equal(SNIFF_LIT("\x08\x96\x01"), TC_SNIFF_BINARY);
  assert_int_equal(sniff("\0\1\2\3", 4), TC_SNIFF_BINARY);
  assert_int_equal(SNIFF_LIT("\x07\x07\x07"), TC_SNIFF_BINARY);
  assert_int_equal(SNIFF_LIT("plain text"), TC_SNIFF_TEXT);
  assert_int_equal(sniff("", 0), TC_SNIFF_TEXT);
}

static void test_needs_head(void **state) {
  (void)state;
  const char *json_starts = "[{ \t\r\xEF" "abhx0\"";
  for (const char *c = json_starts; *c; c++)
    assert_false(tc_sniff_needs_head((unsigned char)*c));
  const char *held = "\n\x1f\x28PQ_\x89\xff" "G%\x01\x80\xfe";
  for (const char *c = held; *c; c++)
    assert_true(tc_sniff_needs_head((unsigned char)*c));
  assert_true(tc_sniff_needs_head(0));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_magics),
      cmocka_unit_test(test_perfetto_and_json_that_starts_alike),
      cmocka_unit_test(test_other_binary),
      cmocka_unit_test(test_needs_head),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
