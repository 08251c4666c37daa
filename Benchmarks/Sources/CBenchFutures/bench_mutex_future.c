#include "bench_mutex_future.h"

#include <pthread.h>
#include <stdlib.h>

/* A callback after the first: one allocation each, linked in subscription order. */
typedef struct bench_mutex_future_node {
    struct bench_mutex_future_node *next;
    bench_mutex_future_callback callback;
    void *context;
} bench_mutex_future_node;

/* Every field but `lock` is read and written under `lock`, except `payload`, which the winning
   fulfil writes under it before anyone can see the future resolved (see
   bench_mutex_future_payload). */
struct bench_mutex_future {
    pthread_mutex_t lock;
    bool resolved;
    void *payload;
    /* The first callback, in place (NULL: none): most futures have one, and it costs no malloc. */
    bench_mutex_future_callback first_callback;
    void *first_context;
    /* The later callbacks, oldest first; `tail` makes appending O(1). */
    bench_mutex_future_node *head;
    bench_mutex_future_node *tail;
};

bench_mutex_future *bench_mutex_future_new(void) {
    bench_mutex_future *future = malloc(sizeof *future);
    if (future == NULL) return NULL;
    if (pthread_mutex_init(&future->lock, NULL) != 0) {
        free(future);
        return NULL;
    }
    future->resolved = false;
    future->payload = NULL;
    future->first_callback = NULL;
    future->first_context = NULL;
    future->head = NULL;
    future->tail = NULL;
    return future;
}

static void bench_mutex_future_free_nodes(bench_mutex_future_node *node) {
    while (node != NULL) {
        bench_mutex_future_node *next = node->next;
        free(node);
        node = next;
    }
}

void bench_mutex_future_free(bench_mutex_future *future) {
    /* No lock: the caller promises that no other thread touches the future any more. */
    bench_mutex_future_free_nodes(future->head);
    pthread_mutex_destroy(&future->lock);
    free(future);
}

int bench_mutex_future_subscribe(bench_mutex_future *future, bench_mutex_future_callback callback,
                                 void *context) {
    pthread_mutex_lock(&future->lock);
    if (future->resolved) {
        /* This lock came after the fulfil's unlock, so the payload it wrote is visible. */
        pthread_mutex_unlock(&future->lock);
        callback(future, context);
        return 0;
    }
    if (future->first_callback == NULL) {
        future->first_callback = callback;
        future->first_context = context;
        pthread_mutex_unlock(&future->lock);
        return 0;
    }
    /* malloc under the lock: a thread-cached malloc costs a few nanoseconds, where allocating
       outside would cost a second lock round trip (the slot's state is known only under it). */
    bench_mutex_future_node *node = malloc(sizeof *node);
    if (node == NULL) {
        pthread_mutex_unlock(&future->lock);
        return -1;
    }
    node->next = NULL;
    node->callback = callback;
    node->context = context;
    if (future->tail == NULL) {
        future->head = node;
    } else {
        future->tail->next = node;
    }
    future->tail = node;
    pthread_mutex_unlock(&future->lock);
    return 0;
}

bool bench_mutex_future_fulfil(bench_mutex_future *future, void *value) {
    pthread_mutex_lock(&future->lock);
    if (future->resolved) {
        pthread_mutex_unlock(&future->lock);
        return false;
    }
    future->resolved = true;
    future->payload = value;
    /* Take the callbacks and leave the future empty: they run outside the lock. */
    bench_mutex_future_callback first_callback = future->first_callback;
    void *first_context = future->first_context;
    bench_mutex_future_node *node = future->head;
    future->first_callback = NULL;
    future->head = NULL;
    future->tail = NULL;
    pthread_mutex_unlock(&future->lock);

    if (first_callback != NULL) first_callback(future, first_context);
    while (node != NULL) {
        bench_mutex_future_node *next = node->next; /* the list is this thread's alone now */
        node->callback(future, node->context);
        free(node);
        node = next;
    }
    return true;
}

void *bench_mutex_future_payload(const bench_mutex_future *future) {
    return future->payload;
}
