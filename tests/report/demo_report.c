/* Writes the demo page (demo_page.h) to the file named by its argument and
 * prints "plots: N", the number of plots on it, for the browser test to
 * compare with what Chromium finds. */
#include <stdio.h>

#include "demo_page.h"
#include "report/tc_outfile.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: demo_report DIR NAME\n");
    return 2;
  }
  tc_outfile *f;
  tc_err e = tc_outfile_open(argv[1], argv[2], &f);
  size_t plots = 0;
  if (!e)
    e = demo_page_write(tc_outfile_fp(f), &plots);
  if (!e)
    e = tc_outfile_commit(f);
  else
    tc_outfile_abort(f);
  if (e) {
    fprintf(stderr, "demo_report: %s/%s: %s\n", argv[1], argv[2], tc_strerror(e));
    return 1;
  }
  printf("plots: %zu\n", plots);
  return 0;
}
