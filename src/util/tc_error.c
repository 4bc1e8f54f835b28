#include "util/tc_error.h"

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const messages[] = {
#define TC_ERR_MSG(name, msg) msg,
    TC_ERRNO_MAP(TC_ERR_MSG)
#undef TC_ERR_MSG
};

/* The enum's own names, lower-cased once on first use (the preprocessor
 * cannot change case), so a name can never drift from its code. */
static const char *const upper_names[] = {
#define TC_ERR_NAME(name, msg) #name,
    TC_ERRNO_MAP(TC_ERR_NAME)
#undef TC_ERR_NAME
};

enum { NAME_MAX_LEN = 32 };
static char names[TC_E_COUNT_][NAME_MAX_LEN];
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static void lower_names(void) {
  for (int e = 0; e < TC_E_COUNT_; e++) {
    const char *u = upper_names[e];
    size_t i = 0;
    for (; u[i] && i + 1 < NAME_MAX_LEN; i++)
      names[e][i] = (char)tolower((unsigned char)u[i]);
    names[e][i] = '\0';
  }
}

const char *tc_strerror(tc_err e) {
  if ((unsigned)e >= (unsigned)TC_E_COUNT_)
    return "unknown error";
  return messages[e];
}

const char *tc_err_name(tc_err e) {
  if ((unsigned)e >= (unsigned)TC_E_COUNT_)
    return "unknown";
  pthread_once(&names_once, lower_names);
  return names[e];
}

void tc_why_clear(tc_why *w) {
  if (w)
    memset(w, 0, sizeof *w);
}

void tc_why_errno(tc_why *w, const char *path, int errnum) {
  if (!w)
    return;
  snprintf(w->path, sizeof w->path, "%s", path ? path : "");
  w->errnum = errnum;
}

void tc_why_at(tc_why *w, uint64_t offset, const char *reason) {
  if (!w)
    return;
  w->offset = offset;
  w->has_offset = 1;
  snprintf(w->reason, sizeof w->reason, "%s", reason ? reason : "");
}

void tc_why_reason(tc_why *w, const char *fmt, ...) {
  if (!w)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(w->reason, sizeof w->reason, fmt, ap);
  va_end(ap);
}
