#include "bench_treiber_future.h"

#include <stdatomic.h>
#include <stdlib.h>

/* One callback, pushed by CAS onto the future's head. */
typedef struct bench_treiber_future_node {
    struct bench_treiber_future_node *next;
    bench_treiber_future_callback callback;
    void *context;
} bench_treiber_future_node;

struct bench_treiber_future {
    /* The callbacks, newest first, or BENCH_TREIBER_SEALED once resolved. */
    _Atomic(bench_treiber_future_node *) head;
    /* Which fulfil won: every fulfil exchanges 1 in, the one that read 0 resolves. */
    atomic_bool claimed;
    /* Written once, by the winner, before it seals the head; read by whoever sees the seal. */
    void *payload;
};

/* The head of a resolved future: an address no node can have. */
static bench_treiber_future_node bench_treiber_future_sealed;
#define BENCH_TREIBER_SEALED (&bench_treiber_future_sealed)

bench_treiber_future *bench_treiber_future_new(void) {
    bench_treiber_future *future = malloc(sizeof *future);
    if (future == NULL) return NULL;
    /* Not atomic: the future is shared only after this returns. */
    atomic_init(&future->head, NULL);
    atomic_init(&future->claimed, false);
    future->payload = NULL;
    return future;
}

void bench_treiber_future_free(bench_treiber_future *future) {
    /* Relaxed: the caller promises that no other thread touches the future any more (its own
       synchronisation with them, a join, ordered their pushes before this). */
    bench_treiber_future_node *node = atomic_load_explicit(&future->head, memory_order_relaxed);
    while (node != NULL && node != BENCH_TREIBER_SEALED) {
        bench_treiber_future_node *next = node->next;
        free(node);
        node = next;
    }
    free(future);
}

int bench_treiber_future_subscribe(bench_treiber_future *future, bench_treiber_future_callback callback,
                                   void *context) {
    /* Acquire: if this reads the seal, it reads the payload the winner stored before it. */
    bench_treiber_future_node *head = atomic_load_explicit(&future->head, memory_order_acquire);
    if (head == BENCH_TREIBER_SEALED) {
        callback(future, context); /* resolved: no node needed */
        return 0;
    }
    bench_treiber_future_node *node = malloc(sizeof *node);
    if (node == NULL) return -1;
    node->callback = callback;
    node->context = context;
    node->next = head;
    /* Success: release, so the resolver, whose exchange acquires the head, reads this node's
       fields. Failure: acquire, as the load above, for the seal it may read. Weak: a spurious
       failure only loops once more. No ABA: nodes leave the list only all at once, by the seal,
       and are freed only after it, so a head this thread read cannot come back. */
    while (!atomic_compare_exchange_weak_explicit(&future->head, &head, node, memory_order_release,
                                                  memory_order_acquire)) {
        if (head == BENCH_TREIBER_SEALED) {
            /* Sealed while this thread pushed: the resolver never saw the node. */
            free(node);
            callback(future, context);
            return 0;
        }
        node->next = head;
    }
    return 0;
}

bool bench_treiber_future_fulfil(bench_treiber_future *future, void *value) {
    /* Relaxed: the exchange's atomicity alone picks one winner; the payload is published by the
       seal below, and a loser reads nothing the winner wrote. */
    if (atomic_exchange_explicit(&future->claimed, true, memory_order_relaxed)) return false;
    future->payload = value;
    /* Release: a subscriber that reads the seal (acquire) reads the payload stored above.
       Acquire: the nodes pushed (release) before this exchange are read below. */
    bench_treiber_future_node *node =
        atomic_exchange_explicit(&future->head, BENCH_TREIBER_SEALED, memory_order_acq_rel);

    /* The list is newest first: reverse it, so callbacks run in subscription order. */
    bench_treiber_future_node *oldest = NULL;
    while (node != NULL) {
        bench_treiber_future_node *next = node->next;
        node->next = oldest;
        oldest = node;
        node = next;
    }
    while (oldest != NULL) {
        bench_treiber_future_node *next = oldest->next;
        oldest->callback(future, oldest->context);
        free(oldest);
        oldest = next;
    }
    return true;
}

void *bench_treiber_future_payload(const bench_treiber_future *future) {
    return future->payload;
}
