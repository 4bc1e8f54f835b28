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

#include <stdint.h>

#include "util/tc_error.h"

typedef struct tc_pool tc_pool;

/* WORKER is the index (0 .. workers-1) of the thread running the task, to
 * select per-worker state without locks. */
typedef void (*tc_task_fn)(void *arg, unsigned worker);

/* Starts NWORKERS threads (0 is taken as 1). NULL if threads or memory
 * fail. Free with tc_pool_free. */
tc_pool *tc_pool_create(unsigned nworkers);

unsigned tc_pool_workers(const tc_pool *p);

/* From any thread that is not a worker of P (from a worker it works, but
 * tc_pool_spawn is cheaper). TC_E_NOMEM when no task record fits. */
tc_err tc_pool_submit(tc_pool *p, tc_task_fn fn, void *arg);

/* From inside a task running on WORKER of P: pushes onto that worker's
 * deque. TC_E_USAGE, and nothing spawned, when the calling thread is not
 * worker WORKER of P; TC_E_NOMEM when memory runs out. */
tc_err tc_pool_spawn(tc_pool *p, unsigned worker, tc_task_fn fn, void *arg);

/* From inside a task running on WORKER: runs one other pending task (own
 * deque, then injection queue, then stealing) and returns 1, or returns 0
 * at once if none was found. Lets a task that waits on its children help
 * instead of blocking a worker.
 *
 * Returns 0 and does nothing when the calling thread is not worker WORKER
 * of P. Never blocks: 0 does not mean the caller's children are done (they
 * may be running on other workers), so a waiting task loops on its own
 * completion test, helping and yielding the CPU when help returns 0. The
 * task it runs may be any pending task, not only the caller's children, and
 * runs nested on the caller's stack, so the caller may resume only after
 * that task returns. Hence a task may wait this way only for work that does
 * not need the waiting task to go on, such as its own descendants. */
int tc_pool_help(tc_pool *p, unsigned worker);

/* Like tc_pool_help, but runs only a task spawned inside the pool (own
 * deque, then stealing), never one submitted from outside. For a task that
 * waits on its descendants while the injection queue holds long tasks that
 * themselves wait (a trace reader): nesting one of those would hold the
 * waiting task's resources and stack for the whole of the other, and could
 * nest without bound. What it runs nests only as deep as spawned tasks
 * that themselves help. */
int tc_pool_help_spawned(tc_pool *p, unsigned worker);

/* From outside the pool: blocks until every submitted task and every task
 * they spawned has returned. The pool stays usable afterwards. Called from
 * a worker of P it would wait for its own task forever. */
void tc_pool_wait(tc_pool *p);

/* Wall nanoseconds the workers have spent asleep for want of a task,
 * summed over them, since the pool was created. Exact once every task has
 * returned (after tc_pool_wait); a worker asleep now is counted when it wakes. */
uint64_t tc_pool_idle_ns(tc_pool *p);

/* Waits like tc_pool_wait, then joins the threads and frees P. Accepts
 * NULL. No other thread may submit to P meanwhile or use it afterwards. */
void tc_pool_free(tc_pool *p);

#endif
