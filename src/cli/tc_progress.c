#include "cli/tc_progress.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "util/tc_time.h"

struct tc_progress_view {
  tc_progress *p;
  uint64_t total_bytes, total_traces;
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int stop; /* guarded by mu */
};

static void draw(tc_progress_view *v, double t0) {
  uint64_t b = atomic_load(&v->p->bytes_done), t = atomic_load(&v->p->traces_done);
  double el = tc_now_seconds() - t0, rate = el > 0 ? (double)b / el : 0;
  fprintf(stderr, "\r\033[Ktraces %" PRIu64 "/%" PRIu64 ", %.1f/%.1f MB on disk (%.1f MB/s on disk)", t,
          v->total_traces, b / 1e6, v->total_bytes / 1e6, rate / 1e6);
  if (rate > 0 && v->total_bytes > b) {
    long eta = (long)((double)(v->total_bytes - b) / rate);
    fprintf(stderr, ", ETA %ld:%02ld", eta / 60, eta % 60);
  }
  fflush(stderr);
}

static void *loop(void *arg) {
  tc_progress_view *v = arg;
  double t0 = tc_now_seconds();
  pthread_mutex_lock(&v->mu);
  while (!v->stop) {
    struct timespec ts = tc_deadline_ms(250);
    pthread_cond_timedwait(&v->cv, &v->mu, &ts);
    if (!v->stop)
      draw(v, t0);
  }
  pthread_mutex_unlock(&v->mu);
  fputs("\r\033[K", stderr);
  return NULL;
}

tc_progress_view *tc_progress_start(tc_progress *p, uint64_t total_bytes, uint64_t total_traces) {
  if (!isatty(STDERR_FILENO))
    return NULL;
  tc_progress_view *v = calloc(1, sizeof *v);
  if (!v)
    return NULL;
  v->p = p;
  v->total_bytes = total_bytes;
  v->total_traces = total_traces;
  pthread_mutex_init(&v->mu, NULL);
  pthread_cond_init(&v->cv, NULL);
  if (pthread_create(&v->thread, NULL, loop, v) != 0) {
    pthread_cond_destroy(&v->cv);
    pthread_mutex_destroy(&v->mu);
    free(v);
    return NULL;
  }
  return v;
}

void tc_progress_stop(tc_progress_view *v) {
  if (!v)
    return;
  pthread_mutex_lock(&v->mu);
  v->stop = 1;
  pthread_cond_signal(&v->cv);
  pthread_mutex_unlock(&v->mu);
  pthread_join(v->thread, NULL);
  pthread_mutex_destroy(&v->mu);
  pthread_cond_destroy(&v->cv);
  free(v);
}
