#include "bench_support.h"

/* The counter's atomics (petal.h, the C API, includes none). */
#include <petal_atomics.h>
#include <stdlib.h>

static volatile petal_word bench_count;

void bench_count_add(void) {
    (void)petal_atomic_fetch_add(&bench_count, 1); /* no ordering: read after a join */
}

long bench_count_read(void) {
    return (long)petal_atomic_load_acquire(&bench_count);
}

void bench_count_reset(void) {
    petal_atomic_store_release(&bench_count, 0);
}

void bench_escape(const void *object) {
    (void)object;
}

void bench_c_count(petal_future *future, void *context) {
    (void)future;
    (void)context;
    bench_count_add();
}

void bench_c_forward(petal_future *future, void *context) {
    petal_future_fulfil((petal_future *)context, petal_future_payload(future));
}

petal_future *bench_c_future_new(void) {
    petal_future *future = malloc(sizeof *future);
    if (future != NULL) petal_future_init(future);
    return future;
}

void bench_c_future_free(petal_future *future) {
    free(future);
}
