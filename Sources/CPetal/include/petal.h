/*
 * petal.h - Petal's lock-free core: a one-word cell with an intrusive list of waiter blocks.
 *
 * THE CELL
 *
 *   A cell is one machine word (petal_word, libatomic_ops' AO_t) plus two small side fields:
 *   the outcome kind and the commit flag of the container's inline waiter slot.
 *
 *     word bits 0-1   the phase: PENDING, CLAIMED, RESOLVED, DELIVERING (bit 1: HAS_OUTCOME)
 *     word bits 2-4   COUNT: slots reserved in the newest block; while the list is empty and no
 *                     outcome is published, slots reserved in the inline slot (0 or 1). 0 when
 *                     RESOLVED.
 *     word bit 5      PARKED: a thread (or task) waits in a parking table until the cell is
 *                     RESOLVED (petal_cell_park). Every transition keeps it but the one to
 *                     RESOLVED, which hands it to its caller in the word it returns: the caller
 *                     wakes the waiters, without touching the cell again.
 *     word bits 6-    LIST: the newest waiter block (blocks are 64-byte aligned), or NULL.
 *     kind            the outcome kind, written by the claimer before it publishes and read
 *                     only after an acquire load saw HAS_OUTCOME.
 *     slot_flag       EMPTY, READY or SKIPPED: the inline slot's commit flag.
 *
 *   A WAITER BLOCK holds up to PETAL_BLOCK_SLOTS callbacks (the payload is its owner's: the C
 *   future stores function pointers, Swift its closures), each with a commit flag, so a hot
 *   future's subscribers share one allocation per seven. A subscriber reserves a slot with one
 *   CAS on the word (COUNT + 1), fills it, then commits it with one CAS on the slot's flag. The
 *   publisher settles each reserved slot: READY runs; EMPTY is marked SKIPPED with a CAS, and
 *   its subscriber (a "straggler", caught between reserve and commit) sees its commit refused,
 *   takes its callback back and subscribes again. A block with stragglers is freed by whoever
 *   touches it last, counted in the block's `refs`.
 *
 * THE PHASES
 *
 *                claim (CAS, one winner)            publish (claimer, one CAS)
 *     PENDING ─────────────────────────► CLAIMED ──────────────────────────────► RESOLVED
 *      ▲ │ reserve, push                  ▲ │ reserve, push       │ waiters to run
 *      └─┘                                └─┘                     ▼              ▲ take_more: empty
 *                                                            DELIVERING ─────────┘
 *                                                               ▲ │ reserve, push (late subscribers
 *                                                               └─┘  queue behind the running batch)
 *
 *   - reserve     load-acquire; if RESOLVED, report it (the caller runs its callback itself).
 *                 Else take a slot with a CAS that adds one to COUNT: the inline slot (list
 *                 empty, COUNT 0, no outcome) or the next slot of the newest block (COUNT below
 *                 its capacity). ACQUIRE (a block's address may be reused); the reservation
 *                 publishes nothing. Otherwise the caller must push a block.
 *   - commit      after filling the reserved slot: CAS its flag EMPTY -> READY with RELEASE, so
 *                 the publisher that sees READY sees the callback. Refused (SKIPPED): the
 *                 publisher has passed the slot; the subscriber takes its callback back, leaves
 *                 the block (petal_block_leave) and reserves again.
 *   - push        a new block, its first slot filled and READY (plain stores: it is private),
 *                 linked to the current list and CASed in as the newest with COUNT 1, RELEASE:
 *                 the block's contents happen before it is reachable from the word. A block
 *                 pushed with COUNT = PETAL_BLOCK_FULL takes no reservations (a caller-owned
 *                 single waiter).
 *   - claim       CAS PENDING -> CLAIMED, keeping list and count. No ordering: the claim
 *                 publishes nothing. Exactly one caller wins; losers must not touch the outcome.
 *   - publish     the claimer has written the outcome and the kind. One CAS with FULL ordering
 *                 swaps in RESOLVED if nobody waits, else DELIVERING with an empty list, taking
 *                 the waiters. RELEASE publishes the outcome to every later acquire of the word;
 *                 ACQUIRE makes the taken blocks' contents visible.
 *   - deliver     the publisher settles the taken slots in subscription order: the inline slot
 *                 (always the oldest), then the blocks oldest first, each block's slots in
 *                 order. Settling reads the flag with ACQUIRE (READY: the callback is visible)
 *                 or CASes EMPTY -> SKIPPED (FULL: decides, against the commit, who owns it).
 *   - take_more   after each batch, CAS (FULL) DELIVERING(list) -> DELIVERING(empty), taking the
 *                 late subscribers, or DELIVERING(empty) -> RESOLVED. RELEASE there orders every
 *                 delivered callback before any subscriber that sees RESOLVED and runs its own.
 *   - park        a thread about to sleep until RESOLVED sets PARKED with a CAS, refused once
 *                 the cell is RESOLVED, holding the lock of the parking-table bucket it sleeps
 *                 in; it does so again (a recheck) before each sleep. Whoever makes the cell
 *                 RESOLVED (publish without waiters, or the last take_more) gets PARKED back in
 *                 the word it replaces and broadcasts under the same bucket lock, so a sleeper
 *                 cannot miss it. The table lives outside the cell: the wake never touches a
 *                 cell that may already be freed, and a sleeper leaves nothing in the cell, so
 *                 a wait that gives up costs no memory (Tests/Model/petal_wait.pml).
 *
 *   Nothing is removed from the list but by the publisher taking it whole, and a subscriber
 *   touches a block only after a CAS on the word gave it a slot there, so no thread reads a
 *   block it could not know is alive, and a stale word can only make a CAS fail: a block
 *   address reused later behaves exactly like a fresh one (ABA is harmless). Callbacks run in
 *   the order their reservations (or pushes) succeeded, before, during or after the resolution.
 *   The protocol is model-checked with spin (Tests/Model).
 *
 * THE LAYERS
 *
 *   petal_cell_*        the protocol above, PETAL_INLINE so Swift and C inline them to bare
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
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
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

/* The protocol's functions are small and sit on every hot path: inline them even where the
   compiler's cost model would not (Swift's importer otherwise calls some out of line). */
#if defined(__GNUC__)
#  define PETAL_INLINE static inline __attribute__((always_inline))
#else
#  define PETAL_INLINE static inline
#endif

/* libatomic_ops spells its word type as a macro; Swift and C++ users get a real type name. */
typedef AO_t petal_word;

/* ------------------------------------------------------------------------------------------- */
/* The word, the cell and the waiter block. A tiny set of queries keeps every caller away from  */
/* bit arithmetic.                                                                              */
/* ------------------------------------------------------------------------------------------- */

#define PETAL_PHASE_MASK       ((petal_word)3)
#define PETAL_PHASE_PENDING    ((petal_word)0) /* unresolved, open to claim and subscribe */
#define PETAL_PHASE_CLAIMED    ((petal_word)1) /* one resolver won; it is writing the outcome */
#define PETAL_PHASE_RESOLVED   ((petal_word)2) /* terminal: published and every waiter has run */
#define PETAL_PHASE_DELIVERING ((petal_word)3) /* published; the publisher is running waiters */
#define PETAL_HAS_OUTCOME      ((petal_word)2) /* set in RESOLVED and DELIVERING */
#define PETAL_COUNT_SHIFT      2
#define PETAL_COUNT_ONE        ((petal_word)1 << PETAL_COUNT_SHIFT)
#define PETAL_COUNT_MASK       ((petal_word)7 << PETAL_COUNT_SHIFT)
#define PETAL_PARKED           ((petal_word)32) /* a thread sleeps until RESOLVED */
#define PETAL_TAG_MASK         ((petal_word)63)
/* The largest outcome kind a cell can carry. */
#define PETAL_KIND_MAX         3u

/* Callbacks per waiter block, and the COUNT of a block that takes no more reservations. */
#define PETAL_BLOCK_SLOTS 7u
#define PETAL_BLOCK_FULL  7u

/* A slot's commit flag. */
#define PETAL_SLOT_EMPTY   0u /* reserved (or not yet), not committed */
#define PETAL_SLOT_READY   1u /* committed: the deliverer runs it */
#define PETAL_SLOT_SKIPPED 2u /* passed by the deliverer before its commit: its subscriber takes it back */

/* Blocks are 64-byte aligned, which keeps the word's six tag bits free. Swift cannot import a
   type aligned beyond 16 bytes, and never declares a block itself (it only holds pointers to
   blocks from petal_block_allocate), so Swift sees the same layout without the attribute. */
#if defined(__swift__)
#  define PETAL_BLOCK_ALIGNAS
#else
#  define PETAL_BLOCK_ALIGNAS PETAL_ALIGNAS(64)
#endif

/* A waiter block: up to PETAL_BLOCK_SLOTS callbacks. The owner's payload (one entry per slot)
   follows the header, at petal_block_payload (offset 64, whatever the language). */
typedef struct petal_block {
    PETAL_BLOCK_ALIGNAS struct petal_block *next; /* the next older block */
    void *memory;                                 /* what petal_block_free gives back to free() */
    volatile petal_word refs;                     /* stragglers' accounting (petal_block_finish) */
    unsigned capacity;                            /* slots, 1 ... PETAL_BLOCK_SLOTS */
    volatile unsigned flags[PETAL_BLOCK_SLOTS];   /* commit flags */
    unsigned below;    /* slots reserved in `next` when this block was pushed (its pusher's) */
    unsigned reserved; /* slots reserved in this block, once taken (petal_blocks_in_order's) */
} petal_block;

#ifdef __cplusplus
static_assert(sizeof(petal_block) == 64, "a block header is 64 bytes in every language");
#else
_Static_assert(sizeof(petal_block) == 64, "a block header is 64 bytes in every language");
#endif

/* The cell. Zero-initialised memory is a valid PENDING cell with no waiters. */
typedef struct petal_cell {
    volatile petal_word word;
    volatile unsigned slot_flag; /* the inline slot's commit flag */
    unsigned kind;               /* the outcome kind: written by the claimer before it publishes */
} petal_cell;

/* Slot `index`'s commit flag in a block, and the inline slot's in a cell (for callers that
   cannot take the address of an array element or a field themselves, such as Swift). */
PETAL_INLINE volatile unsigned *petal_block_flag(petal_block *block, unsigned index) {
    return &block->flags[index];
}
PETAL_INLINE volatile unsigned *petal_cell_slot_flag(petal_cell *cell) {
    return &cell->slot_flag;
}

/* Where a block's payload starts: right after its header. */
PETAL_INLINE void *petal_block_payload(petal_block *block) {
    return (void *)(block + 1);
}

/* Whether the outcome is published (RESOLVED or DELIVERING): its kind and memory may be read. */
PETAL_INLINE int petal_word_has_outcome(petal_word word) {
    return (word & PETAL_HAS_OUTCOME) != 0;
}

/* Whether the word is terminal: RESOLVED, with every waiter run. */
PETAL_INLINE int petal_word_is_resolved(petal_word word) {
    return (word & PETAL_PHASE_MASK) == PETAL_PHASE_RESOLVED;
}

/* Whether a resolver has claimed the cell (CLAIMED, or any later phase). */
PETAL_INLINE int petal_word_is_claimed(petal_word word) {
    return (word & PETAL_PHASE_MASK) != PETAL_PHASE_PENDING;
}

/* Whether a word replaced by the transition to RESOLVED had PARKED: its caller must wake the
   sleepers (the parking table of the cell's owner). */
PETAL_INLINE int petal_word_has_parked(petal_word word) {
    return (word & PETAL_PARKED) != 0;
}

/* The newest block of a word's list (NULL for an empty list). */
PETAL_INLINE petal_block *petal_word_list(petal_word word) {
    return (petal_block *)(uintptr_t)(word & ~PETAL_TAG_MASK);
}

/* The word's COUNT: slots reserved in the newest block, or in the inline slot. */
PETAL_INLINE unsigned petal_word_count(petal_word word) {
    return (unsigned)((word & PETAL_COUNT_MASK) >> PETAL_COUNT_SHIFT);
}

/* Whether a word taken by publish or take_more has waiters to settle (then the cell is
   DELIVERING and the taker delivers them). */
PETAL_INLINE int petal_word_has_waiters(petal_word word) {
    return petal_word_count(word) != 0;
}

/* Whether the batch of a word taken by publish starts with the inline slot. Settling an inline
   slot nobody reserved (a caller-owned waiter was pushed first) only marks it SKIPPED, and no
   one can reserve it after an outcome is published, so "a list or a reservation" is enough. */
PETAL_INLINE int petal_word_includes_inline(petal_word taken) {
    return petal_word_has_waiters(taken);
}

/* ------------------------------------------------------------------------------------------- */
/* The cell protocol.                                                                           */
/* ------------------------------------------------------------------------------------------- */

/* Makes a cell PENDING with no waiters. Not atomic: call it before the cell is shared. */
PETAL_INLINE void petal_cell_init(petal_cell *cell) {
    cell->word = 0;
    cell->slot_flag = PETAL_SLOT_EMPTY;
    cell->kind = 0;
}

/* Makes a cell RESOLVED with `kind`, for containers created already resolved. Not atomic. */
PETAL_INLINE void petal_cell_init_resolved(petal_cell *cell, unsigned kind) {
    cell->word = PETAL_PHASE_RESOLVED;
    cell->slot_flag = PETAL_SLOT_SKIPPED;
    cell->kind = kind;
}

/* Reads the word. ACQUIRE: a word with an outcome seen here makes the outcome (and the kind)
   written before publish visible to the reader, which is the whole synchronisation of the
   outcome. */
PETAL_INLINE petal_word petal_cell_load(const petal_cell *cell) {
    return AO_load_acquire((const volatile AO_t *)&cell->word);
}

/* The outcome kind; only after petal_cell_load saw petal_word_has_outcome. */
PETAL_INLINE unsigned petal_cell_kind(const petal_cell *cell) {
    return cell->kind;
}

/* What petal_cell_reserve found. */
#define PETAL_ALREADY_RESOLVED 0 /* the cell is RESOLVED: the caller runs its callback itself */
#define PETAL_RESERVED_INLINE  1 /* the caller owns the inline slot: fill it, then commit */
#define PETAL_RESERVED_SLOT    2 /* the caller owns slot `index` of `block`: fill it, then commit */
#define PETAL_NEEDS_BLOCK      3 /* nothing to reserve: push a new block (petal_cell_push) */

typedef struct petal_reservation {
    petal_word observed; /* the word seen (after a successful reservation: the word made) */
    petal_block *block;  /* PETAL_RESERVED_SLOT: the block */
    unsigned index;      /* PETAL_RESERVED_SLOT: the slot */
} petal_reservation;

/* Reserves a waiter slot: the inline slot while nothing else waits and no outcome is
   published, otherwise the next free slot of the newest block. One CAS adds one to COUNT (see
   the ordering below); the reservation publishes nothing, the commit does. */
PETAL_INLINE int petal_cell_reserve(petal_cell *cell, petal_reservation *reservation) {
    petal_word old = petal_cell_load(cell);
    for (;;) {
        reservation->observed = old;
        if (petal_word_is_resolved(old)) return PETAL_ALREADY_RESOLVED;
        petal_block *head = petal_word_list(old);
        unsigned count = petal_word_count(old);
        int inline_slot = head == NULL && count == 0 && !petal_word_has_outcome(old);
        if (!inline_slot && (head == NULL || count >= PETAL_BLOCK_FULL)) return PETAL_NEEDS_BLOCK;
        /* ACQUIRE: the block whose slot this takes may sit at a reused address, pushed by
           another thread after this thread's load; the CAS reads that push's word, and
           acquiring it orders the block's initialisation before the slot is written. */
        if (AO_compare_and_swap_acquire(&cell->word, old, old + PETAL_COUNT_ONE)) {
            reservation->observed = old + PETAL_COUNT_ONE;
            if (inline_slot) return PETAL_RESERVED_INLINE;
            reservation->block = head;
            reservation->index = count;
            return PETAL_RESERVED_SLOT;
        }
        /* A failed CAS observes without ACQUIRE; reload with it, since a RESOLVED word seen
           here leads the caller straight to the outcome. Retries only: no cost uncontended. */
        old = petal_cell_load(cell);
    }
}

/* Commits a filled slot (the inline slot's flag, or a block's). Returns 1 if the deliverer will
   run it, or 0 if it passed the slot first (SKIPPED): the caller takes its callback back, calls
   petal_block_leave for a block slot, and reserves again. RELEASE: the callback written into
   the slot happens before the deliverer can see READY. */
PETAL_INLINE int petal_slot_commit(volatile unsigned *flag) {
    return AO_int_compare_and_swap_release(flag, PETAL_SLOT_EMPTY, PETAL_SLOT_READY);
}

/* Pushes `block` as the newest, with its first slot filled and READY, if the word is still
   `reservation->observed` (the word petal_cell_reserve saw when it answered PETAL_NEEDS_BLOCK).
   Returns 1 if pushed; otherwise the caller reserves again. The block must have all
   PETAL_BLOCK_SLOTS slots: reservations continue in it until COUNT is PETAL_BLOCK_FULL (a
   smaller waiter goes through petal_cell_push_waiter). RELEASE: the block's contents happen
   before it is reachable from the word. */
PETAL_INLINE int petal_cell_push(petal_cell *cell, petal_block *block, const petal_reservation *reservation) {
    assert(block->capacity == PETAL_BLOCK_SLOTS && "petal_cell_push takes blocks of PETAL_BLOCK_SLOTS slots");
    petal_word old = reservation->observed;
    block->next = petal_word_list(old);
    block->below = petal_word_count(old);
    petal_word pushed = (petal_word)(uintptr_t)block | PETAL_COUNT_ONE | (old & (PETAL_PHASE_MASK | PETAL_PARKED));
    return AO_compare_and_swap_release(&cell->word, old, pushed);
}

/* Pushes a caller-owned single waiter (a block of capacity 1, its slot filled and READY) that
   takes no reservations, unless the cell is RESOLVED. Returns PETAL_SUBSCRIBED, or
   PETAL_ALREADY_RESOLVED (the caller runs its callback itself). RELEASE, as petal_cell_push. */
#define PETAL_SUBSCRIBED 1
PETAL_INLINE int petal_cell_push_waiter(petal_cell *cell, petal_block *block) {
    petal_word old = petal_cell_load(cell);
    for (;;) {
        if (petal_word_is_resolved(old)) return PETAL_ALREADY_RESOLVED;
        block->next = petal_word_list(old);
        /* The block below may be partly filled: its reserved slots are recorded here, since
           nobody can reserve in it once this waiter is the newest. */
        block->below = petal_word_count(old);
        petal_word pushed = (petal_word)(uintptr_t)block | ((petal_word)PETAL_BLOCK_FULL << PETAL_COUNT_SHIFT) |
                            (old & (PETAL_PHASE_MASK | PETAL_PARKED));
        if (AO_compare_and_swap_release(&cell->word, old, pushed)) return PETAL_SUBSCRIBED;
        old = petal_cell_load(cell); /* ACQUIRE, as in reserve */
    }
}

/* Claims the right to resolve. Exactly one caller per cell gets 1; every other call gets 0 and
   must not touch the outcome memory. No ordering: the winner publishes later with FULL. */
PETAL_INLINE int petal_cell_claim(petal_cell *cell) {
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
   the taken waiters: it settles the inline slot, then the blocks oldest first
   (petal_blocks_in_order), then every batch petal_cell_take_more returns, until that returns a
   word without a list. Otherwise the cell is RESOLVED, there is nothing to run, and if
   petal_word_has_parked() says so the caller wakes the waiters. */
PETAL_INLINE petal_word petal_cell_publish(petal_cell *cell, unsigned kind) {
    cell->kind = kind; /* published by the CAS below */
    petal_word old = AO_load((volatile AO_t *)&cell->word);
    for (;;) {
        petal_word next = petal_word_has_waiters(old) ? PETAL_PHASE_DELIVERING | (old & PETAL_PARKED)
                                                       : PETAL_PHASE_RESOLVED;
        /* FULL: release publishes the outcome; acquire takes the blocks' contents (see top).
           With the __atomic backend this is an acq_rel CAS. */
        petal_word seen = AO_fetch_compare_and_swap_full(&cell->word, old, next);
        if (seen == old) return old;
        old = seen;
    }
}

/* Decides a reserved slot for the deliverer. Returns 1 if the deliverer runs it (committed), or
   0 if its subscriber has not committed yet: the slot is now SKIPPED, its subscriber's commit
   will be refused, and it takes the callback back (a straggler). ACQUIRE on the load (READY:
   the callback is visible); FULL on the CAS, which decides against the commit. */
PETAL_INLINE int petal_slot_settle(volatile unsigned *flag) {
    if (AO_int_load_acquire(flag) == PETAL_SLOT_READY) return 1;
    return AO_int_fetch_compare_and_swap_full(flag, PETAL_SLOT_EMPTY, PETAL_SLOT_SKIPPED) == PETAL_SLOT_READY;
}

/* Reverses a taken word's list (newest first) into subscription order (oldest first), and
   records in each block how many of its slots were reserved (petal_block_reserved): for the
   newest, the word's COUNT capped by its capacity (a caller-owned waiter is pushed with COUNT =
   FULL); for every older one, what the block pushed over it recorded (a block of seven is
   pushed over a full one, a waiter over one that may be partly filled). */
PETAL_INLINE petal_block *petal_blocks_in_order(petal_word taken) {
    petal_block *block = petal_word_list(taken);
    petal_block *ordered = NULL;
    unsigned count = petal_word_count(taken);
    while (block != NULL) {
        petal_block *next = block->next;
        block->reserved = count < block->capacity ? count : block->capacity;
        count = block->below;
        block->next = ordered;
        ordered = block;
        block = next;
    }
    return ordered;
}

/* The slots reserved in a block of a list put in order by petal_blocks_in_order. */
PETAL_INLINE unsigned petal_block_reserved(const petal_block *block) {
    return block->reserved;
}

/* After settling a block's reserved slots, of which `stragglers` were skipped: returns 1 if the
   caller (the deliverer) must free the block now, 0 if the last straggler will. FULL: every
   party's last access to the block happens before whoever frees it. */
PETAL_INLINE int petal_block_finish(petal_block *block, unsigned stragglers) {
    if (stragglers == 0) return 1;
    petal_word before = AO_fetch_and_add_full(&block->refs, (petal_word)stragglers);
    return before + stragglers == 0;
}

/* A straggler has taken its callback back from `block`: returns 1 if it must free the block
   (the deliverer and every other straggler are done with it). FULL, as petal_block_finish. */
PETAL_INLINE int petal_block_leave(petal_block *block) {
    petal_word before = AO_fetch_and_add_full(&block->refs, (petal_word)-1);
    return before == 1;
}

/* Called by the deliverer after each batch. Returns the word taken: if it has a list, the cell
   stays DELIVERING and the caller settles those late subscribers' blocks (petal_blocks_in_order
   of this word); if not, the cell is now RESOLVED, and if petal_word_has_parked() says so the
   caller wakes the sleepers. */
PETAL_INLINE petal_word petal_cell_take_more(petal_cell *cell) {
    petal_word old = AO_load((volatile AO_t *)&cell->word);
    for (;;) {
        petal_word next = petal_word_list(old) != NULL ? PETAL_PHASE_DELIVERING | (old & PETAL_PARKED)
                                                       : PETAL_PHASE_RESOLVED;
        /* FULL: acquire takes the late blocks' contents; release orders every callback delivered
           so far before any subscriber that sees RESOLVED and runs its own. */
        petal_word seen = AO_fetch_compare_and_swap_full(&cell->word, old, next);
        if (seen == old) return old;
        old = seen;
    }
}

/* Marks the cell PARKED before its caller sleeps until RESOLVED. Returns 1 if the cell is not
   RESOLVED (now marked, or already: sleep), or 0 if it is RESOLVED (do not sleep). Call it
   holding the lock of the parking-table bucket the resolver will broadcast under, before every
   sleep (see "park" at the top). FULL: the mark is in the word's modification order before the
   transition to RESOLVED, which therefore returns it, or after it, and then fails. */
PETAL_INLINE int petal_cell_park(petal_cell *cell) {
    petal_word old = petal_cell_load(cell);
    for (;;) {
        if (petal_word_is_resolved(old)) return 0;
        if (petal_word_has_parked(old)) return 1;
        petal_word seen = AO_fetch_compare_and_swap_full(&cell->word, old, old | PETAL_PARKED);
        if (seen == old) return 1;
        old = seen;
    }
}

/* The parking-table bucket of the cell at `address`, among `buckets` (a power of two): callers
   keep their own tables (mutex and condition per bucket); every party must agree on the hash. */
PETAL_INLINE unsigned petal_parking_bucket(const void *address, unsigned buckets) {
    /* Cells are at least 8-byte aligned; a multiplicative hash spreads the rest. */
    uint64_t bits = (uint64_t)(uintptr_t)address >> 3;
    return (unsigned)((bits * 0x9E3779B97F4A7C15ull) >> 40) & (buckets - 1);
}

/* A new waiter block of `size` bytes (the header and the owner's payload), 64-byte aligned,
   with `capacity` slots, every flag EMPTY; NULL without memory. malloc aligns to 16 everywhere
   Petal runs, so the block asks for 48 more bytes and aligns itself inside them (cheaper than
   aligned_alloc, which takes glibc's slow memalign path). */
PETAL_INLINE petal_block *petal_block_allocate(size_t size, unsigned capacity) {
    void *memory = malloc(size + 48);
    if (memory == NULL) return NULL;
    petal_block *block = (petal_block *)(((uintptr_t)memory + 63) & ~(uintptr_t)63);
    block->memory = memory;
    block->refs = 0;
    block->capacity = capacity;
    block->below = 0;
    block->reserved = 0;
    for (unsigned slot = 0; slot < PETAL_BLOCK_SLOTS; slot++) block->flags[slot] = PETAL_SLOT_EMPTY;
    return block;
}

/* Frees a block from petal_block_allocate. */
PETAL_INLINE void petal_block_free(petal_block *block) {
    free(block->memory);
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
PETAL_INLINE petal_word petal_atomic_word_load(const petal_atomic_word *word) {
    return AO_load_acquire((const volatile AO_t *)&word->value);
}

/* Replaces *expected with desired if the word still holds it; returns 1 if it did, otherwise 0
   with the value seen in *expected. FULL: a transition both publishes what its thread wrote
   before it (release) and sees what earlier transitions published (acquire). */
PETAL_INLINE int petal_atomic_word_exchange(petal_atomic_word *word, petal_word *expected,
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
PETAL_INLINE unsigned petal_atomic_u32_load(const petal_atomic_u32 *word) {
    return AO_int_load_acquire((const volatile unsigned *)&word->value);
}

/* FULL, as petal_atomic_word_exchange. */
PETAL_INLINE int petal_atomic_u32_exchange(petal_atomic_u32 *word, unsigned *expected, unsigned desired) {
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

/* Runs, now and in order, every item this thread has deferred (and whatever they defer in
   turn), instead of leaving them to the outermost inline frame. A thread about to block calls
   it first: the work it would wait for may be in its own queue, and the frame that would run
   it is the one about to block. Costs one thread-local load when nothing is deferred. */
PETAL_API void petal_trampoline_run_deferred(void);

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
PETAL_INLINE int petal_trampoline_enter_fast(void) {
    petal_trampoline_state *t = &petal_trampoline_current;
    if (t->depth >= PETAL_TRAMPOLINE_DEPTH || t->head != NULL) return 0;
    t->depth += 1;
    return 1;
}

/* petal_trampoline_leave, inline unless the outermost frame has deferred work to run. */
PETAL_INLINE void petal_trampoline_leave_fast(void) {
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

/* Return codes of the convenience layer: all distinct from every petal_status, so one int
   holding either can be told apart. */
#define PETAL_OK 0
#define PETAL_ERR_RESOLVED -2 /* a second resolve: ignored, nothing was stored */
#define PETAL_ERR_NOMEM -3
#define PETAL_ERR_TIMEDOUT -4
#define PETAL_ERR_INVALID -5 /* an argument out of range (a status, a deadline's tv_nsec) */

typedef struct petal_future petal_future;

/* A callback: runs once, on the thread that resolves the future (or that subscribes to an
   already resolved one), with the future and the context given at subscription. Callbacks run
   through the trampoline: one that resolves another future nests only PETAL_TRAMPOLINE_DEPTH
   deep; deeper work runs, in order, when the outermost callback returns. */
typedef void (*petal_callback_fn)(petal_future *future, void *context);

/* One entry of a C future's waiter payload: a callback and its context. */
typedef struct petal_callback_slot {
    petal_callback_fn callback;
    void *context;
} petal_callback_slot;

/* A caller-owned waiter for petal_future_subscribe_node (no allocation): a waiter block of one
   slot. It must stay valid until its callback has run; its contents need no initialisation. */
typedef struct petal_waiter {
    petal_block block;        /* first: the list links waiters through it */
    petal_callback_slot slot; /* the block's payload, at offset sizeof(petal_block) */
} petal_waiter;

struct petal_future {
    petal_cell cell;
    void *payload;                   /* written once by the resolver before publish */
    petal_callback_slot inline_slot; /* the first subscriber's callback */
};

/* Makes `future` PENDING. Not atomic: call it before the future is shared. */
PETAL_API void petal_future_init(petal_future *future);

/* Resolves the future with a status (not PENDING) and a payload: the value when fulfilled, an
   error object when rejected or cancelled (may be NULL). The first call wins and runs the
   callbacks in subscription order on this thread; later calls return PETAL_ERR_RESOLVED and
   change nothing. */
PETAL_API int petal_future_resolve(petal_future *future, petal_status status, void *payload);

PETAL_INLINE int petal_future_fulfil(petal_future *future, void *value) {
    return petal_future_resolve(future, PETAL_STATUS_FULFILLED, value);
}
PETAL_INLINE int petal_future_reject(petal_future *future, void *error) {
    return petal_future_resolve(future, PETAL_STATUS_REJECTED, error);
}
PETAL_INLINE int petal_future_cancel(petal_future *future, void *indirect_error) {
    return petal_future_resolve(future, PETAL_STATUS_CANCELLED, indirect_error);
}

/* Subscribes a callback. If the future is already resolved the callback runs now, on this
   thread, before this returns. The first subscriber of a future allocates nothing; later ones
   share waiter blocks of PETAL_BLOCK_SLOTS callbacks, one allocation each (PETAL_ERR_NOMEM if
   that fails; the callback is then not registered). */
PETAL_API int petal_future_subscribe(petal_future *future, petal_callback_fn callback, void *context);

/* Subscribes with caller-owned waiter memory: never allocates, and never frees `waiter` (its
   contents need no initialisation). */
PETAL_API void petal_future_subscribe_node(petal_future *future, petal_waiter *waiter,
                                           petal_callback_fn callback, void *context);

/* The status: PETAL_STATUS_PENDING until the future is resolved, which for every thread but
   the resolver's means until its resolution is complete: every callback has run and the
   resolver will never touch the future again. (The resolving thread, and the callbacks it runs,
   see the status as soon as the outcome is published: a callback may read its own future.) */
PETAL_API petal_status petal_future_status(const petal_future *future);

/* The payload once petal_future_status says resolved on this thread, NULL before. */
PETAL_API void *petal_future_payload(const petal_future *future);

/* Blocks until the future is resolved (as petal_future_status defines it: every callback
   subscribed before has run), or until `deadline` (CLOCK_REALTIME; NULL waits forever).
   Returns the status, or PETAL_ERR_TIMEDOUT / PETAL_ERR_INVALID (a deadline with tv_nsec
   outside [0, 1e9)). It allocates nothing and leaves nothing in the future (it sleeps in a
   parking table): a wait that times out costs no memory, however often it is repeated. Before
   blocking it runs the work this thread has deferred (petal_trampoline_run_deferred), which may
   be the resolution it would wait for. A wait from a callback for its own future returns at
   once; a wait for a future that only this thread's caller can resolve blocks until the
   deadline. */
PETAL_API int petal_future_wait(petal_future *future, const struct timespec *deadline);

/* FREEING A FUTURE. A future's memory is its owner's. It may be freed (or re-initialised) as
   soon as petal_future_wait returned a resolved status, or petal_future_status said resolved,
   on any thread, except inside the future's own callbacks (which see the outcome while it is
   still being delivered): from then on the resolver never touches it again. Freeing it earlier
   is a use-after-free in the resolver. A caller-owned waiter (petal_future_subscribe_node) may
   be freed once its callback has run.

   CONTRACT VIOLATIONS, which debug builds (without NDEBUG) assert and release builds do not
   check: a NULL future, callback or waiter; a waiter off its 64-byte alignment (declare it as
   a petal_waiter, or use aligned_alloc); a waiter subscribed again before its callback ran (it
   would link the list into a loop; debug builds catch it when it is still the newest). */

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
