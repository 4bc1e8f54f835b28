/* The parser's event model, shared by every stage after it.
 *
 * The JSON types of values (TC_JT_*, util/tc_jtype.h), one scalar argument value
 * (tc_argval), and tc_kevent: the compact form in which the events that need
 * trace order (B/E stacks, flow and async pairing, the metric kernels) are
 * copied out of a parsed chunk and folded in the order they appear in the
 * trace file. Only the argument values the kernels name
 * (tc_kernels_arg_paths()) are carried. It lives here, below the census and
 * the kernels, so that neither includes the other to speak of an event. */
#ifndef TC_EVENT_H
#define TC_EVENT_H

#include <stdint.h>

#include "util/tc_jtype.h"
#include "util/tc_str.h"

/* The pid or tid of an event that has none: matches no real process. */
#define TC_NO_ID INT64_MIN

/* One scalar argument value whose path is in tc_kernels_arg_paths(). */
typedef struct {
  uint16_t slot; /* index into tc_kernels_arg_paths() */
  uint8_t type;  /* one TC_JT_* bit */
  /* Ordinal (from 1, counting every array element of this event in
   * document order) of the innermost array element that holds the value, so
   * fields of one element of e.g. args.data.frames[] can be grouped; 0 when
   * the path has no array. */
  uint32_t elem;
  double num;    /* NUMBER, and BOOL as 0/1 */
  tc_str str;    /* STRING, unescaped; valid for the duration of the feed call */
} tc_argval;

typedef struct {
  tc_str name; /* valid for the duration of the feed call */
  tc_str cat;
  char ph;     /* '\0' if absent */
  double ts;   /* microseconds */
  double dur;  /* microseconds; < 0 if absent */
  int64_t pid, tid; /* TC_NO_ID when the event has none */
  tc_str id;   /* id, or id2.local / id2.global, as text; empty if none */
  uint64_t index; /* ordinal of the event in its trace, from 0 */
  uint8_t for_kernels; /* tc_kernels_wants said yes (set by pipeline/tc_route, which asked once) */
  uint8_t for_procs;   /* the process map reads it (procs/tc_procmap.h; likewise) */
  const tc_argval *args;
  uint32_t nargs;
} tc_kevent;

/* EV's argument value of SLOT, or NULL if it carries none. */
static inline const tc_argval *tc_kevent_arg(const tc_kevent *ev, int slot) {
  for (uint32_t i = 0; i < ev->nargs; i++)
    if (ev->args[i].slot == slot)
      return &ev->args[i];
  return NULL;
}

/* EV's argument of SLOT as a number (a boolean as 0/1) into *OUT; 0 if it
 * has none of those types. */
static inline int tc_kevent_num(const tc_kevent *ev, int slot, double *out) {
  const tc_argval *a = tc_kevent_arg(ev, slot);
  if (!a || !(a->type & (TC_JT_NUMBER | TC_JT_BOOL)))
    return 0;
  *out = a->num;
  return 1;
}

#endif
