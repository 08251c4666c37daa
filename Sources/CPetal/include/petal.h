/*
 * petal.h - Petal's lock-free core: a one-word cell with an intrusive waiter list.
 *
 * THE WORD
 *
 *   A cell is one machine word (petal_word, libatomic_ops' AO_t). Its low four bits are tags; the
 *   rest is a pointer to the newest waiter node. Nodes are 16-byte aligned so that the pointer
 *   never touches the tags.
 *
 *     bit 1      HAS_OUTCOME  clear: unresolved            set: the outcome is published
 *     bit 0      clear/set:   PENDING / CLAIMED            RESOLVED / DELIVERING
 *     bits 2-3   unresolved:  SLOT_TAKEN, SLOT_READY       published: the outcome kind (0-3)
 *     bits 4-    the newest node of the waiter list (NULL when empty; always NULL when RESOLVED)
 *
 *   SLOT_TAKEN: a subscriber owns the container's inline waiter slot and is filling it.
 *   SLOT_READY: the inline slot holds the oldest waiter.
 *
 * THE PHASES
 *
 *                claim (CAS, one winner)            publish (claimer, one CAS)
 *     PENDING ─────────────────────────► CLAIMED ──────────────────────────────► RESOLVED(kind)
 *      ▲ │ push, slot                     ▲ │ push, slot          │ waiters to run
 *      └─┘                                └─┘                     ▼              ▲ take_more: empty
 *                                                         DELIVERING(kind) ──────┘
 *                                                               ▲ │ push (late subscribers queue
 *                                                               └─┘  behind the running batch)
 *
 *   - subscribe   load-acquire; if RESOLVED, report it (the caller runs its callback itself).
 *                 Otherwise link node->next to the head and CAS the node in with RELEASE, so
 *                 whoever takes the list sees the node's contents. Pushing stays open while
 *                 CLAIMED and while DELIVERING: a callback subscribed after the outcome is
 *                 published but before every earlier callback has run is run after them, by the
 *                 delivering thread. That is what makes the order strict: callbacks run in the
 *                 order of their subscriptions, whether before, during or after the resolution.
 *   - claim       CAS PENDING -> CLAIMED, keeping list and slot bits. No ordering: the claim
 *                 publishes nothing. Exactly one caller wins; losers must not touch the outcome.
 *   - publish     the claimer has written the outcome into memory it owns. One CAS with FULL
 *                 ordering swaps in RESOLVED(kind) if nobody waits, else DELIVERING(kind) with
 *                 an empty list, taking the waiters. RELEASE publishes the outcome to every later
 *                 acquire of the word; ACQUIRE makes the taken nodes' contents visible.
 *   - take_more   after running a batch, the deliverer CASes (FULL) either DELIVERING(list) ->
 *                 DELIVERING(empty), taking the late subscribers, or DELIVERING(empty) ->
 *                 RESOLVED. RELEASE there orders every delivered callback before any subscriber
 *                 that sees RESOLVED and runs its own.
 *   - inline slot the first subscriber may use a slot inside the container instead of a node (no
 *                 allocation), while the list is still empty, so the slot is always the oldest
 *                 waiter: reserve (CAS sets SLOT_TAKEN; no ordering, nothing is published),
 *                 fill the slot, commit (CAS sets SLOT_READY with RELEASE, publishing it). If the
 *                 outcome is published between reserve and commit, the commit fails, the
 *                 publisher has skipped the slot, and the subscriber subscribes with a node
 *                 instead (or runs its callback, if RESOLVED). The slot is used at most once.
 *
 *   Nodes are never unlinked one by one: the only removal is the publisher taking a whole list, so
 *   there is no ABA problem and no need for hazard pointers. Each batch runs in subscription
 *   order: the slot first (always the oldest), then the list reversed (it is LIFO).
 *
 * THE LAYERS
 *
 *   petal_cell_*        the protocol above, static inline so Swift and C inline them to bare
 *                       lock cmpxchg instructions.
 *   petal_trampoline_*  per-thread depth-limited inline execution (stack safety for callbacks
 *                       that resolve other cells from inside callbacks).
 *   petal_future_*      a small convenience future for C programs: a void * payload, a status
 *                       code, callbacks as function pointer + context.
 */
#ifndef PETAL_H
#define PETAL_H

#include <atomic_ops.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* C11 spells alignment _Alignas, C++11 alignas: the header is for both. */
#ifdef __cplusplus
#  define PETAL_ALIGNAS(bytes) alignas(bytes)
#else
#  define PETAL_ALIGNAS(bytes) _Alignas(bytes)
#endif

#if defined(_WIN32) || defined(__CYGWIN__)
#  define PETAL_API
#elif defined(__GNUC__)
#  define PETAL_API __attribute__((visibility("default")))
#else
#  define PETAL_API
#endif

/* libatomic_ops spells its word type as a macro; Swift and C++ users get a real type name. */
typedef AO_t petal_word;

/* ------------------------------------------------------------------------------------------- */
/* The word's tags. A tiny set of queries keeps every caller away from bit arithmetic.          */
/* ------------------------------------------------------------------------------------------- */

#define PETAL_PHASE_MASK       ((petal_word)3)
#define PETAL_PHASE_PENDING    ((petal_word)0) /* unresolved, open to claim and subscribe */
#define PETAL_PHASE_CLAIMED    ((petal_word)1) /* one resolver won; it is writing the outcome */
#define PETAL_PHASE_RESOLVED   ((petal_word)2) /* terminal: published and every waiter has run */
#define PETAL_PHASE_DELIVERING ((petal_word)3) /* published; the publisher is running waiters */
#define PETAL_HAS_OUTCOME      ((petal_word)2) /* set in RESOLVED and DELIVERING */
#define PETAL_SLOT_TAKEN       ((petal_word)4) /* unresolved: a subscriber reserved the slot */
#define PETAL_SLOT_READY       ((petal_word)8) /* unresolved: the slot holds the oldest waiter */
#define PETAL_KIND_SHIFT       2               /* published: the kind sits where the slot bits were */
#define PETAL_KIND_MASK        ((petal_word)3)
#define PETAL_TAG_MASK         ((petal_word)15)
/* The largest outcome kind a word can carry. */
#define PETAL_KIND_MAX         3u

/* An intrusive waiter node. Embed it in the object that owns the callback. The alignment keeps
   the word's four tag bits free; malloc on every supported platform already returns 16. */
typedef struct petal_node {
    PETAL_ALIGNAS(16) struct petal_node *next;
} petal_node;

/* The cell: one word. Zero-initialised memory is a valid PENDING cell with no waiters. */
typedef struct petal_cell {
    volatile petal_word word;
} petal_cell;

/* Results of petal_cell_subscribe. */
#define PETAL_SUBSCRIBED 1       /* the node is in the list; the publisher will run it */
#define PETAL_ALREADY_RESOLVED 0 /* the cell is RESOLVED; the caller runs its callback itself */

/* Whether the outcome is published (RESOLVED or DELIVERING): its kind and memory may be read. */
static inline int petal_word_has_outcome(petal_word word) {
    return (word & PETAL_HAS_OUTCOME) != 0;
}

/* Whether the word is terminal: RESOLVED, with every waiter run. */
static inline int petal_word_is_resolved(petal_word word) {
    return (word & PETAL_PHASE_MASK) == PETAL_PHASE_RESOLVED;
}

/* Whether a resolver has claimed the cell (CLAIMED, or any later phase). */
static inline int petal_word_is_claimed(petal_word word) {
    return (word & PETAL_PHASE_MASK) != PETAL_PHASE_PENDING;
}

/* The outcome kind of a word with an outcome. */
static inline unsigned petal_word_kind(petal_word word) {
    return (unsigned)((word >> PETAL_KIND_SHIFT) & PETAL_KIND_MASK);
}

/* A RESOLVED word carrying `kind`, for containers created already resolved. */
static inline petal_word petal_word_resolved(unsigned kind) {
    return ((petal_word)kind << PETAL_KIND_SHIFT) | PETAL_PHASE_RESOLVED;
}

/* Whether the inline slot of a word can still be reserved: unresolved, never reserved, and no
   node pushed yet. The last condition keeps the slot the oldest waiter by construction: a
   subscriber that pushed a node (petal_future_subscribe_node never uses the slot) must not be
   overtaken by a later one that takes the slot. */
static inline int petal_word_slot_free(petal_word word) {
    return !petal_word_has_outcome(word) && (word & ~PETAL_PHASE_MASK) == 0;
}

/* Whether a word taken by publish carries a committed inline-slot waiter. */
static inline int petal_word_slot_ready(petal_word word) {
    return !petal_word_has_outcome(word) && (word & PETAL_SLOT_READY) != 0;
}

/* The newest node of a word's list (NULL for an empty list). */
static inline petal_node *petal_word_list(petal_word word) {
    return (petal_node *)(uintptr_t)(word & ~PETAL_TAG_MASK);
}

/* Whether a word taken by publish has waiters to run (then the cell is DELIVERING). */
static inline int petal_word_has_waiters(petal_word word) {
    return petal_word_slot_ready(word) || petal_word_list(word) != NULL;
}

/* ------------------------------------------------------------------------------------------- */
/* The cell protocol.                                                                           */
/* ------------------------------------------------------------------------------------------- */

/* Makes a cell PENDING with no waiters. Not atomic: call it before the cell is shared. */
static inline void petal_cell_init(petal_cell *cell) {
    cell->word = 0;
}

/* Reads the word. ACQUIRE: a word with an outcome seen here makes the outcome written before
   publish visible to the reader, which is the whole synchronisation of the outcome. */
static inline petal_word petal_cell_load(const petal_cell *cell) {
    return AO_load_acquire((const volatile AO_t *)&cell->word);
}

/* Pushes `node` unless the cell is RESOLVED. Returns PETAL_SUBSCRIBED, or PETAL_ALREADY_RESOLVED
   with the terminal word in *observed (the caller then runs its callback itself). */
static inline int petal_cell_subscribe(petal_cell *cell, petal_node *node, petal_word *observed) {
    petal_word old = petal_cell_load(cell);
    for (;;) {
        if (petal_word_is_resolved(old)) {
            *observed = old;
            return PETAL_ALREADY_RESOLVED;
        }
        node->next = petal_word_list(old);
        /* RELEASE: node->next and everything the caller wrote into the node's owner happen
           before the node becomes reachable from the word. */
        if (AO_compare_and_swap_release(&cell->word, old,
                                        (petal_word)(uintptr_t)node | (old & PETAL_TAG_MASK))) {
            *observed = old;
            return PETAL_SUBSCRIBED;
        }
        /* A failed CAS observes without ACQUIRE; reload with it, since a RESOLVED word seen
           here leads the caller straight to the outcome. Retries only: no cost uncontended. */
        old = petal_cell_load(cell);
    }
}

/* Reserves the container's inline waiter slot. Returns 1 if the caller now owns the slot and
   must fill it, then call petal_cell_commit_slot. Returns 0 if the slot is taken or the outcome
   is published; *observed holds the word seen. No ordering: the reservation publishes nothing. */
static inline int petal_cell_reserve_slot(petal_cell *cell, petal_word *observed) {
    petal_word old = petal_cell_load(cell);
    for (;;) {
        if (!petal_word_slot_free(old)) {
            *observed = old;
            return 0;
        }
        if (AO_compare_and_swap(&cell->word, old, old | PETAL_SLOT_TAKEN)) {
            *observed = old | PETAL_SLOT_TAKEN;
            return 1;
        }
        old = petal_cell_load(cell); /* ACQUIRE, as in subscribe */
    }
}

/* Commits a filled inline slot. Returns 1 if the publisher will run the slot's waiter, or 0 if
   the outcome was published meanwhile: the publisher skipped the slot, and the caller must take
   its callback back and subscribe it with a node instead (petal_cell_subscribe, which reports
   RESOLVED if the caller should run it itself). *observed holds the word seen. */
static inline int petal_cell_commit_slot(petal_cell *cell, petal_word *observed) {
    petal_word old = petal_cell_load(cell);
    for (;;) {
        if (petal_word_has_outcome(old)) {
            *observed = old;
            return 0;
        }
        /* RELEASE: the slot's contents happen before the publisher can see SLOT_READY. */
        if (AO_compare_and_swap_release(&cell->word, old, old | PETAL_SLOT_READY)) {
            *observed = old | PETAL_SLOT_READY;
            return 1;
        }
        old = petal_cell_load(cell); /* ACQUIRE, as in subscribe */
    }
}

/* Claims the right to resolve. Exactly one caller per cell gets 1; every other call gets 0 and
   must not touch the outcome memory. No ordering: the winner publishes later with FULL. */
static inline int petal_cell_claim(petal_cell *cell) {
    petal_word old = AO_load((volatile AO_t *)&cell->word);
    for (;;) {
        if ((old & PETAL_PHASE_MASK) != PETAL_PHASE_PENDING) return 0;
        petal_word seen = AO_fetch_compare_and_swap(&cell->word, old, old | PETAL_PHASE_CLAIMED);
        if (seen == old) return 1;
        old = seen;
    }
}

/* Publishes `kind` (at most PETAL_KIND_MAX) after a successful claim and returns the word it
   replaced. If petal_word_has_waiters() says so, the cell is now DELIVERING and the caller owns
   the taken waiters: it runs the inline slot's waiter (if ready), then petal_list_in_order(taken),
   then every batch petal_cell_take_more returns, until it returns NULL. Otherwise the cell is
   RESOLVED and there is nothing to run. */
static inline petal_word petal_cell_publish(petal_cell *cell, unsigned kind) {
    petal_word outcome = (petal_word)kind << PETAL_KIND_SHIFT;
    petal_word old = AO_load((volatile AO_t *)&cell->word);
    for (;;) {
        petal_word next = outcome | (petal_word_has_waiters(old) ? PETAL_PHASE_DELIVERING : PETAL_PHASE_RESOLVED);
        /* FULL: release publishes the outcome; acquire takes the nodes' contents (see top).
           With the __atomic backend this is an acq_rel CAS. */
        petal_word seen = AO_fetch_compare_and_swap_full(&cell->word, old, next);
        if (seen == old) return old;
        old = seen;
    }
}

/* Reverses a newest-first list into subscription order (oldest first). */
static inline petal_node *petal_list_reverse(petal_node *node) {
    petal_node *ordered = NULL;
    while (node != NULL) {
        petal_node *next = node->next;
        node->next = ordered;
        ordered = node;
        node = next;
    }
    return ordered;
}

/* The list of a word taken by publish, in subscription order. */
static inline petal_node *petal_list_in_order(petal_word taken) {
    return petal_list_reverse(petal_word_list(taken));
}

/* Called by the deliverer after running a batch. Returns the nodes pushed meanwhile, in
   subscription order, leaving the cell DELIVERING; or NULL after making the cell RESOLVED. */
static inline petal_node *petal_cell_take_more(petal_cell *cell) {
    petal_word old = AO_load((volatile AO_t *)&cell->word);
    for (;;) {
        petal_node *list = petal_word_list(old);
        petal_word next = (old & (PETAL_KIND_MASK << PETAL_KIND_SHIFT)) |
                          (list != NULL ? PETAL_PHASE_DELIVERING : PETAL_PHASE_RESOLVED);
        /* FULL: acquire takes the late nodes' contents; release orders every callback delivered
           so far before any subscriber that sees RESOLVED and runs its own. */
        petal_word seen = AO_fetch_compare_and_swap_full(&cell->word, old, next);
        if (seen == old) return petal_list_reverse(list);
        old = seen;
    }
}

/* ------------------------------------------------------------------------------------------- */
/* Side words: small atomics for the Swift facade's own state machines (a job's state, a        */
/* future's cancellation-request word). Swift cannot apply AO_* to its own memory by itself,    */
/* and Synchronization.Atomic is invisible to ThreadSanitizer; these are, and inline to one      */
/* instruction. The caller keeps the word at a stable address (never a stored property).        */
/* ------------------------------------------------------------------------------------------- */

/* A machine word for a state machine owned by the Swift facade. */
typedef struct petal_atomic_word {
    volatile petal_word value;
} petal_atomic_word;

/* ACQUIRE: whatever the thread that stored the value seen wrote before its (FULL) CAS is
   visible to the reader, so a state read here can be acted on. */
static inline petal_word petal_atomic_word_load(const petal_atomic_word *word) {
    return AO_load_acquire((const volatile AO_t *)&word->value);
}

/* Replaces *expected with desired if the word still holds it; returns 1 if it did, otherwise 0
   with the value seen in *expected. FULL: a transition both publishes what its thread wrote
   before it (release) and sees what earlier transitions published (acquire). */
static inline int petal_atomic_word_exchange(petal_atomic_word *word, petal_word *expected,
                                             petal_word desired) {
    petal_word seen = AO_fetch_compare_and_swap_full(&word->value, *expected, desired);
    if (seen == *expected) return 1;
    *expected = seen;
    return 0;
}

/* The same for a 32-bit word, so that one fits in a header's padding. */
typedef struct petal_atomic_u32 {
    volatile unsigned value;
} petal_atomic_u32;

/* ACQUIRE, as petal_atomic_word_load. */
static inline unsigned petal_atomic_u32_load(const petal_atomic_u32 *word) {
    return AO_int_load_acquire((const volatile unsigned *)&word->value);
}

/* FULL, as petal_atomic_word_exchange. */
static inline int petal_atomic_u32_exchange(petal_atomic_u32 *word, unsigned *expected, unsigned desired) {
    unsigned seen = AO_int_fetch_compare_and_swap_full(&word->value, *expected, desired);
    if (seen == *expected) return 1;
    *expected = seen;
    return 0;
}

/* ------------------------------------------------------------------------------------------- */
/* The trampoline: stack-safe inline execution.                                                 */
/* ------------------------------------------------------------------------------------------- */

/* How deep inline callbacks may nest on one thread before further work is deferred to the
   outermost frame. Small: each level costs a few hundred bytes of stack at most, and a deferral
   costs at most one allocation. */
#define PETAL_TRAMPOLINE_DEPTH 16

typedef void (*petal_work_fn)(void *context);

/* A deferred item. Callers of petal_trampoline_defer_item own it, typically inside a block that
   also holds the work's data, so deferring allocates nothing beyond that block. */
typedef struct petal_deferred {
    struct petal_deferred *next; /* the trampoline's queue link */
    petal_work_fn work;          /* called once with `context`; may free the item itself */
    void *context;
} petal_deferred;

/* Asks to run inline work now. Returns 1 if the caller may run it (it must then call
   petal_trampoline_leave), or 0 if it must defer it with petal_trampoline_defer: the thread is
   already PETAL_TRAMPOLINE_DEPTH callbacks deep, or earlier work is deferred and still waits
   (running later work first would break the thread's FIFO order). */
PETAL_API int petal_trampoline_enter(void);

/* Ends inline work begun by a successful petal_trampoline_enter. The outermost frame then runs
   every deferred item, in the order deferred, before returning. */
PETAL_API void petal_trampoline_leave(void);

/* Defers `work(context)` to the outermost inline frame of this thread, or runs it at once when
   no inline frame is active. Returns 0, or -1 if no memory could be had (nothing is queued). */
PETAL_API int petal_trampoline_defer(petal_work_fn work, void *context);

/* The same with an item the caller owns (its `work` and `context` set; `next` is the queue's):
   nothing is allocated, so it cannot fail. The trampoline reads the item before calling `work`,
   which may therefore free it. */
PETAL_API void petal_trampoline_defer_item(petal_deferred *item);

/* The current nesting depth of this thread (0 outside any inline work), for tests. */
PETAL_API unsigned petal_trampoline_depth(void);

/* The trampoline's per-thread state, exposed so that the fast paths below inline into their
   callers (two out-of-line calls per resolution otherwise). Only this thread touches it. */
typedef struct petal_trampoline_state {
    unsigned depth;        /* nested inline frames on this thread */
    petal_deferred *head;  /* oldest deferred item, run first */
    petal_deferred *tail;
} petal_trampoline_state;

#ifdef __cplusplus
#  define PETAL_THREAD_LOCAL thread_local
#else
#  define PETAL_THREAD_LOCAL _Thread_local
#endif

PETAL_API extern PETAL_THREAD_LOCAL petal_trampoline_state petal_trampoline_current;

/* petal_trampoline_enter, inline. */
static inline int petal_trampoline_enter_fast(void) {
    petal_trampoline_state *t = &petal_trampoline_current;
    if (t->depth >= PETAL_TRAMPOLINE_DEPTH || t->head != NULL) return 0;
    t->depth += 1;
    return 1;
}

/* petal_trampoline_leave, inline unless the outermost frame has deferred work to run. */
static inline void petal_trampoline_leave_fast(void) {
    petal_trampoline_state *t = &petal_trampoline_current;
    if (t->depth == 1 && t->head != NULL) {
        petal_trampoline_leave();
        return;
    }
    t->depth -= 1;
}

/* ------------------------------------------------------------------------------------------- */
/* The C convenience future.                                                                    */
/* ------------------------------------------------------------------------------------------- */

typedef enum petal_status {
    PETAL_STATUS_PENDING = -1,
    PETAL_STATUS_FULFILLED = 0,
    PETAL_STATUS_REJECTED = 1,
    PETAL_STATUS_CANCELLED = 2
} petal_status;

/* Return codes of the convenience layer. */
#define PETAL_OK 0
#define PETAL_ERR_RESOLVED -1 /* a second resolve: ignored, nothing was stored */
#define PETAL_ERR_NOMEM -2
#define PETAL_ERR_TIMEDOUT -3
#define PETAL_ERR_INVALID -4

typedef struct petal_future petal_future;

/* A callback: runs once, on the thread that resolves the future (or that subscribes to an
   already resolved one), with the future and the context given at subscription. Callbacks run
   through the trampoline: one that resolves another future nests only PETAL_TRAMPOLINE_DEPTH
   deep; deeper work runs, in order, when the outermost callback returns. */
typedef void (*petal_callback_fn)(petal_future *future, void *context);

/* A caller-owned waiter for petal_future_subscribe_node (no allocation). It must stay valid
   until its callback has run. */
typedef struct petal_waiter {
    petal_node node; /* first member: the list links waiters through it */
    petal_callback_fn callback;
    void *context;
    int owned; /* 1 if the future allocated it and frees it after running */
} petal_waiter;

struct petal_future {
    petal_cell cell;
    void *payload;          /* written once by the resolver before publish */
    petal_callback_fn slot_callback; /* the inline slot: the first subscriber's callback */
    void *slot_context;
};

/* Makes `future` PENDING. Not atomic: call it before the future is shared. */
PETAL_API void petal_future_init(petal_future *future);

/* Resolves the future with a status (not PENDING) and a payload: the value when fulfilled, an
   error object when rejected or cancelled (may be NULL). The first call wins and runs the
   callbacks in subscription order on this thread; later calls return PETAL_ERR_RESOLVED and
   change nothing. */
PETAL_API int petal_future_resolve(petal_future *future, petal_status status, void *payload);

static inline int petal_future_fulfil(petal_future *future, void *value) {
    return petal_future_resolve(future, PETAL_STATUS_FULFILLED, value);
}
static inline int petal_future_reject(petal_future *future, void *error) {
    return petal_future_resolve(future, PETAL_STATUS_REJECTED, error);
}
static inline int petal_future_cancel(petal_future *future, void *indirect_error) {
    return petal_future_resolve(future, PETAL_STATUS_CANCELLED, indirect_error);
}

/* Subscribes a callback. If the future is already resolved the callback runs now, on this
   thread, before this returns. The first subscriber of a future allocates nothing; later ones
   allocate a waiter (PETAL_ERR_NOMEM if that fails; the callback is then not registered). */
PETAL_API int petal_future_subscribe(petal_future *future, petal_callback_fn callback, void *context);

/* Subscribes with caller-owned waiter memory: never allocates, and never frees `waiter` (its
   contents need no initialisation). */
PETAL_API void petal_future_subscribe_node(petal_future *future, petal_waiter *waiter,
                                           petal_callback_fn callback, void *context);

/* The status: PETAL_STATUS_PENDING until resolved. */
PETAL_API petal_status petal_future_status(const petal_future *future);

/* The payload; only meaningful once the status is not PENDING. */
PETAL_API void *petal_future_payload(const petal_future *future);

/* Blocks until the future resolves, or until `deadline` (CLOCK_REALTIME; NULL waits forever).
   Returns the status, or PETAL_ERR_TIMEDOUT / PETAL_ERR_NOMEM / PETAL_ERR_INVALID (a deadline
   with tv_nsec outside [0, 1e9)). Never call it from a callback of
   the same future's resolver thread: that thread is the one that would wake it. */
PETAL_API int petal_future_wait(petal_future *future, const struct timespec *deadline);

/* ------------------------------------------------------------------------------------------- */
/* Diagnostics.                                                                                 */
/* ------------------------------------------------------------------------------------------- */

/* The bytes the allocator reserved for a heap block (0 where the platform cannot say), so tests
   can pin the size of the objects that carry cells. */
PETAL_API size_t petal_allocation_size(const void *block);

#ifdef __cplusplus
}
#endif

#endif /* PETAL_H */
