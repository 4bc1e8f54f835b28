#include "pipeline/tc_corpus.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/tc_grow.h"
#include "util/tc_tsv.h"

typedef struct {
  tc_corpus *c;
  size_t sites_cap, traces_cap;
  /* unsorted trace list holds the site name until sites are sorted */
  char **trace_site;
  size_t trace_site_cap;
} builder;

static char *dupstr(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d)
    memcpy(d, s, n);
  return d;
}

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
  char *s = dupstr(base);
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

static tc_site *find_site(tc_corpus *c, const char *name) {
  for (uint32_t i = 0; i < c->nsites; i++)
    if (strcmp(c->sites[i].name, name) == 0)
      return &c->sites[i];
  return NULL;
}

static tc_err add_site(builder *b, const char *name, tc_site **out) {
  tc_site *s = find_site(b->c, name);
  if (!s) {
    tc_err e = TC_GROW(b->c->sites, b->sites_cap, (size_t)b->c->nsites + 1);
    if (e)
      return e;
    s = &b->c->sites[b->c->nsites];
    memset(s, 0, sizeof *s);
    if (!(s->name = dupstr(name)))
      return TC_E_NOMEM;
    b->c->nsites++;
  }
  *out = s;
  return TC_OK;
}

static tc_err add_trace(builder *b, const char *site, char *path, const struct stat *st) {
  tc_site *s;
  tc_err e = add_site(b, site, &s);
  if (!e)
    e = TC_GROW(b->c->traces, b->traces_cap, (size_t)b->c->ntraces + 1);
  if (!e)
    e = TC_GROW(b->trace_site, b->trace_site_cap, (size_t)b->c->ntraces + 1);
  if (e) {
    free(path);
    return e;
  }
  if (!(b->trace_site[b->c->ntraces] = dupstr(site))) {
    free(path);
    return TC_E_NOMEM;
  }
  tc_trace *t = &b->c->traces[b->c->ntraces++];
  t->path = path;
  t->size = (uint64_t)st->st_size;
  t->dev = (uint64_t)st->st_dev;
  t->ino = (uint64_t)st->st_ino;
  b->c->bytes += t->size;
  return TC_OK;
}

static int not_a_trace(const char *name) {
  return name[0] == '.' || strcmp(name, "manifest.tsv") == 0 ||
         strcmp(name, "manifest.json") == 0 || strncmp(name, "README", 6) == 0;
}

static void note_problem(tc_corpus *c, const char *path) {
  if (!c->problem)
    c->problem = dupstr(path);
}

static tc_err scan_site_dir(builder *b, const char *dir, const char *site) {
  tc_site *s;
  tc_err e = add_site(b, site, &s);
  if (e)
    return e;
  s->from_dir = 1;
  DIR *d = opendir(dir);
  if (!d) {
    note_problem(b->c, dir);
    return TC_OK;
  }
  struct dirent *de;
  while (!e && (de = readdir(d))) {
    if (not_a_trace(de->d_name))
      continue;
    char *p = join(dir, de->d_name);
    struct stat st;
    if (!p) {
      e = TC_E_NOMEM;
    } else if (stat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
      free(p);
    } else {
      e = add_trace(b, site, p, &st);
    }
  }
  closedir(d);
  return e;
}

static tc_err scan_input(builder *b, const char *in) {
  struct stat st;
  if (stat(in, &st) != 0) {
    note_problem(b->c, in);
    return TC_OK;
  }
  if (S_ISREG(st.st_mode)) {
    char *site = tc_corpus_site_of_file(in);
    char *p = dupstr(in);
    tc_err e = site && p ? add_trace(b, site, p, &st) : TC_E_NOMEM;
    if (!site || !p)
      free(p);
    free(site);
    return e;
  }
  DIR *d = opendir(in);
  if (!d) {
    note_problem(b->c, in);
    return TC_OK;
  }
  tc_err e = TC_OK;
  struct dirent *de;
  while (!e && (de = readdir(d))) {
    if (not_a_trace(de->d_name))
      continue;
    char *p = join(in, de->d_name);
    if (!p) {
      e = TC_E_NOMEM;
      break;
    }
    if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
      e = scan_site_dir(b, p, de->d_name);
      free(p);
    } else if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
      char *site = tc_corpus_site_of_file(de->d_name);
      e = site ? add_trace(b, site, p, &st) : TC_E_NOMEM;
      if (!site)
        free(p);
      free(site);
    } else {
      free(p);
    }
  }
  closedir(d);
  return e;
}

static tc_err read_manifest(builder *b, const char *path) {
  FILE *fp = fopen(path, "r");
  if (!fp)
    return TC_E_BAD_MANIFEST;
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  int col_site = -1, col_status = -1, col_reason = -1, header = 1;
  tc_err e = TC_OK;
  char *f[64];
  while (!e && (n = getline(&line, &cap, fp)) >= 0) {
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
      line[--n] = '\0';
    if (n == 0)
      continue;
    int nf = (int)tc_tsv_split(line, f, 64);
    if (header) {
      col_site = tc_tsv_column(f, (size_t)nf, "site");
      col_status = tc_tsv_column(f, (size_t)nf, "status");
      col_reason = tc_tsv_column(f, (size_t)nf, "reason");
      header = 0;
      if (col_site < 0)
        e = TC_E_BAD_MANIFEST;
      continue;
    }
    if (col_site >= nf || !f[col_site][0])
      continue;
    tc_site *s;
    if ((e = add_site(b, f[col_site], &s)))
      break;
    s->in_manifest = 1;
    if (col_status >= 0 && col_status < nf && f[col_status][0] && !s->status)
      s->status = dupstr(f[col_status]);
    if (col_reason >= 0 && col_reason < nf && f[col_reason][0] && !s->reason)
      s->reason = dupstr(f[col_reason]);
  }
  free(line);
  if (header && !e)
    e = TC_E_BAD_MANIFEST;
  fclose(fp);
  return e;
}

static int cmp_site(const void *a, const void *b) {
  return strcmp(((const tc_site *)a)->name, ((const tc_site *)b)->name);
}

static int cmp_trace(const void *a, const void *b) {
  const tc_trace *x = a, *y = b;
  if (x->site != y->site)
    return x->site < y->site ? -1 : 1;
  return strcmp(x->path, y->path);
}

typedef struct {
  uint64_t dev, ino;
  uint32_t idx;
} file_key;

/* By file, then corpus order. */
static int cmp_file(const void *a, const void *b) {
  const file_key *x = a, *y = b;
  if (x->dev != y->dev)
    return x->dev < y->dev ? -1 : 1;
  if (x->ino != y->ino)
    return x->ino < y->ino ? -1 : 1;
  return (x->idx > y->idx) - (x->idx < y->idx);
}

static tc_err finish(builder *b) {
  tc_corpus *c = b->c;
  qsort(c->sites, c->nsites, sizeof *c->sites, cmp_site);
  for (uint32_t i = 0; i < c->ntraces; i++) {
    tc_site *s = bsearch(&(tc_site){.name = b->trace_site[i]}, c->sites, c->nsites,
                         sizeof *c->sites, cmp_site);
    c->traces[i].site = (uint32_t)(s - c->sites);
    s->ntraces++;
  }
  qsort(c->traces, c->ntraces, sizeof *c->traces, cmp_trace);
  /* The same file given twice, or reached by two paths, is one trace. It
   * stays with a site that has a folder of its own (the corpus model), else
   * with the first in corpus order. */
  file_key *by_file = malloc((c->ntraces ? c->ntraces : 1) * sizeof *by_file);
  if (!by_file)
    return TC_E_NOMEM;
  for (uint32_t i = 0; i < c->ntraces; i++)
    by_file[i] = (file_key){c->traces[i].dev, c->traces[i].ino, i};
  qsort(by_file, c->ntraces, sizeof *by_file, cmp_file);
  for (uint32_t g = 0, end; g < c->ntraces; g = end) {
    uint32_t keep = g;
    for (end = g; end < c->ntraces && by_file[end].dev == by_file[g].dev &&
                  by_file[end].ino == by_file[g].ino;
         end++)
      if (!c->sites[c->traces[by_file[keep].idx].site].from_dir &&
          c->sites[c->traces[by_file[end].idx].site].from_dir)
        keep = end;
    for (uint32_t i = g; i < end; i++) {
      tc_trace *t = &c->traces[by_file[i].idx];
      if (i == keep)
        continue;
      c->sites[t->site].ntraces--;
      c->bytes -= t->size;
      free(t->path);
      t->path = NULL;
    }
  }
  free(by_file);
  uint32_t w = 0;
  for (uint32_t i = 0; i < c->ntraces; i++)
    if (c->traces[i].path)
      c->traces[w++] = c->traces[i];
  c->ntraces = w;
  /* A site that existed only through a second path to a file it no longer
   * holds (no folder, not in the manifest) is no site of the crawl. */
  uint32_t *renum = malloc((c->nsites ? c->nsites : 1) * sizeof *renum);
  if (!renum)
    return TC_E_NOMEM;
  uint32_t ns = 0;
  for (uint32_t i = 0; i < c->nsites; i++) {
    tc_site *s = &c->sites[i];
    if (!s->ntraces && !s->in_manifest && !s->from_dir) {
      free(s->name);
      free(s->status);
      free(s->reason);
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

tc_err tc_corpus_scan(const char *const *inputs, int ninputs, const char *manifest,
                      tc_corpus *out) {
  memset(out, 0, sizeof *out);
  builder b = {out, 0, 0, NULL, 0};
  tc_err e = TC_OK;
  for (int i = 0; i < ninputs && !e; i++)
    e = scan_input(&b, inputs[i]);
  if (!e && manifest)
    e = read_manifest(&b, manifest);
  if (!e)
    e = finish(&b);
  for (uint32_t i = 0; b.trace_site && i < b.trace_site_cap; i++)
    free(b.trace_site[i]);
  free(b.trace_site);
  if (e)
    tc_corpus_free(out);
  return e;
}

void tc_corpus_free(tc_corpus *c) {
  for (uint32_t i = 0; i < c->nsites; i++) {
    free(c->sites[i].name);
    free(c->sites[i].status);
    free(c->sites[i].reason);
  }
  for (uint32_t i = 0; i < c->ntraces; i++)
    free(c->traces[i].path);
  free(c->sites);
  free(c->traces);
  free(c->problem);
  memset(c, 0, sizeof *c);
}
