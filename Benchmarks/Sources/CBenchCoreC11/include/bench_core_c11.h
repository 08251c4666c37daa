/*
 * The C core on C11 atomics, for the contender "C core (C11 atomics)": the same sources as the
 * library's, compiled again with PETAL_ATOMICS_C11 and bench_c11_ names (core_c11_names.h), so
 * one run measures both backends. Only what the contender calls is declared here; the types
 * are petal.h's, whose layout does not depend on the backend.
 */
#ifndef BENCH_CORE_C11_H
#define BENCH_CORE_C11_H

#include <petal.h>

/* "C11": proves the copy was built on the backend its name claims. */
const char *bench_c11_atomics_backend(void);

int bench_c11_future_resolve(petal_future *future, petal_status status, void *payload);
int bench_c11_future_subscribe(petal_future *future, petal_callback_fn callback, void *context);
void *bench_c11_future_payload(const petal_future *future);

/* A callback that fulfils the future passed as context (on this copy) with this one's payload. */
void bench_c11_forward(petal_future *future, void *context);

/* A future of this copy on the heap, as bench_c_future_new. */
petal_future *bench_c11_future_new(void);
void bench_c11_future_free(petal_future *future);

#endif
