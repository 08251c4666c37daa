/*
 * Petal's C future from several threads: SUBSCRIBERS threads each subscribe CALLBACKS callbacks
 * while another thread fulfils the future. Every callback must run exactly once, see the value,
 * and run after the earlier callbacks of its own thread, whether the resolver ran it (subscribed
 * before or during the resolution) or its own thread did (subscribed after).
 *
 * Built by this directory's CMakeLists.txt (find_package(Petal)), or with pkg-config alone:
 *   cc main.c $(pkg-config --cflags --libs petal) -pthread -o petal-consumer-c
 */
#define _POSIX_C_SOURCE 200809L
#include <petal.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

enum { SUBSCRIBERS = 8, CALLBACKS = 1000 };

typedef struct subscriber {
    pthread_t thread;
    atomic_int ran; /* this thread's callbacks run so far: the next one must carry this number */
    struct ticket {
        struct subscriber *owner;
        int number;
    } tickets[CALLBACKS];
} subscriber;

static petal_future future;
static int answer = 42;
static subscriber subscribers[SUBSCRIBERS];
static atomic_int subscribed;
static atomic_int delivered;
static atomic_int failures;

static void fail(const char *what) {
    atomic_fetch_add(&failures, 1);
    fprintf(stderr, "petal-consumer: %s\n", what);
}

static void on_resolved(petal_future *resolved, void *context) {
    struct ticket *ticket = context;
    if (petal_future_status(resolved) != PETAL_STATUS_FULFILLED) fail("callback saw no fulfilment");
    if (petal_future_payload(resolved) != &answer) fail("callback saw the wrong value");
    /* A thread's callbacks never run concurrently with each other: relaxed is enough. */
    int expected = atomic_load_explicit(&ticket->owner->ran, memory_order_relaxed);
    if (ticket->number != expected) fail("callbacks of one thread ran out of order");
    atomic_store_explicit(&ticket->owner->ran, expected + 1, memory_order_relaxed);
    atomic_fetch_add(&delivered, 1);
}

static void *subscribe_all(void *argument) {
    subscriber *self = argument;
    for (int i = 0; i < CALLBACKS; i++) {
        self->tickets[i].owner = self;
        self->tickets[i].number = i;
        if (petal_future_subscribe(&future, on_resolved, &self->tickets[i]) != PETAL_OK) {
            fail("subscribe failed");
        }
        atomic_fetch_add(&subscribed, 1);
    }
    return NULL;
}

static void *resolve(void *argument) {
    (void)argument;
    /* Resolve mid-way, so that callbacks are subscribed before, during and after. */
    while (atomic_load(&subscribed) < SUBSCRIBERS * CALLBACKS / 2) {
    }
    if (petal_future_fulfil(&future, &answer) != PETAL_OK) fail("the only resolution lost");
    return NULL;
}

int main(void) {
    petal_future_init(&future);
    pthread_t resolver;
    if (pthread_create(&resolver, NULL, resolve, NULL) != 0) return EXIT_FAILURE;
    for (int i = 0; i < SUBSCRIBERS; i++) {
        if (pthread_create(&subscribers[i].thread, NULL, subscribe_all, &subscribers[i]) != 0) {
            return EXIT_FAILURE;
        }
    }
    for (int i = 0; i < SUBSCRIBERS; i++) pthread_join(subscribers[i].thread, NULL);
    pthread_join(resolver, NULL);

    if (petal_future_wait(&future, NULL) != PETAL_STATUS_FULFILLED) fail("wait saw no fulfilment");
    if (petal_future_fulfil(&future, NULL) != PETAL_ERR_RESOLVED) fail("a second resolution won");
    int total = atomic_load(&delivered);
    if (total != SUBSCRIBERS * CALLBACKS) fail("not every callback ran exactly once");
    if (atomic_load(&failures) != 0) return EXIT_FAILURE;

    printf("petal-consumer C: %d threads subscribed %d callbacks, all ran in order, value %d\n",
           SUBSCRIBERS, total, *(int *)petal_future_payload(&future));
    return EXIT_SUCCESS;
}
