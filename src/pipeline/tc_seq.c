#include "pipeline/tc_seq.h"

#include <stdlib.h>
#include <string.h>


static int seq_str(tc_seq *s, tc_str *dst) {
  if (!dst->len) {
    dst->ptr = "";
    return 1;
  }
  char *p = tc_arena_alloc(&s->arena, dst->len);
  if (!p)
    return 0;
  memcpy(p, dst->ptr, dst->len);
  dst->ptr = p;
  return 1;
}

/* Makes *P (of *CAP elements of ELEM bytes) hold NEED, doubling; unlike
 * tc_grow the new room is not zeroed: these arrays are written before they
 * are read, and every chunk's seq grows them afresh (a chunk's values fill
 * megabytes). */
static tc_err room(void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap)
    return TC_OK;
  size_t n = *cap ? *cap : 64;
  while (n < need)
    n *= 2;
  void *q = realloc(*p, n * elem);
  if (!q)
    return TC_E_NOMEM;
  *p = q;
  *cap = n;
  return TC_OK;
}

void tc_seq_init(tc_seq *s) {
  memset(s, 0, sizeof *s);
  s->arena.block_size = 64 * 1024; /* under malloc's mmap threshold: reused, no page faults */
}

void tc_seq_free(tc_seq *s) {
  tc_arena_free(&s->arena);
  free(s->events);
  free(s->tasks);
  free(s->spans);
  free(s->vkeys);
  free(s->vals);
  free(s->vtext);
  tc_seq_init(s);
}

tc_err tc_seq_push(tc_seq *s, const tc_kevent *ev) {
  tc_err e = room((void **)&s->events, &s->events_cap, s->nevents + 1, sizeof *s->events);
  if (e)
    return e;
  tc_kevent k = *ev;
  if (!seq_str(s, &k.name) || !seq_str(s, &k.cat) || !seq_str(s, &k.id))
    return TC_E_NOMEM;
  if (k.nargs) {
    tc_argval *a = tc_arena_alloc(&s->arena, k.nargs * sizeof *a);
    if (!a)
      return TC_E_NOMEM;
    memcpy(a, ev->args, k.nargs * sizeof *a);
    for (uint32_t i = 0; i < k.nargs; i++)
      if (!seq_str(s, &a[i].str))
        return TC_E_NOMEM;
    k.args = a;
  } else {
    k.args = NULL;
  }
  s->events[s->nevents++] = k;
  return TC_OK;
}

tc_err tc_seq_push_task(tc_seq *s, const tc_ktask_event *t) {
  tc_err e = room((void **)&s->tasks, &s->tasks_cap, s->ntasks + 1, sizeof *s->tasks);
  if (!e)
    s->tasks[s->ntasks++] = *t;
  return e;
}

tc_err tc_seq_span(tc_seq *s, int64_t pid, int64_t tid, double ts, double end) {
  /* A chunk touches a handful of threads, and runs of events share one:
   * look at the thread of the previous event first. */
  for (size_t k = 0; k <= s->nspans; k++) {
    size_t i = k == 0 ? s->last_span : k - 1;
    if (i >= s->nspans)
      continue;
    tc_thread_span *t = &s->spans[i];
    if (t->pid == pid && t->tid == tid) {
      if (ts < t->min_ts)
        t->min_ts = ts;
      if (ts > t->max_ts)
        t->max_ts = ts;
      if (end > t->max_end)
        t->max_end = end;
      t->events++;
      s->last_span = i;
      return TC_OK;
    }
  }
  tc_err e = room((void **)&s->spans, &s->spans_cap, s->nspans + 1, sizeof *s->spans);
  if (e)
    return e;
  s->last_span = s->nspans;
  tc_thread_span *t = &s->spans[s->nspans++];
  t->pid = pid;
  t->tid = tid;
  t->min_ts = t->max_ts = ts;
  t->max_end = end;
  t->events = 1;
  return TC_OK;
}

tc_err tc_seq_reserve(tc_seq *s, size_t n) {
  tc_err e = room((void **)&s->events, &s->events_cap, s->nevents + n, sizeof *s->events);
  return e ? e : room((void **)&s->tasks, &s->tasks_cap, s->ntasks + n, sizeof *s->tasks);
}

tc_err tc_seq_vals_reserve(tc_seq *s, size_t nvals, size_t text_bytes) {
  tc_err e = room((void **)&s->vals, &s->vals_cap, s->nvals + nvals, sizeof *s->vals);
  return e ? e : room((void **)&s->vtext, &s->vtext_cap, s->vtext_len + text_bytes, 1);
}

/* Appends T's bytes to vtext; *OFF gets where they start. */
static tc_err vtext_add(tc_seq *s, tc_str t, uint64_t *off) {
  tc_err e = room((void **)&s->vtext, &s->vtext_cap, s->vtext_len + t.len, 1);
  if (e)
    return e;
  if (t.len)
    memcpy(s->vtext + s->vtext_len, t.ptr, t.len);
  *off = s->vtext_len;
  s->vtext_len += t.len;
  return TC_OK;
}

tc_err tc_seq_vkey_add(tc_seq *s, tc_str name, tc_str path, uint32_t *key) {
  tc_err e = room((void **)&s->vkeys, &s->vkeys_cap, s->nvkeys + 1, sizeof *s->vkeys);
  if (e)
    return e;
  tc_seq_vkey *k = &s->vkeys[s->nvkeys];
  if ((e = vtext_add(s, name, &k->name_off)) || (e = vtext_add(s, path, &k->path_off)))
    return e;
  k->name_len = (uint32_t)name.len;
  k->path_len = (uint32_t)path.len;
  *key = (uint32_t)s->nvkeys++;
  return TC_OK;
}

tc_err tc_seq_val_add(tc_seq *s, uint32_t key, int64_t pid, unsigned type, double num,
                      tc_str str) {
  tc_err e = room((void **)&s->vals, &s->vals_cap, s->nvals + 1, sizeof *s->vals);
  if (e)
    return e;
  tc_seq_val *v = &s->vals[s->nvals];
  v->num = num;
  v->pid = pid;
  v->str_off = 0;
  v->str_len = (uint32_t)str.len;
  v->key = key;
  v->type = (uint8_t)type;
  v->count = 1;
  if (str.len && (e = vtext_add(s, str, &v->str_off)))
    return e;
  s->nvals++;
  return TC_OK;
}

int tc_seq_val_again(tc_seq *s, size_t at, int64_t pid, unsigned type, double num, tc_str str) {
  tc_seq_val *v = &s->vals[at];
  /* Numbers by their bits: -0 and 0 stay two runs, as they are two adds. */
  if (v->pid != pid || v->type != type || v->count == UINT32_MAX ||
      memcmp(&v->num, &num, sizeof num) != 0 || v->str_len != str.len ||
      (str.len && memcmp(s->vtext + v->str_off, str.ptr, str.len) != 0))
    return 0;
  v->count++;
  return 1;
}

tc_err tc_seq_fold_values(const tc_seq *s, tc_vtab *(*tab_of)(void *ctx, int64_t pid), void *ctx) {
  if (!s->nvals)
    return TC_OK;
  /* By seq key: the table key in the table it was asked of last (most keys
   * are one process's). */
  struct key_in {
    const tc_vtab *tab;
    uint32_t id;
  } *in = calloc(s->nvkeys, sizeof *in);
  if (!in)
    return TC_E_NOMEM;
  tc_err e = TC_OK;
  for (size_t i = 0; !e && i < s->nvals; i++) {
    const tc_seq_val *v = &s->vals[i];
    tc_vtab *t = tab_of(ctx, v->pid);
    if (!t) {
      e = TC_E_NOMEM;
      break;
    }
    struct key_in *k = &in[v->key];
    if (k->tab != t) {
      const tc_seq_vkey *vk = &s->vkeys[v->key];
      if ((e = tc_vtab_key(t, tc_seq_vtext(s, vk->name_off, vk->name_len),
                           tc_seq_vtext(s, vk->path_off, vk->path_len), &k->id)))
        break;
      k->tab = t;
    }
    e = tc_vtab_add(t, k->id, v->type, v->num, tc_seq_vtext(s, v->str_off, v->str_len),
                    v->count);
  }
  free(in);
  return e;
}
