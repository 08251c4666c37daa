/*
 * The per-thread trampoline that keeps inline callbacks stack-safe.
 *
 * A callback that resolves another cell runs that cell's waiters inline, which may resolve a
 * third, and so on: a chain of a million links would otherwise be a million nested frames. Each
 * thread counts how deep it is; past PETAL_TRAMPOLINE_DEPTH, work goes into a FIFO queue that the
 * outermost frame drains before it returns. The work never leaves the thread, so "inline" keeps
 * its meaning, and nothing is allocated unless the depth is actually exceeded.
 */
#include "petal.h"

#include <stdlib.h>

typedef struct petal_deferred {
    struct petal_deferred *next;
    petal_work_fn work;
    void *context;
} petal_deferred;

typedef struct petal_trampoline {
    unsigned depth;
    petal_deferred *head; /* oldest deferred item, run first */
    petal_deferred *tail;
} petal_trampoline;

/* Thread-local: no other thread ever touches it, so plain accesses are enough. */
static _Thread_local petal_trampoline petal_current;

int petal_trampoline_enter(void) {
    petal_trampoline *t = &petal_current;
    if (t->depth >= PETAL_TRAMPOLINE_DEPTH || t->head != NULL) return 0;
    t->depth += 1;
    return 1;
}

static void petal_trampoline_drain(petal_trampoline *t) {
    /* Runs at depth 1, so each item may nest again up to the limit before deferring. */
    petal_deferred *item;
    while ((item = t->head) != NULL) {
        t->head = item->next;
        if (t->head == NULL) t->tail = NULL;
        petal_work_fn work = item->work;
        void *context = item->context;
        free(item);
        work(context);
    }
}

void petal_trampoline_leave(void) {
    petal_trampoline *t = &petal_current;
    if (t->depth == 1) petal_trampoline_drain(t);
    t->depth -= 1;
}

int petal_trampoline_defer(petal_work_fn work, void *context) {
    petal_trampoline *t = &petal_current;
    if (t->depth == 0 && t->head == NULL) {
        /* No frame would drain the queue: become the outermost frame ourselves. */
        t->depth = 1;
        work(context);
        petal_trampoline_drain(t);
        t->depth = 0;
        return 0;
    }
    petal_deferred *item = malloc(sizeof *item);
    if (item == NULL) return -1;
    item->next = NULL;
    item->work = work;
    item->context = context;
    if (t->tail != NULL) t->tail->next = item; else t->head = item;
    t->tail = item;
    return 0;
}

unsigned petal_trampoline_depth(void) {
    return petal_current.depth;
}
