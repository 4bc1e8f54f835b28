/* Checks every test of an encoded sketch makes: equal states give equal
 * bytes, and a decoder refuses every strict prefix of a valid encoding at
 * an offset inside it, leaving its output as init left it. Macros, since
 * each sketch has its own typed encode and decode. Include after cmocka.h. */
#ifndef TC_BIN_CHECK_H
#define TC_BIN_CHECK_H

#include <string.h>

#include "util/tc_bin.h"

/* ENCODE(X) into *B, a buffer initialised here; it must succeed. */
#define TC_ENCODE(encode, x, b)                                                \
  do {                                                                         \
    tc_bin_buf_init(b);                                                        \
    encode((x), (b));                                                          \
    assert_int_equal((b)->err, TC_OK);                                         \
  } while (0)

static inline void tc_assert_bufs_equal(tc_bin_buf *x, tc_bin_buf *y) {
  assert_int_equal(x->len, y->len);
  assert_memory_equal(x->ptr, y->ptr, x->len);
  tc_bin_buf_free(x);
  tc_bin_buf_free(y);
}

#define TC_ASSERT_SAME_BYTES(encode, a, b)                                     \
  do {                                                                         \
    tc_bin_buf x_, y_;                                                         \
    TC_ENCODE(encode, a, &x_);                                                 \
    TC_ENCODE(encode, b, &y_);                                                 \
    tc_assert_bufs_equal(&x_, &y_);                                            \
  } while (0)

/* INIT(TYPE *) makes an empty value; DECODE(reader, TYPE *) reads one. */
#define TC_ASSERT_PREFIXES_REFUSED(type, init, decode, buf)                    \
  do {                                                                         \
    type fresh_, t_;                                                           \
    init(&fresh_);                                                             \
    for (size_t cut_ = 0; cut_ < (buf)->len; cut_++) {                         \
      init(&t_);                                                               \
      tc_bin_reader r_;                                                        \
      tc_bin_reader_init(&r_, (buf)->ptr, cut_, 0);                            \
      assert_int_equal(decode(&r_, &t_), TC_E_BAD_BINARY);                     \
      assert_true(r_.err_at <= cut_);                                          \
      assert_memory_equal(&t_, &fresh_, sizeof t_);                            \
    }                                                                          \
  } while (0)

#endif
