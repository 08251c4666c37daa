/*
 * The per-thread trampoline that keeps inline callbacks stack-safe.
 *
 * A callback that resolves another cell runs that cell's waiters inline, which may resolve a
 * third, and so on: a chain of a million links would otherwise be a million nested frames. Each
 * thread counts how deep it is; past PETAL_TRAMPOLINE_DEPTH, work goes into a FIFO queue that the
 * outermost frame drains before it returns. The work never leaves the thread, so "inline" keeps
 * its meaning, and nothing is allocated unless the depth is actually exceeded.
 */
#include "petal_trampoline_state.h"

#include <stdlib.h>

/* An item petal_trampoline_defer allocated: it frees itself before running the work. */
typedef struct petal_owned_deferred {
    petal_deferred item; /* first: the queue sees only this */
    petal_work_fn work;
    void *context;
} petal_owned_deferred;

typedef petal_trampoline_state petal_trampoline;

/* Thread-local: no other thread ever touches it, so plain accesses are enough. Exported for the
   inline fast paths in petal_trampoline_state.h. */
PETAL_THREAD_LOCAL petal_trampoline_state petal_trampoline_current;

int petal_trampoline_enter(void) {
    petal_trampoline *t = &petal_trampoline_current;
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
        /* Read before the call: the work may free the item. */
        petal_work_fn work = item->work;
        void *context = item->context;
        work(context);
    }
}

void petal_trampoline_leave(void) {
    petal_trampoline *t = &petal_trampoline_current;
    if (t->depth == 1) petal_trampoline_drain(t);
    t->depth -= 1;
}

/* Whether no frame would drain the queue, so the caller must run the work as the outermost
   frame itself (run_now). */
static int petal_trampoline_idle(const petal_trampoline *t) {
    return t->depth == 0 && t->head == NULL;
}

static void petal_trampoline_run_now(petal_trampoline *t, petal_work_fn work, void *context) {
    t->depth = 1;
    work(context);
    petal_trampoline_drain(t);
    t->depth = 0;
}

static void petal_trampoline_append(petal_trampoline *t, petal_deferred *item) {
    item->next = NULL;
    if (t->tail != NULL) t->tail->next = item; else t->head = item;
    t->tail = item;
}

static void petal_owned_run(void *context) {
    petal_owned_deferred *owned = context;
    petal_work_fn work = owned->work;
    void *work_context = owned->context;
    free(owned);
    work(work_context);
}

int petal_trampoline_defer(petal_work_fn work, void *context) {
    petal_trampoline *t = &petal_trampoline_current;
    if (petal_trampoline_idle(t)) {
        petal_trampoline_run_now(t, work, context);
        return 0;
    }
    petal_owned_deferred *owned = malloc(sizeof *owned);
    if (owned == NULL) return -1;
    owned->work = work;
    owned->context = context;
    owned->item.work = petal_owned_run;
    owned->item.context = owned;
    petal_trampoline_append(t, &owned->item);
    return 0;
}

void petal_trampoline_defer_item(petal_deferred *item) {
    petal_trampoline *t = &petal_trampoline_current;
    if (petal_trampoline_idle(t)) {
        petal_trampoline_run_now(t, item->work, item->context);
        return;
    }
    petal_trampoline_append(t, item);
}

void petal_trampoline_run_deferred(void) {
    petal_trampoline *t = &petal_trampoline_current;
    if (t->head == NULL) return;
    /* The queue is this thread's to run, and the outermost frame that would run it is below
       us on the stack. Run it here as if from the outermost frame: each item starts at depth 1
       again, so this adds at most PETAL_TRAMPOLINE_DEPTH frames to the current stack, and
       anything the items defer joins the queue and is drained too. The queue's order is kept;
       only the frames still below us run their remaining work later than they would have. */
    unsigned depth = t->depth;
    t->depth = 1;
    petal_trampoline_drain(t);
    t->depth = depth;
}

unsigned petal_trampoline_depth(void) {
    return petal_trampoline_current.depth;
}
