#include "parse_check.h"

#include "test_check.h"

/* Reads every byte, so that AddressSanitizer sees a string gone stale. */
static void touch(tc_str s) {
  volatile unsigned char sink = 0;
  for (size_t i = 0; i < s.len; i++)
    sink ^= (unsigned char)s.ptr[i];
  (void)sink;
}

static void check_event(const tc_parser *p, const tc_parsed *out, const tc_event *ev,
                        size_t nwanted) {
  check(ev->err == TC_OK || ev->err == TC_E_BAD_EVENT || ev->err == TC_E_EMPTY_EVENT);
  if (ev->err == TC_E_BAD_EVENT || (ev->flags & TC_EV_LENIENT))
    check(out->slow_path);
  if (ev->err != TC_OK) {
    check_eq(ev->npres, 0);
    check_eq(ev->nwant, 0);
    check_eq(ev->flags, 0);
    check_eq(ev->name.len, 0);
  }
  touch(ev->name);
  touch(ev->cat);
  touch(ev->ph);
  touch(ev->id);
  touch(ev->bind_id);
  touch(ev->scope);
  for (uint32_t k = 0; k < ev->npres; k++) {
    const tc_presence *a = &out->pres[ev->pres_begin + k];
    check(a->path < tc_parser_npaths(p));
    check(a->types != 0 && a->types <= 0x3f);
    tc_str path = tc_parser_path(p, a->path);
    check(path.len >= 4 && memcmp(path.ptr, "args", 4) == 0);
    for (uint32_t j = 0; j < k; j++)
      check(out->pres[ev->pres_begin + j].path != a->path);
  }
  for (uint32_t k = 0; k < ev->nwant; k++) {
    const tc_argval *a = &out->wanted[ev->want_begin + k];
    check(a->slot < nwanted);
    check(a->type == TC_JT_NULL || a->type == TC_JT_BOOL || a->type == TC_JT_NUMBER ||
          a->type == TC_JT_STRING);
    if (a->type == TC_JT_BOOL)
      check(a->num == 0 || a->num == 1);
    if (a->type == TC_JT_STRING)
      touch(a->str);
  }
}

void parsed_assert_sane(const tc_parser *p, const tc_chunk *chunk, const tc_parsed *out,
                        size_t nwanted) {
  check_eq(out->nevents, chunk->nevents);
  uint32_t pres = 0, want = 0;
  for (size_t i = 0; i < out->nevents; i++) {
    const tc_event *ev = &out->events[i];
    check_eq(ev->pres_begin, pres);
    check_eq(ev->want_begin, want);
    pres += ev->npres;
    want += ev->nwant;
    check(pres <= out->npres && want <= out->nwanted);
    check_event(p, out, ev, nwanted);
  }
  check_eq(pres, out->npres);
  check_eq(want, out->nwanted);
}
