/*
 * The C convenience future: the cell protocol with a void * payload and function-pointer
 * callbacks, for C programs that embed the core without Swift.
 *
 * Callbacks run through the trampoline, like Swift's inline callbacks: a chain of futures that
 * fulfil each other from their callbacks runs in constant stack depth.
 */
#include "petal.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

void petal_future_init(petal_future *future) {
    petal_cell_init(&future->cell);
    future->payload = NULL;
    future->slot_callback = NULL;
    future->slot_context = NULL;
}

static void petal_run_list(petal_future *future, petal_node *node) {
    while (node != NULL) {
        /* Read next before running: the callback may free its own waiter's memory. */
        petal_node *next = node->next;
        petal_waiter *waiter = (petal_waiter *)node;
        int owned = waiter->owned;
        waiter->callback(future, waiter->context);
        if (owned) free(waiter);
        node = next;
    }
}

static void petal_deliver(petal_future *future, petal_word taken) {
    if (petal_word_slot_ready(taken)) future->slot_callback(future, future->slot_context);
    petal_run_list(future, petal_list_in_order(taken));
    petal_node *more;
    while ((more = petal_cell_take_more(&future->cell)) != NULL) petal_run_list(future, more);
}

/* Inline work for the trampoline: a delivery (callback == NULL), or one callback for a future
   that is already resolved. */
typedef struct petal_inline_work {
    petal_future *future;
    petal_word taken;
    petal_callback_fn callback;
    void *context;
    petal_waiter *owned_waiter; /* freed once the callback has run */
} petal_inline_work;

static void petal_inline_work_run(const petal_inline_work *work) {
    if (work->callback == NULL) {
        petal_deliver(work->future, work->taken);
    } else {
        work->callback(work->future, work->context);
        free(work->owned_waiter);
    }
}

static void petal_inline_work_run_deferred(void *context) {
    petal_inline_work *work = context;
    petal_inline_work_run(work);
    free(work);
}

/* Runs `work` now, or defers it to the outermost callback frame when this thread is already
   nested deeply. Without memory to defer, it runs now: a deeper stack beats a lost callback. */
static void petal_run_inline(petal_inline_work work) {
    if (petal_trampoline_enter()) {
        petal_inline_work_run(&work);
        petal_trampoline_leave();
        return;
    }
    petal_inline_work *later = malloc(sizeof *later);
    if (later != NULL) {
        *later = work;
        if (petal_trampoline_defer(petal_inline_work_run_deferred, later) == 0) return;
        free(later);
    }
    petal_inline_work_run(&work);
}

int petal_future_resolve(petal_future *future, petal_status status, void *payload) {
    if (status < PETAL_STATUS_FULFILLED || status > PETAL_STATUS_CANCELLED) return PETAL_ERR_INVALID;
    /* (PETAL_STATUS_CANCELLED <= PETAL_KIND_MAX: the status is the cell's outcome kind.) */
    if (!petal_cell_claim(&future->cell)) return PETAL_ERR_RESOLVED;
    future->payload = payload; /* ours alone until publish releases it */
    petal_word taken = petal_cell_publish(&future->cell, (unsigned)status);
    if (petal_word_has_waiters(taken)) {
        petal_run_inline((petal_inline_work){.future = future, .taken = taken});
    }
    return PETAL_OK;
}

static void petal_subscribe_waiter(petal_future *future, petal_waiter *waiter,
                                   petal_callback_fn callback, void *context) {
    waiter->callback = callback;
    waiter->context = context;
    petal_word seen;
    if (petal_cell_subscribe(&future->cell, &waiter->node, &seen) == PETAL_ALREADY_RESOLVED) {
        petal_run_inline((petal_inline_work){
            .future = future,
            .callback = callback,
            .context = context,
            .owned_waiter = waiter->owned ? waiter : NULL,
        });
    }
}

void petal_future_subscribe_node(petal_future *future, petal_waiter *waiter,
                                 petal_callback_fn callback, void *context) {
    waiter->owned = 0; /* the caller's memory: never freed here */
    petal_subscribe_waiter(future, waiter, callback, context);
}

int petal_future_subscribe(petal_future *future, petal_callback_fn callback, void *context) {
    petal_word seen;
    if (petal_cell_reserve_slot(&future->cell, &seen)) {
        future->slot_callback = callback;
        future->slot_context = context;
        if (petal_cell_commit_slot(&future->cell, &seen)) return PETAL_OK;
        /* Published before the commit: the slot was skipped; subscribe like everyone else. */
    }
    if (petal_word_is_resolved(seen)) {
        petal_run_inline((petal_inline_work){.future = future, .callback = callback, .context = context});
        return PETAL_OK;
    }
    petal_waiter *waiter = malloc(sizeof *waiter);
    if (waiter == NULL) return PETAL_ERR_NOMEM;
    waiter->owned = 1;
    petal_subscribe_waiter(future, waiter, callback, context);
    return PETAL_OK;
}

petal_status petal_future_status(const petal_future *future) {
    petal_word word = petal_cell_load(&future->cell);
    if (!petal_word_has_outcome(word)) return PETAL_STATUS_PENDING;
    return (petal_status)petal_word_kind(word);
}

void *petal_future_payload(const petal_future *future) {
    /* The acquire load orders the payload read after the publish that wrote it. */
    if (!petal_word_has_outcome(petal_cell_load(&future->cell))) return NULL;
    return future->payload;
}

/* A blocking waiter. Shared by the waiting thread and the future's list (a timed-out wait
   returns while the waiter is still linked), so the last of the two frees it. */
typedef struct petal_blocking_waiter {
    petal_waiter waiter;
    pthread_mutex_t mutex;
    pthread_cond_t condition;
    int signalled;
    volatile AO_t owners;
} petal_blocking_waiter;

static void petal_blocking_release(petal_blocking_waiter *blocking) {
    /* FULL: the other owner's last accesses happen before the free. */
    if (AO_fetch_and_sub1_full(&blocking->owners) == 1) {
        pthread_cond_destroy(&blocking->condition);
        pthread_mutex_destroy(&blocking->mutex);
        free(blocking);
    }
}

static void petal_blocking_wake(petal_future *future, void *context) {
    (void)future;
    petal_blocking_waiter *blocking = context;
    pthread_mutex_lock(&blocking->mutex);
    blocking->signalled = 1;
    pthread_cond_signal(&blocking->condition);
    pthread_mutex_unlock(&blocking->mutex);
    petal_blocking_release(blocking);
}

int petal_future_wait(petal_future *future, const struct timespec *deadline) {
    petal_status status = petal_future_status(future);
    if (status != PETAL_STATUS_PENDING) return status;
    if (deadline != NULL && (deadline->tv_nsec < 0 || deadline->tv_nsec >= 1000000000L)) {
        return PETAL_ERR_INVALID;
    }
    petal_blocking_waiter *blocking = malloc(sizeof *blocking);
    if (blocking == NULL) return PETAL_ERR_NOMEM;
    pthread_mutex_init(&blocking->mutex, NULL);
    pthread_cond_init(&blocking->condition, NULL);
    blocking->signalled = 0;
    blocking->owners = 2;
    petal_future_subscribe_node(future, &blocking->waiter, petal_blocking_wake, blocking);

    int failure = 0;
    pthread_mutex_lock(&blocking->mutex);
    while (!blocking->signalled && failure == 0) {
        int rc = deadline == NULL ? pthread_cond_wait(&blocking->condition, &blocking->mutex)
                                  : pthread_cond_timedwait(&blocking->condition, &blocking->mutex, deadline);
        /* Spurious wake-ups loop; a timeout or any error ends the wait unless already woken. */
        if (rc == ETIMEDOUT) failure = PETAL_ERR_TIMEDOUT;
        else if (rc != 0) failure = PETAL_ERR_INVALID;
    }
    if (blocking->signalled) failure = 0;
    pthread_mutex_unlock(&blocking->mutex);
    petal_blocking_release(blocking);
    return failure != 0 ? failure : (int)petal_future_status(future);
}
