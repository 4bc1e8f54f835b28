#define _GNU_SOURCE /* renameat2, getdents64 */
#include "report/tc_outset.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/tc_lockfile.h"

struct tc_outset {
  int parent; /* OUTDIR's parent folder */
  int lock;   /* the lock file, flock'd */
  int stage;  /* the staging folder */
  unsigned recovered;
  char base[NAME_MAX + 1]; /* OUTDIR's own name in parent */
  char lockname[NAME_MAX + 1];
  char stagename[NAME_MAX + 1];
  char *parentpath;
  char *stagepath;
};

/* The files tracecensus writes, by family: a census run writes family 0,
 * `diff` family 1. A set replaces only the families it writes, so a diff
 * written into a census folder (or a census into a diff folder) keeps the
 * other's files. */
static const struct {
  const char *name;
  unsigned family;
} products[] = {{"census.json", 0},  {"census.csv", 0}, {"census.md", 0},   {"run.json", 0},
                {"census_args.csv", 0}, {"host.json", 0},
                {"metrics.csv", 0},  {"metrics.json", 0}, {"metrics.md", 0}, {"report.html", 0},
                {"diff.md", 1},
                {"diff.json", 1},    {"diff.csv", 1},    {"diff.html", 1}};
enum { ALL_FAMILIES = 3u };

static int product_family(const char *name) {
  for (size_t i = 0; i < sizeof products / sizeof *products; i++)
    if (strcmp(name, products[i].name) == 0)
      return (int)products[i].family;
  return -1;
}

int tc_outset_product(const char *name) { return product_family(name) >= 0; }

/* The families of the products folder DIR holds. */
static unsigned families_in(int dir) {
  unsigned mask = 0;
  struct stat st;
  for (size_t i = 0; dir >= 0 && i < sizeof products / sizeof *products; i++)
    if (fstatat(dir, products[i].name, &st, AT_SYMLINK_NOFOLLOW) == 0)
      mask |= 1u << products[i].family;
  return mask;
}

/* A product of a family in MASK, or the temporary file an older
 * tracecensus wrote a census product under (".census.md.tmp1234"): either
 * is dropped with the previous set. */
static int ours(const char *name, unsigned mask) {
  int family = product_family(name);
  if (family >= 0)
    return (mask >> family) & 1u;
  if (name[0] != '.' || !(mask & 1u))
    return 0;
  for (size_t i = 0; i < sizeof products / sizeof *products; i++) {
    size_t n = strlen(products[i].name);
    if (products[i].family || strncmp(name + 1, products[i].name, n) ||
        strncmp(name + 1 + n, ".tmp", 4))
      continue;
    const char *d = name + 1 + n + 4;
    if (!*d)
      return 0;
    while (*d >= '0' && *d <= '9')
      d++;
    return *d == '\0';
  }
  return 0;
}

/* Moves entry NAME of DIR into OUT under the same name, never replacing
 * anything there. Files go by link and unlink, which refuse to replace on
 * every filesystem; folders by a no-replace rename. */
static int move_into(int dir, const char *name, int out, int is_dir) {
  if (!is_dir)
    return linkat(dir, name, out, name, 0) == 0 && unlinkat(dir, name, 0) == 0;
  if (renameat2(dir, name, out, name, RENAME_NOREPLACE) == 0)
    return 1;
  struct stat st;
  if (errno != EINVAL || fstatat(out, name, &st, AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT)
    return 0;
  return renameat(dir, name, out, name) == 0;
}

/* Settles one entry of a folder being discarded: tracecensus's files of the
 * families in MASK go, so does a name OUT (the folder now at OUTDIR, or -1)
 * holds as the very same file (a carried-over link); anything else moves
 * into OUT when the name is free there, else stays. Returns 1 when the
 * entry left the folder. */
static int settle(int dir, const char *name, int out, unsigned mask) {
  struct stat st, o;
  if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
    return 0;
  int is_dir = S_ISDIR(st.st_mode);
  if (!is_dir && ours(name, mask))
    return unlinkat(dir, name, 0) == 0;
  if (out < 0)
    return 0;
  if (fstatat(out, name, &o, AT_SYMLINK_NOFOLLOW) != 0)
    return errno == ENOENT && move_into(dir, name, out, is_dir);
  if (!is_dir && o.st_dev == st.st_dev && o.st_ino == st.st_ino)
    return unlinkat(dir, name, 0) == 0;
  return 0;
}

/* Empties and removes folder NAME of PARENT as settle says, with
 * async-signal-safe calls only (getdents64 into a stack buffer, no
 * malloc), so a signal handler can use it. Passes repeat until one changes
 * nothing, since a folder read while it shrinks may skip entries. Returns
 * 0 when the folder is gone. A staging folder is discarded with
 * ALL_FAMILIES (whatever it holds of ours is unfinished); a previous set
 * with the families of the set that replaced it. */
static int discard(int parent, const char *name, int out, unsigned mask) {
  int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return errno == ENOENT ? 0 : -1;
  _Alignas(struct dirent64) char buf[4096];
  int changed = 1;
  while (changed && lseek(fd, 0, SEEK_SET) == 0) {
    changed = 0;
    ssize_t n;
    while ((n = getdents64(fd, buf, sizeof buf)) > 0)
      for (ssize_t off = 0; off < n;) {
        const struct dirent64 *d = (const struct dirent64 *)(buf + off);
        off += d->d_reclen;
        if (strcmp(d->d_name, ".") && strcmp(d->d_name, ".."))
          changed |= settle(fd, d->d_name, out, mask);
      }
  }
  close(fd);
  return unlinkat(parent, name, AT_REMOVEDIR);
}

static tc_err fail(tc_why *why, tc_err e, int errnum, const char *a, const char *b) {
  why->errnum = errnum;
  snprintf(why->path, sizeof why->path, "%s%s%s", a, b ? "/" : "", b ? b : "");
  return e;
}

static tc_err mkdirs(char *p, tc_why *why) {
  for (char *s = p + 1;; s++) {
    if (*s != '/' && *s != '\0')
      continue;
    char c = *s;
    *s = '\0';
    int bad = mkdir(p, 0777) != 0 && errno != EEXIST;
    int err = errno;
    if (bad)
      fail(why, TC_E_WRITE, err, p, NULL);
    *s = c;
    if (bad)
      return TC_E_WRITE;
    if (!c)
      return TC_OK;
  }
}

/* Splits OUTDIR into its parent (malloc'd into *parent) and its name: a
 * symlink at OUTDIR is followed, and ".", ".." resolved, so the name is the
 * real entry that gets swapped. */
static tc_err resolve(const char *outdir, char **parent, char *base, tc_why *why) {
  size_t n = strlen(outdir);
  while (n > 1 && outdir[n - 1] == '/')
    n--;
  char *p = strndup(outdir, n);
  if (!p)
    return TC_E_NOMEM;
  struct stat st;
  int exists = lstat(p, &st) == 0;
  const char *name = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
  if ((exists && S_ISLNK(st.st_mode)) || !strcmp(name, ".") || !strcmp(name, "..") || !*name) {
    char *real = realpath(p, NULL);
    if (!real) {
      tc_err e = errno == ENOMEM ? TC_E_NOMEM : fail(why, TC_E_WRITE, errno, p, NULL);
      free(p);
      return e;
    }
    free(p);
    p = real;
    exists = stat(p, &st) == 0;
  }
  if (exists && !S_ISDIR(st.st_mode)) {
    free(p);
    fail(why, TC_E_OUT_NOT_DIR, 0, outdir, NULL);
    return TC_E_OUT_NOT_DIR;
  }
  char *slash = strrchr(p, '/');
  name = slash ? slash + 1 : p;
  tc_err e = TC_OK;
  if (!*name) {
    snprintf(why->reason, sizeof why->reason, "%s", "it is the root folder");
    e = fail(why, TC_E_OUT_UNSAFE, 0, outdir, NULL);
  } else if (strlen(name) > NAME_MAX - 16) {
    e = fail(why, TC_E_WRITE, ENAMETOOLONG, outdir, NULL);
  } else {
    strcpy(base, name);
    if (!slash)
      *parent = strdup(".");
    else if (slash == p)
      *parent = strdup("/");
    else
      *parent = (*slash = '\0', strdup(p));
    if (!*parent)
      e = TC_E_NOMEM;
    else if (slash && slash != p)
      e = mkdirs(*parent, why);
  }
  free(p);
  return e;
}

/* Takes the lock file beside OUTDIR. */
static tc_err take_lock(tc_outset *s, const char *parent, tc_why *why) {
  snprintf(s->lockname, sizeof s->lockname, ".%s.tc-lock", s->base);
  s->lock = tc_lockfile_take(s->parent, s->lockname, &why->pid);
  if (s->lock < 0)
    return fail(why, errno == EWOULDBLOCK ? TC_E_OUT_BUSY : TC_E_WRITE, errno, parent, s->lockname);
  return TC_OK;
}

/* Cleans what killed runs left beside OUTDIR (the lock is held, so no live
 * run owns any of it). */
static void recover(tc_outset *s, const char *parent, tc_why *why) {
  char pre_new[NAME_MAX + 1], pre_old[NAME_MAX + 1];
  size_t nn = (size_t)snprintf(pre_new, sizeof pre_new, ".%s.tc-new-", s->base);
  size_t no = (size_t)snprintf(pre_old, sizeof pre_old, ".%s.tc-old-", s->base);
  int dfd = dup(s->parent);
  DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
  if (!d) {
    if (dfd >= 0)
      close(dfd);
    return;
  }
  struct stat st;
  int have = fstatat(s->parent, s->base, &st, AT_SYMLINK_NOFOLLOW) == 0;
  int out = -1;
  struct dirent *e;
  /* Moved-aside folders first: one of them is OUTDIR when OUTDIR is gone. */
  for (int pass = 0; pass < 2; pass++) {
    rewinddir(d);
    while ((e = readdir(d))) {
      int is_old = strncmp(e->d_name, pre_old, no) == 0;
      if (!(pass == 0 ? is_old : strncmp(e->d_name, pre_new, nn) == 0))
        continue;
      if (!have && is_old) {
        /* Never discard what may be the only copy of the previous set. */
        if (renameat(s->parent, e->d_name, s->parent, s->base) == 0) {
          have = 1;
          s->recovered++;
        } else {
          fail(why, TC_E_OK, errno, parent, e->d_name);
        }
        continue;
      }
      if (have && out < 0)
        out = openat(s->parent, s->base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (discard(s->parent, e->d_name, out, is_old ? families_in(out) : ALL_FAMILIES) == 0)
        s->recovered++;
      else
        fail(why, TC_E_OK, errno, parent, e->d_name);
    }
  }
  if (out >= 0)
    close(out);
  closedir(d);
}

/* Whether the current directory is FOLDER or below it: after the swap a
 * shell there would sit in the removed previous set. */
static int cwd_inside(const struct stat *folder) {
  int fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  for (int depth = 0; fd >= 0 && depth < 4096; depth++) {
    struct stat st;
    if (fstat(fd, &st) != 0)
      break;
    if (st.st_dev == folder->st_dev && st.st_ino == folder->st_ino) {
      close(fd);
      return 1;
    }
    int up = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct stat ust;
    if (up < 0 || fstat(up, &ust) != 0 || (ust.st_dev == st.st_dev && ust.st_ino == st.st_ino)) {
      if (up >= 0)
        close(up);
      break;
    }
    close(fd);
    fd = up;
  }
  if (fd >= 0)
    close(fd);
  return 0;
}

/* A fresh name beside OUTDIR: .NAME.tc-KIND-XXXXXX, created by MAKE. */
static int fresh_name(tc_outset *s, const char *kind, char *name, int (*make)(tc_outset *, const char *)) {
  static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  unsigned long x = (unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 20);
  for (int tries = 0; tries < 100; tries++) {
    char suffix[7];
    for (int i = 0; i < 6; i++, x /= 36)
      suffix[i] = digits[x % 36];
    suffix[6] = '\0';
    x = x * 6364136223846793005UL + 1442695040888963407UL + (unsigned long)tries;
    snprintf(name, NAME_MAX + 1, ".%s.tc-%s-%s", s->base, kind, suffix);
    if (make(s, name) == 0)
      return 0;
    if (errno != EEXIST)
      return -1;
  }
  return -1;
}

static int make_stage(tc_outset *s, const char *name) { return mkdirat(s->parent, name, 0777); }

static int move_aside(tc_outset *s, const char *name) {
  struct stat st;
  if (fstatat(s->parent, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
    errno = EEXIST;
    return -1;
  }
  return renameat(s->parent, s->base, s->parent, name);
}

static void release(tc_outset *s) {
  if (s->lock >= 0) {
    unlinkat(s->parent, s->lockname, 0);
    close(s->lock);
  }
  if (s->stage >= 0)
    close(s->stage);
  if (s->parent >= 0)
    close(s->parent);
  free(s->parentpath);
  free(s->stagepath);
  free(s);
}

static int open_out(const tc_outset *s) {
  return openat(s->parent, s->base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

tc_err tc_outset_begin(const char *outdir, tc_outset **out, tc_why *why) {
  memset(why, 0, sizeof *why);
  *out = NULL;
  tc_outset *s = calloc(1, sizeof *s);
  if (!s)
    return TC_E_NOMEM;
  s->parent = s->lock = s->stage = -1;
  char *parent = NULL;
  tc_err e = resolve(outdir, &parent, s->base, why);
  if (!e && (s->parent = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    e = fail(why, TC_E_WRITE, errno, parent, NULL);
  if (!e)
    e = take_lock(s, parent, why);
  if (!e)
    recover(s, parent, why);
  struct stat st, pst;
  int old = !e && fstatat(s->parent, s->base, &st, AT_SYMLINK_NOFOLLOW) == 0;
  if (old && !S_ISDIR(st.st_mode)) {
    e = fail(why, TC_E_OUT_NOT_DIR, 0, outdir, NULL);
  } else if (old && fstat(s->parent, &pst) == 0 && pst.st_dev != st.st_dev) {
    snprintf(why->reason, sizeof why->reason, "%s", "it is a mount point");
    e = fail(why, TC_E_OUT_UNSAFE, 0, outdir, NULL);
  } else if (old && cwd_inside(&st)) {
    snprintf(why->reason, sizeof why->reason, "%s",
             "the current directory is inside it; run from outside it");
    e = fail(why, TC_E_OUT_UNSAFE, 0, outdir, NULL);
  }
  if (!e && fresh_name(s, "new", s->stagename, make_stage) != 0)
    e = fail(why, TC_E_WRITE, errno, parent, s->stagename);
  if (!e && (s->stage = openat(s->parent, s->stagename, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    e = fail(why, TC_E_WRITE, errno, parent, s->stagename);
  if (!e && old) {
    fchmod(s->stage, st.st_mode & 07777);
    if (geteuid() == 0 && fchown(s->stage, st.st_uid, st.st_gid) != 0) {
      /* Keeping the owner is a courtesy; the set is complete without it. */
    }
  }
  if (!e) {
    size_t n = strlen(parent) + strlen(s->stagename) + 2;
    if ((s->stagepath = malloc(n)))
      snprintf(s->stagepath, n, "%s/%s", parent, s->stagename);
    else
      e = TC_E_NOMEM;
  }
  s->parentpath = parent;
  if (e) {
    if (s->stage >= 0)
      unlinkat(s->parent, s->stagename, AT_REMOVEDIR);
    release(s);
    return e;
  }
  *out = s;
  return TC_OK;
}

const char *tc_outset_dir(const tc_outset *s) { return s->stagepath; }

unsigned tc_outset_recovered(const tc_outset *s) { return s->recovered; }

/* Links OUT's files that are not tracecensus's into the staging folder, so
 * the new set holds them from its first instant. What cannot be linked (a
 * folder, a file another user owns under protected_hardlinks) is moved
 * over after the swap instead. */
static void carry_over(tc_outset *s, int out, unsigned mask) {
  int dfd = dup(out);
  DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
  if (!d) {
    if (dfd >= 0)
      close(dfd);
    return;
  }
  struct dirent *e;
  while ((e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && !ours(e->d_name, mask))
      (void)linkat(out, e->d_name, s->stage, e->d_name, 0);
  closedir(d);
}

static int no_exchange(int err) { return err == EINVAL || err == ENOSYS || err == EOPNOTSUPP; }

tc_err tc_outset_commit(tc_outset *s, tc_why *why) {
  memset(why, 0, sizeof *why);
  int out = open_out(s);
  unsigned mask = families_in(s->stage);
  if (out >= 0)
    carry_over(s, out, mask);
  char aside[NAME_MAX + 1];
  const char *prev = s->stagename; /* where the previous set ends up */
  tc_err e = TC_OK;
  if (fsync(s->stage) != 0) {
    e = fail(why, TC_E_WRITE, errno, s->stagepath, NULL);
  } else if (out < 0) {
    if (renameat2(s->parent, s->stagename, s->parent, s->base, RENAME_NOREPLACE) != 0 &&
        (!no_exchange(errno) || renameat(s->parent, s->stagename, s->parent, s->base) != 0))
      e = fail(why, TC_E_WRITE, errno, s->stagepath, NULL);
  } else if (renameat2(s->parent, s->stagename, s->parent, s->base, RENAME_EXCHANGE) != 0) {
    if (!no_exchange(errno) || fresh_name(s, "old", aside, move_aside) != 0) {
      e = fail(why, TC_E_WRITE, errno, s->stagepath, NULL);
    } else if (renameat(s->parent, s->stagename, s->parent, s->base) != 0) {
      e = fail(why, TC_E_WRITE, errno, s->stagepath, NULL);
      renameat(s->parent, aside, s->parent, s->base);
    } else {
      prev = aside;
    }
  }
  if (e) {
    discard(s->parent, s->stagename, out, ALL_FAMILIES);
    if (out >= 0)
      close(out);
    release(s);
    return e;
  }
  if (out >= 0)
    close(out);
  /* Some filesystems cannot sync a folder; the swap has happened either way. */
  (void)fsync(s->parent);
  out = open_out(s);
  if (discard(s->parent, prev, out, mask) != 0)
    fail(why, TC_E_OK, errno, s->parentpath, prev);
  if (out >= 0)
    close(out);
  release(s);
  return TC_OK;
}

void tc_outset_abort(tc_outset *s) {
  if (!s)
    return;
  int out = open_out(s);
  discard(s->parent, s->stagename, out, ALL_FAMILIES);
  if (out >= 0)
    close(out);
  release(s);
}

void tc_outset_discard_signal(tc_outset *s) {
  if (!s)
    return;
  int out = open_out(s);
  /* The writer threads run on beside the handler: a file one of them makes
   * after discard's last pass leaves the folder not empty (a CI run saw
   * the staging folder left so), so it passes again; once the folder is
   * gone no file can be made in it. */
  for (int i = 0; i < 64; i++)
    if (discard(s->parent, s->stagename, out, ALL_FAMILIES) == 0 || errno != ENOTEMPTY)
      break;
  unlinkat(s->parent, s->lockname, 0);
}
