#include "reduce/tc_devtools.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/tc_event.h"

#define SCALARS (TC_JT_NULL | TC_JT_BOOL | TC_JT_NUMBER | TC_JT_STRING)

/* Args are sorted, so all paths extending P directly follow it. */
static int has_child(const tc_res_event *e, size_t i) {
  tc_str p = e->args[i].path;
  for (size_t j = i + 1; j < e->nargs; j++) {
    tc_str q = e->args[j].path;
    if (q.len <= p.len || memcmp(q.ptr, p.ptr, p.len) != 0)
      return 0;
    if (q.ptr[p.len] == '.' || q.ptr[p.len] == '[')
      return 1;
  }
  return 0;
}

static int is_leaf(const tc_res_event *e, size_t i) {
  return (e->args[i].types & SCALARS) || !has_child(e, i);
}

const char *tc_recording_level_code(tc_recording_level l) {
  switch (l) {
  case TC_RECORDING_DEFAULT: return "default";
  case TC_RECORDING_WITH_SETTING: return "with_setting";
  case TC_RECORDING_NEVER: return "never";
  }
  return "unknown";
}

static const char disabled[] = "disabled-by-default-";

/* The settings under which a recording holds category C: those listed for
 * it, and the all-categories one for a category not disabled by default. */
static size_t settings_of(const tc_schema *s, tc_str c, tc_str *titles) {
  size_t n = tc_schema_settings_for(s, c, titles, TC_DEVTOOLS_MAX_SETTINGS);
  tc_str all = tc_schema_all_categories_setting(s);
  int off_by_default = c.len >= sizeof disabled - 1 && memcmp(c.ptr, disabled, sizeof disabled - 1) == 0;
  if (all.len && !off_by_default && n < TC_DEVTOOLS_MAX_SETTINGS)
    titles[n++] = all;
  return n;
}

/* The level of E: default when any of its categories is recorded by
 * default; else the settings of its first category (most records) that has
 * any; else never. */
static void recording(const tc_res_event *e, const tc_schema *s, tc_devtools_view *v) {
  v->level = TC_RECORDING_NEVER;
  int have_first = 0;
  for (size_t c = 0; c < e->ncats; c++) {
    size_t pos = 0;
    tc_str one;
    while (tc_str_next_field(e->cats[c].cat, ',', &pos, &one)) {
      if (!one.len)
        continue;
      if (tc_schema_records_category(s, one)) {
        v->level = TC_RECORDING_DEFAULT;
        v->recorded = 1;
        v->nsettings = 0;
        return;
      }
      if (!have_first) {
        v->category = one;
        have_first = 1;
      }
      if (v->level == TC_RECORDING_NEVER && (v->nsettings = settings_of(s, one, v->settings))) {
        v->level = TC_RECORDING_WITH_SETTING;
        v->category = one;
      }
    }
  }
}

/* Appends N bytes of S (up to a NUL, as %.*s) to BUF, which holds *O of
 * CAP, cut as snprintf cuts. */
static void put(char *buf, size_t cap, size_t *o, const char *s, size_t n) {
  const char *nul = n ? memchr(s, '\0', n) : NULL;
  if (nul)
    n = (size_t)(nul - s);
  if (*o + 1 < cap) {
    size_t k = n < cap - 1 - *o ? n : cap - 1 - *o;
    memcpy(buf + *o, s, k);
    buf[*o + k] = '\0';
  }
  *o += n;
}

static void puts_(char *buf, size_t cap, size_t *o, const char *s) { put(buf, cap, o, s, strlen(s)); }

void tc_devtools_recording_sentence(const tc_devtools_view *v, char *buf, size_t cap) {
  size_t o = 0;
  buf[0] = '\0';
  if (v->level == TC_RECORDING_WITH_SETTING) {
    puts_(buf, cap, &o, "A DevTools Performance recording contains this event only with ");
    for (size_t i = 0; i < v->nsettings; i++) {
      puts_(buf, cap, &o, i == 0 ? "" : i + 1 == v->nsettings ? " or " : ", ");
      put(buf, cap, &o, v->settings[i].ptr, v->settings[i].len);
    }
    puts_(buf, cap, &o, " turned on, which records ");
    put(buf, cap, &o, v->category.ptr, v->category.len);
    puts_(buf, cap, &o, ".");
  } else if (v->level == TC_RECORDING_NEVER) {
    puts_(buf, cap, &o, "A DevTools Performance recording does not contain this event.");
    if (v->category.len) {
      puts_(buf, cap, &o, " Record ");
      put(buf, cap, &o, v->category.ptr, v->category.len);
      puts_(buf, cap, &o, " with your own trace configuration to get it.");
    }
  }
}

static int by_name(const void *key, const void *ev) {
  return tc_str_cmp(*(const tc_str *)key, ((const tc_res_event *)ev)->name);
}

tc_err tc_devtools_compute(const tc_census_result *r, const tc_schema *s, tc_devtools *out) {
  memset(out, 0, sizeof *out);
  size_t total = 0;
  for (size_t i = 0; i < r->nevents; i++)
    total += r->events[i].nargs;
  out->events = calloc(r->nevents ? r->nevents : 1, sizeof *out->events);
  out->paths_ = calloc(total ? total : 1, sizeof *out->paths_);
  out->never_observed = calloc(tc_schema_nevents(s) + 1, sizeof *out->never_observed);
  if (!out->events || !out->paths_ || !out->never_observed) {
    tc_devtools_free(out);
    return TC_E_NOMEM;
  }
  size_t used = 0;
  for (size_t i = 0; i < r->nevents; i++) {
    const tc_res_event *e = &r->events[i];
    tc_devtools_view *v = &out->events[i];
    v->known = tc_schema_knows(s, e->name);
    recording(e, s, v);
    v->undeclared = out->paths_ + used;
    if (!v->known)
      continue;
    for (size_t a = 0; a < e->nargs; a++)
      if (is_leaf(e, a) && !tc_schema_declares(s, e->name, e->args[a].path))
        out->paths_[used + v->nundeclared++] = e->args[a].path;
    used += v->nundeclared;
  }
  for (size_t i = 0; i < tc_schema_nevents(s); i++) {
    tc_str name = tc_schema_event(s, i);
    /* bsearch's array must not be NULL even when empty (every trace bad). */
    if (!r->nevents || !bsearch(&name, r->events, r->nevents, sizeof *r->events, by_name))
      out->never_observed[out->nnever++] = name;
  }
  return TC_OK;
}

void tc_devtools_free(tc_devtools *d) {
  free(d->events);
  free(d->paths_);
  free(d->never_observed);
  memset(d, 0, sizeof *d);
}
