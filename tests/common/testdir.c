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

char *testdir_read(const char *dir, const char *rel) {
  char *p = testdir_path(dir, rel);
  FILE *fp = p ? fopen(p, "rb") : NULL;
  free(p);
  if (!fp)
    return NULL;
  size_t n = 0, cap = 4096;
  char *buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n - 1, fp);
    if (n + 1 < cap)
      break;
    char *more = realloc(buf, cap *= 2);
    if (!more)
      free(buf);
    buf = more;
  }
  fclose(fp);
  if (buf)
    buf[n] = '\0';
  return buf;
}

const char *testdir_list(const char *dir, const char *rel, char *buf, size_t cap) {
  char *p = testdir_path(dir, rel);
  struct dirent **names = NULL;
  int n = p ? scandir(p, &names, NULL, alphasort) : -1;
  free(p);
  snprintf(buf, cap, "%s", n < 0 ? "-" : "");
  for (int i = 0; i < n; i++) {
    const char *name = names[i]->d_name;
    if (strcmp(name, ".") && strcmp(name, "..")) {
      size_t used = strlen(buf);
      snprintf(buf + used, cap - used, "%s%s", used ? " " : "", name);
    }
    free(names[i]);
  }
  free(names);
  return buf;
}

char *testdir_scratch;

int testdir_setup(void **state) {
  (void)state;
  testdir_scratch = testdir_new();
  return testdir_scratch ? 0 : -1;
}

int testdir_teardown(void **state) {
  (void)state;
  testdir_free(testdir_scratch);
  testdir_scratch = NULL;
  return 0;
}
