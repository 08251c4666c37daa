#include "core_c11_names.h"

#include "bench_core_c11.h"

#include <stdlib.h>

void bench_c11_forward(petal_future *future, void *context) {
    bench_c11_future_resolve((petal_future *)context, PETAL_STATUS_FULFILLED, bench_c11_future_payload(future));
}

petal_future *bench_c11_future_new(void) {
    petal_future *future = malloc(sizeof *future);
    if (future != NULL) bench_c11_future_init(future);
    return future;
}

void bench_c11_future_free(petal_future *future) {
    free(future);
}
