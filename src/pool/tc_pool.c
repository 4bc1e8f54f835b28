/* The work-stealing pool.
 *
 * Workers. tc_pool_create starts N threads; worker i owns deque i
 * (tc_deque.h). A worker loops: pop its own deque (newest first, cache-warm),
 * else take the oldest task of the injection queue, else steal the oldest
 * task of each other worker in turn, starting at a random one. Only a task
 * running on worker i pushes onto deque i (tc_pool_spawn), so every deque
 * has exactly one owner thread, as Chase-Lev requires.
 *
 * Injection queue. Threads outside the pool own no deque; tc_pool_submit
 * appends their tasks to a FIFO list under inj_mu. inj_len mirrors its
 * length so that workers skip the lock while it is empty.
 *
 * Counting. pending counts tasks submitted or spawned whose function has not
 * returned. A task is counted before it is published and uncounted after it
 * returns, so a running parent keeps the count above zero until its children
 * are counted. tc_pool_wait sleeps on done_cv until pending reads zero; the
 * worker that brings it to zero broadcasts under done_mu, and the waiter
 * checks under done_mu, so that broadcast cannot fall between its check and
 * its sleep.
 *
 * Sleeping. A worker that finds nothing looks again TC_POOL_SPIN times,
 * yielding the CPU in between, then sleeps on sleep_cv. The danger is a lost
 * wakeup: a task published just after the worker's last look, by a publisher
 * that saw nobody asleep, would wait until some worker happens to look. An
 * event count closes the gap:
 *   sleeper:   under sleep_mu, ticket = wake_seq and nidle += 1;
 *              seq_cst fence; look at every queue once more;
 *              if still nothing, wait under sleep_mu while wake_seq == ticket.
 *   publisher: push or enqueue; seq_cst fence;
 *              if nidle > 0, under sleep_mu wake_seq += 1 and signal.
 * Both fences lie in one total order. If the publisher's comes first, the
 * sleeper's last look sees the task; if the sleeper's comes first, the
 * publisher sees nidle > 0 and bumps wake_seq, which the sleeper reads under
 * the lock before every wait. A steal that loses a race during the last look
 * counts as finding work (the victim may hold more), so the worker goes
 * back to looking instead of sleeping.
 *
 * Task records. Each task is a malloc'd {fn, arg}. A record leaves a deque or
 * the injection queue through exactly one thread (the deque guarantees it for
 * concurrent steals and pops), which frees it before calling fn. A thief that
 * loses a race has read the pointer in a deque slot, never the record.
 *
 * Shutdown. tc_pool_free waits for pending to reach zero, sets stopping under
 * sleep_mu, broadcasts, and joins the workers, which exit once they find
 * nothing to do and see stopping. */
#include "pool/tc_pool.h"

#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "pool/tc_deque.h"

/* Rounds of looking for work before a worker sleeps. Each round yields the
 * CPU, so spinning workers do not starve busy ones on a small machine. */
#define TC_POOL_SPIN 32

/* Room for the first spawns of a task before its deque grows. */
#define TC_POOL_DEQUE_CAPACITY 256

/* Fields written by different threads sit on different cache lines. */
#define TC_POOL_LINE 64

typedef struct tc_task {
  tc_task_fn fn;
  void *arg;
  struct tc_task *next; /* injection queue link; inj_mu */
} tc_task;

typedef struct {
  alignas(TC_POOL_LINE) tc_pool *pool; /* immutable after create */
  /* Immutable after create. The deque is pushed and popped by this worker's
   * thread only, stolen from by any (orders in tc_deque.c). */
  tc_deque *deque;
  uint64_t rng;    /* this worker's thread only: victim choice */
  unsigned index;  /* immutable after create */
  /* Wall nanoseconds asleep in go_idle: added by this worker's thread
   * (relaxed), read by tc_pool_idle_ns once the caller has waited for the
   * pool, so only the worker's own adds race with nothing. */
  _Atomic uint64_t idle_ns;
  pthread_t thread; /* written by create before the pool is returned; read by free */
} tc_worker;

struct tc_pool {
  tc_worker *workers; /* immutable after create */
  unsigned nworkers;  /* immutable after create */

  alignas(TC_POOL_LINE) pthread_mutex_t inj_mu;
  tc_task *inj_head; /* inj_mu */
  tc_task *inj_tail; /* inj_mu */
  /* Stored under inj_mu; read without it, relaxed, as a hint, and once after
   * the sleeper's seq_cst fence (see "Sleeping"). */
  _Atomic size_t inj_len;

  /* Incremented relaxed before a task is published; decremented with
   * release after it returns; read with acquire by tc_pool_wait. */
  alignas(TC_POOL_LINE) _Atomic size_t pending;
  pthread_mutex_t done_mu; /* orders the last decrement's broadcast with wait's check */
  pthread_cond_t done_cv;  /* done_mu */

  alignas(TC_POOL_LINE) pthread_mutex_t sleep_mu;
  pthread_cond_t sleep_cv; /* sleep_mu */
  unsigned long wake_seq;  /* sleep_mu */
  int stopping;            /* sleep_mu */
  /* Workers between announcing themselves idle and waking. Incremented
   * seq_cst under sleep_mu; read by publishers after a seq_cst fence;
   * decremented relaxed (a stale nonzero value only costs a needless bump). */
  _Atomic unsigned nidle;
};

/* The worker the calling thread is, or NULL outside every pool. Lets
 * tc_pool_spawn and tc_pool_help refuse calls from the wrong thread, which
 * would otherwise break the one-owner rule of the deques. */
static _Thread_local tc_worker *tc_pool_self;

static tc_worker *caller_worker(tc_pool *p, unsigned worker) {
  if (worker >= p->nworkers || tc_pool_self != &p->workers[worker])
    return NULL;
  return tc_pool_self;
}

/* xorshift64: victim order only needs to differ between workers and rounds. */
static unsigned next_victim(tc_worker *w, unsigned n) {
  w->rng ^= w->rng << 13;
  w->rng ^= w->rng >> 7;
  w->rng ^= w->rng << 17;
  return (unsigned)(w->rng % n);
}

static tc_task *inj_take(tc_pool *p) {
  /* relaxed: a hint. A task it misses is found by the look after the
   * sleeper's fence, or its submitter wakes a sleeper. */
  if (atomic_load_explicit(&p->inj_len, memory_order_relaxed) == 0)
    return NULL;
  pthread_mutex_lock(&p->inj_mu);
  tc_task *t = p->inj_head;
  if (t) {
    p->inj_head = t->next;
    if (!p->inj_head)
      p->inj_tail = NULL;
    atomic_fetch_sub_explicit(&p->inj_len, 1, memory_order_relaxed);
  }
  pthread_mutex_unlock(&p->inj_mu);
  return t;
}

/* One try at every other worker's deque, from a random one on. Sets
 * *CONTENDED when a steal lost a race, i.e. work may remain. */
static tc_task *steal_round(tc_pool *p, tc_worker *w, int *contended) {
  unsigned n = p->nworkers;
  if (n == 1)
    return NULL;
  unsigned start = next_victim(w, n);
  for (unsigned i = 0; i < n; i++) {
    tc_worker *v = &p->workers[(start + i) % n];
    void *item;
    if (v == w)
      continue;
    tc_steal r = tc_deque_steal(v->deque, &item);
    if (r == TC_STEAL_OK)
      return item;
    if (r == TC_STEAL_LOST)
      *contended = 1;
  }
  return NULL;
}

/* WITH_INJECTED: whether tasks submitted from outside may be taken. */
static tc_task *find_task(tc_pool *p, tc_worker *w, int *contended, int with_injected) {
  tc_task *t = tc_deque_pop(w->deque);
  if (!t && with_injected)
    t = inj_take(p);
  if (!t)
    t = steal_round(p, w, contended);
  return t;
}

static void run_task(tc_pool *p, tc_worker *w, tc_task *t) {
  tc_task_fn fn = t->fn;
  void *arg = t->arg;
  free(t);
  fn(arg, w->index);
  /* release: the task's writes happen-before the return of a tc_pool_wait
   * that reads zero (the decrements form one release sequence). */
  if (atomic_fetch_sub_explicit(&p->pending, 1, memory_order_release) == 1) {
    pthread_mutex_lock(&p->done_mu);
    pthread_cond_broadcast(&p->done_cv);
    pthread_mutex_unlock(&p->done_mu);
  }
}

/* After a task was published: wakes a sleeper if there may be one. */
static void wake_one(tc_pool *p) {
  /* seq_cst: orders the publishing store (bottom, inj_len) before the load
   * of nidle; pairs with the fence in go_idle (see "Sleeping"). */
  atomic_thread_fence(memory_order_seq_cst);
  /* relaxed: the fence does the ordering. */
  if (atomic_load_explicit(&p->nidle, memory_order_relaxed) == 0)
    return;
  pthread_mutex_lock(&p->sleep_mu);
  p->wake_seq++;
  pthread_cond_signal(&p->sleep_cv);
  pthread_mutex_unlock(&p->sleep_mu);
}

/* The sleeper's half of "Sleeping". Returns a task found by the last look,
 * or NULL after a wake-up; then sets *STOP if the pool is shutting down. */
static tc_task *go_idle(tc_pool *p, tc_worker *w, int *stop) {
  pthread_mutex_lock(&p->sleep_mu);
  unsigned long ticket = p->wake_seq;
  /* seq_cst: see the fence just below. */
  atomic_fetch_add_explicit(&p->nidle, 1, memory_order_seq_cst);
  pthread_mutex_unlock(&p->sleep_mu);
  /* seq_cst: orders the nidle increment before the last look's loads of
   * bottom and inj_len; pairs with the fence in wake_one. */
  atomic_thread_fence(memory_order_seq_cst);
  int contended = 0;
  tc_task *t = find_task(p, w, &contended, 1);
  if (!t && !contended) {
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    pthread_mutex_lock(&p->sleep_mu);
    while (p->wake_seq == ticket && !p->stopping)
      pthread_cond_wait(&p->sleep_cv, &p->sleep_mu);
    *stop = p->stopping;
    pthread_mutex_unlock(&p->sleep_mu);
    clock_gettime(CLOCK_MONOTONIC, &b);
    uint64_t ns = (uint64_t)((b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec));
    atomic_fetch_add_explicit(&w->idle_ns, ns, memory_order_relaxed);
  }
  atomic_fetch_sub_explicit(&p->nidle, 1, memory_order_relaxed);
  return t;
}

static void *worker_main(void *arg) {
  tc_worker *w = arg;
  tc_pool *p = w->pool;
  tc_pool_self = w;
  for (;;) {
    int contended = 0, stop = 0;
    tc_task *t = find_task(p, w, &contended, 1);
    for (unsigned i = 0; !t && i < TC_POOL_SPIN; i++) {
      sched_yield();
      t = find_task(p, w, &contended, 1);
    }
    if (!t)
      t = go_idle(p, w, &stop);
    if (t)
      run_task(p, w, t);
    else if (stop)
      return NULL;
  }
}

static int sync_init(tc_pool *p) {
  if (pthread_mutex_init(&p->inj_mu, NULL))
    return -1;
  if (pthread_mutex_init(&p->done_mu, NULL))
    goto no_done_mu;
  if (pthread_cond_init(&p->done_cv, NULL))
    goto no_done_cv;
  if (pthread_mutex_init(&p->sleep_mu, NULL))
    goto no_sleep_mu;
  if (pthread_cond_init(&p->sleep_cv, NULL))
    goto no_sleep_cv;
  return 0;
no_sleep_cv:
  pthread_mutex_destroy(&p->sleep_mu);
no_sleep_mu:
  pthread_cond_destroy(&p->done_cv);
no_done_cv:
  pthread_mutex_destroy(&p->done_mu);
no_done_mu:
  pthread_mutex_destroy(&p->inj_mu);
  return -1;
}

/* Stops and joins the first STARTED workers, then frees the first MADE
 * deques and the pool. The pool must have no pending task. */
static void teardown(tc_pool *p, unsigned made, unsigned started) {
  pthread_mutex_lock(&p->sleep_mu);
  p->stopping = 1;
  pthread_cond_broadcast(&p->sleep_cv);
  pthread_mutex_unlock(&p->sleep_mu);
  for (unsigned i = 0; i < started; i++)
    pthread_join(p->workers[i].thread, NULL);
  for (unsigned i = 0; i < made; i++)
    tc_deque_free(p->workers[i].deque);
  pthread_cond_destroy(&p->sleep_cv);
  pthread_mutex_destroy(&p->sleep_mu);
  pthread_cond_destroy(&p->done_cv);
  pthread_mutex_destroy(&p->done_mu);
  pthread_mutex_destroy(&p->inj_mu);
  free(p->workers);
  free(p);
}

tc_pool *tc_pool_create(unsigned nworkers) {
  unsigned n = nworkers ? nworkers : 1;
  /* aligned_alloc wants a multiple of the alignment; alignas members make
   * both sizes one. */
  tc_pool *p = aligned_alloc(alignof(tc_pool), sizeof *p);
  if (!p)
    return NULL;
  p->workers = aligned_alloc(alignof(tc_worker), n * sizeof(tc_worker));
  if (!p->workers || sync_init(p)) {
    free(p->workers);
    free(p);
    return NULL;
  }
  p->nworkers = n;
  p->inj_head = p->inj_tail = NULL;
  atomic_init(&p->inj_len, 0);
  atomic_init(&p->pending, 0);
  p->wake_seq = 0;
  p->stopping = 0;
  atomic_init(&p->nidle, 0);
  /* Every deque exists before the first thread may steal from it. */
  unsigned made = 0, started = 0;
  for (; made < n; made++) {
    tc_worker *w = &p->workers[made];
    w->pool = p;
    w->index = made;
    w->rng = 0x9E3779B97F4A7C15ull * (made + 1);
    atomic_init(&w->idle_ns, 0);
    w->deque = tc_deque_create(TC_POOL_DEQUE_CAPACITY);
    if (!w->deque)
      break;
  }
  if (made == n)
    while (started < n && pthread_create(&p->workers[started].thread, NULL, worker_main,
                                         &p->workers[started]) == 0)
      started++;
  if (started < n) {
    teardown(p, made, started);
    return NULL;
  }
  return p;
}

unsigned tc_pool_workers(const tc_pool *p) { return p->nworkers; }

static tc_task *task_new(tc_task_fn fn, void *arg) {
  tc_task *t = malloc(sizeof *t);
  if (t) {
    t->fn = fn;
    t->arg = arg;
    t->next = NULL;
  }
  return t;
}

tc_err tc_pool_submit(tc_pool *p, tc_task_fn fn, void *arg) {
  tc_task *t = task_new(fn, arg);
  if (!t)
    return TC_E_NOMEM;
  /* relaxed: the decrement by whoever runs the task happens after this
   * increment through inj_mu, so it cannot come first. */
  atomic_fetch_add_explicit(&p->pending, 1, memory_order_relaxed);
  pthread_mutex_lock(&p->inj_mu);
  if (p->inj_tail)
    p->inj_tail->next = t;
  else
    p->inj_head = t;
  p->inj_tail = t;
  atomic_fetch_add_explicit(&p->inj_len, 1, memory_order_relaxed);
  pthread_mutex_unlock(&p->inj_mu);
  wake_one(p);
  return TC_OK;
}

tc_err tc_pool_spawn(tc_pool *p, unsigned worker, tc_task_fn fn, void *arg) {
  tc_worker *w = caller_worker(p, worker);
  if (!w)
    return TC_E_USAGE;
  tc_task *t = task_new(fn, arg);
  if (!t)
    return TC_E_NOMEM;
  /* relaxed: whoever runs the task took it through the release store of
   * bottom, so its decrement comes after this increment. */
  atomic_fetch_add_explicit(&p->pending, 1, memory_order_relaxed);
  if (tc_deque_push(w->deque, t) != TC_OK) {
    /* Cannot reach zero: the calling task is still counted. */
    atomic_fetch_sub_explicit(&p->pending, 1, memory_order_relaxed);
    free(t);
    return TC_E_NOMEM;
  }
  wake_one(p);
  return TC_OK;
}

static int help(tc_pool *p, unsigned worker, int with_injected) {
  tc_worker *w = caller_worker(p, worker);
  if (!w)
    return 0;
  int contended = 0;
  tc_task *t = find_task(p, w, &contended, with_injected);
  if (!t)
    return 0;
  run_task(p, w, t);
  return 1;
}

int tc_pool_help(tc_pool *p, unsigned worker) { return help(p, worker, 1); }

int tc_pool_help_spawned(tc_pool *p, unsigned worker) { return help(p, worker, 0); }

uint64_t tc_pool_idle_ns(tc_pool *p) {
  uint64_t ns = 0;
  for (unsigned i = 0; i < p->nworkers; i++)
    ns += atomic_load_explicit(&p->workers[i].idle_ns, memory_order_relaxed);
  return ns;
}

void tc_pool_wait(tc_pool *p) {
  /* A worker of P waiting for P would wait for its own task. */
  assert(!tc_pool_self || tc_pool_self->pool != p);
  pthread_mutex_lock(&p->done_mu);
  /* acquire: pairs with the release decrements, so the tasks' writes are
   * visible to the caller. */
  while (atomic_load_explicit(&p->pending, memory_order_acquire) != 0)
    pthread_cond_wait(&p->done_cv, &p->done_mu);
  pthread_mutex_unlock(&p->done_mu);
}

void tc_pool_free(tc_pool *p) {
  if (!p)
    return;
  tc_pool_wait(p);
  teardown(p, p->nworkers, p->nworkers);
}
