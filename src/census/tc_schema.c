#include "census/tc_schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/tc_map.h"
#include "util/tc_tsv.h"

struct tc_schema {
  tc_map events;     /* name */
  tc_map declared;   /* name \0 path */
  tc_map categories; /* recording categories */
  tc_map optional;   /* category \0 setting title, in file order */
  tc_map strings;    /* the all-categories title */
  uint32_t all_setting; /* id in strings, or UINT32_MAX */
  char generator[256];
};

static tc_err key2(tc_map *m, tc_str a, tc_str b, int insert, uint32_t *id) {
  char stack[512];
  size_t n = a.len + 1 + b.len;
  char *buf = n <= sizeof stack ? stack : malloc(n);
  if (!buf)
    return TC_E_NOMEM;
  memcpy(buf, a.ptr, a.len);
  buf[a.len] = '\0';
  memcpy(buf + a.len + 1, b.ptr, b.len);
  tc_str k = {buf, n};
  tc_err e = TC_OK;
  if (insert)
    e = tc_map_intern(m, k, id, NULL);
  else
    *id = tc_map_find(m, k);
  if (buf != stack)
    free(buf);
  return e;
}

static void append_generator(tc_schema *s, const char *pkg, const char *ver) {
  size_t n = strlen(s->generator);
  snprintf(s->generator + n, sizeof s->generator - n, "%s%s %s", n ? ", " : "", pkg, ver);
}

tc_err tc_schema_load(const char *path, tc_schema **out, int *line) {
  *out = NULL;
  *line = 0;
  FILE *fp = fopen(path, "r");
  if (!fp)
    return TC_E_BAD_SCHEMA;
  tc_schema *s = calloc(1, sizeof *s);
  if (!s) {
    fclose(fp);
    return TC_E_NOMEM;
  }
  s->all_setting = UINT32_MAX;
  char *buf = NULL;
  size_t cap = 0;
  ssize_t n;
  tc_err e = TC_OK;
  while (!e && (n = getline(&buf, &cap, fp)) >= 0) {
    (*line)++;
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
      buf[--n] = '\0';
    if (n == 0 || buf[0] == '#')
      continue;
    char *f[3];
    size_t nf = tc_tsv_split(buf, f, 3);
    uint32_t id;
    if (strcmp(f[0], "event") == 0 && nf == 2)
      e = tc_map_intern(&s->events, tc_str_c(f[1]), &id, NULL);
    else if (strcmp(f[0], "declared") == 0 && nf == 3)
      e = key2(&s->declared, tc_str_c(f[1]), tc_str_c(f[2]), 1, &id);
    else if (strcmp(f[0], "recording_category") == 0 && nf == 2)
      e = tc_map_intern(&s->categories, tc_str_c(f[1]), &id, NULL);
    else if (strcmp(f[0], "optional_category") == 0 && nf == 3)
      e = key2(&s->optional, tc_str_c(f[2]), tc_str_c(f[1]), 1, &id);
    else if (strcmp(f[0], "all_categories_setting") == 0 && nf == 2)
      e = tc_map_intern(&s->strings, tc_str_c(f[1]), &s->all_setting, NULL);
    else if (strcmp(f[0], "generator") == 0 && nf == 3)
      append_generator(s, f[1], f[2]);
    else
      e = TC_E_BAD_SCHEMA;
  }
  free(buf);
  fclose(fp);
  if (!e && tc_map_count(&s->events) == 0)
    e = TC_E_BAD_SCHEMA;
  if (e) {
    tc_schema_free(s);
    return e;
  }
  *line = 0;
  *out = s;
  return TC_OK;
}

void tc_schema_free(tc_schema *s) {
  if (!s)
    return;
  tc_map_free(&s->events);
  tc_map_free(&s->declared);
  tc_map_free(&s->categories);
  tc_map_free(&s->optional);
  tc_map_free(&s->strings);
  free(s);
}

int tc_schema_knows(const tc_schema *s, tc_str name) {
  return tc_map_find(&s->events, name) != UINT32_MAX;
}

int tc_schema_declares(const tc_schema *s, tc_str name, tc_str path) {
  uint32_t id;
  return key2((tc_map *)&s->declared, name, path, 0, &id) == TC_OK && id != UINT32_MAX;
}

int tc_schema_records_category(const tc_schema *s, tc_str category) {
  return tc_map_find(&s->categories, category) != UINT32_MAX;
}

static int str_cmp(const void *a, const void *b) {
  return tc_str_cmp(*(const tc_str *)a, *(const tc_str *)b);
}

size_t tc_schema_settings_for(const tc_schema *s, tc_str category, tc_str *titles, size_t max) {
  size_t n = 0;
  for (uint32_t i = 0; i < tc_map_count(&s->optional) && n < max; i++) {
    tc_str k = tc_map_key(&s->optional, i);
    if (k.len > category.len && memcmp(k.ptr, category.ptr, category.len) == 0 &&
        k.ptr[category.len] == '\0')
      titles[n++] = (tc_str){k.ptr + category.len + 1, k.len - category.len - 1};
  }
  qsort(titles, n, sizeof *titles, str_cmp);
  return n;
}

tc_str tc_schema_all_categories_setting(const tc_schema *s) {
  return s->all_setting == UINT32_MAX ? (tc_str){"", 0} : tc_map_key(&s->strings, s->all_setting);
}

size_t tc_schema_nevents(const tc_schema *s) { return tc_map_count(&s->events); }

tc_str tc_schema_event(const tc_schema *s, size_t i) { return tc_map_key(&s->events, (uint32_t)i); }

const char *tc_schema_generator(const tc_schema *s) { return s->generator; }
