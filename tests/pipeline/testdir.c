#include "testdir.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *testdir_new(void) {
  const char *base = getenv("TMPDIR");
  char *tmpl = testdir_path(base && *base ? base : "/tmp", "tc-test-XXXXXX");
  if (tmpl && !mkdtemp(tmpl)) {
    free(tmpl);
    return NULL;
  }
  return tmpl;
}

char *testdir_path(const char *dir, const char *rel) {
  size_t n = strlen(dir) + strlen(rel) + 2;
  char *p = malloc(n);
  if (p)
    snprintf(p, n, "%s/%s", dir, rel);
  return p;
}

int testdir_write(const char *dir, const char *rel, const void *data, size_t len) {
  char *p = testdir_path(dir, rel);
  FILE *fp = p ? fopen(p, "wb") : NULL;
  free(p);
  if (!fp)
    return -1;
  int bad = len && fwrite(data, 1, len, fp) != len;
  return fclose(fp) != 0 || bad ? -1 : 0;
}

int testdir_mkdir(const char *dir, const char *rel) {
  char *p = testdir_path(dir, rel);
  int rc = p ? mkdir(p, 0755) : -1;
  free(p);
  return rc;
}

static void remove_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0)
    return;
  if (S_ISDIR(st.st_mode)) {
    /* A test may have taken every permission away to make it unreadable. */
    chmod(path, 0755);
    DIR *d = opendir(path);
    struct dirent *de;
    while (d && (de = readdir(d))) {
      if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
        continue;
      char *p = testdir_path(path, de->d_name);
      if (p)
        remove_tree(p);
      free(p);
    }
    if (d)
      closedir(d);
    rmdir(path);
  } else {
    unlink(path);
  }
}

void testdir_free(char *dir) {
  if (dir)
    remove_tree(dir);
  free(dir);
}
