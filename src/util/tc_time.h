/* The two clocks the program reads: seconds on the monotonic clock for
 * durations, and a wall-clock deadline for pthread_cond_timedwait (whose
 * default clock is CLOCK_REALTIME). */
#ifndef TC_TIME_H
#define TC_TIME_H

#include <time.h>

/* Seconds since an arbitrary start, never going back. */
double tc_now_seconds(void);

/* CLOCK_REALTIME now plus MS milliseconds (0 <= MS < 1000). */
struct timespec tc_deadline_ms(long ms);

#endif
