#include "util/tc_grow.h"

#include <stdlib.h>
#include <string.h>

/* *P to N (> *CAP) elements, the new ones zeroed. */
static tc_err resize(void **p, size_t *cap, size_t n, size_t elem) {
  if (n > SIZE_MAX / elem)
    return TC_E_NOMEM;
  void *q = realloc(*p, n * elem);
  if (!q)
    return TC_E_NOMEM;
  memset((char *)q + *cap * elem, 0, (n - *cap) * elem);
  *p = q;
  *cap = n;
  return TC_OK;
}

tc_err tc_grow(void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap)
    return TC_OK;
  size_t n = *cap ? *cap : 16;
  while (n < need) {
    if (n > SIZE_MAX / 2)
      return TC_E_NOMEM;
    n *= 2;
  }
  return resize(p, cap, n, elem);
}

tc_err tc_grow_to(void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap)
    return TC_OK;
  return resize(p, cap, *cap + *cap / 2 > need ? *cap + *cap / 2 : need, elem);
}
