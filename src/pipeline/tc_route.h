/* Per-event routing: which of a parsed chunk's events go, beside the
 * census's order-free tables, to the in-order fold (tc_seq), and in which
 * form.
 *
 *   census   every event without an error (tc_census_add_chunk)
 *   pairing  every B/E/s/f/b/e/S/F, as a tc_kevent
 *   procs    the events the trace's process map reads (thread and process
 *            names, the documents frames committed), as a tc_kevent with
 *            for_procs set, metrics on or off
 *   values   every argument value (tc_leaf), for the value profiles
 *            (tc_route_chunk_values)
 *   kernels  with metrics on: the complete ('X') task slices
 *            tc_kernels_task_kind recognises, in the compact
 *            tc_ktask_event (an X slice needs no pairing); the other events
 *            tc_kernels_wants (tc_kevent with for_kernels set); and each
 *            thread's time extent, metadata left out
 *
 * This is the one place that knows both the census and the kernels, so
 * neither includes the other. */
#ifndef TC_ROUTE_H
#define TC_ROUTE_H

#include "json/tc_chunker.h"
#include "json/tc_parser.h"
#include "pipeline/tc_seq.h"
#include "util/tc_error.h"

/* A worker's routing state: what it learnt of its parser's name,
 * category and path ids (the kernels' class of a name, whether a category
 * is user timing, which (name, path) pairs it has seen), so that an event
 * is classified by array lookups instead of by its text. One per worker,
 * for the chunks of one parser. */
typedef struct tc_router tc_router;

/* For chunks parsed by PARSER (borrowed: its ids index the state). NULL if
 * memory fails. */
tc_router *tc_router_create(const tc_parser *parser);
void tc_router_free(tc_router *r);

/* Appends what the fold needs of chunk C, parsed into P, to SEQ, in event
 * order; events with err set are skipped. KERNELS: metrics are on. */
tc_err tc_route_chunk(tc_router *r, const tc_chunk *c, const tc_parsed *p, int kernels,
                      tc_seq *seq);

/* The value profiles' routing: every argument value of every good event
 * goes to SEQ, which holds this chunk only, each (name, path) spelt out
 * once per chunk. */
tc_err tc_route_chunk_values(tc_router *r, const tc_parsed *p, tc_seq *seq);

#endif
