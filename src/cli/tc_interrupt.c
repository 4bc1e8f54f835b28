#include "cli/tc_interrupt.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

enum { NOTHING_WRITTEN, WRITING, REPLACED };

/* Changed only with the handled signals blocked, and read by the handler:
 * atomics, since the handler may run on any thread. */
static _Atomic(tc_outset *) watched;
static _Atomic(const char *) watched_dir;
static atomic_int state = NOTHING_WRITTEN;
static atomic_flag handling = ATOMIC_FLAG_INIT;

static const int handled[] = {SIGINT, SIGTERM, SIGHUP};

/* tc_interrupt_defer's flag: the first signal only sets it. */
static _Atomic(atomic_int *) deferred;
static _Atomic(const char *) deferred_dir;

static void say(const char *s) {
  if (write(STDERR_FILENO, s, strlen(s)) < 0) {
    /* Nowhere left to say it. */
  }
}

static void on_signal(int sig) {
  atomic_int *flag = atomic_load(&deferred);
  int none = 0;
  if (flag && atomic_compare_exchange_strong(flag, &none, sig)) {
    say(sig == SIGINT ? "tracecensus: interrupted (SIGINT)" : sig == SIGTERM ? "tracecensus: terminated (SIGTERM)" : "tracecensus: hung up (SIGHUP)");
    say("; finishing the traces in progress and saving their sites in ");
    say(atomic_load(&deferred_dir));
    say(" (a second signal stops at once)\n");
    return;
  }
  /* A second signal, maybe on another thread, waits for the first to end
   * the process. */
  if (atomic_flag_test_and_set(&handling))
    for (;;)
      pause();
  tc_outset_discard_signal(atomic_load(&watched));
  const char *dir = atomic_load(&watched_dir);
  say(sig == SIGINT ? "tracecensus: interrupted (SIGINT)" : sig == SIGTERM ? "tracecensus: terminated (SIGTERM)" : "tracecensus: hung up (SIGHUP)");
  int st = atomic_load(&state);
  if (st == WRITING || st == REPLACED) {
    say(st == WRITING ? "; nothing partial left, " : " after ");
    say(dir);
    say(st == WRITING ? " keeps its previous outputs\n" : " was replaced: it holds this run's outputs\n");
  } else {
    say("; nothing written\n");
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

void tc_interrupt_install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < sizeof handled / sizeof *handled; i++)
    sigaddset(&sa.sa_mask, handled[i]);
  for (size_t i = 0; i < sizeof handled / sizeof *handled; i++)
    sigaction(handled[i], &sa, NULL);
  signal(SIGXFSZ, SIG_IGN);
  signal(SIGPIPE, SIG_IGN);
}

static void block(sigset_t *old) {
  sigset_t set;
  sigemptyset(&set);
  for (size_t i = 0; i < sizeof handled / sizeof *handled; i++)
    sigaddset(&set, handled[i]);
  pthread_sigmask(SIG_BLOCK, &set, old);
}

static void unblock(const sigset_t *old) { pthread_sigmask(SIG_SETMASK, old, NULL); }

tc_err tc_interrupt_begin(const char *outdir, tc_outset **set, tc_why *why) {
  sigset_t old;
  block(&old);
  tc_err e = tc_outset_begin(outdir, set, why);
  if (!e) {
    atomic_store(&watched_dir, outdir);
    atomic_store(&watched, *set);
    atomic_store(&state, WRITING);
  }
  unblock(&old);
  return e;
}

tc_err tc_interrupt_commit(tc_outset *set, tc_why *why) {
  sigset_t old;
  block(&old);
  tc_err e = tc_outset_commit(set, why);
  atomic_store(&watched, NULL);
  atomic_store(&state, e ? NOTHING_WRITTEN : REPLACED);
  unblock(&old);
  return e;
}

void tc_interrupt_abort(tc_outset *set) {
  sigset_t old;
  block(&old);
  tc_outset_abort(set);
  atomic_store(&watched, NULL);
  atomic_store(&state, NOTHING_WRITTEN);
  unblock(&old);
}

void tc_interrupt_defer(atomic_int *flag, const char *state_dir) {
  atomic_store(&deferred_dir, state_dir);
  atomic_store(&deferred, flag);
}

_Noreturn void tc_interrupt_die(int sig) {
  sigset_t old;
  block(&old);
  tc_outset *set = atomic_load(&watched);
  if (set)
    tc_outset_abort(set);
  atomic_store(&watched, NULL);
  signal(sig, SIG_DFL);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, sig);
  pthread_sigmask(SIG_UNBLOCK, &one, NULL);
  raise(sig);
  _exit(128 + sig);
}
