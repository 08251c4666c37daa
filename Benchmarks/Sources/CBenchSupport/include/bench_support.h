/*
 * What the benchmarks need in C: callbacks for the raw C core (the floor every Swift contender is
 * measured against) and one counter that every contender's callbacks bump, so a callback needs no
 * captured context and no contender pays for a closure allocation the others do not.
 */
#ifndef PETAL_BENCH_SUPPORT_H
#define PETAL_BENCH_SUPPORT_H

#include <petal.h>

/* Callbacks delivered so far, by every contender. Relaxed: each workload reads it only after
   joining the threads that bumped it. */
void bench_count_add(void);
long bench_count_read(void);
void bench_count_reset(void);

/* Pins the calling thread to core `cpu` (0 on success), for probes that place their threads. */
int bench_pin_to_cpu(int cpu);

/* The monotonic clock, in nanoseconds. */
long long bench_now_ns(void);

/* Does nothing with `object`, out of the optimiser's sight: an object passed here escapes. */
void bench_escape(const void *object);

/* A raw-core callback that counts. */
void bench_c_count(petal_future *future, void *context);

/* A raw-core callback that fulfils the future passed as context with this one's payload. */
void bench_c_forward(petal_future *future, void *context);

/* A raw-core future on the heap: one allocation, like a promise handle elsewhere. */
petal_future *bench_c_future_new(void);
void bench_c_future_free(petal_future *future);

#endif
