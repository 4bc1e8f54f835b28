#include "util/tc_error.h"

static const char *const messages[] = {
#define TC_ERR_MSG(name, msg) msg,
    TC_ERRNO_MAP(TC_ERR_MSG)
#undef TC_ERR_MSG
};

const char *tc_strerror(tc_err e) {
  if ((unsigned)e >= (unsigned)TC_E_COUNT_)
    return "unknown error";
  return messages[e];
}
