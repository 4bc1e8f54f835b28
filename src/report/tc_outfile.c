#include "report/tc_outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct tc_outfile {
  FILE *fp;
  char *tmp;
  char *final;
};

tc_err tc_mkdirs(const char *dir) {
  size_t n = strlen(dir);
  char *p = malloc(n + 1);
  if (!p)
    return TC_E_NOMEM;
  memcpy(p, dir, n + 1);
  for (size_t i = 1; i <= n; i++) {
    if (p[i] != '/' && p[i] != '\0')
      continue;
    char c = p[i];
    p[i] = '\0';
    if (mkdir(p, 0777) != 0 && errno != EEXIST) {
      free(p);
      return TC_E_WRITE;
    }
    p[i] = c;
  }
  free(p);
  return TC_OK;
}

static char *join(const char *dir, const char *a, const char *b) {
  size_t n = strlen(dir) + strlen(a) + strlen(b) + 2;
  char *s = malloc(n);
  if (s)
    snprintf(s, n, "%s/%s%s", dir, a, b);
  return s;
}

tc_err tc_outfile_open(const char *dir, const char *name, tc_outfile **out) {
  *out = NULL;
  tc_err e = tc_mkdirs(dir);
  if (e)
    return e;
  tc_outfile *f = calloc(1, sizeof *f);
  if (!f)
    return TC_E_NOMEM;
  char suffix[32];
  snprintf(suffix, sizeof suffix, ".tmp%ld", (long)getpid());
  f->final = join(dir, name, "");
  char *hidden = join("", ".", name); /* "/.name": skip the leading slash below */
  f->tmp = hidden ? join(dir, hidden + 1, suffix) : NULL;
  free(hidden);
  if (!f->final || !f->tmp) {
    tc_outfile_abort(f);
    return TC_E_NOMEM;
  }
  f->fp = fopen(f->tmp, "wb");
  if (!f->fp) {
    tc_outfile_abort(f);
    return TC_E_WRITE;
  }
  *out = f;
  return TC_OK;
}

FILE *tc_outfile_fp(tc_outfile *f) { return f->fp; }

tc_err tc_outfile_commit(tc_outfile *f) {
  int bad = ferror(f->fp) || fflush(f->fp) != 0 || fsync(fileno(f->fp)) != 0;
  bad |= fclose(f->fp) != 0;
  f->fp = NULL;
  if (!bad)
    bad = rename(f->tmp, f->final) != 0;
  if (bad) {
    tc_outfile_abort(f);
    return TC_E_WRITE;
  }
  free(f->tmp);
  free(f->final);
  free(f);
  return TC_OK;
}

void tc_outfile_abort(tc_outfile *f) {
  if (!f)
    return;
  if (f->fp)
    fclose(f->fp);
  if (f->tmp)
    unlink(f->tmp);
  free(f->tmp);
  free(f->final);
  free(f);
}
