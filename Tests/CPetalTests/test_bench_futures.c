/*
 * The benchmarks' two C futures (Benchmarks/Sources/CBenchFutures: behind a pthread mutex, and a
 * C11 Treiber list), which the C API's row of the benchmark report measures petal_future
 * against: a contender that lost or repeated a callback would post a number it did not earn.
 * Both are checked by the same cases (test_bench_future_cases.h, included once for each):
 * subscription order, single assignment, late subscribers, and threads subscribing while one
 * fulfils and while several race to fulfil. Under the sanitizers (Scripts/test --full) TSan
 * checks the Treiber list's orderings and ASan that every node is freed.
 */
#define _GNU_SOURCE
#include "petal_test.h"

#include "bench_mutex_future.h"
#include "bench_treiber_future.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

/* Threads subscribing (or fulfilling) at once, and callbacks each subscribes, per round. */
#define BENCH_TEST_THREADS 4
#define BENCH_TEST_CALLBACKS 64

/* The start line of a round: every thread waits until all have arrived (no pthread_barrier:
   macOS has none). */
static void bench_test_start(atomic_uint *arrived, unsigned threads) {
    atomic_fetch_add(arrived, 1);
    while (atomic_load(arrived) < threads) sched_yield();
}

#define BENCH_KIND mutex
#include "test_bench_future_cases.h"
#undef BENCH_KIND

#define BENCH_KIND treiber
#include "test_bench_future_cases.h"
#undef BENCH_KIND

int main(void) {
    RUN_TEST(test_mutex_callbacks_run_in_subscription_order);
    RUN_TEST(test_mutex_second_fulfil_loses);
    RUN_TEST(test_mutex_late_subscriber_runs_at_once);
    RUN_TEST(test_mutex_free_releases_callbacks_that_never_ran);
    RUN_TEST(test_mutex_threads_subscribe_while_one_fulfils);
    RUN_TEST(test_mutex_threads_race_to_fulfil);
    RUN_TEST(test_treiber_callbacks_run_in_subscription_order);
    RUN_TEST(test_treiber_second_fulfil_loses);
    RUN_TEST(test_treiber_late_subscriber_runs_at_once);
    RUN_TEST(test_treiber_free_releases_callbacks_that_never_ran);
    RUN_TEST(test_treiber_threads_subscribe_while_one_fulfils);
    RUN_TEST(test_treiber_threads_race_to_fulfil);
    return petal_test_finish("test_bench_futures");
}
