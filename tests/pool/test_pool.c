/* The pool: every task runs exactly once with 1, 2 and 8 workers, whether
 * submitted or spawned; recursive trees sum like an iterative loop says;
 * tc_pool_help lets a task wait for its children even on one worker; a spawn
 * wakes a sleeping worker; the pool survives wait and reuse.
 *
 * cmocka's asserts must run on the test's own thread, so tasks only record
 * what they saw and the test asserts after tc_pool_wait. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pool/tc_pool.h"

enum { NTASKS = 100000 };

static void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* ---- every task exactly once ---- */

typedef struct {
  atomic_uint hits;
  unsigned worker; /* written by the task, read after tc_pool_wait */
} slot;

static slot *slots_new(size_t n) {
  slot *s = malloc(n * sizeof *s);
  assert_non_null(s);
  for (size_t i = 0; i < n; i++) {
    atomic_init(&s[i].hits, 0);
    s[i].worker = ~0u;
  }
  return s;
}

static void hit(void *arg, unsigned worker) {
  slot *s = arg;
  atomic_fetch_add_explicit(&s->hits, 1, memory_order_relaxed);
  s->worker = worker;
}

/* Each slot was hit TIMES times, last by a worker in range. */
static void check_slots(const slot *s, size_t n, unsigned times, unsigned nworkers) {
  for (size_t i = 0; i < n; i++) {
    assert_int_equal(atomic_load(&s[i].hits), times);
    assert_true(s[i].worker < nworkers);
  }
}

static void submit_each_once(unsigned nworkers) {
  tc_pool *p = tc_pool_create(nworkers);
  assert_non_null(p);
  assert_int_equal(tc_pool_workers(p), nworkers);
  slot *s = slots_new(NTASKS);
  for (size_t i = 0; i < NTASKS; i++)
    assert_int_equal(tc_pool_submit(p, hit, &s[i]), TC_OK);
  tc_pool_wait(p);
  check_slots(s, NTASKS, 1, nworkers);
  tc_pool_free(p);
  free(s);
}

static void test_submit_1(void **state) { (void)state; submit_each_once(1); }
static void test_submit_2(void **state) { (void)state; submit_each_once(2); }
static void test_submit_8(void **state) { (void)state; submit_each_once(8); }

/* Four submitted roots each spawn a quarter of the tasks from inside. */
enum { NROOTS = 4 };

typedef struct {
  tc_pool *p;
  slot *first;
  size_t n;
  atomic_uint *errors;
} spawner;

static void spawn_all(void *arg, unsigned worker) {
  spawner *sp = arg;
  for (size_t i = 0; i < sp->n; i++)
    if (tc_pool_spawn(sp->p, worker, hit, &sp->first[i]) != TC_OK)
      atomic_fetch_add(sp->errors, 1);
}

static void spawn_each_once(unsigned nworkers) {
  tc_pool *p = tc_pool_create(nworkers);
  assert_non_null(p);
  slot *s = slots_new(NTASKS);
  atomic_uint errors;
  atomic_init(&errors, 0);
  spawner sp[NROOTS];
  for (size_t r = 0; r < NROOTS; r++) {
    sp[r] = (spawner){p, s + r * (NTASKS / NROOTS), NTASKS / NROOTS, &errors};
    assert_int_equal(tc_pool_submit(p, spawn_all, &sp[r]), TC_OK);
  }
  tc_pool_wait(p);
  assert_int_equal(atomic_load(&errors), 0);
  check_slots(s, NTASKS, 1, nworkers);
  tc_pool_free(p);
  free(s);
}

static void test_spawn_1(void **state) { (void)state; spawn_each_once(1); }
static void test_spawn_2(void **state) { (void)state; spawn_each_once(2); }
static void test_spawn_8(void **state) { (void)state; spawn_each_once(8); }

/* ---- recursive trees ---- */

static uint64_t fib_loop(unsigned n) {
  uint64_t a = 0, b = 1;
  for (unsigned i = 0; i < n; i++) {
    uint64_t c = a + b;
    a = b;
    b = c;
  }
  return a;
}

/* Calls made by the naive recursion: 1 for n < 2, else 1 + both halves. */
static uint64_t fib_calls_loop(unsigned n) {
  uint64_t a = 1, b = 1; /* calls(0), calls(1) */
  for (unsigned i = 1; i < n; i++) {
    uint64_t c = a + b + 1;
    a = b;
    b = c;
  }
  return n == 0 ? a : b;
}

/* Fire and forget: leaves add their value; nobody waits inside the pool. */
static struct {
  tc_pool *p;
  atomic_ullong sum, nodes;
  atomic_uint errors;
} tree;

static void fib_spread(void *arg, unsigned worker) {
  unsigned n = (unsigned)(uintptr_t)arg;
  atomic_fetch_add_explicit(&tree.nodes, 1, memory_order_relaxed);
  if (n < 2) {
    atomic_fetch_add_explicit(&tree.sum, n, memory_order_relaxed);
    return;
  }
  for (unsigned k = 1; k <= 2; k++)
    if (tc_pool_spawn(tree.p, worker, fib_spread, (void *)(uintptr_t)(n - k)) != TC_OK)
      atomic_fetch_add(&tree.errors, 1);
}

static void fib_tree(unsigned nworkers) {
  enum { N = 24 };
  tree.p = tc_pool_create(nworkers);
  assert_non_null(tree.p);
  atomic_init(&tree.sum, 0);
  atomic_init(&tree.nodes, 0);
  atomic_init(&tree.errors, 0);
  assert_int_equal(tc_pool_submit(tree.p, fib_spread, (void *)(uintptr_t)N), TC_OK);
  tc_pool_wait(tree.p);
  assert_int_equal(atomic_load(&tree.errors), 0);
  assert_int_equal(atomic_load(&tree.sum), fib_loop(N));
  assert_int_equal(atomic_load(&tree.nodes), fib_calls_loop(N));
  tc_pool_free(tree.p);
}

static void test_fib_tree_1(void **state) { (void)state; fib_tree(1); }
static void test_fib_tree_2(void **state) { (void)state; fib_tree(2); }
static void test_fib_tree_8(void **state) { (void)state; fib_tree(8); }

/* Fork-join: each node spawns two children whose records live on its own
 * stack, and helps until both are done, then adds their results. */
typedef struct jnode {
  tc_pool *p;
  unsigned n;
  uint64_t result;  /* written by the node's task before done */
  atomic_int done;  /* release by the node's task, acquire by its parent */
  atomic_ullong *helped; /* tasks run through tc_pool_help */
  atomic_uint *errors;
} jnode;

static void fib_join(void *arg, unsigned worker);

static void jnode_init(jnode *x, const jnode *parent, unsigned n) {
  x->p = parent->p;
  x->n = n;
  x->result = 0;
  atomic_init(&x->done, 0);
  x->helped = parent->helped;
  x->errors = parent->errors;
}

static void fib_join(void *arg, unsigned worker) {
  jnode *x = arg;
  if (x->n < 2) {
    x->result = x->n;
  } else {
    jnode kid[2];
    for (unsigned k = 0; k < 2; k++) {
      jnode_init(&kid[k], x, x->n - 1 - k);
      if (tc_pool_spawn(x->p, worker, fib_join, &kid[k]) != TC_OK) {
        atomic_fetch_add(x->errors, 1);
        fib_join(&kid[k], worker);
      }
    }
    while (!atomic_load_explicit(&kid[0].done, memory_order_acquire) ||
           !atomic_load_explicit(&kid[1].done, memory_order_acquire)) {
      if (tc_pool_help(x->p, worker))
        atomic_fetch_add_explicit(x->helped, 1, memory_order_relaxed);
      else
        sched_yield();
    }
    x->result = kid[0].result + kid[1].result;
  }
  /* Last touch of X: the parent may return and drop its stack right after. */
  atomic_store_explicit(&x->done, 1, memory_order_release);
}

static void fib_join_run(unsigned nworkers) {
  enum { N = 20 };
  atomic_ullong helped;
  atomic_uint errors;
  atomic_init(&helped, 0);
  atomic_init(&errors, 0);
  jnode root = {.p = tc_pool_create(nworkers), .n = N, .helped = &helped, .errors = &errors};
  atomic_init(&root.done, 0);
  assert_non_null(root.p);
  assert_int_equal(tc_pool_submit(root.p, fib_join, &root), TC_OK);
  tc_pool_wait(root.p);
  assert_int_equal(atomic_load(&errors), 0);
  assert_int_equal(atomic_load(&root.done), 1);
  assert_int_equal(root.result, fib_loop(N));
  /* On one worker nobody else can run a child, so every task but the root
   * ran inside tc_pool_help. */
  if (nworkers == 1)
    assert_int_equal(atomic_load(&helped), fib_calls_loop(N) - 1);
  tc_pool_free(root.p);
}

static void test_fib_join_1(void **state) { (void)state; fib_join_run(1); }
static void test_fib_join_2(void **state) { (void)state; fib_join_run(2); }
static void test_fib_join_8(void **state) { (void)state; fib_join_run(8); }

/* ---- help and spawn outside their contract ---- */

typedef struct {
  tc_pool *p;
  int help_alone;    /* tc_pool_help with nothing else pending */
  int help_other;    /* tc_pool_help naming a worker that is not the caller */
  tc_err spawn_other; /* tc_pool_spawn naming a worker that is not the caller */
} lonely;

static void lonely_task(void *arg, unsigned worker) {
  lonely *l = arg;
  l->help_alone = tc_pool_help(l->p, worker);
  l->help_other = tc_pool_help(l->p, worker + 1);
  l->spawn_other = tc_pool_spawn(l->p, worker + 1, hit, NULL);
}

static void test_help_and_spawn_refusals(void **state) {
  (void)state;
  tc_pool *p = tc_pool_create(1);
  assert_non_null(p);
  lonely l = {p, -1, -1, TC_OK};
  assert_int_equal(tc_pool_submit(p, lonely_task, &l), TC_OK);
  tc_pool_wait(p);
  assert_int_equal(l.help_alone, 0);
  assert_int_equal(l.help_other, 0);
  assert_int_equal(l.spawn_other, TC_E_USAGE);
  /* Not a worker at all. */
  assert_int_equal(tc_pool_help(p, 0), 0);
  assert_int_equal(tc_pool_spawn(p, 0, hit, NULL), TC_E_USAGE);
  tc_pool_free(p);
}

/* ---- help_spawned never starts a submitted task ---- */

typedef struct {
  tc_pool *p;
  atomic_int b_submitted, b_ran, c_ran;
  int first, second, third; /* help_spawned, help_spawned, help */
  int b_ran_before_help;
} spawned_only;

static void task_b(void *arg, unsigned worker) {
  (void)worker;
  atomic_store(&((spawned_only *)arg)->b_ran, 1);
}

static void task_c(void *arg, unsigned worker) {
  (void)worker;
  atomic_store(&((spawned_only *)arg)->c_ran, 1);
}

/* On the only worker, with B submitted behind it: its own child C is
 * helped with, B is left for the pool until plain tc_pool_help takes it. */
static void task_a(void *arg, unsigned worker) {
  spawned_only *x = arg;
  while (!atomic_load(&x->b_submitted))
    ;
  assert_int_equal(tc_pool_spawn(x->p, worker, task_c, x), TC_OK);
  x->first = tc_pool_help_spawned(x->p, worker);
  x->second = tc_pool_help_spawned(x->p, worker);
  x->b_ran_before_help = atomic_load(&x->b_ran);
  x->third = tc_pool_help(x->p, worker);
}

static void test_help_spawned_leaves_submitted_tasks(void **state) {
  (void)state;
  tc_pool *p = tc_pool_create(1);
  assert_non_null(p);
  spawned_only x = {.p = p};
  assert_int_equal(tc_pool_submit(p, task_a, &x), TC_OK);
  assert_int_equal(tc_pool_submit(p, task_b, &x), TC_OK);
  atomic_store(&x.b_submitted, 1);
  tc_pool_wait(p);
  assert_int_equal(x.first, 1);  /* ran C */
  assert_int_equal(x.second, 0); /* B pending, not taken */
  assert_int_equal(x.b_ran_before_help, 0);
  assert_int_equal(x.third, 1);  /* tc_pool_help takes B */
  assert_int_equal(atomic_load(&x.c_ran), 1);
  assert_int_equal(atomic_load(&x.b_ran), 1);
  assert_int_equal(tc_pool_help_spawned(p, 0), 0); /* not a worker */
  tc_pool_free(p);
}

/* ---- a spawn wakes a sleeping worker ---- */

typedef struct {
  tc_pool *p;
  atomic_int child_done;
  unsigned parent_worker, child_worker;
  int waited_out; /* the parent gave up waiting: nobody stole the child */
} handoff;

static void child_task(void *arg, unsigned worker) {
  handoff *h = arg;
  h->child_worker = worker;
  atomic_store_explicit(&h->child_done, 1, memory_order_release);
}

/* Spawns a child and spins WITHOUT helping: only a stealing worker can run
 * the child, and that worker was asleep. */
static void parent_task(void *arg, unsigned worker) {
  handoff *h = arg;
  h->parent_worker = worker;
  if (tc_pool_spawn(h->p, worker, child_task, h) != TC_OK) {
    h->waited_out = 1;
    return;
  }
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  while (!atomic_load_explicit(&h->child_done, memory_order_acquire)) {
    sched_yield();
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - start.tv_sec > 20) {
      h->waited_out = 1;
      return;
    }
  }
}

static void test_spawn_wakes_sleeper(void **state) {
  (void)state;
  tc_pool *p = tc_pool_create(2);
  assert_non_null(p);
  for (int round = 0; round < 20; round++) {
    /* Long enough for both workers to give up spinning and sleep. */
    sleep_ms(20);
    handoff h = {.p = p, .parent_worker = ~0u, .child_worker = ~0u};
    atomic_init(&h.child_done, 0);
    assert_int_equal(tc_pool_submit(p, parent_task, &h), TC_OK);
    tc_pool_wait(p);
    assert_int_equal(h.waited_out, 0);
    assert_true(h.parent_worker < 2 && h.child_worker < 2);
    assert_int_not_equal(h.parent_worker, h.child_worker);
  }
  tc_pool_free(p);
}

/* ---- lifetime ---- */

static void test_wait_then_reuse(void **state) {
  (void)state;
  enum { N = 1000 };
  tc_pool *p = tc_pool_create(4);
  assert_non_null(p);
  tc_pool_wait(p); /* nothing pending: returns at once */
  slot *s = slots_new(N);
  for (unsigned round = 1; round <= 3; round++) {
    /* Workers are asleep by now, so the submits must wake them. */
    sleep_ms(20);
    for (size_t i = 0; i < N; i++)
      assert_int_equal(tc_pool_submit(p, hit, &s[i]), TC_OK);
    tc_pool_wait(p);
    check_slots(s, N, round, 4);
    tc_pool_wait(p);
  }
  tc_pool_free(p);
  free(s);
}

static void test_free_without_tasks(void **state) {
  (void)state;
  tc_pool_free(NULL);
  unsigned counts[] = {0, 1, 8};
  for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
    tc_pool *p = tc_pool_create(counts[i]);
    assert_non_null(p);
    assert_int_equal(tc_pool_workers(p), counts[i] ? counts[i] : 1);
    tc_pool_free(p);
  }
}

static void test_free_waits_for_tasks(void **state) {
  (void)state;
  enum { N = 10000 };
  slot *s = slots_new(N);
  tc_pool *p = tc_pool_create(3);
  assert_non_null(p);
  for (size_t i = 0; i < N; i++)
    assert_int_equal(tc_pool_submit(p, hit, &s[i]), TC_OK);
  tc_pool_free(p);
  check_slots(s, N, 1, 3);
  free(s);
}

/* Workers with nothing to do are counted asleep, never more than they
 * could have slept: the time since the pool started, per worker. */
static uint64_t wall_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void test_idle_clock(void **state) {
  (void)state;
  uint64_t t0 = wall_ns();
  tc_pool *p = tc_pool_create(2);
  assert_non_null(p);
  sleep_ms(100);
  slot s[2];
  memset(s, 0, sizeof s);
  /* Each task wakes a worker, which then adds the time it slept. */
  for (int i = 0; i < 2; i++)
    assert_int_equal(tc_pool_submit(p, hit, &s[i]), TC_OK);
  tc_pool_wait(p);
  uint64_t idle = tc_pool_idle_ns(p), whole = wall_ns() - t0;
  assert_true(idle > 50 * 1000000ull);
  assert_true(idle <= 2 * whole);
  tc_pool_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_submit_1),
      cmocka_unit_test(test_submit_2),
      cmocka_unit_test(test_submit_8),
      cmocka_unit_test(test_spawn_1),
      cmocka_unit_test(test_spawn_2),
      cmocka_unit_test(test_spawn_8),
      cmocka_unit_test(test_fib_tree_1),
      cmocka_unit_test(test_fib_tree_2),
      cmocka_unit_test(test_fib_tree_8),
      cmocka_unit_test(test_fib_join_1),
      cmocka_unit_test(test_fib_join_2),
      cmocka_unit_test(test_fib_join_8),
      cmocka_unit_test(test_help_and_spawn_refusals),
      cmocka_unit_test(test_help_spawned_leaves_submitted_tasks),
      cmocka_unit_test(test_spawn_wakes_sleeper),
      cmocka_unit_test(test_wait_then_reuse),
      cmocka_unit_test(test_free_without_tasks),
      cmocka_unit_test(test_free_waits_for_tasks),
      cmocka_unit_test(test_idle_clock),
  };
  return cmocka_run_group_tests_name("pool", tests, NULL, NULL);
}
