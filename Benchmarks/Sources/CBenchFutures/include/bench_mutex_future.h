/*
 * A C future behind a pthread mutex, as a C embedder writes one without Petal: the contender
 * "C mutex future", measured against petal_future (the row of the C API in the benchmark report).
 *
 * Its state (resolved, payload, callbacks) changes only under one pthread_mutex_t. The first
 * callback sits in the future itself, as petal_future's first subscriber does, so a future with
 * one callback costs one allocation (the future); each later callback is a malloc'd node on a
 * FIFO list (head and tail). Callbacks run outside the lock, so one may subscribe to or fulfil
 * any future, this one included, without deadlock.
 *
 *   PENDING  --fulfil (under the lock: first wins)-->  RESOLVED
 *   subscribe while PENDING:   appended under the lock, run at fulfilment, in subscription order
 *   subscribe while RESOLVED:  run at once, on the subscriber's thread, before subscribe returns
 */
#ifndef BENCH_MUTEX_FUTURE_H
#define BENCH_MUTEX_FUTURE_H

#include <stdbool.h>

typedef struct bench_mutex_future bench_mutex_future;

/* Runs once, on the thread that fulfils the future (or that subscribes to a resolved one), with
   the future and the context given at subscription. */
typedef void (*bench_mutex_future_callback)(bench_mutex_future *future, void *context);

/* A pending future on the heap, or NULL if no memory could be had. */
bench_mutex_future *bench_mutex_future_new(void);

/* Frees the future and the nodes of callbacks that never ran. Only once no thread will touch
   the future again: after the fulfilling call and every subscribing call have returned. */
void bench_mutex_future_free(bench_mutex_future *future);

/* Subscribes `callback(future, context)`: run at fulfilment after every callback subscribed
   before it, or now, on this thread, if the future is resolved. Returns 0, or -1 if a node
   could not be allocated (the callback is then not registered). */
int bench_mutex_future_subscribe(bench_mutex_future *future, bench_mutex_future_callback callback,
                                 void *context);

/* Resolves the future with `value` and runs its callbacks, in subscription order, on this thread.
   Returns whether this call resolved it: a later call returns false, and stores and runs
   nothing. */
bool bench_mutex_future_fulfil(bench_mutex_future *future, void *value);

/* The value. Read it where the fulfilment is ordered before: in a callback of this future, or on
   the thread that fulfilled it. (Read without the lock, as a C user reads it there.) */
void *bench_mutex_future_payload(const bench_mutex_future *future);

#endif
