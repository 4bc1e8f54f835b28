/* Assertions shared by the unit tests and the fuzz targets: cmocka's in the
 * tests, abort() when built with TC_FUZZ so that libFuzzer keeps the input. */
#ifndef TC_TEST_CHECK_H
#define TC_TEST_CHECK_H

#include <stdlib.h>
#include <string.h>

#ifdef TC_FUZZ
#define check(c) ((c) ? (void)0 : abort())
#define check_eq(a, b) check((a) == (b))
#define check_mem(a, b, n) check(memcmp((a), (b), (n)) == 0)
#else
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#define check(c) assert_true(c)
#define check_eq(a, b) assert_int_equal((a), (b))
#define check_mem(a, b, n) assert_memory_equal((a), (b), (n))
#endif

#endif
