/* The Chase-Lev deque: order and growth on one thread against a plain array
 * model, then one owner and several thieves taking every item exactly once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "pool/tc_deque.h"

#define NVALS 1000

static int vals[NVALS];

static void test_pop_is_lifo(void **state) {
  (void)state;
  tc_deque *d = tc_deque_create(4);
  assert_non_null(d);
  for (int i = 0; i < NVALS; i++)
    assert_int_equal(tc_deque_push(d, &vals[i]), TC_OK);
  for (int i = NVALS - 1; i >= 0; i--)
    assert_ptr_equal(tc_deque_pop(d), &vals[i]);
  assert_null(tc_deque_pop(d));
  void *x = NULL;
  assert_int_equal(tc_deque_steal(d, &x), TC_STEAL_EMPTY);
  assert_null(x);
  tc_deque_free(d);
}

static void test_steal_is_fifo(void **state) {
  (void)state;
  tc_deque *d = tc_deque_create(4);
  assert_non_null(d);
  for (int i = 0; i < NVALS; i++)
    assert_int_equal(tc_deque_push(d, &vals[i]), TC_OK);
  for (int i = 0; i < NVALS; i++) {
    void *x = NULL;
    assert_int_equal(tc_deque_steal(d, &x), TC_STEAL_OK);
    assert_ptr_equal(x, &vals[i]);
  }
  void *x = NULL;
  assert_int_equal(tc_deque_steal(d, &x), TC_STEAL_EMPTY);
  assert_null(tc_deque_pop(d));
  /* Emptied by thieves, the deque takes new items at fresh indices. */
  assert_int_equal(tc_deque_push(d, &vals[7]), TC_OK);
  assert_ptr_equal(tc_deque_pop(d), &vals[7]);
  tc_deque_free(d);
}

static uint64_t xorshift(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* Random pushes, pops and steals from capacity 2, so the array grows many
 * times and wraps around between growths; every result is compared with a
 * model deque kept in a plain array. */
static void test_matches_model_while_growing(void **state) {
  (void)state;
  enum { OPS = 200000, MAXLIVE = 5000 };
  int *ids = malloc(OPS * sizeof *ids);   /* item k is &ids[k], ids[k] == k */
  int *model = malloc(OPS * sizeof *model); /* ids in the deque: model[head..tail) */
  assert_non_null(ids);
  assert_non_null(model);
  size_t head = 0, tail = 0, peak = 0;
  int next = 0;
  uint64_t rng = 12345;
  tc_deque *d = tc_deque_create(2);
  assert_non_null(d);
  for (int op = 0; op < OPS; op++) {
    /* Phases of 20000 ops alternate between filling (70% pushes) and
     * draining (30%), so the size swings up to thousands and back. */
    unsigned push_pct = (op / 20000) % 2 == 0 ? 70 : 30;
    unsigned r = (unsigned)(xorshift(&rng) % 100);
    if (r < push_pct && tail - head < MAXLIVE) {
      ids[next] = next;
      assert_int_equal(tc_deque_push(d, &ids[next]), TC_OK);
      model[tail++] = next++;
    } else if (r % 2 == 0) {
      int *x = tc_deque_pop(d);
      if (head == tail) {
        assert_null(x);
      } else {
        assert_non_null(x);
        assert_int_equal(*x, model[--tail]);
      }
    } else {
      void *x = NULL;
      tc_steal s = tc_deque_steal(d, &x);
      if (head == tail) {
        assert_int_equal(s, TC_STEAL_EMPTY);
      } else {
        assert_int_equal(s, TC_STEAL_OK);
        assert_int_equal(*(int *)x, model[head++]);
      }
    }
    if (tail - head > peak)
      peak = tail - head;
  }
  /* Growth from 2 slots to at least 2048 happened along the way. */
  assert_true(peak > 2000);
  tc_deque_free(d);
  free(model);
  free(ids);
}

/* One owner pushes NITEMS items (in bursts, popping some back) while
 * NTHIEVES thieves steal; every item must be taken exactly once. */
enum { NITEMS = 200000, NTHIEVES = 3 };

typedef struct {
  size_t id; /* written before the push, read by the taker */
} item;

typedef struct {
  tc_deque *d;
  item *items;
  atomic_uint *taken;       /* per item: how many times it was taken */
  atomic_size_t stolen;     /* items taken by thieves */
  atomic_size_t lost;       /* steals that lost a race */
  atomic_int owner_done;    /* the owner pushed everything and emptied the deque */
} shared;

static void take(shared *s, item *it) {
  atomic_fetch_add_explicit(&s->taken[it->id], 1, memory_order_relaxed);
}

static void *thief(void *arg) {
  shared *s = arg;
  size_t mine = 0, lost = 0;
  while (!atomic_load_explicit(&s->owner_done, memory_order_acquire)) {
    void *x;
    tc_steal r = tc_deque_steal(s->d, &x);
    if (r == TC_STEAL_OK) {
      take(s, x);
      mine++;
      atomic_fetch_add_explicit(&s->stolen, 1, memory_order_relaxed);
    } else if (r == TC_STEAL_LOST) {
      lost++;
    } else {
      sched_yield();
    }
  }
  atomic_fetch_add_explicit(&s->lost, lost, memory_order_relaxed);
  return (void *)(uintptr_t)mine;
}

static void test_owner_and_thieves_take_each_once(void **state) {
  (void)state;
  shared s;
  s.d = tc_deque_create(2);
  s.items = malloc(NITEMS * sizeof *s.items);
  s.taken = malloc(NITEMS * sizeof *s.taken);
  assert_non_null(s.d);
  assert_non_null(s.items);
  assert_non_null(s.taken);
  for (size_t i = 0; i < NITEMS; i++)
    atomic_init(&s.taken[i], 0);
  atomic_init(&s.stolen, 0);
  atomic_init(&s.lost, 0);
  atomic_init(&s.owner_done, 0);

  pthread_t th[NTHIEVES];
  for (int i = 0; i < NTHIEVES; i++)
    assert_int_equal(pthread_create(&th[i], NULL, thief, &s), 0);

  uint64_t rng = 99;
  size_t popped = 0, pushed = 0, emptied = 0; /* emptied: thieves beat a pop */
  int first = 1;
  while (pushed < NITEMS) {
    /* Bursts up to 4096 long outgrow the array while thieves read it;
     * bursts of 1 to 4, popped back, race thieves for the last item. */
    uint64_t r = xorshift(&rng);
    size_t burst = 1 + (size_t)(r % (r & 1 ? 4096 : 4));
    for (size_t k = 0; k < burst && pushed < NITEMS; k++, pushed++) {
      s.items[pushed].id = pushed;
      assert_int_equal(tc_deque_push(s.d, &s.items[pushed]), TC_OK);
    }
    /* Make sure the thieves really run against this owner at least once. */
    while (first && atomic_load_explicit(&s.stolen, memory_order_relaxed) == 0)
      sched_yield();
    first = 0;
    size_t back = (size_t)(xorshift(&rng) % (burst + 1));
    for (size_t k = 0; k < back; k++) {
      item *it = tc_deque_pop(s.d);
      if (!it) {
        emptied++;
        break;
      }
      take(&s, it);
      popped++;
    }
  }
  for (item *it; (it = tc_deque_pop(s.d)) != NULL; popped++)
    take(&s, it);
  atomic_store_explicit(&s.owner_done, 1, memory_order_release);

  size_t stolen = 0;
  for (int i = 0; i < NTHIEVES; i++) {
    void *mine;
    assert_int_equal(pthread_join(th[i], &mine), 0);
    stolen += (size_t)(uintptr_t)mine;
  }
  /* The multiset of taken items is exactly {0, ..., NITEMS-1}. */
  for (size_t i = 0; i < NITEMS; i++)
    assert_int_equal(atomic_load(&s.taken[i]), 1);
  assert_int_equal(popped + stolen, NITEMS);
  assert_true(stolen > 0);
  assert_true(popped > 0);
  print_message("owner popped %zu, thieves stole %zu; steals lost %zu races; "
                "pops found the deque emptied %zu times\n",
                popped, stolen, atomic_load(&s.lost), emptied);
  void *x;
  assert_int_equal(tc_deque_steal(s.d, &x), TC_STEAL_EMPTY);
  tc_deque_free(s.d);
  free(s.items);
  free(s.taken);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pop_is_lifo),
      cmocka_unit_test(test_steal_is_fifo),
      cmocka_unit_test(test_matches_model_while_growing),
      cmocka_unit_test(test_owner_and_thieves_take_each_once),
  };
  return cmocka_run_group_tests_name("deque", tests, NULL, NULL);
}
