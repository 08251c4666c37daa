#include "bench_future_callbacks.h"

#include <bench_support.h>

void bench_mutex_future_count(bench_mutex_future *future, void *context) {
    (void)future;
    (void)context;
    bench_count_add();
}

void bench_treiber_future_count(bench_treiber_future *future, void *context) {
    (void)future;
    (void)context;
    bench_count_add();
}

void bench_mutex_future_forward(bench_mutex_future *future, void *context) {
    bench_mutex_future_fulfil((bench_mutex_future *)context, bench_mutex_future_payload(future));
}

void bench_treiber_future_forward(bench_treiber_future *future, void *context) {
    bench_treiber_future_fulfil((bench_treiber_future *)context, bench_treiber_future_payload(future));
}
