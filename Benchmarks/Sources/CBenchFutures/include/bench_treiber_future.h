/*
 * A lock-free C future on C11 atomics: the callbacks are a Treiber list (an atomic head of a
 * singly-linked list of nodes, pushed by CAS), the contender "C Treiber future", measured against
 * petal_future (the row of the C API in the benchmark report).
 *
 * Each callback is a malloc'd node, pushed on the head (newest first). Fulfilment claims the
 * future (one winner), stores the value, then exchanges the head for the sealed marker, which
 * captures every node pushed so far and turns later subscribers away; it runs the captured list
 * reversed (subscription order) and frees its nodes.
 *
 *   head: NULL -> node -> node ...   PENDING (newest first)
 *   head: SEALED                     RESOLVED: a subscriber that finds it runs its callback now
 *
 *   claimed  0 -> 1   exchanged by every fulfil; the one that read 0 won
 */
#ifndef BENCH_TREIBER_FUTURE_H
#define BENCH_TREIBER_FUTURE_H

#include <stdbool.h>

typedef struct bench_treiber_future bench_treiber_future;

/* Runs once, on the thread that fulfils the future (or that subscribes to a resolved one), with
   the future and the context given at subscription. */
typedef void (*bench_treiber_future_callback)(bench_treiber_future *future, void *context);

/* A pending future on the heap, or NULL if no memory could be had. */
bench_treiber_future *bench_treiber_future_new(void);

/* Frees the future and the nodes of callbacks that never ran. Only once no thread will touch
   the future again: after the fulfilling call and every subscribing call have returned. */
void bench_treiber_future_free(bench_treiber_future *future);

/* Subscribes `callback(future, context)`: run at fulfilment after every callback whose push
   came before it, or now, on this thread, if the future is resolved. Returns 0, or -1 if a node
   could not be allocated (the callback is then not registered). Lock-free: a failed push only
   means another thread pushed or sealed. */
int bench_treiber_future_subscribe(bench_treiber_future *future, bench_treiber_future_callback callback,
                                   void *context);

/* Resolves the future with `value` and runs its callbacks, in subscription order, on this thread.
   Returns whether this call resolved it: a later call returns false, and stores and runs
   nothing. */
bool bench_treiber_future_fulfil(bench_treiber_future *future, void *value);

/* The value. Read it where the fulfilment is ordered before: in a callback of this future, or on
   the thread that fulfilled it. */
void *bench_treiber_future_payload(const bench_treiber_future *future);

#endif
