/*
 * The C convenience future: the cell protocol with a void * payload and function-pointer
 * callbacks, for C programs that embed the core without Swift.
 *
 * Callbacks run through the trampoline, like Swift's inline callbacks: a chain of futures that
 * fulfil each other from their callbacks runs in constant stack depth.
 */
#include "petal_future_state.h"
#include "petal_trampoline_state.h"

#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <stdlib.h>

/* petal.h declares a future's and a waiter's storage without the core's types; every access
   goes through the views of petal_future_state.h, which must fill that storage exactly. */
_Static_assert(sizeof(petal_future_state) == sizeof(petal_future), "petal_future's storage is the core's future");
_Static_assert(_Alignof(petal_future_state) == _Alignof(petal_future), "petal_future's alignment is the core's");
_Static_assert(sizeof(petal_waiter_state) == sizeof(petal_waiter), "petal_waiter's storage is the core's waiter");
_Static_assert(_Alignof(petal_waiter_state) == _Alignof(petal_waiter), "petal_waiter's alignment is the core's");
_Static_assert(sizeof(petal_callback_slot) == sizeof(petal_slot_words), "a callback fills a block's slot");
_Static_assert(PETAL_BLOCK_BYTES <= PETAL_BLOCK_CACHE_SIZE, "a future's blocks come from the block cache");

/* Slot `index` of a block: a callback and its context (a caller-owned waiter has slot 0 only). */
static petal_callback_slot *petal_block_callback(petal_block *block, unsigned index) {
    return (petal_callback_slot *)petal_block_slot(block, index);
}

void petal_future_init(petal_future *future) {
    petal_future_state *state = petal_future_state_of(future);
    petal_cell_init(&state->cell);
    state->payload = NULL;
    state->inline_slot.callback = NULL;
    state->inline_slot.context = NULL;
}

/* The futures this thread is delivering, innermost first: inside a delivery, the thread (its
   callbacks, and whatever they call) sees the outcome before the future is RESOLVED. */
typedef struct petal_delivery_frame {
    const petal_future *future;
    struct petal_delivery_frame *outer;
} petal_delivery_frame;

static PETAL_THREAD_LOCAL petal_delivery_frame *petal_delivering;

static int petal_delivering_here(const petal_future *future) {
    for (const petal_delivery_frame *frame = petal_delivering; frame != NULL; frame = frame->outer) {
        if (frame->future == future) return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------- */
/* The parking table: where petal_future_wait sleeps. A fixed table of mutexes and conditions   */
/* outside every future, so that waking the sleepers never touches a future its waiters may    */
/* already have freed, and a wait that gives up leaves nothing behind. Futures that share a     */
/* bucket only share spurious wake-ups.                                                         */
/* ------------------------------------------------------------------------------------------- */

enum { PETAL_PARKING_BUCKETS = 64 };

typedef struct petal_parking_spot {
    pthread_mutex_t mutex;
    pthread_cond_t condition; /* CLOCK_REALTIME, the clock of petal_future_wait's deadlines */
} petal_parking_spot;

static petal_parking_spot petal_parking_table[PETAL_PARKING_BUCKETS];
static pthread_once_t petal_parking_table_once = PTHREAD_ONCE_INIT;

static void petal_parking_table_init(void) {
    for (unsigned i = 0; i < PETAL_PARKING_BUCKETS; i++) {
        pthread_mutex_init(&petal_parking_table[i].mutex, NULL);
        pthread_cond_init(&petal_parking_table[i].condition, NULL);
    }
}

static petal_parking_spot *petal_parking_spot_of(const petal_cell *cell) {
    pthread_once(&petal_parking_table_once, petal_parking_table_init);
    return &petal_parking_table[petal_parking_bucket(cell, PETAL_PARKING_BUCKETS)];
}

/* Wakes the threads sleeping on `cell`, which the caller has just made RESOLVED with a word that
   had PARKED. Only the cell's address is used: the future may be freed already. */
static void petal_unpark(const petal_cell *cell) {
    petal_parking_spot *spot = petal_parking_spot_of(cell);
    pthread_mutex_lock(&spot->mutex);
    pthread_cond_broadcast(&spot->condition);
    pthread_mutex_unlock(&spot->mutex);
}

/* Settles and runs the reserved slots of a taken word's blocks, oldest first, freeing the
   blocks the future allocated (a caller-owned waiter has no `memory`). */
static void petal_deliver_blocks(petal_future *future, petal_word taken) {
    petal_block *block = petal_blocks_in_order(taken);
    while (block != NULL) {
        /* Read before running: a caller-owned waiter's callback may free the waiter. */
        petal_block *next = block->next;
        unsigned reserved = petal_block_reserved(block);
        int owned = block->memory != NULL;
        unsigned stragglers = 0;
        for (unsigned index = 0; index < reserved; index++) {
            if (petal_slot_settle(petal_block_flag(block, index))) {
                petal_callback_slot slot = *petal_block_callback(block, index);
                slot.callback(future, slot.context);
            } else {
                stragglers += 1;
            }
        }
        if (owned && petal_block_finish(block, stragglers)) petal_block_free(block);
        block = next;
    }
}

/* Runs every waiter. take_more's last CAS makes the future RESOLVED and is this thread's last
   touch of it (petal_unpark uses its address only): the contract that lets a C user free a
   future as soon as petal_future_wait or petal_future_status says it is resolved. */
static void petal_deliver(petal_future *future, petal_word taken) {
    petal_future_state *state = petal_future_state_of(future);
    petal_delivery_frame frame = {future, petal_delivering};
    petal_delivering = &frame;
    if (petal_word_includes_inline(taken) && petal_slot_settle(&state->cell.slot_flag)) {
        state->inline_slot.callback(future, state->inline_slot.context);
    }
    petal_deliver_blocks(future, taken);
    petal_word more;
    for (;;) {
        more = petal_cell_take_more(&state->cell);
        if (petal_word_list(more) == NULL) break;
        petal_deliver_blocks(future, more);
    }
    petal_delivering = frame.outer;
    if (petal_word_has_parked(more)) petal_unpark(&state->cell);
}

/* Inline work for the trampoline: a delivery (callback == NULL), or one callback for a future
   that is already resolved. */
typedef struct petal_inline_work {
    petal_future *future;
    petal_word taken;
    petal_callback_fn callback;
    void *context;
} petal_inline_work;

static void petal_inline_work_run(const petal_inline_work *work) {
    if (work->callback == NULL) {
        petal_deliver(work->future, work->taken);
    } else {
        work->callback(work->future, work->context);
    }
}

/* Inline work deferred to the trampoline: the queue's item and the work in one block, so that a
   deferral costs one allocation (a chain of 100 forwarding callbacks defers 6 times). */
typedef struct petal_deferred_work {
    petal_deferred item; /* its context is the block itself */
    petal_inline_work work;
} petal_deferred_work;

static void petal_deferred_work_run(void *context) {
    petal_deferred_work *deferred = context;
    petal_inline_work work = deferred->work;
    /* Freed before the work runs: a long chain that defers again and again holds one block at
       a time, not one per link. */
    free(deferred);
    petal_inline_work_run(&work);
}

/* Defers `work` to the outermost callback frame. Without memory to defer, it runs now: a
   deeper stack beats a lost callback. */
static void petal_defer_inline_work(const petal_inline_work *work) {
    petal_deferred_work *later = malloc(sizeof *later);
    if (later == NULL) {
        petal_inline_work_run(work);
        return;
    }
    later->work = *work;
    later->item.work = petal_deferred_work_run;
    later->item.context = later;
    petal_trampoline_defer_item(&later->item);
}

/* Runs `work` now, or defers it when this thread is already nested deeply. Inlined into its
   callers, which build `work` in registers: passed by value to a function of its own, the
   32-byte struct went through the stack, where GCC -O2 stored it in 8-byte halves and loaded
   it in 16-byte ones, a store-to-load forwarding stall on every resolution with waiters (a
   link of a chain 64 -> 54 ns at one thread: `Scripts/c-row-alone --cc gcc chain`; clang
   inlined it already). The deferral, rare, stays out of line and takes `work` by address. */
PETAL_INLINE void petal_run_inline(petal_inline_work work) {
    if (petal_trampoline_enter_fast()) {
        petal_inline_work_run(&work);
        petal_trampoline_leave_fast();
        return;
    }
    petal_defer_inline_work(&work);
}

int petal_future_resolve(petal_future *future, petal_status status, void *payload) {
    assert(future != NULL && "petal_future_resolve: NULL future");
    if (status < PETAL_STATUS_FULFILLED || status > PETAL_STATUS_CANCELLED) return PETAL_ERR_INVALID;
    /* (PETAL_STATUS_CANCELLED <= PETAL_KIND_MAX: the status is the cell's outcome kind.) */
    petal_future_state *state = petal_future_state_of(future);
    /* With callbacks waiting, the claim takes them, and a resolution that had subscribers makes
       two read-modify-writes instead of three. Other threads read the payload only once the cell
       is RESOLVED (petal_future_visible), after the delivery's last take_more released it. */
    petal_word taken = petal_cell_claim_taking(&state->cell);
    if (!petal_word_won_claim(taken)) return PETAL_ERR_RESOLVED;
    state->payload = payload; /* ours alone until the word turns RESOLVED */
    if (petal_word_has_waiters(taken)) {
        petal_cell_mark_written(&state->cell, (unsigned)status);
    } else {
        taken = petal_cell_publish(&state->cell, (unsigned)status);
    }
    if (petal_word_has_waiters(taken)) {
        /* Delivers (now, or deferred), then wakes the sleepers. */
        petal_run_inline((petal_inline_work){.future = future, .taken = taken});
    } else if (petal_word_has_parked(taken)) {
        /* RESOLVED already. The wake uses the cell's address only: the future may be freed. */
        petal_unpark(&state->cell);
    }
    return PETAL_OK;
}

void petal_future_subscribe_node(petal_future *future, petal_waiter *waiter,
                                 petal_callback_fn callback, void *context) {
    assert(future != NULL && waiter != NULL && callback != NULL && "petal_future_subscribe_node: NULL argument");
    assert(((uintptr_t)waiter & PETAL_TAG_MASK) == 0 && "petal_future_subscribe_node: waiter not 64-byte aligned");
    petal_cell *cell = petal_future_cell(future);
    petal_waiter_state *node = petal_waiter_state_of(waiter);
    assert(petal_word_list(petal_cell_load(cell)) != &node->block &&
           "petal_future_subscribe_node: waiter subscribed again before its callback ran");
    node->block.memory = NULL; /* the caller's memory: never freed here */
    node->block.refs = 0;
    node->block.capacity = 1;
    node->block.below = 0;
    node->block.reserved = 0;
    node->block.hint = NULL;
    node->block.first_flag = PETAL_SLOT_READY; /* filled before anyone can see it */
    *petal_block_callback(&node->block, 0) = (petal_callback_slot){callback, context};
    if (petal_cell_push_waiter(cell, &node->block) == PETAL_ALREADY_RESOLVED) {
        petal_run_inline((petal_inline_work){.future = future, .callback = callback, .context = context});
    }
}

int petal_future_subscribe(petal_future *future, petal_callback_fn callback, void *context) {
    assert(future != NULL && callback != NULL && "petal_future_subscribe: NULL future or callback");
    petal_future_state *state = petal_future_state_of(future);
    petal_callback_slot mine = {callback, context};
    petal_block *spare = NULL; /* allocated at most once, kept across retries */
    petal_reservation reservation;
    for (;;) {
        switch (petal_cell_reserve(&state->cell, &reservation)) {
        case PETAL_ALREADY_RESOLVED:
            if (spare != NULL) petal_block_free(spare);
            petal_run_inline((petal_inline_work){.future = future, .callback = callback, .context = context});
            return PETAL_OK;
        case PETAL_RESERVED_INLINE:
            state->inline_slot = mine;
            if (petal_slot_commit(&state->cell.slot_flag)) goto subscribed;
            break; /* skipped by the deliverer: the callback is still ours; reserve again */
        case PETAL_RESERVED_SLOT:
            *petal_block_callback(reservation.block, reservation.index) = mine;
            if (petal_slot_commit(petal_block_flag(reservation.block, reservation.index))) goto subscribed;
            if (petal_block_leave(reservation.block)) petal_block_free(reservation.block);
            break;
        default: /* PETAL_NEEDS_BLOCK */
            if (spare == NULL) {
                spare = petal_block_allocate(PETAL_BLOCK_BYTES, PETAL_BLOCK_SLOTS);
                if (spare == NULL) return PETAL_ERR_NOMEM;
                *petal_block_callback(spare, 0) = mine;
                spare->first_flag = PETAL_SLOT_READY; /* private until the push */
            }
            if (petal_cell_push(&state->cell, spare, &reservation)) return PETAL_OK;
            break;
        }
    }
subscribed:
    if (spare != NULL) petal_block_free(spare);
    return PETAL_OK;
}

/* Whether the outcome may be read here: the future is RESOLVED, or this thread is delivering
   it. (The acquire load orders the reads of the kind and payload after the publish.) */
static int petal_future_visible(const petal_future *future) {
    petal_word word = petal_cell_load(&petal_future_state_of_const(future)->cell);
    if (petal_word_is_resolved(word)) return 1;
    return petal_word_has_outcome(word) && petal_delivering_here(future);
}

petal_status petal_future_status(const petal_future *future) {
    if (!petal_future_visible(future)) return PETAL_STATUS_PENDING;
    return (petal_status)petal_cell_kind(&petal_future_state_of_const(future)->cell);
}

void *petal_future_payload(const petal_future *future) {
    if (!petal_future_visible(future)) return NULL;
    return petal_future_state_of_const(future)->payload;
}

int petal_future_wait(petal_future *future, const struct timespec *deadline) {
    assert(future != NULL && "petal_future_wait: NULL future");
    petal_status status = petal_future_status(future);
    if (status != PETAL_STATUS_PENDING) return status;
    /* The resolution may be deferred work of this very thread (a wait from a deeply nested
       callback): run it rather than block on it. */
    petal_trampoline_run_deferred();
    status = petal_future_status(future);
    if (status != PETAL_STATUS_PENDING) return status;
    if (deadline != NULL && (deadline->tv_nsec < 0 || deadline->tv_nsec >= 1000000000L)) {
        return PETAL_ERR_INVALID;
    }
    /* Nothing is subscribed and nothing allocated: a wait that gives up leaves nothing behind,
       however often a thread polls a future that never resolves. */
    petal_cell *cell = petal_future_cell(future);
    petal_parking_spot *spot = petal_parking_spot_of(cell);
    int failure = 0;
    pthread_mutex_lock(&spot->mutex);
    /* Parked (or found parked) before every sleep, which is also the recheck: park refuses
       once the cell is RESOLVED. */
    while (failure == 0 && petal_cell_park(cell)) {
        int rc = deadline == NULL ? pthread_cond_wait(&spot->condition, &spot->mutex)
                                  : pthread_cond_timedwait(&spot->condition, &spot->mutex, deadline);
        /* Spurious wake-ups (and another future's broadcast in this bucket) loop; a timeout or
           any error ends the wait. */
        if (rc == ETIMEDOUT) failure = PETAL_ERR_TIMEDOUT;
        else if (rc != 0) failure = PETAL_ERR_INVALID;
    }
    /* Resolved wins over a timeout that raced it. */
    if (petal_word_is_resolved(petal_cell_load(cell))) failure = 0;
    pthread_mutex_unlock(&spot->mutex);
    return failure != 0 ? failure : (int)petal_future_status(future);
}
