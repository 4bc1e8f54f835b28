/* The diff's four files into an output set's staging folder. */
#include "diff/tc_diff.h"
#include "report/tc_outfile.h"

tc_err tc_diff_write_set(const tc_diff *d, const char *dir) {
  static const struct {
    const char *name;
    void (*write)(const tc_diff *, FILE *);
  } files[] = {{"diff.md", tc_diff_write_md},
               {"diff.json", tc_diff_write_json},
               {"diff.csv", tc_diff_write_csv},
               {"diff.html", tc_diff_write_html}};
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    tc_outfile *f;
    tc_err e = tc_outfile_open(dir, files[i].name, &f);
    if (e)
      return e;
    files[i].write(d, tc_outfile_fp(f));
    if ((e = tc_outfile_commit(f)))
      return e;
  }
  return TC_OK;
}
