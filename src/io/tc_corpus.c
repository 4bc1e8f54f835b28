#include "io/tc_corpus.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/tc_sniff.h"
#include "util/tc_grow.h"
#include "util/tc_map.h"
#include "util/tc_str.h"
#include "util/tc_tsv.h"

typedef struct {
  tc_corpus *c;
  tc_map site_ids; /* name -> index in c->sites, until they are sorted */
  size_t sites_cap, traces_cap, skipped_cap, warnings_cap;
  /* per trace, until sites are sorted: its site's name and its real path */
  char **trace_site, **trace_real;
  size_t trace_site_cap, trace_real_cap;
} builder;

static char *join(const char *a, const char *b) {
  size_t n = strlen(a) + strlen(b) + 2;
  char *s = malloc(n);
  if (s)
    snprintf(s, n, "%s/%s", a, b);
  return s;
}

char *tc_corpus_site_of_file(const char *filename) {
  const char *base = strrchr(filename, '/');
  base = base ? base + 1 : filename;
  char *s = strdup(base);
  if (!s)
    return NULL;
  static const char *const endings[] = {".gz", ".zst", ".json", "__trace", ".trace"};
  for (int again = 1; again;) {
    again = 0;
    size_t n = strlen(s);
    for (size_t i = 0; i < sizeof endings / sizeof *endings; i++) {
      size_t m = strlen(endings[i]);
      if (n > m && strcmp(s + n - m, endings[i]) == 0) {
        s[n - m] = '\0';
        again = 1;
        break;
      }
    }
  }
  return s;
}

static tc_err add_note(tc_corpus_note **list, uint32_t *n, size_t *cap, const char *path,
                       uint32_t line, const char *why) {
  tc_err e = TC_GROW(*list, *cap, (size_t)*n + 1);
  if (e)
    return e;
  tc_corpus_note *note = &(*list)[*n];
  note->path = strdup(path);
  note->why = strdup(why);
  note->line = line;
  if (!note->path || !note->why) {
    free(note->path);
    free(note->why);
    return TC_E_NOMEM;
  }
  (*n)++;
  return TC_OK;
}

static tc_err skip(builder *b, const char *path, uint32_t line, const char *why) {
  return add_note(&b->c->skipped, &b->c->nskipped, &b->skipped_cap, path, line, why);
}

static tc_err warn(builder *b, const char *text) {
  return add_note(&b->c->warnings, &b->c->nwarnings, &b->warnings_cap, "", 0, text);
}

/* "cannot be read: No such file or directory" and the like. */
static tc_err skip_errno(builder *b, const char *path, const char *what, int err) {
  char why[256];
  snprintf(why, sizeof why, "%s: %s", what, strerror(err));
  return skip(b, path, 0, why);
}

/* What a path that is not a regular file or folder is, for the skip note;
 * ST is from stat (the symlink followed), ERR its errno if that failed. */
static const char *kind_of(const char *path, const struct stat *st, int err) {
  if (err == ELOOP)
    return "a symlink loop";
  struct stat l;
  if (err == ENOENT && lstat(path, &l) == 0 && S_ISLNK(l.st_mode))
    return "a dangling symlink";
  if (err)
    return NULL;
  if (S_ISFIFO(st->st_mode))
    return "a FIFO, not a regular file";
  if (S_ISCHR(st->st_mode))
    return "a character device, not a regular file";
  if (S_ISBLK(st->st_mode))
    return "a block device, not a regular file";
  if (S_ISSOCK(st->st_mode))
    return "a socket, not a regular file";
  return "not a regular file";
}

/* Notes PATH, which stat could not make a trace of, as skipped. */
static tc_err skip_entry(builder *b, const char *path, const struct stat *st, int err) {
  const char *kind = kind_of(path, st, err);
  return kind ? skip(b, path, 0, kind) : skip_errno(b, path, "cannot be read", err);
}

/* Sites are added in the order their names were interned, so a name's id
 * is its index until finish sorts them. */
static tc_err add_site(builder *b, const char *name, tc_site **out) {
  uint32_t id;
  int inserted;
  tc_err e = tc_map_intern(&b->site_ids, (tc_str){name, strlen(name)}, &id, &inserted);
  if (e)
    return e;
  if (inserted) {
    if ((e = TC_GROW(b->c->sites, b->sites_cap, (size_t)id + 1)))
      return e;
    tc_site *s = &b->c->sites[id];
    memset(s, 0, sizeof *s);
    if (!(s->name = strdup(name)))
      return TC_E_NOMEM;
    b->c->nsites++;
  }
  *out = &b->c->sites[id];
  return TC_OK;
}

/* 1 when PATH's name says it holds text of another kind (notes, logs, a
 * page's HTML): such a file is not a trace unless its text is JSON. */
static int other_text_name(const char *path) {
  static const char *const ends[] = {".txt", ".log", ".md",  ".csv", ".tsv",
                                     ".html", ".htm", ".xml", ".yaml", ".yml"};
  size_t n = strlen(path);
  for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
    size_t k = strlen(ends[i]);
    if (n > k && !strcasecmp(path + n - k, ends[i]))
      return 1;
  }
  return 0;
}

/* Why the regular file PATH is not a trace when its first bytes (and, for
 * text, its name) say so: a screenshot, a PDF or zip, a HAR, a .txt or
 * .log that is not JSON. NULL otherwise, and then the run reads it and
 * names whatever is wrong, so a damaged trace still counts as a failed
 * trace of its site. Compressed files are read (their content is sniffed
 * as they are), and so is an empty file. */
static const char *not_trace_content(const char *path) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  unsigned char head[TC_SNIFF_HEAD];
  ssize_t n = read(fd, head, sizeof head);
  close(fd);
  if (n <= 0)
    return NULL;
  tc_sniff_kind kind = tc_sniff(head, (size_t)n);
  switch (kind) {
  case TC_SNIFF_PNG:
  case TC_SNIFF_JPEG:
  case TC_SNIFF_GIF:
  case TC_SNIFF_PDF:
  case TC_SNIFF_ZIP:
    return tc_strerror(tc_sniff_error(kind));
  case TC_SNIFF_TEXT:
    break;
  default:
    return NULL;
  }
  size_t i = n >= 3 && !memcmp(head, "\xef\xbb\xbf", 3) ? 3 : 0;
  while (i < (size_t)n && head[i] && strchr(" \t\r\n", head[i]))
    i++;
  if (i == (size_t)n)
    return NULL;
  unsigned char open_char = head[i];
  if (open_char != '[' && open_char != '{')
    return other_text_name(path) ? "not a trace: text that is not JSON" : NULL;
  /* HAR's first member is "log" (a trace's is never). */
  for (i++; i < (size_t)n && head[i] && strchr(" \t\r\n", head[i]); i++)
    ;
  if (open_char == '{' && (size_t)n - i >= 5 && !memcmp(head + i, "\"log\"", 5))
    return tc_strerror(TC_E_NOT_TRACE_HAR);
  return NULL;
}

/* Takes PATH (malloc'd) whatever happens. A file that is not a trace by
 * its first bytes is named in a warning and left out: it counts as no
 * trace, and makes no site. */
static tc_err add_trace(builder *b, const char *site, char *path, const struct stat *st) {
  const char *junk = not_trace_content(path);
  if (junk) {
    char text[PATH_MAX + 128];
    snprintf(text, sizeof text, "%s: %s; not counted as a trace", path, junk);
    free(path);
    return warn(b, text);
  }
  tc_site *s;
  size_t n = (size_t)b->c->ntraces + 1;
  tc_err e = add_site(b, site, &s);
  if (!e)
    e = TC_GROW(b->c->traces, b->traces_cap, n);
  if (!e)
    e = TC_GROW(b->trace_site, b->trace_site_cap, n);
  if (!e)
    e = TC_GROW(b->trace_real, b->trace_real_cap, n);
  if (e) {
    free(path);
    return e;
  }
  /* A file that vanished since stat keeps its spelling: it fails alone when
   * read. */
  char *real = realpath(path, NULL);
  b->trace_real[b->c->ntraces] = real ? real : strdup(path);
  if (!(b->trace_site[b->c->ntraces] = strdup(site)) || !b->trace_real[b->c->ntraces]) {
    free(path);
    return TC_E_NOMEM;
  }
  tc_trace *t = &b->c->traces[b->c->ntraces++];
  t->path = path;
  t->size = (uint64_t)st->st_size;
  b->c->bytes += t->size;
  return TC_OK;
}

static int not_a_trace(const char *name) {
  return name[0] == '.' || strcmp(name, "manifest.tsv") == 0 ||
         strcmp(name, "manifest.json") == 0 || strncmp(name, "README", 6) == 0;
}

/* Each entry of folder DIR that may be a trace (not_a_trace), in the order
 * the folder lists them, handed to VISIT with its name, its path (VISIT's
 * to free or keep) and its stat (ERR: stat's errno, or 0). SITE is passed
 * on. Stops at VISIT's first error. */
static tc_err each_entry(builder *b, const char *dir, const char *site,
                         tc_err (*visit)(builder *b, const char *site, const char *name,
                                         char *path, const struct stat *st, int err)) {
  DIR *d = opendir(dir);
  if (!d)
    return skip_errno(b, dir, "cannot be listed", errno);
  tc_err e = TC_OK;
  struct dirent *de;
  while (!e && (de = readdir(d))) {
    if (not_a_trace(de->d_name))
      continue;
    char *p = join(dir, de->d_name);
    if (!p) {
      e = TC_E_NOMEM;
      break;
    }
    struct stat st;
    int err = stat(p, &st) == 0 ? 0 : errno;
    e = visit(b, site, de->d_name, p, &st, err);
  }
  closedir(d);
  return e;
}

/* An entry of site SITE's folder. */
static tc_err site_entry(builder *b, const char *site, const char *name, char *p,
                         const struct stat *st, int err) {
  (void)name;
  if (!err && S_ISREG(st->st_mode))
    return add_trace(b, site, p, st);
  tc_err e = !err && S_ISDIR(st->st_mode)
                 ? skip(b, p, 0, "a folder inside a site folder (traces lie directly in it)")
                 : skip_entry(b, p, st, err);
  free(p);
  return e;
}

static tc_err scan_site_dir(builder *b, const char *dir, const char *site) {
  tc_site *s;
  tc_err e = add_site(b, site, &s);
  if (e)
    return e;
  s->from_dir = 1;
  return each_entry(b, dir, site, site_entry);
}

/* An entry of a corpus folder: a site's folder, or a trace that is a site
 * of its own. */
static tc_err corpus_entry(builder *b, const char *site, const char *name, char *p,
                           const struct stat *st, int err) {
  (void)site;
  tc_err e;
  if (!err && S_ISDIR(st->st_mode)) {
    e = scan_site_dir(b, p, name);
    free(p);
  } else if (!err && S_ISREG(st->st_mode)) {
    char *own = tc_corpus_site_of_file(name);
    e = own ? add_trace(b, own, p, st) : TC_E_NOMEM;
    if (!own)
      free(p);
    free(own);
  } else {
    e = skip_entry(b, p, st, err);
    free(p);
  }
  return e;
}

/* qsort wants a non-null base even for no elements. */
static void sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  if (n > 1)
    qsort(base, n, size, cmp);
}

/* ---- inputs and the names of single-file sites ------------------------ */

typedef struct {
  const char *path;
  struct stat st;
  int err;    /* errno of stat, or 0 */
  char *base; /* a regular file's site name from its file name, else NULL */
  char *real; /* its canonical path: one file, one identity */
  char *site; /* the name it gets */
  const char *key; /* base or site, for sorting */
} input;

/* The last component of the folder holding REAL, or NULL for "/x". */
static char *folder_name(const char *real) {
  const char *slash = strrchr(real, '/');
  if (!slash || slash == real)
    return NULL;
  const char *start = slash;
  while (start > real && start[-1] != '/')
    start--;
  return tc_str_dup((tc_str){start, (size_t)(slash - start)});
}

/* Input files by their sort key (the name from the file name, or the
 * name given), then by file, then by path. */
static int cmp_by_key(const void *a, const void *b) {
  const input *x = *(const input *const *)a, *y = *(const input *const *)b;
  int c = strcmp(x->key, y->key);
  if (!c)
    c = strcmp(x->real, y->real);
  return c ? c : strcmp(x->path, y->path);
}

/* The smallest path among G[0..n): the example a warning names, the same
 * whatever order the inputs came in. */
static const input *first_path(input *const *g, size_t n) {
  const input *best = g[0];
  for (size_t i = 1; i < n; i++)
    if (strcmp(g[i]->path, best->path) < 0)
      best = g[i];
  return best;
}

static size_t distinct_files(input *const *g, size_t n) {
  size_t d = n > 0;
  for (size_t i = 1; i < n; i++)
    d += strcmp(g[i]->real, g[i - 1]->real) != 0;
  return d;
}

/* Among G[0..n), files of different folders with one name; sorts G. */
static tc_err warn_shared_folders(builder *b, input **g, size_t n) {
  for (size_t i = 0; i < n; i++)
    g[i]->key = g[i]->site;
  sort(g, n, sizeof *g, cmp_by_key);
  for (size_t i = 0, end; i < n; i = end) {
    for (end = i + 1; end < n && strcmp(g[end]->site, g[i]->site) == 0; end++)
      ;
    size_t files = distinct_files(g + i, end - i);
    if (files < 2)
      continue;
    const input *first = first_path(g + i, end - i), *second = NULL;
    for (size_t k = i; k < end; k++)
      if (strcmp(g[k]->real, first->real) != 0 && (!second || strcmp(g[k]->path, second->path) < 0))
        second = g[k];
    char text[1024];
    snprintf(text, sizeof text, "%zu input files lie in folders named \"%s\" and are one site (%s, %s%s)",
             files, g[i]->site, first->path, second->path, files > 2 ? ", ..." : "");
    tc_err e = warn(b, text);
    if (e)
      return e;
  }
  return TC_OK;
}

/* Different files given as inputs that share a site name are each named by
 * their folder, so `census crawl/x/trace.json crawl/y/trace.json` gives
 * sites x and y, not one site "trace" of both. Files whose folders share a
 * name too stay one site, and a warning says so. Sorting keeps this
 * n log n for a shell glob of every site of a crawl. */
static tc_err name_input_files(builder *b, input *in, size_t n) {
  input **g = malloc((n ? n : 1) * sizeof *g);
  if (!g)
    return TC_E_NOMEM;
  size_t nf = 0;
  for (size_t i = 0; i < n; i++)
    if (in[i].base) {
      in[i].key = in[i].base;
      g[nf++] = &in[i];
    }
  sort(g, nf, sizeof *g, cmp_by_key);
  tc_err e = TC_OK;
  for (size_t i = 0, end; i < nf && !e; i = end) {
    for (end = i + 1; end < nf && strcmp(g[end]->base, g[i]->base) == 0; end++)
      ;
    size_t files = distinct_files(g + i, end - i);
    for (size_t k = i; k < end && !e; k++) {
      char *folder = files > 1 ? folder_name(g[k]->real) : NULL;
      g[k]->site = folder ? folder : strdup(g[k]->base);
      if (!g[k]->site)
        e = TC_E_NOMEM;
    }
    if (e || files < 2)
      continue;
    const input *first = first_path(g + i, end - i);
    char text[1024];
    snprintf(text, sizeof text,
             "%zu input files map to the site name \"%s\"; each is named by its folder "
             "instead (%s is site \"%s\")",
             files, first->base, first->path, first->site);
    e = warn(b, text);
    if (!e)
      e = warn_shared_folders(b, g + i, end - i);
  }
  free(g);
  return e;
}

/* Names the sites of the files among the inputs, then lists everything in
 * the order given. */
static tc_err scan_inputs(builder *b, const char *const *inputs, int ninputs) {
  size_t n = ninputs > 0 ? (size_t)ninputs : 0;
  input *in = calloc(n ? n : 1, sizeof *in);
  if (!in)
    return TC_E_NOMEM;
  tc_err e = TC_OK;
  for (size_t i = 0; i < n && !e; i++) {
    input *x = &in[i];
    x->path = inputs[i];
    x->err = stat(x->path, &x->st) == 0 ? 0 : errno;
    if (x->err || !S_ISREG(x->st.st_mode))
      continue;
    x->base = tc_corpus_site_of_file(x->path);
    x->real = realpath(x->path, NULL);
    if (!x->real)
      x->real = strdup(x->path);
    if (!x->base || !x->real)
      e = TC_E_NOMEM;
  }
  if (!e)
    e = name_input_files(b, in, n);
  for (size_t i = 0; i < n && !e; i++) {
    input *x = &in[i];
    if (x->base) {
      char *p = strdup(x->path);
      e = p ? add_trace(b, x->site, p, &x->st) : TC_E_NOMEM;
    } else if (!x->err && S_ISDIR(x->st.st_mode)) {
      e = each_entry(b, x->path, NULL, corpus_entry);
    } else {
      e = skip_entry(b, x->path, &x->st, x->err);
    }
  }
  for (size_t i = 0; i < n; i++) {
    free(in[i].base);
    free(in[i].real);
    free(in[i].site);
  }
  free(in);
  return e;
}

/* ---- the manifest ----------------------------------------------------- */

/* Splits LINE on tabs into *F, grown to hold every field. */
static tc_err split_fields(char *line, char ***f, size_t *cap, size_t *n) {
  size_t need = 1;
  for (const char *p = line; *p; p++)
    need += *p == '\t';
  tc_err e = TC_GROW(*f, *cap, need);
  if (e)
    return e;
  *n = tc_tsv_split(line, *f, need);
  return TC_OK;
}

static tc_err read_manifest(builder *b, const char *path) {
  FILE *fp = fopen(path, "r");
  if (!fp)
    return TC_E_OPEN;
  char *line = NULL, **f = NULL;
  size_t cap = 0, fcap = 0, nf;
  ssize_t n;
  int col_site = -1, col_status = -1, col_reason = -1, col_version = -1, header = 1;
  uint32_t lineno = 0;
  tc_err e = TC_OK;
  while (!e && (n = getline(&line, &cap, fp)) >= 0) {
    lineno++;
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
      line[--n] = '\0';
    /* Spreadsheet exports often start with a UTF-8 byte order mark. */
    char *text = line;
    if (lineno == 1 && strncmp(text, "\xEF\xBB\xBF", 3) == 0)
      text += 3;
    if (!*text)
      continue;
    if ((e = split_fields(text, &f, &fcap, &nf)))
      break;
    if (header) {
      col_site = tc_tsv_column(f, nf, "site");
      col_status = tc_tsv_column(f, nf, "status");
      col_reason = tc_tsv_column(f, nf, "reason");
      col_version = tc_tsv_column(f, nf, "chrome_version");
      header = 0;
      if (col_site < 0)
        e = TC_E_BAD_MANIFEST;
      continue;
    }
    if ((size_t)col_site >= nf || !f[col_site][0]) {
      e = skip(b, path, lineno, (size_t)col_site >= nf ? "row has no site column; ignored"
                                                      : "row has an empty site cell; ignored");
      continue;
    }
    tc_site *s;
    if ((e = add_site(b, f[col_site], &s)))
      break;
    s->in_manifest = 1;
    if (col_status >= 0 && (size_t)col_status < nf && f[col_status][0] && !s->status &&
        !(s->status = strdup(f[col_status])))
      e = TC_E_NOMEM;
    if (col_reason >= 0 && (size_t)col_reason < nf && f[col_reason][0] && !s->reason &&
        !(s->reason = strdup(f[col_reason])))
      e = TC_E_NOMEM;
    if (col_version >= 0 && (size_t)col_version < nf && f[col_version][0] && !s->chrome_version &&
        !(s->chrome_version = strdup(f[col_version])))
      e = TC_E_NOMEM;
  }
  free(line);
  free(f);
  if (header && !e)
    e = TC_E_BAD_MANIFEST;
  fclose(fp);
  return e;
}

/* ---- ordering and identity -------------------------------------------- */

static int cmp_site(const void *a, const void *b) {
  return strcmp(((const tc_site *)a)->name, ((const tc_site *)b)->name);
}

typedef struct {
  tc_trace t;
  char *real;
} trace_real;

static int cmp_trace(const void *a, const void *b) {
  const tc_trace *x = &((const trace_real *)a)->t, *y = &((const trace_real *)b)->t;
  if (x->site != y->site)
    return x->site < y->site ? -1 : 1;
  return strcmp(x->path, y->path);
}

static int cmp_note(const void *a, const void *b) {
  const tc_corpus_note *x = a, *y = b;
  int c = strcmp(x->path, y->path);
  if (c)
    return c;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  return strcmp(x->why, y->why);
}

typedef struct {
  const char *real;
  uint32_t idx;
} file_key;

/* By file, then corpus order. */
static int cmp_file(const void *a, const void *b) {
  const file_key *x = a, *y = b;
  int c = strcmp(x->real, y->real);
  if (c)
    return c;
  return (x->idx > y->idx) - (x->idx < y->idx);
}

/* The same file given twice, or reached by two paths, is one trace. It
 * stays with a site that has a folder of its own (the corpus model), else
 * with the first in corpus order. TR is sorted; dropped entries get a NULL
 * path. */
static tc_err drop_second_paths(tc_corpus *c, trace_real *tr) {
  if (!c->ntraces)
    return TC_OK;
  file_key *by_file = malloc(c->ntraces * sizeof *by_file);
  if (!by_file)
    return TC_E_NOMEM;
  for (uint32_t i = 0; i < c->ntraces; i++)
    by_file[i] = (file_key){tr[i].real, i};
  sort(by_file, c->ntraces, sizeof *by_file, cmp_file);
  for (uint32_t g = 0, end; g < c->ntraces; g = end) {
    uint32_t keep = g;
    for (end = g; end < c->ntraces && strcmp(by_file[end].real, by_file[g].real) == 0; end++)
      if (!c->sites[tr[by_file[keep].idx].t.site].from_dir &&
          c->sites[tr[by_file[end].idx].t.site].from_dir)
        keep = end;
    for (uint32_t i = g; i < end; i++) {
      tc_trace *t = &tr[by_file[i].idx].t;
      if (i == keep)
        continue;
      c->sites[t->site].ntraces--;
      c->bytes -= t->size;
      free(t->path);
      t->path = NULL;
    }
  }
  free(by_file);
  return TC_OK;
}

/* A site that existed only through a second path to a file it no longer
 * holds (no folder, not in the manifest) is no site of the crawl. */
static tc_err drop_phantom_sites(tc_corpus *c) {
  if (!c->nsites)
    return TC_OK;
  uint32_t *renum = malloc(c->nsites * sizeof *renum);
  if (!renum)
    return TC_E_NOMEM;
  uint32_t ns = 0;
  for (uint32_t i = 0; i < c->nsites; i++) {
    tc_site *s = &c->sites[i];
    if (!s->ntraces && !s->in_manifest && !s->from_dir) {
      free(s->name);
      free(s->status);
      free(s->reason);
      free(s->chrome_version);
      continue;
    }
    renum[i] = ns;
    c->sites[ns++] = *s;
  }
  c->nsites = ns;
  for (uint32_t i = 0; i < c->ntraces; i++)
    c->traces[i].site = renum[c->traces[i].site];
  free(renum);
  return TC_OK;
}

static tc_err finish(builder *b) {
  tc_corpus *c = b->c;
  sort(c->sites, c->nsites, sizeof *c->sites, cmp_site);
  sort(c->skipped, c->nskipped, sizeof *c->skipped, cmp_note);
  sort(c->warnings, c->nwarnings, sizeof *c->warnings, cmp_note);
  trace_real *tr = malloc((c->ntraces ? c->ntraces : 1) * sizeof *tr);
  if (!tr)
    return TC_E_NOMEM;
  for (uint32_t i = 0; i < c->ntraces; i++) {
    tc_site *s = bsearch(&(tc_site){.name = b->trace_site[i]}, c->sites, c->nsites,
                         sizeof *c->sites, cmp_site);
    c->traces[i].site = (uint32_t)(s - c->sites);
    s->ntraces++;
    tr[i] = (trace_real){c->traces[i], b->trace_real[i]};
  }
  sort(tr, c->ntraces, sizeof *tr, cmp_trace);
  tc_err e = drop_second_paths(c, tr);
  uint32_t w = 0;
  for (uint32_t i = 0; i < c->ntraces; i++)
    if (tr[i].t.path)
      c->traces[w++] = tr[i].t;
  c->ntraces = w;
  free(tr);
  return e ? e : drop_phantom_sites(c);
}

tc_err tc_corpus_scan(const char *const *inputs, int ninputs, const char *manifest,
                      tc_corpus *out) {
  memset(out, 0, sizeof *out);
  builder b = {.c = out};
  tc_err e = scan_inputs(&b, inputs, ninputs);
  if (!e && manifest)
    e = read_manifest(&b, manifest);
  if (!e)
    e = finish(&b);
  for (size_t i = 0; i < b.trace_site_cap; i++)
    free(b.trace_site[i]);
  for (size_t i = 0; i < b.trace_real_cap; i++)
    free(b.trace_real[i]);
  free(b.trace_site);
  free(b.trace_real);
  tc_map_free(&b.site_ids);
  if (e)
    tc_corpus_free(out);
  return e;
}

static void free_notes(tc_corpus_note *n, uint32_t count) {
  for (uint32_t i = 0; i < count; i++) {
    free(n[i].path);
    free(n[i].why);
  }
  free(n);
}

void tc_corpus_free(tc_corpus *c) {
  for (uint32_t i = 0; i < c->nsites; i++) {
    free(c->sites[i].name);
    free(c->sites[i].status);
    free(c->sites[i].reason);
    free(c->sites[i].chrome_version);
  }
  for (uint32_t i = 0; i < c->ntraces; i++)
    free(c->traces[i].path);
  free(c->sites);
  free(c->traces);
  free_notes(c->skipped, c->nskipped);
  free_notes(c->warnings, c->nwarnings);
  memset(c, 0, sizeof *c);
}
