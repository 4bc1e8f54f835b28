/* Text shared by the census writers: numbers with separators, the phase
 * sentence and the category list. */
#include <stdlib.h>
#include <string.h>

#include "report/tc_census_report.h"
#include "util/tc_numfmt.h"

const char *tc_json_type_name(unsigned bit) {
  static const char *const names[] = {"null", "bool", "number", "string", "array", "object"};
  for (int b = 0; b < 6; b++)
    if (bit == 1u << b)
      return names[b];
  return "?";
}

typedef struct {
  uint64_t n;
  const char *one, *many;
  const char *letters; /* the phases whose records make up the group */
} part;

static uint64_t ph(const tc_res_event *e, const char *letters) {
  uint64_t n = 0;
  for (; *letters; letters++)
    n += e->ph[tc_phase_index((tc_str){letters, 1})];
  return n;
}

static uint64_t ph_args(const tc_res_event *e, const char *letters) {
  uint64_t n = 0;
  for (; *letters; letters++)
    n += e->ph_args[tc_phase_index((tc_str){letters, 1})];
  return n;
}

/* A NUL-terminated text in a fixed buffer: what does not fit is cut, so
 * the buffer always holds a prefix of the whole. */
typedef struct {
  char *buf;
  size_t cap, len;
} text;

static void add(text *t, const char *s) {
  size_t n = strlen(s);
  if (t->len + 1 < t->cap) {
    size_t k = n < t->cap - 1 - t->len ? n : t->cap - 1 - t->len;
    memcpy(t->buf + t->len, s, k);
    t->buf[t->len + k] = '\0';
  }
  t->len += n;
}

static void add_count(text *t, uint64_t v) {
  char s[32];
  tc_fmt_thousands(v, s, sizeof s);
  add(t, s);
}

void tc_phase_sentence(const tc_res_event *e, uint32_t sites_total, char *buf, size_t cap) {
  text t = {buf, cap, 0};
  if (cap)
    buf[0] = '\0';
  add(&t, "Observed ");
  add_count(&t, e->records);
  add(&t, e->records == 1 ? " time on " : " times on ");
  add_count(&t, e->sites);
  add(&t, " of ");
  add_count(&t, sites_total);
  add(&t, sites_total == 1 ? " site" : " sites");
  const part parts[] = {
      {ph(e, "X"), "complete slice", "complete slices", "X"},
      {e->pairs[TC_PAIR_BEGIN_END], "begin/end pair", "begin/end pairs", "BE"},
      {e->pairs[TC_PAIR_BE_UNMATCHED], "unmatched begin or end", "unmatched begins or ends", "BE"},
      {e->pairs[TC_PAIR_FLOW], "flow pair", "flow pairs", "sf"},
      {e->pairs[TC_PAIR_FLOW_UNPAIRED], "unpaired flow record", "unpaired flow records", "sf"},
      {ph(e, "t"), "flow step", "flow steps", "t"},
      {e->pairs[TC_PAIR_ASYNC], "async span", "async spans", "beSF"},
      {e->pairs[TC_PAIR_ASYNC_UNPAIRED], "unpaired async record", "unpaired async records", "beSF"},
      {ph(e, "nTp"), "async instant or step", "async instants and steps", "nTp"},
      {ph(e, "Ii"), "instant", "instants", "Ii"},
      {ph(e, "R"), "mark", "marks", "R"},
      {ph(e, "C"), "counter", "counters", "C"},
      {ph(e, "M"), "metadata record", "metadata records", "M"},
      {ph(e, "P"), "sample", "samples", "P"},
      {ph(e, "NOD"), "object record", "object records", "NOD"},
  };
  size_t np = sizeof parts / sizeof *parts, used = 0, last = 0;
  uint64_t with_args = 0;
  for (size_t i = 0; i < np; i++)
    if (parts[i].n) {
      used++;
      last = i;
      with_args += ph_args(e, parts[i].letters);
    }
  /* One kind alone needs no breakdown, as in the manual. */
  int clause = 0; /* the previous group ended with the clause */
  for (size_t i = 0, done = 0; used > 1 && i < np; i++) {
    if (!parts[i].n)
      continue;
    add(&t, done == 0 ? ": " : i != last ? ", " : clause ? ", and " : " and ");
    add_count(&t, parts[i].n);
    add(&t, " ");
    add(&t, parts[i].n == 1 ? parts[i].one : parts[i].many);
    /* The manual's clause for a group none of whose records carries an
     * argument, when another group does (else "No record carries
     * arguments" says it for all). */
    clause = with_args && !ph_args(e, parts[i].letters);
    if (clause)
      add(&t, parts[i].n == 1 ? ", which carries no arguments" : ", which carry no arguments");
    done++;
  }
  add(&t, ".");
}

static int cmp_cat(const void *a, const void *b) {
  const tc_res_cat *x = a, *y = b;
  if (x->records != y->records)
    return x->records > y->records ? -1 : 1;
  return tc_str_cmp(x->cat, y->cat);
}

/* Whether field ONE (a slice of S) occurs in S before itself. */
static int field_repeats(tc_str s, tc_str one) {
  size_t pos = 0;
  tc_str f;
  while (tc_str_next_field(s, ',', &pos, &f) && f.ptr < one.ptr)
    if (tc_str_eq(f, one))
      return 1;
  return 0;
}

size_t tc_split_categories(const tc_res_event *e, tc_res_cat **out) {
  /* At most one category per comma-separated field of every cat string. */
  size_t cap = 0;
  for (size_t i = 0; i < e->ncats; i++) {
    cap++;
    for (size_t j = 0; j < e->cats[i].cat.len; j++)
      cap += e->cats[i].cat.ptr[j] == ',';
  }
  tc_res_cat *o = calloc(cap ? cap : 1, sizeof *o);
  *out = o;
  if (!o)
    return 0;
  size_t n = 0;
  for (size_t i = 0; i < e->ncats; i++) {
    size_t pos = 0;
    tc_str one;
    while (tc_str_next_field(e->cats[i].cat, ',', &pos, &one)) {
      if (!one.len || field_repeats(e->cats[i].cat, one))
        continue; /* "a,,b" names no third category; "a,a" counts a once */
      size_t k = 0;
      while (k < n && !tc_str_eq(o[k].cat, one))
        k++;
      if (k == n) {
        o[n].cat = one;
        o[n].records = 0;
        n++;
      }
      o[k].records += e->cats[i].records;
    }
  }
  qsort(o, n, sizeof *o, cmp_cat);
  return n;
}

void tc_write_categories(tc_wbuf *b, const tc_res_event *e, const char *sep,
                         void (*put)(tc_wbuf *b, tc_str cat)) {
  tc_res_cat *cats;
  size_t n = tc_split_categories(e, &cats);
  for (size_t k = 0; k < n; k++) {
    if (k)
      tc_wbuf_puts(b, sep);
    put(b, cats[k].cat);
  }
  free(cats);
}
