/* A work-stealing thread pool.
 *
 * Each worker owns a Chase-Lev deque (Chase & Lev, SPAA 2005, with the
 * C11 memory orders of Le, Pop, Cohen & Zappa Nardelli, PPoPP 2013). A task
 * running on worker W spawns onto W's own deque (LIFO for W, so the newest,
 * cache-warm work runs first); idle workers steal the oldest task from a
 * random victim. Tasks submitted from outside the pool go to a shared
 * injection queue that workers drain before stealing.
 *
 * Tasks cannot fail: a task reports its outcome through its own argument.
 * The pool never frees task arguments. */
#ifndef TC_POOL_H
#define TC_POOL_H

#include "util/tc_error.h"

typedef struct tc_pool tc_pool;

/* WORKER is the index (0 .. workers-1) of the thread running the task, to
 * select per-worker state without locks. */
typedef void (*tc_task_fn)(void *arg, unsigned worker);

/* Starts NWORKERS threads (at least 1). NULL if threads or memory fail. */
tc_pool *tc_pool_create(unsigned nworkers);

unsigned tc_pool_workers(const tc_pool *p);

/* From any thread that is not a worker of P. */
tc_err tc_pool_submit(tc_pool *p, tc_task_fn fn, void *arg);

/* From inside a task running on WORKER of P: pushes onto that worker's deque. */
tc_err tc_pool_spawn(tc_pool *p, unsigned worker, tc_task_fn fn, void *arg);

/* From inside a task running on WORKER: runs one other pending task (own
 * deque, then injection queue, then stealing) and returns 1, or returns 0
 * at once if none was found. Lets a task that waits on its children help
 * instead of blocking a worker. */
int tc_pool_help(tc_pool *p, unsigned worker);

/* From outside the pool: blocks until every submitted task and every task
 * they spawned has returned. The pool stays usable afterwards. */
void tc_pool_wait(tc_pool *p);

/* Waits like tc_pool_wait, then joins the threads. Accepts NULL. */
void tc_pool_free(tc_pool *p);

#endif
