#include "pipeline/tc_partial.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernels/tc_metrics_bin.h"
#include "reduce/tc_trace_rows.h"
#include "util/tc_bin_codec.h"
#include "util/tc_fdio.h"
#include "util/tc_json_valid.h"
#include "util/tc_sketch_bin.h"
#include "util/tc_xxh64.h"

#define MAGIC "TCPART\r\n"
#define KIND_SITE 1u
#define KIND_RECORD 2u
#define TAG_SITE TC_BIN_TAG('S', 'I', 'T', 'E')
#define TAG_RECORD TC_BIN_TAG('S', 'H', 'R', 'D')
/* Paths, names and reasons; an example event is at most the parser's
 * largest event. */
#define MAX_STR ((size_t)1 << 24)
#define MAX_EVENT ((size_t)1 << 30)

uint32_t tc_partial_shard_of(const char *site, uint32_t n) {
  return n > 1 ? (uint32_t)(tc_xxh64(site, strlen(site), 0) % n) : 0;
}

/* Space-separated key=value, in this order; a mark is its length, ':' and
 * its bytes, so any text reads back. */
static const char settings_fmt[] = "metrics=%s bucket_ms=%.17g refresh_hz=%.17g start_mark=%zu:%s "
                                   "end_mark=%zu:%s scope=%s whole_urls=%s";

char *tc_partial_settings(int metrics, const tc_kernel_opts *k, tc_census_scope scope,
                          uint32_t value_flags) {
  const char *s = k->window_start_mark, *e = k->window_end_mark;
  const char *whole = value_flags & TC_VP_WHOLE_URLS ? "yes" : "no";
  int n = snprintf(NULL, 0, settings_fmt, metrics ? "on" : "off", k->bucket_ms, k->refresh_hz,
                   s ? strlen(s) : 0, s ? s : "", e ? strlen(e) : 0, e ? e : "",
                   tc_scope_name(scope), whole);
  char *out = malloc((size_t)n + 1);
  if (out)
    snprintf(out, (size_t)n + 1, settings_fmt, metrics ? "on" : "off", k->bucket_ms,
             k->refresh_hz, s ? strlen(s) : 0, s ? s : "", e ? strlen(e) : 0, e ? e : "",
             tc_scope_name(scope), whole);
  return out;
}

/* The next key=value of settings text *P: the key and the value's bytes;
 * 0 at the end or on text no writer made. */
static int next_setting(const char **p, tc_str *key, tc_str *val) {
  const char *s = *p;
  while (*s == ' ')
    s++;
  const char *eq = strchr(s, '=');
  if (!*s || !eq)
    return 0;
  *key = (tc_str){s, (size_t)(eq - s)};
  const char *v = eq + 1;
  char *end;
  unsigned long long len = strtoull(v, &end, 10);
  if (end != v && *end == ':' && len <= strlen(end + 1) &&
      ((key->len == 10 && !memcmp(s, "start_mark", 10)) || (key->len == 8 && !memcmp(s, "end_mark", 8)))) {
    *val = (tc_str){v, (size_t)(end + 1 + len - v)};
  } else {
    size_t n = strcspn(v, " ");
    *val = (tc_str){v, n};
  }
  *p = val->ptr + val->len;
  return 1;
}

uint32_t tc_partial_settings_value_flags(const char *settings) {
  tc_str k, v;
  for (const char *p = settings; p && next_setting(&p, &k, &v);)
    if (tc_str_eqc(k, "whole_urls"))
      return tc_str_eqc(v, "yes") ? TC_VP_WHOLE_URLS : 0;
  return 0;
}

int tc_partial_settings_scope(const char *settings, tc_census_scope *out) {
  tc_str k, v;
  for (const char *p = settings; p && next_setting(&p, &k, &v);)
    if (tc_str_eqc(k, "scope")) {
      char name[32];
      if (v.len >= sizeof name)
        return -1;
      memcpy(name, v.ptr, v.len);
      name[v.len] = '\0';
      return tc_scope_parse(name, out);
    }
  return -1;
}

void tc_partial_settings_differ(const char *a, const char *b, char *name, size_t cap) {
  const char *pa = a ? a : "", *pb = b ? b : "";
  tc_str ka, va, kb, vb;
  for (;;) {
    int ha = next_setting(&pa, &ka, &va), hb = next_setting(&pb, &kb, &vb);
    if (!ha || !hb || !tc_str_eq(ka, kb) || !tc_str_eq(va, vb)) {
      tc_str k = ha ? ka : hb ? kb : (tc_str){"settings", 8};
      snprintf(name, cap, "%.*s", (int)k.len, k.ptr);
      return;
    }
  }
}

void tc_partial_site_free(tc_partial_site *p) {
  if (!p)
    return;
  free(p->settings);
  p->settings = NULL;
  tc_site_unit_free(&p->unit);
}

static void free_notes(tc_corpus_note *n, uint32_t count) {
  for (uint32_t i = 0; n && i < count; i++) {
    free(n[i].path);
    free(n[i].why);
  }
  free(n);
}

void tc_partial_record_free(tc_partial_record *r) {
  if (!r)
    return;
  free(r->settings);
  for (uint32_t i = 0; r->sites && i < r->nsites; i++)
    free(r->sites[i]);
  free(r->sites);
  free_notes(r->skipped, r->nskipped);
  free_notes(r->warnings, r->nwarnings);
  free(r->manifest);
  free(r->job);
  memset(r, 0, sizeof *r);
}

/* ---- the walks: one function per type, both directions ---- */

/* Fails decoding unless A < B, bytewise (the lists' canonical order). */
static void check_order(tc_codec *c, size_t at, tc_str a, tc_str b, const char *why) {
  if (c->r && tc_str_cmp(a, b) >= 0)
    tc_bin_fail_at(c->r, at, why);
}

/* A string of the census, interned into M on decode. */
static void c_tstr(tc_codec *c, tc_str *s, tc_map *m, size_t max) {
  if (c->b) {
    tc_bin_put_bytes(c->b, *s);
    return;
  }
  size_t at = c->r->pos;
  tc_str t = tc_bin_get_bytes(c->r, max);
  uint32_t id;
  *s = (tc_str){"", 0};
  if (c->r->err)
    return;
  if (tc_map_intern(m, t, &id, NULL))
    tc_bin_fail_at(c->r, at, "out of memory");
  else
    *s = tc_map_key(m, id);
}

static void c_u64s(tc_codec *c, uint64_t *v, int n) {
  for (int i = 0; i < n; i++)
    tc_codec_u64(c, &v[i]);
}

/* An event's count N of a unit's TOTAL categories or paths, USED of which
 * earlier events took; on decode *FIRST is where its slice starts, and a
 * count beyond what is left fails with WHY. */
static uint32_t c_slice(tc_codec *c, uint32_t n, size_t total, size_t *used, size_t *first,
                        const char *why) {
  size_t at = c->r ? c->r->pos : 0;
  tc_codec_u32(c, &n);
  if (!c->r)
    return n;
  if (n > total - *used) {
    tc_bin_fail_at(c->r, at, why);
    n = 0;
  }
  *first = *used;
  *used += n;
  return n;
}

static void c_event(tc_codec *c, tc_site_census *s, tc_sc_event *ev, size_t *cat_at,
                    size_t *arg_at, uint32_t ntraces) {
  c_tstr(c, &ev->name, &s->strings, MAX_STR);
  c_u64s(c, ev->counts.ph, TC_PH_COUNT);
  c_u64s(c, ev->counts.ph_args, TC_PH_COUNT);
  c_u64s(c, ev->counts.pairs, TC_PAIR_COUNT);
  size_t at, first = 0;
  ev->ncats = c_slice(c, ev->ncats, s->ncats, cat_at, &first, "more categories than the unit holds");
  if (c->r)
    ev->cats = s->all_cats ? s->all_cats + first : NULL;
  for (uint32_t i = 0; i < ev->ncats; i++) {
    at = c->r ? c->r->pos : 0;
    c_tstr(c, &ev->cats[i].text, &s->strings, MAX_STR);
    if (i)
      check_order(c, at, ev->cats[i - 1].text, ev->cats[i].text, "categories out of order");
    tc_codec_u64(c, &ev->cats[i].records);
  }
  ev->nargs = c_slice(c, ev->nargs, s->nargs, arg_at, &first,
                      "more argument paths than the unit holds");
  if (c->r)
    ev->args = s->all_args ? s->all_args + first : NULL;
  for (uint32_t i = 0; i < ev->nargs; i++) {
    at = c->r ? c->r->pos : 0;
    c_tstr(c, &ev->args[i].path, &s->strings, MAX_STR);
    if (i)
      check_order(c, at, ev->args[i - 1].path, ev->args[i].path, "argument paths out of order");
    tc_codec_u64(c, &ev->args[i].records);
    ev->args[i].types = (uint8_t)tc_codec_small(c, ev->args[i].types, 0xff);
  }
  if (c->b)
    tc_sketch_encode(&ev->dur, c->b);
  else if (!c->r->err)
    tc_sketch_decode(c->r, &ev->dur);
  c_u64s(c, ev->dur_below, TC_DUR_NLIMITS);
  c_u64s(c, ev->left, TC_LEFT_COUNT);
  tc_sc_example *x = &ev->ex;
  x->have = (int)tc_codec_small(c, (unsigned)x->have, 1);
  if (x->have) {
    tc_codec_u32(c, &x->oversize);
    tc_codec_u32(c, &x->neg_paths);
    at = c->r ? c->r->pos : 0;
    tc_codec_u32(c, &x->trace);
    if (c->r && x->trace >= ntraces)
      tc_bin_fail_at(c->r, at, "example from a trace the site does not have");
    tc_codec_u64(c, &x->index);
    at = c->r ? c->r->pos : 0;
    c_tstr(c, &x->raw, &s->strings, TC_EXAMPLE_MAX_BYTES);
    /* It goes into census.json as it is: it must be what the census could
     * have chosen. */
    if (c->r && !c->r->err && !tc_json_example_ok(x->raw))
      tc_bin_fail_at(c->r, at, "example is not one JSON object within the example limits");
  }
}

static void c_census(tc_codec *c, tc_site_census *s, uint32_t ntraces) {
  uint32_t n = (uint32_t)s->nevents, ncats = (uint32_t)s->ncats, nargs = (uint32_t)s->nargs;
  n = tc_codec_array(c, (void **)&s->events, n, sizeof *s->events, 8);
  ncats = tc_codec_array(c, (void **)&s->all_cats, ncats, sizeof *s->all_cats, 2);
  nargs = tc_codec_array(c, (void **)&s->all_args, nargs, sizeof *s->all_args, 3);
  if (c->r) {
    s->nevents = n;
    s->ncats = ncats;
    s->nargs = nargs;
  }
  size_t cat_at = 0, arg_at = 0;
  for (uint32_t i = 0; i < n; i++) {
    size_t at = c->r ? c->r->pos : 0;
    c_event(c, s, &s->events[i], &cat_at, &arg_at, ntraces);
    if (i)
      check_order(c, at, s->events[i - 1].name, s->events[i].name, "event names out of order");
  }
  if (c->r && (cat_at != s->ncats || arg_at != s->nargs))
    tc_bin_fail_at(c->r, c->r->pos, "categories or paths left over");
}

static void c_meta(tc_codec *c, tc_trace_status *st) {
  if (c->b) {
    tc_bin_put_bytes(c->b, (tc_str){st->meta, st->meta ? st->shape.metadata.len : 0});
    return;
  }
  size_t at = c->r->pos;
  tc_str t = tc_bin_get_bytes(c->r, MAX_EVENT);
  st->meta = NULL;
  st->shape.metadata = (tc_str){NULL, 0};
  if (c->r->err || !t.len)
    return;
  if (!(st->meta = tc_str_dup(t))) {
    tc_bin_fail_at(c->r, at, "out of memory");
    return;
  }
  st->shape.metadata = (tc_str){st->meta, t.len};
}

static void c_trace(tc_codec *c, tc_unit_trace *t) {
  tc_codec_str(c, &t->path, MAX_STR);
  tc_codec_u64(c, &t->id.size);
  tc_codec_i64(c, &t->id.mtime_sec);
  tc_codec_u32(c, &t->id.mtime_nsec);
  if (c->b)
    tc_bin_put_u64(c->b, t->id.hash);
  else
    t->id.hash = tc_bin_get_u64(c->r);
  tc_trace_status_codec(c, &t->status, c_meta);
  if (tc_codec_small(c, t->metrics != NULL, 1)) {
    if (c->b)
      tc_metrics_encode(t->metrics, c->b);
    else if (!c->r->err)
      tc_metrics_decode(c->r, &t->metrics);
  }
  tc_left_list_codec(c, &t->left);
}

/* The site's value profiles: tc_vtab_encode's bytes, read back into a
 * fresh table. */
static void c_values(tc_codec *c, tc_vtab **v, uint32_t flags) {
  if (!c->r) {
    tc_vtab_encode(*v, c->b);
    return;
  }
  if (c->r->err)
    return;
  if (!(*v = tc_vtab_new(flags, 0))) {
    tc_bin_fail_at(c->r, c->r->pos, "out of memory for the value profiles");
    return;
  }
  size_t at = c->r->pos;
  if (tc_vtab_read_merge(c->r, *v))
    tc_bin_fail_at(c->r, at, "bad value profiles");
}

static void c_site(tc_codec *c, tc_partial_site *ps) {
  tc_codec_str(c, &ps->settings, MAX_STR);
  tc_site_unit *p = &ps->unit;
  tc_codec_str(c, &p->name, MAX_STR);
  tc_codec_str(c, &p->status, MAX_STR);
  tc_codec_str(c, &p->reason, MAX_STR);
  tc_codec_str(c, &p->chrome_version, MAX_STR);
  if (c->r && !p->name)
    tc_bin_fail_at(c->r, c->r->pos, "a site without a name");
  p->in_manifest = (int)tc_codec_small(c, (unsigned)p->in_manifest, 1);
  p->from_dir = (int)tc_codec_small(c, (unsigned)p->from_dir, 1);
  p->ntraces = tc_codec_array(c, (void **)&p->traces, p->ntraces, sizeof *p->traces, 20);
  for (uint32_t i = 0; i < p->ntraces; i++) {
    size_t at = c->r ? c->r->pos : 0;
    c_trace(c, &p->traces[i]);
    if (i && c->r && !c->r->err && p->traces[i].path)
      check_order(c, at, tc_str_c(p->traces[i - 1].path), tc_str_c(p->traces[i].path),
                  "traces out of order");
  }
  c_census(c, &p->census, p->ntraces);
  c_values(c, &p->values, tc_partial_settings_value_flags(ps->settings));
}

static void c_notes(tc_codec *c, tc_corpus_note **notes, uint32_t *n) {
  *n = tc_codec_array(c, (void **)notes, *n, sizeof **notes, 3);
  for (uint32_t i = 0; i < *n; i++) {
    tc_codec_str(c, &(*notes)[i].path, MAX_STR);
    tc_codec_u32(c, &(*notes)[i].line);
    tc_codec_str(c, &(*notes)[i].why, MAX_STR);
  }
}

static void c_record(tc_codec *c, tc_partial_record *r) {
  tc_codec_str(c, &r->settings, MAX_STR);
  tc_codec_u32(c, &r->shard);
  size_t at = c->r ? c->r->pos : 0;
  tc_codec_u32(c, &r->nshards);
  if (c->r && r->shard >= r->nshards)
    tc_bin_fail_at(c->r, at, "shard number not below the shard count");
  if (c->r && r->nshards > TC_PARTIAL_MAX_SHARDS)
    tc_bin_fail_at(c->r, at, "shard count above what --shard accepts");
  r->nsites = tc_codec_array(c, (void **)&r->sites, r->nsites, sizeof *r->sites, 2);
  for (uint32_t i = 0; i < r->nsites; i++) {
    at = c->r ? c->r->pos : 0;
    tc_codec_str(c, &r->sites[i], MAX_STR);
    if (c->r && !r->sites[i])
      tc_bin_fail_at(c->r, at, "a site without a name");
    if (i && c->r && !c->r->err)
      check_order(c, at, tc_str_c(r->sites[i - 1]), tc_str_c(r->sites[i]), "sites out of order");
  }
  c_notes(c, &r->skipped, &r->nskipped);
  c_notes(c, &r->warnings, &r->nwarnings);
  tc_codec_str(c, &r->manifest, MAX_STR);
  tc_codec_str(c, &r->job, MAX_STR);
  tc_codec_u32(c, &r->value_sites);
}

/* ---- framing ---- */

typedef void (*walk_fn)(tc_codec *c, void *obj);

static void walk_site(tc_codec *c, void *obj) { c_site(c, obj); }
static void walk_record(tc_codec *c, void *obj) { c_record(c, obj); }

static tc_err encode(uint32_t kind, uint32_t tag, walk_fn walk, const void *obj,
                     unsigned char **bytes, size_t *len) {
  tc_bin_buf b;
  tc_bin_buf_init(&b);
  tc_bin_put_raw(&b, MAGIC, 8);
  tc_bin_put_u32(&b, TC_PARTIAL_VERSION);
  tc_bin_put_u32(&b, kind);
  size_t mark = tc_bin_section_begin(&b, tag, TC_PARTIAL_VERSION);
  tc_codec c = {&b, NULL};
  /* The walk stores back what it reads; encoding changes nothing. */
  walk(&c, (void *)obj);
  tc_bin_section_end(&b, mark);
  tc_err e = b.err;
  *bytes = tc_bin_buf_take(&b, len);
  tc_bin_buf_free(&b);
  return e ? e : *bytes ? TC_OK : TC_E_NOMEM;
}

static tc_err decode(uint32_t kind, uint32_t tag, walk_fn walk, void *obj,
                     const unsigned char *bytes, size_t len, tc_why *why) {
  if (len < 16 || memcmp(bytes, MAGIC, 8) != 0) {
    tc_why_at(why, 0, "no tracecensus partial magic at the start");
    return TC_E_NOT_PARTIAL;
  }
  tc_bin_reader r;
  tc_bin_reader_init(&r, bytes, len, 0);
  tc_bin_get_raw(&r, 8);
  uint32_t version = tc_bin_get_u32(&r);
  if (version != TC_PARTIAL_VERSION) {
    tc_why_at(why, 8, "written by another tracecensus (format version differs); rerun that shard");
    return TC_E_PARTIAL_VERSION;
  }
  uint32_t k = tc_bin_get_u32(&r);
  if (k != kind) {
    tc_why_at(why, 12, k == KIND_RECORD ? "a shard record, not a site partial"
                       : k == KIND_SITE ? "a site partial, not a shard record"
                                        : "unknown kind of partial");
    return TC_E_NOT_PARTIAL;
  }
  tc_bin_section s;
  if (tc_bin_section_open(&r, tag, &s)) {
    if (s.version != TC_PARTIAL_VERSION)
      tc_bin_fail_at(&r, 16, "section of another version");
    tc_codec c = {NULL, &r};
    walk(&c, obj);
    tc_bin_section_close(&r, &s);
  }
  tc_err e = tc_bin_finish(&r);
  if (e)
    tc_why_at(why, r.err_at, r.why);
  return e;
}

tc_err tc_partial_site_encode(const char *settings, const tc_site_unit *u, unsigned char **bytes,
                              size_t *len) {
  /* Borrowed for the walk, which only reads when encoding. */
  tc_partial_site p = {(char *)settings, *u};
  return encode(KIND_SITE, TAG_SITE, walk_site, &p, bytes, len);
}

tc_err tc_partial_record_encode(const tc_partial_record *r, unsigned char **bytes, size_t *len) {
  return encode(KIND_RECORD, TAG_RECORD, walk_record, r, bytes, len);
}

tc_err tc_partial_site_decode(const unsigned char *bytes, size_t len, tc_partial_site *out,
                              tc_why *why) {
  out->settings = NULL;
  tc_site_unit_init(&out->unit);
  tc_err e = decode(KIND_SITE, TAG_SITE, walk_site, out, bytes, len, why);
  if (e)
    tc_partial_site_free(out);
  return e;
}

tc_err tc_partial_record_decode(const unsigned char *bytes, size_t len, tc_partial_record *out,
                                tc_why *why) {
  memset(out, 0, sizeof *out);
  tc_err e = decode(KIND_RECORD, TAG_RECORD, walk_record, out, bytes, len, why);
  if (e)
    tc_partial_record_free(out);
  return e;
}

/* ---- files ---- */

static char *join(const char *dir, const char *name) {
  size_t n = strlen(dir) + 1 + strlen(name) + 1;
  char *p = malloc(n);
  if (p)
    snprintf(p, n, "%s/%s", dir, name);
  return p;
}

char *tc_partial_site_path(const char *dir, const char *site) {
  char name[40];
  snprintf(name, sizeof name, "site-%016" PRIx64 ".tcp", tc_xxh64(site, strlen(site), 0));
  return join(dir, name);
}

char *tc_partial_record_path(const char *dir) { return join(dir, "shard.tcr"); }

/* Temporary file beside PATH, synced, renamed over PATH, folder synced. */
static tc_err write_atomic(const char *path, const unsigned char *bytes, size_t len,
                           tc_why *why) {
  const char *slash = strrchr(path, '/');
  size_t dlen = slash ? (size_t)(slash - path) : 0;
  const char *base = slash ? slash + 1 : path;
  size_t n = strlen(path) + 32;
  char *tmp = malloc(n);
  char *dir = malloc(dlen + 2);
  if (!tmp || !dir) {
    free(tmp);
    free(dir);
    return TC_E_NOMEM;
  }
  snprintf(tmp, n, "%.*s%s.%s.tmp-%ld", (int)dlen, path, slash ? "/" : "", base, (long)getpid());
  snprintf(dir, dlen + 2, "%.*s", slash ? (int)dlen : 1, slash ? path : ".");
  tc_err e = TC_OK;
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0 || tc_write_full(fd, bytes, len, -1) != 0 || fsync(fd) != 0) {
    tc_why_errno(why, path, errno);
    e = TC_E_WRITE;
  }
  if (fd >= 0 && close(fd) != 0 && !e) {
    tc_why_errno(why, path, errno);
    e = TC_E_WRITE;
  }
  if (!e && rename(tmp, path) != 0) {
    tc_why_errno(why, path, errno);
    e = TC_E_WRITE;
  }
  if (e) {
    unlink(tmp);
  } else {
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
      fsync(dfd);
      close(dfd);
    }
  }
  free(tmp);
  free(dir);
  return e;
}

tc_err tc_partial_site_write(const char *path, const char *settings, const tc_site_unit *u,
                             tc_why *why) {
  unsigned char *bytes;
  size_t len;
  tc_err e = tc_partial_site_encode(settings, u, &bytes, &len);
  if (!e)
    e = write_atomic(path, bytes, len, why);
  free(bytes);
  return e;
}

tc_err tc_partial_record_write(const char *path, const tc_partial_record *r, tc_why *why) {
  unsigned char *bytes;
  size_t len;
  tc_err e = tc_partial_record_encode(r, &bytes, &len);
  if (!e)
    e = write_atomic(path, bytes, len, why);
  free(bytes);
  return e;
}

/* PATH read whole and decoded by DECODE into OUT. */
static tc_err read_file(const char *path, void *out, tc_why *why,
                        tc_err (*decode)(const unsigned char *, size_t, void *, tc_why *)) {
  unsigned char *bytes;
  size_t len;
  tc_why_clear(why);
  tc_err e = tc_read_regular(path, &bytes, &len, why);
  if (!e)
    e = decode(bytes, len, out, why);
  free(bytes);
  return e;
}

static tc_err decode_site(const unsigned char *b, size_t n, void *out, tc_why *why) {
  return tc_partial_site_decode(b, n, out, why);
}

static tc_err decode_record(const unsigned char *b, size_t n, void *out, tc_why *why) {
  return tc_partial_record_decode(b, n, out, why);
}

tc_err tc_partial_site_read(const char *path, tc_partial_site *out, tc_why *why) {
  return read_file(path, out, why, decode_site);
}

tc_err tc_partial_record_read(const char *path, tc_partial_record *out, tc_why *why) {
  return read_file(path, out, why, decode_record);
}
