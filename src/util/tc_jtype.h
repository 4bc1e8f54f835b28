/* JSON value types as bits, so a set of types fits in a byte: what the
 * parser reports for each value and what the census, the value profiles
 * and the writers count and name. */
#ifndef TC_JTYPE_H
#define TC_JTYPE_H

enum {
  TC_JT_NULL = 1 << 0,
  TC_JT_BOOL = 1 << 1,
  TC_JT_NUMBER = 1 << 2,
  TC_JT_STRING = 1 << 3,
  TC_JT_ARRAY = 1 << 4,
  TC_JT_OBJECT = 1 << 5,
};

#endif
