/*
 * petal_cell.h - the protocol of Petal's lock-free core: how a cell (petal_cell_layout.h) moves
 * between its phases, who may move it, and with which memory ordering.
 *
 * Internal: the core's C sources, the C tests, the fuzzer and the Swift facade include it; a C
 * program uses petal.h alone, and CMake installs this header only next to the Swift module.
 *
 * THE PHASES
 *
 *                claim (CAS, one winner)            publish (claimer, one CAS)
 *     PENDING ─────────────────────────► CLAIMED ──────────────────────────────► RESOLVED
 *      ▲ │ │ reserve, push                ▲ │ reserve, push       │ waiters to run
 *      └─┘ │                              └─┘                     ▼              ▲ take_more: empty
 *          │ claim_taking, waiters taken (one CAS)           DELIVERING ─────────┘
 *          └──────────────────────────────────────────────────►  ▲ │ reserve, push (late
 *            then the outcome; mark_written publishes it         └─┘  subscribers queue
 *                                                                     behind the batch)
 *
 *   - reserve     load-acquire; if RESOLVED, report it (the caller runs its callback itself).
 *                 Else take a slot with a CAS that adds one to COUNT: the inline slot (list
 *                 empty, COUNT 0, no outcome) or the next slot of the newest block (COUNT below
 *                 its capacity). ACQUIRE (a block's address may be reused); the reservation
 *                 publishes nothing. Otherwise the caller must push a block. A CAS that loses
 *                 backs off (exponentially, bounded) and retries with the word it saw.
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
 *   - claim_taking  what the resolvers call: claim and, when callbacks wait, publish's taking
 *                 in one CAS (FULL): PENDING -> DELIVERING with an empty list, before the
 *                 outcome is written; then mark_written, a RELEASE store of the kind with
 *                 PETAL_KIND_WRITTEN, publishes the outcome to readers that are not delivering
 *                 it (petal_cell_outcome_visible). Without waiters it is claim, and publish
 *                 follows.
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
 *   petal_cell_*        the protocol below, PETAL_INLINE so Swift and C inline them to bare
 *                       lock cmpxchg instructions (petal_cell.h, on petal_cell_layout.h).
 *   petal_trampoline_*  per-thread depth-limited inline execution (stack safety for callbacks
 *                       that resolve other cells from inside callbacks): petal.h, and the
 *                       inline fast paths in petal_trampoline_state.h.
 *   petal_future_*      a small convenience future for C programs: a void * payload, a status
 *                       code, callbacks as function pointer + context (petal.h; the core's view
 *                       of its storage in petal_future_state.h).
 */
#ifndef PETAL_CELL_H
#define PETAL_CELL_H

#include "petal_cell_layout.h"

#include <assert.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

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
    cell->kind = kind | PETAL_KIND_WRITTEN;
}

/* Reads the word. ACQUIRE: a RESOLVED word seen here makes the outcome (and the kind) visible
   to the reader, and so does a DELIVERING one whose kind carries PETAL_KIND_WRITTEN
   (petal_cell_outcome_visible): the whole synchronisation of the outcome. */
PETAL_INLINE petal_word petal_cell_load(const petal_cell *cell) {
    return petal_atomic_load_acquire(&cell->word);
}

/* Whether the outcome of a cell whose word (loaded with petal_cell_load) is `word` may be read
   by any thread: RESOLVED, or DELIVERING with the outcome written. A claim that takes the
   waiters (petal_cell_claim_taking) makes the word DELIVERING before the outcome is written;
   petal_cell_mark_written's RELEASE store then publishes it, and the ACQUIRE load here reads
   that mark. Its deliverer, which wrote the outcome, may read it at once. */
PETAL_INLINE int petal_cell_outcome_visible(const petal_cell *cell, petal_word word) {
    if (petal_word_is_resolved(word)) return 1;
    if (!petal_word_has_outcome(word)) return 0;
    return (petal_atomic_uint_load_acquire(&cell->kind) & PETAL_KIND_WRITTEN) != 0;
}

/* The outcome kind; only where the outcome is visible (petal_cell_outcome_visible), or to its
   deliverer. RELAXED: the acquire that made the outcome visible orders this read too. */
PETAL_INLINE unsigned petal_cell_kind(const petal_cell *cell) {
    return petal_atomic_uint_load(&cell->kind) & PETAL_KIND_MASK;
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

/* The most PAUSEs a reservation that lost its CAS waits before it tries again (see
   petal_cell_reserve): 64 are 1.6 us on the 2-core machine the benchmarks run on (25 ns a
   PAUSE, AMD Zen 4), short against the work of whoever holds the promise. Measured there, a
   bound of 8 gained nearly as much, and one PAUSE every time nothing at all. */
#define PETAL_RESERVE_BACKOFF_MAX 64u

/* Reserves a waiter slot: the inline slot while nothing else waits and no outcome is
   published, otherwise the next free slot of the newest block. One CAS adds one to COUNT (see
   the ordering below); the reservation publishes nothing, the commit does. */
PETAL_INLINE int petal_cell_reserve(petal_cell *cell, petal_reservation *reservation) {
    petal_word old = petal_cell_load(cell);
    unsigned backoff = 1; /* PAUSEs before the next attempt, if this one loses */
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
        petal_word seen = petal_atomic_fetch_cas_acquire(&cell->word, old, old + PETAL_COUNT_ONE);
        if (seen == old) {
            reservation->observed = old + PETAL_COUNT_ONE;
            if (inline_slot) return PETAL_RESERVED_INLINE;
            reservation->block = head;
            reservation->index = count;
            return PETAL_RESERVED_SLOT;
        }
        /* Lost to another subscriber (or a push, a claim, a publish): wait before the next
           attempt, one PAUSE the first time and twice as many each time after, up to
           PETAL_RESERVE_BACKOFF_MAX. Meanwhile the winner keeps the word's cache line (and its
           block's) and takes its next reservations there, instead of two cores passing the
           line back and forth at every reservation: a hot promise attached from two threads
           takes twice as many subscriptions a second (Benchmarks/HISTORY.md, runs 36-37). The
           next attempt uses the word this CAS saw: reloading it after the wait pulls the line
           back from the winner, and undid the whole gain when measured. ACQUIRE on the
           failure too: a RESOLVED word seen here leads the caller straight to the outcome.
           Never reached uncontended. */
        for (unsigned pause = 0; pause < backoff; pause++) PETAL_SPIN_PAUSE();
        if (backoff < PETAL_RESERVE_BACKOFF_MAX) backoff *= 2;
        old = seen;
    }
}

/* Commits a filled slot (the inline slot's flag, or a block's). Returns 1 if the deliverer will
   run it, or 0 if it passed the slot first (SKIPPED): the caller takes its callback back, calls
   petal_block_leave for a block slot, and reserves again. RELEASE: the callback written into
   the slot happens before the deliverer can see READY. */
PETAL_INLINE int petal_slot_commit(volatile unsigned *flag) {
    return petal_atomic_uint_cas_release(flag, PETAL_SLOT_EMPTY, PETAL_SLOT_READY);
}

/* petal_slot_commit, recording `tag` (below 2^30) in the committed flag for the deliverer
   (petal_slot_settle_tagged) and for a deinit that frees what was never delivered; and the
   committed flag itself, for a block's first slot, filled before the block is pushed. */
PETAL_INLINE unsigned petal_slot_ready(unsigned tag) {
    return PETAL_SLOT_READY | (tag << PETAL_SLOT_TAG_SHIFT);
}
PETAL_INLINE int petal_slot_commit_tagged(volatile unsigned *flag, unsigned tag) {
    return petal_atomic_uint_cas_release(flag, PETAL_SLOT_EMPTY, petal_slot_ready(tag));
}

/* Whether a flag is committed (READY, whatever its tag), and the tag it carries. */
PETAL_INLINE int petal_slot_is_ready(unsigned flag) {
    return (flag & PETAL_SLOT_STATE_MASK) == PETAL_SLOT_READY;
}
PETAL_INLINE unsigned petal_slot_tag(unsigned flag) {
    return flag >> PETAL_SLOT_TAG_SHIFT;
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
    return petal_atomic_cas_release(&cell->word, old, pushed);
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
        if (petal_atomic_cas_release(&cell->word, old, pushed)) return PETAL_SUBSCRIBED;
        old = petal_cell_load(cell); /* ACQUIRE, as in reserve */
    }
}

/* Claims the right to resolve. Exactly one caller per cell gets 1; every other call gets 0 and
   must not touch the outcome memory. No ordering: the winner publishes later with FULL. Petal's
   own resolvers call petal_cell_claim_taking, which is this claim when nobody waits. */
PETAL_INLINE int petal_cell_claim(petal_cell *cell) {
    petal_word old = petal_atomic_load(&cell->word);
    for (;;) {
        if ((old & PETAL_PHASE_MASK) != PETAL_PHASE_PENDING) return 0;
        petal_word seen = petal_atomic_fetch_cas(&cell->word, old, old | PETAL_PHASE_CLAIMED);
        if (seen == old) return 1;
        old = seen;
    }
}

/* Claims the right to resolve and, if callbacks wait, takes them in the same CAS: what every
   resolver of Petal's containers calls (Swift's FutureStorage and the C future). Returns the
   word it replaced if it won (petal_word_won_claim), else PETAL_CLAIM_LOST, and the caller must
   not touch the outcome. Won:
     - with waiters (petal_word_has_waiters of the word returned), the cell is now DELIVERING,
       its outcome not yet written: the caller writes it, calls petal_cell_mark_written, then
       delivers the word returned as it would a word publish took (the inline slot, the
       blocks, take_more until RESOLVED);
     - without, the cell is CLAIMED, as after petal_cell_claim: the caller writes the outcome
       and publishes it with petal_cell_publish, which may find waiters pushed meanwhile.
   One read-modify-write where claim and publish take two, whenever someone subscribed before
   the resolution (every link of a chain, every call a caller waits on). Until the mark, a
   thread that sees the DELIVERING word reads no outcome (petal_cell_outcome_visible).
   FULL: acquire takes the blocks' contents (as publish's does); and Swift's resolver loads its
   cancellation slot after this CAS, against an attachment that stores there and then loads
   the word, so that one of the two sees the other (FutureStorage.publish). */
PETAL_INLINE petal_word petal_cell_claim_taking(petal_cell *cell) {
    petal_word old = petal_atomic_load(&cell->word);
    for (;;) {
        if ((old & PETAL_PHASE_MASK) != PETAL_PHASE_PENDING) return PETAL_CLAIM_LOST;
        petal_word next = petal_word_has_waiters(old) ? PETAL_PHASE_DELIVERING | (old & PETAL_PARKED)
                                                       : old | PETAL_PHASE_CLAIMED;
        petal_word seen = petal_atomic_fetch_cas_full(&cell->word, old, next);
        if (seen == old) return old;
        old = seen;
    }
}

/* After petal_cell_claim_taking took waiters, once the outcome is written: records `kind` (at
   most PETAL_KIND_MAX) with PETAL_KIND_WRITTEN. RELEASE: the outcome happens before any thread
   that sees the mark with petal_cell_outcome_visible reads it. A plain store on x86: no
   read-modify-write. */
PETAL_INLINE void petal_cell_mark_written(petal_cell *cell, unsigned kind) {
    petal_atomic_uint_store_release(&cell->kind, kind | PETAL_KIND_WRITTEN);
}

/* Publishes `kind` (at most PETAL_KIND_MAX) after a successful claim and returns the word it
   replaced. If petal_word_has_waiters() says so, the cell is now DELIVERING and the caller owns
   the taken waiters: it settles the inline slot, then the blocks oldest first
   (petal_blocks_in_order), then every batch petal_cell_take_more returns, until that returns a
   word without a list. Otherwise the cell is RESOLVED, there is nothing to run, and if
   petal_word_has_parked() says so the caller wakes the waiters. */
PETAL_INLINE petal_word petal_cell_publish(petal_cell *cell, unsigned kind) {
    petal_atomic_uint_store(&cell->kind, kind | PETAL_KIND_WRITTEN); /* published by the CAS below */
    petal_word old = petal_atomic_load(&cell->word);
    for (;;) {
        petal_word next = petal_word_has_waiters(old) ? PETAL_PHASE_DELIVERING | (old & PETAL_PARKED)
                                                       : PETAL_PHASE_RESOLVED;
        /* FULL: release publishes the outcome; acquire takes the blocks' contents (see top).
           On the C11 backend, a seq_cst CAS (petal_atomics_c11.h says why not acq_rel). */
        petal_word seen = petal_atomic_fetch_cas_full(&cell->word, old, next);
        if (seen == old) return old;
        old = seen;
    }
}

/* Decides a reserved slot for the deliverer. Returns 1 if the deliverer runs it (committed), or
   0 if its subscriber has not committed yet: the slot is now SKIPPED, its subscriber's commit
   will be refused, and it takes the callback back (a straggler). ACQUIRE on the load (READY:
   the callback is visible); FULL on the CAS, which decides against the commit. */
PETAL_INLINE int petal_slot_settle(volatile unsigned *flag) {
    if (petal_slot_is_ready(petal_atomic_uint_load_acquire(flag))) return 1;
    return petal_slot_is_ready(petal_atomic_uint_fetch_cas_full(flag, PETAL_SLOT_EMPTY, PETAL_SLOT_SKIPPED));
}

/* petal_slot_settle, for slots committed with a tag: returns the committed flag (READY and its
   tag: never 0) if the deliverer runs the slot, 0 if it is now SKIPPED. The same orderings. */
PETAL_INLINE unsigned petal_slot_settle_tagged(volatile unsigned *flag) {
    unsigned seen = petal_atomic_uint_load_acquire(flag);
    if (petal_slot_is_ready(seen)) return seen;
    seen = petal_atomic_uint_fetch_cas_full(flag, PETAL_SLOT_EMPTY, PETAL_SLOT_SKIPPED);
    return petal_slot_is_ready(seen) ? seen : 0;
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
        /* The block's two rows of slots, asked for now: this walk is a chain of dependent
           loads, one block's header giving the next, and the deliverer reads each row right
           after it, between callbacks whose atomics keep those misses from overlapping. Asked
           for here, they overlap the walk instead. */
        PETAL_PREFETCH((const char *)block + 64);
        PETAL_PREFETCH((const char *)block + 128);
        /* A header this walk reaches a few blocks from now (its pusher's thread allocated it a
           few blocks before this one), asked for now: the chain becomes several chains in
           flight at once. Only prefetched: the address may be stale, and a prefetch of any
           address is harmless. */
        if (block->hint != NULL) PETAL_PREFETCH(block->hint);
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
    petal_word before = petal_atomic_fetch_add_full(&block->refs, (petal_word)stragglers);
    return before + stragglers == 0;
}

/* A straggler has taken its callback back from `block`: returns 1 if it must free the block
   (the deliverer and every other straggler are done with it). FULL, as petal_block_finish. */
PETAL_INLINE int petal_block_leave(petal_block *block) {
    petal_word before = petal_atomic_fetch_add_full(&block->refs, (petal_word)-1);
    return before == 1;
}

/* Called by the deliverer after each batch. Returns the word taken: if it has a list, the cell
   stays DELIVERING and the caller settles those late subscribers' blocks (petal_blocks_in_order
   of this word); if not, the cell is now RESOLVED, and if petal_word_has_parked() says so the
   caller wakes the sleepers. */
PETAL_INLINE petal_word petal_cell_take_more(petal_cell *cell) {
    petal_word old = petal_atomic_load(&cell->word);
    for (;;) {
        petal_word next = petal_word_list(old) != NULL ? PETAL_PHASE_DELIVERING | (old & PETAL_PARKED)
                                                       : PETAL_PHASE_RESOLVED;
        /* FULL: acquire takes the late blocks' contents; release orders every callback delivered
           so far before any subscriber that sees RESOLVED and runs its own. */
        petal_word seen = petal_atomic_fetch_cas_full(&cell->word, old, next);
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
        petal_word seen = petal_atomic_fetch_cas_full(&cell->word, old, old | PETAL_PARKED);
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

#ifdef __cplusplus
}
#endif

#endif /* PETAL_CELL_H */
