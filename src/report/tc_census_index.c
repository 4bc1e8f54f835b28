/* The orders and indexes people read the census in: events by name without
 * regard to case, the events of each category, the Chrome versions of the
 * traces. Every order is total (ties fall back to bytes), so the pages are
 * the same whatever the run. */
#include <stdlib.h>
#include <string.h>

#include "report/tc_census_report.h"

int tc_name_cmp(tc_str a, tc_str b) {
  size_t n = a.len < b.len ? a.len : b.len, i = 0;
  /* Names sorted side by side share long prefixes: equal bytes are equal
   * without regard to case, so skip them a word at a time. */
  for (uint64_t x, y; i + 8 <= n; i += 8) {
    memcpy(&x, a.ptr + i, 8);
    memcpy(&y, b.ptr + i, 8);
    if (x != y)
      break;
  }
  for (; i < n; i++) {
    unsigned char x = (unsigned char)a.ptr[i], y = (unsigned char)b.ptr[i];
    x = x >= 'A' && x <= 'Z' ? x + 32 : x;
    y = y >= 'A' && y <= 'Z' ? y + 32 : y;
    if (x != y)
      return x < y ? -1 : 1;
  }
  if (a.len != b.len)
    return a.len < b.len ? -1 : 1;
  return tc_str_cmp(a, b);
}

static int cmp_event(const void *a, const void *b) {
  return tc_name_cmp((*(const tc_res_event *const *)a)->name, (*(const tc_res_event *const *)b)->name);
}

const tc_res_event **tc_events_by_name(const tc_census_result *r) {
  const tc_res_event **o = malloc((r->nevents ? r->nevents : 1) * sizeof *o);
  if (!o)
    return NULL;
  for (size_t i = 0; i < r->nevents; i++)
    o[i] = &r->events[i];
  qsort(o, r->nevents, sizeof *o, cmp_event);
  return o;
}

static int cmp_member(const void *a, const void *b) {
  const tc_cat_member *x = a, *y = b;
  int c = tc_name_cmp(x->cat, y->cat);
  return c ? c : tc_name_cmp(x->event->name, y->event->name);
}

size_t tc_category_index(const tc_census_result *r, tc_cat_member **out) {
  size_t n = 0, cap = 0;
  tc_cat_member *m = NULL;
  *out = NULL;
  for (size_t i = 0; i < r->nevents; i++) {
    tc_res_cat *cats;
    size_t k = tc_split_categories(&r->events[i], &cats);
    if (!cats)
      goto fail;
    size_t need = n + (k ? k : 1);
    if (need > cap) {
      cap = need * 2;
      tc_cat_member *g = realloc(m, cap * sizeof *m);
      if (!g) {
        free(cats);
        goto fail;
      }
      m = g;
    }
    for (size_t j = 0; j < k; j++)
      m[n++] = (tc_cat_member){cats[j].cat, &r->events[i]};
    if (!k) /* an event without a category is listed under the empty one */
      m[n++] = (tc_cat_member){{"", 0}, &r->events[i]};
    free(cats);
  }
  if (n)
    qsort(m, n, sizeof *m, cmp_member);
  *out = m;
  return n;
fail:
  free(m);
  return 0;
}

/* The string value of "product-version" in a metadata object ("Chrome/..."),
 * or empty. Metadata is small; a plain search is enough. */
tc_str tc_chrome_version(tc_str meta) {
  static const char key[] = "\"product-version\"";
  tc_str none = {"", 0};
  if (!meta.len)
    return none;
  const char *p = meta.ptr, *end = meta.ptr + meta.len;
  for (; p + sizeof key - 1 <= end; p++) {
    if (memcmp(p, key, sizeof key - 1) != 0)
      continue;
    p += sizeof key - 1;
    while (p < end && (*p == ' ' || *p == ':'))
      p++;
    if (p >= end || *p != '"')
      return none;
    const char *b = ++p;
    while (p < end && *p != '"')
      p++;
    tc_str v = {b, (size_t)(p - b)};
    return v;
  }
  return none;
}

static int cmp_version(const void *a, const void *b) {
  const tc_version_count *x = a, *y = b;
  int r = tc_str_cmp(x->version, y->version);
  return r ? r : x->from_manifest - y->from_manifest;
}

tc_str *tc_block_versions(const tc_report_ctx *c) {
  size_t n = tc_trace_rows_blocks(c->traces);
  tc_str *v = malloc((n ? n : 1) * sizeof *v);
  for (uint32_t b = 0; v && b < n; b++)
    v[b] = tc_chrome_version(tc_trace_rows_block(c->traces, b));
  return v;
}

tc_str tc_trace_chrome_version(const tc_report_ctx *c, const tc_str *versions, uint32_t trace,
                               uint32_t block, int *from_manifest) {
  tc_str v = block == TC_NO_BLOCK ? (tc_str){"", 0} : versions[block];
  *from_manifest = 0;
  const char *m = c->corpus->sites[c->corpus->traces[trace].site].chrome_version;
  if (!v.len && m) {
    v = tc_str_c(m);
    *from_manifest = 1;
  }
  return v;
}

size_t tc_chrome_versions(const tc_report_ctx *c, tc_version_count **out) {
  /* Each trace's version: its metadata's, else its site's in the manifest
   * (a --trace-startup trace names none itself). */
  size_t n = c->corpus->ntraces;
  tc_version_count *v = malloc((n ? n : 1) * sizeof *v);
  tc_str *blocks = tc_block_versions(c);
  *out = v;
  if (!v || !blocks) {
    free(blocks);
    return 0;
  }
  size_t k = 0;
  unsigned char *buf = NULL;
  size_t cap = 0;
  for (size_t i = 0; i < tc_trace_rows_count(c->traces) && i < n; i++) {
    tc_trace_status st;
    uint32_t block = TC_NO_BLOCK;
    if (tc_trace_rows_get(c->traces, i, &st, &block, NULL, &buf, &cap))
      continue;
    int from_manifest;
    tc_str s =
        tc_trace_chrome_version(c, blocks, tc_trace_rows_trace(c->traces, i), block, &from_manifest);
    if (s.len)
      v[k++] = (tc_version_count){s, 1, from_manifest};
  }
  free(buf);
  free(blocks);
  qsort(v, k, sizeof *v, cmp_version);
  size_t m = 0;
  for (size_t i = 0; i < k; i++) {
    if (m && tc_str_eq(v[m - 1].version, v[i].version) &&
        v[m - 1].from_manifest == v[i].from_manifest)
      v[m - 1].traces += v[i].traces;
    else
      v[m++] = v[i];
  }
  return m;
}

tc_str tc_corpus_root(const tc_corpus *c) {
  if (!c->ntraces)
    return (tc_str){"", 0};
  const char *first = c->traces[0].path;
  size_t n = strlen(first);
  for (uint32_t i = 1; i < c->ntraces && n; i++) {
    const char *p = c->traces[i].path;
    size_t k = 0;
    while (k < n && p[k] == first[k])
      k++;
    n = k;
  }
  /* back to a whole folder name: what follows the prefix must start a name */
  while (n && first[n - 1] != '/')
    n--;
  while (n > 1 && first[n - 1] == '/')
    n--;
  return (tc_str){first, n};
}
