/* An LD_PRELOAD shim that makes file-system faults happen at an exact call,
 * for the fault tests (test_faults_e2e.py): deterministic where a timed
 * signal or a full disk would be luck.
 *
 * TC_FAULT="CALL:N:ACTION[,CALL:N:ACTION...]" acts on the Nth call (from 1)
 * of CALL in the whole process: one of write and read (counted only on
 * regular files, so stderr and pipes do not shift the count), fsync,
 * renameat2, renameat, flock, mkdirat, linkat, unlinkat, and rmdir (an
 * unlinkat that removes a folder, counted under both names). ACTION is
 *   stop        raise SIGSTOP before the call (the test then looks, and
 *               sends SIGTERM, SIGINT, SIGHUP or SIGKILL, then SIGCONT)
 *   after       raise SIGSTOP after the call
 *   kill        raise SIGKILL before the call (a crash at that point)
 *   EXXX        fail the call with that errno (ENOSPC, EIO, EROFS, EINVAL,
 *               EDQUOT, EFBIG) instead of making it
 *   plant       (rmdir only; rmdir takes no "after") make file
 *               $TC_FAULT_PLANT in the folder just before its removal, as
 *               a thread still writing into it would
 * TC_FAULT_COUNTS=FILE writes "CALL COUNT" lines there at a normal exit, so
 * a test can find every point of a run before it picks some.
 *
 * Only the functions tracecensus calls directly can be caught: glibc's
 * stdio writes through internal aliases, which is one reason the output
 * files are written through fopencookie and write(). Built without
 * sanitizers; the sanitizers' own interceptors forward to it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define CALLS(X) X(write) X(read) X(fsync) X(renameat2) X(renameat) X(flock) X(mkdirat) X(linkat) X(unlinkat) X(rmdir)

enum {
#define ENUM(c) C_##c,
  CALLS(ENUM)
#undef ENUM
  NCALLS
};

static const char *const call_names[] = {
#define NAME(c) #c,
    CALLS(NAME)
#undef NAME
};

enum { STOP, AFTER, KILL, FAIL, PLANT };

typedef struct {
  int call;
  long n;
  int action;
  int err;
} rule;

static rule rules[16];
static int nrules;
static char plant_name[256]; /* read at load: a plant acts in a signal handler */
static atomic_long counts[NCALLS];

static int errno_of(const char *s) {
  static const struct {
    const char *name;
    int err;
  } known[] = {{"ENOSPC", ENOSPC}, {"EIO", EIO},       {"EROFS", EROFS},
               {"EINVAL", EINVAL}, {"EDQUOT", EDQUOT}, {"EFBIG", EFBIG}};
  for (size_t i = 0; i < sizeof known / sizeof *known; i++)
    if (!strcmp(s, known[i].name))
      return known[i].err;
  return 0;
}

__attribute__((constructor)) static void load_rules(void) {
  const char *spec = getenv("TC_FAULT"), *name = getenv("TC_FAULT_PLANT");
  if (name)
    snprintf(plant_name, sizeof plant_name, "%s", name);
  if (!spec)
    return;
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", spec);
  for (char *save, *tok = strtok_r(buf, ",", &save); tok && nrules < 16;
       tok = strtok_r(NULL, ",", &save)) {
    char call[32], action[32];
    long n;
    if (sscanf(tok, "%31[a-z0-9]:%ld:%31[A-Za-z]", call, &n, action) != 3)
      goto bad;
    rule r = {-1, n, FAIL, 0};
    for (int c = 0; c < NCALLS; c++)
      if (!strcmp(call, call_names[c]))
        r.call = c;
    if (!strcmp(action, "stop"))
      r.action = STOP;
    else if (!strcmp(action, "after"))
      r.action = AFTER;
    else if (!strcmp(action, "kill"))
      r.action = KILL;
    else if (!strcmp(action, "plant"))
      r.action = PLANT;
    else if (!(r.err = errno_of(action)))
      goto bad;
    if (r.call < 0 || (r.action == PLANT && r.call != C_rmdir))
      goto bad;
    rules[nrules++] = r;
    continue;
  bad:
    fprintf(stderr, "faultshim: cannot read rule '%s'\n", tok);
    _exit(99);
  }
}

__attribute__((destructor)) static void dump_counts(void) {
  const char *path = getenv("TC_FAULT_COUNTS");
  FILE *fp = path ? fopen(path, "w") : NULL;
  if (!fp)
    return;
  for (int c = 0; c < NCALLS; c++)
    fprintf(fp, "%s %ld\n", call_names[c], atomic_load(&counts[c]));
  fclose(fp);
}

/* Makes a plant rule's file in folder P under FD. */
static void plant(int fd, const char *p) {
  int dir = plant_name[0] ? openat(fd, p, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
  if (dir < 0)
    return;
  int f = openat(dir, plant_name, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (f >= 0)
    close(f);
  close(dir);
}

/* Counts a call; returns its number, and the errno to fail it with (0:
 * make it) in *err. */
static long before(int call, int *err) {
  long n = atomic_fetch_add(&counts[call], 1) + 1;
  *err = 0;
  for (int i = 0; i < nrules; i++) {
    if (rules[i].call != call || rules[i].n != n)
      continue;
    if (rules[i].action == STOP)
      raise(SIGSTOP);
    else if (rules[i].action == KILL)
      raise(SIGKILL);
    else if (rules[i].action == FAIL)
      *err = rules[i].err;
  }
  return n;
}

static void after(int call, long n) {
  for (int i = 0; i < nrules; i++)
    if (rules[i].call == call && rules[i].n == n && rules[i].action == AFTER)
      raise(SIGSTOP);
}

static int regular(int fd) {
  struct stat st;
  return fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

/* Wraps CALL: counts it (when COUNTED), applies the rules and then PRE's
 * (an errno to fail the call with, or 0), makes it. */
#define WRAP(ret, call, counted, pre, params, args)                                               \
  ret call params {                                                                               \
    static __typeof__(&call) real;                                                                \
    if (!real)                                                                                    \
      real = REAL(call);                                                                          \
    long n = 0;                                                                                   \
    int err = 0;                                                                                  \
    if (counted)                                                                                  \
      n = before(C_##call, &err);                                                                 \
    if (!err)                                                                                     \
      err = pre;                                                                                  \
    if (err) {                                                                                    \
      errno = err;                                                                                \
      return -1;                                                                                  \
    }                                                                                             \
    ret r = real args;                                                                            \
    if (n) {                                                                                      \
      int saved = errno;                                                                          \
      after(C_##call, n);                                                                         \
      errno = saved;                                                                              \
    }                                                                                             \
    return r;                                                                                     \
  }

WRAP(ssize_t, write, regular(fd), 0, (int fd, const void *buf, size_t count), (fd, buf, count))
WRAP(ssize_t, read, regular(fd), 0, (int fd, void *buf, size_t count), (fd, buf, count))
WRAP(int, fsync, 1, 0, (int fd), (fd))
WRAP(int, renameat2, 1, 0, (int od, const char *from, int nd, const char *to, unsigned flags),
     (od, from, nd, to, flags))
WRAP(int, renameat, 1, 0, (int od, const char *from, int nd, const char *to), (od, from, nd, to))
WRAP(int, flock, 1, 0, (int fd, int op), (fd, op))
WRAP(int, mkdirat, 1, 0, (int fd, const char *p, mode_t m), (fd, p, m))
WRAP(int, linkat, 1, 0, (int od, const char *from, int nd, const char *to, int flags),
     (od, from, nd, to, flags))

/* Counts a folder's removal as rmdir too, where a plant rule acts. */
static int rmdir_err(int fd, const char *p, int flags) {
  if (!(flags & AT_REMOVEDIR))
    return 0;
  int err;
  long n = before(C_rmdir, &err);
  for (int i = 0; i < nrules; i++)
    if (rules[i].call == C_rmdir && rules[i].n == n && rules[i].action == PLANT)
      plant(fd, p);
  return err;
}

WRAP(int, unlinkat, 1, rmdir_err(fd, p, flags), (int fd, const char *p, int flags), (fd, p, flags))
