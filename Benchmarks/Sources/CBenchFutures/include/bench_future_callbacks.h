/*
 * The benchmarks' C callbacks for the two C futures of the C API's row (bench_mutex_future.h,
 * bench_treiber_future.h), as bench_support.h has them for petal_future: one that counts, and
 * one that fulfils the next future.
 */
#ifndef BENCH_FUTURE_CALLBACKS_H
#define BENCH_FUTURE_CALLBACKS_H

#include "bench_mutex_future.h"
#include "bench_treiber_future.h"

/* Counts (bench_count_add); ignores the future and the context. */
void bench_mutex_future_count(bench_mutex_future *future, void *context);
void bench_treiber_future_count(bench_treiber_future *future, void *context);

/* Fulfils the future passed as context with this one's payload. */
void bench_mutex_future_forward(bench_mutex_future *future, void *context);
void bench_treiber_future_forward(bench_treiber_future *future, void *context);

#endif
