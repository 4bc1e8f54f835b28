/* Writes the demo page (demo_page.h) to the file named by its argument and
 * prints "plots: N", the number of plots on it, for the browser test to
 * compare with what Chromium finds. A test tool: the page is not a product
 * of an output set, so plain stdio, with every write error reported. */
#include <stdio.h>

#include "demo_page.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: demo_report FILE\n");
    return 2;
  }
  FILE *fp = fopen(argv[1], "w");
  if (!fp) {
    perror(argv[1]);
    return 1;
  }
  size_t plots = 0;
  tc_err e = demo_page_write(fp, &plots);
  int bad = ferror(fp);
  if (fclose(fp) || bad || e) {
    fprintf(stderr, "demo_report: %s: %s\n", argv[1], e ? tc_strerror(e) : "write error");
    return 1;
  }
  printf("plots: %zu\n", plots);
  return 0;
}
