/*
 * petal_future_state.h - the core's view of the storage that petal.h declares for C programs:
 * what a petal_future and a petal_waiter hold, in the core's own types.
 *
 * petal.h declares both as byte arrays of the right size and alignment, so that a C program
 * can allocate them without the core's atomics (see "STORAGE YOU ALLOCATE" there). The core
 * reaches that memory only through the views below, in functions compiled into the library, and
 * always through the same view for the same object: every byte is read with the type the core
 * wrote it with, and a program's own code never touches it. petal_future.c checks with
 * _Static_assert that each view has exactly the size and alignment of the storage it stands
 * for.
 *
 * Internal: petal_future.c, the C tests and the fuzzer use it. CMake installs it only next to
 * the Swift module, with the rest of the Clang module CPetal.
 */
#ifndef PETAL_FUTURE_STATE_H
#define PETAL_FUTURE_STATE_H

#include "petal_cell.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A C future: its cell, then what the cell publishes. */
typedef struct petal_future_state {
    petal_cell cell;
    void *payload;                   /* written once by the resolver before publish */
    petal_callback_slot inline_slot; /* the first subscriber's callback */
} petal_future_state;

/* A caller-owned waiter: a waiter block of one slot, whose callback is the slot's payload in the
   block's header line. */
typedef struct petal_waiter_state {
    petal_block block; /* the list links waiters through it */
} petal_waiter_state;

PETAL_INLINE petal_future_state *petal_future_state_of(petal_future *future) {
    return (petal_future_state *)(void *)future;
}

PETAL_INLINE const petal_future_state *petal_future_state_of_const(const petal_future *future) {
    return (const petal_future_state *)(const void *)future;
}

/* A future's cell, for the tests and the fuzzer that drive or inspect it directly. */
PETAL_INLINE petal_cell *petal_future_cell(petal_future *future) {
    return &petal_future_state_of(future)->cell;
}

PETAL_INLINE petal_waiter_state *petal_waiter_state_of(petal_waiter *waiter) {
    return (petal_waiter_state *)(void *)waiter;
}

#ifdef __cplusplus
}
#endif

#endif /* PETAL_FUTURE_STATE_H */
