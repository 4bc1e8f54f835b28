/* A small DevTools schema written for the tests that need one, so every
 * expectation follows from its lines (see SCHEMA_FIXTURE below). */
#ifndef SCHEMA_FIXTURE_H
#define SCHEMA_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SCHEMA_FIXTURE                                                                 \
  "# a comment, and a blank line\n"                                                    \
  "\n"                                                                                 \
  "generator\ttrace_engine\t0.0.65\n"                                                  \
  "generator\ttypescript\t5.9.3\n"                                                     \
  "event\tLayout\n"                                                                    \
  "event\tPaint\n"                                                                     \
  "event\tParseHTML\n"                                                                 \
  "declared\tParseHTML\targs.beginData\n"                                              \
  "declared\tParseHTML\targs.beginData.url\n"                                          \
  "recording_category\tdevtools.timeline\n"                                            \
  "optional_category\tInvalidation tracking\t"                                         \
  "disabled-by-default-devtools.timeline.invalidationTracking\n"                       \
  "optional_category\tEnable advanced paint instrumentation (slow)\t"                  \
  "disabled-by-default-devtools.timeline.invalidationTracking\n"                       \
  "all_categories_setting\tShow all events\n"

/* Writes TEXT to a new temporary file; returns its malloc'd path. */
static inline char *schema_fixture_write(const char *text) {
  char tmpl[] = "/tmp/tc-schema-XXXXXX";
  int fd = mkstemp(tmpl);
  if (fd < 0)
    return NULL;
  size_t n = strlen(text);
  if (write(fd, text, n) != (ssize_t)n) {
    close(fd);
    return NULL;
  }
  close(fd);
  return strdup(tmpl);
}

#endif
