/* Scratch directories for tests that need real files: made with mkdtemp
 * under $TMPDIR (or /tmp) and removed, contents and all, at the end. */
#ifndef TESTDIR_H
#define TESTDIR_H

#include <stddef.h>

/* A new empty directory; malloc'd path, NULL on failure. */
char *testdir_new(void);

/* DIR/REL as a malloc'd path. */
char *testdir_path(const char *dir, const char *rel);

/* Writes LEN bytes to DIR/REL (creating or replacing it); 0 on success. */
int testdir_write(const char *dir, const char *rel, const void *data, size_t len);

/* Creates the directory DIR/REL; 0 on success. */
int testdir_mkdir(const char *dir, const char *rel);

/* Removes DIR and everything under it (symlinks are removed, not followed),
 * then frees DIR. Accepts NULL. */
void testdir_free(char *dir);

/* The whole of DIR/REL, NUL-terminated, malloc'd; NULL if unreadable. */
char *testdir_read(const char *dir, const char *rel);

/* The names in DIR/REL but . and .., sorted and joined by spaces ("" when
 * empty, "-" when it cannot be read), into BUF of CAP bytes; returns BUF. */
const char *testdir_list(const char *dir, const char *rel, char *buf, size_t cap);

/* cmocka fixtures: a fresh scratch folder for each test, in testdir_scratch
 * from setup to teardown. */
extern char *testdir_scratch;
int testdir_setup(void **state);
int testdir_teardown(void **state);

#endif
