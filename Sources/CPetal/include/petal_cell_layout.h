/*
 * petal_cell_layout.h - the cell of Petal's lock-free core, bit by bit: its word, its side
 * fields and the waiter blocks its list links, with the queries that keep every caller away
 * from bit arithmetic. The transitions between its phases are in petal_cell.h.
 *
 * Internal: the core's C sources, the C tests, the fuzzer and the Swift facade include it; a C
 * program uses petal.h alone, and CMake installs this header only next to the Swift module.
 *
 * THE CELL
 *
 *   A cell is one machine word (petal_word: a size_t, on either atomics backend) plus two small side fields:
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
 *     slot_flag       EMPTY, READY (with its committer's tag) or SKIPPED: the inline slot's
 *                     commit flag.
 *
 *   A WAITER BLOCK holds up to PETAL_BLOCK_SLOTS callbacks (each slot's two words are its
 *   owner's: the C future stores a function and its context, Swift a closure), each with a
 *   commit flag on the slot's own cache line, so a hot future's subscribers share one
 *   allocation per seven and each writes one line of it. A subscriber reserves a slot with one
 *   CAS on the word (COUNT + 1), fills it, then commits it with one CAS on the slot's flag. The
 *   publisher settles each reserved slot: READY runs; EMPTY is marked SKIPPED with a CAS, and
 *   its subscriber (a "straggler", caught between reserve and commit) sees its commit refused,
 *   takes its callback back and subscribes again. A block with stragglers is freed by whoever
 *   touches it last, counted in the block's `refs`.
 */
#ifndef PETAL_CELL_LAYOUT_H
#define PETAL_CELL_LAYOUT_H

#include "petal_atomics.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Asks for the cache line at `address` to be loaded ahead of a read: a hint, never a fault and
   no ordering (it is not an access). Nothing where the compiler has no such builtin. */
#if defined(__GNUC__)
#  define PETAL_PREFETCH(address) __builtin_prefetch(address)
#else
#  define PETAL_PREFETCH(address) ((void)(address))
#endif

/* Tells the processor that the thread spins (x86 PAUSE, Arm YIELD): no memory access, no
   ordering; the wait neither floods the memory system with speculative reads nor takes issue
   slots from a sibling hyper-thread. Nothing where the compiler knows no such instruction. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#  define PETAL_SPIN_PAUSE() __builtin_ia32_pause()
#elif defined(__GNUC__) && defined(__aarch64__)
#  define PETAL_SPIN_PAUSE() __asm__ __volatile__("yield")
#else
#  define PETAL_SPIN_PAUSE() ((void)0)
#endif

#ifdef __cplusplus
extern "C" {
#endif

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
/* The kind's bits in the cell's kind field; above them, PETAL_KIND_WRITTEN says that the outcome
   is written (petal_cell_outcome_visible). */
#define PETAL_KIND_MASK        3u
#define PETAL_KIND_WRITTEN     4u

/* Callbacks per waiter block, and the COUNT of a block that takes no more reservations. */
#define PETAL_BLOCK_SLOTS 7u
#define PETAL_BLOCK_FULL  7u

/* A slot's commit flag: its state in the low two bits; above them, a committed flag carries the
   committer's tag (petal_slot_commit_tagged), which the protocol never reads: the Swift facade
   records there which kind of callback the slot holds, so its slots need no tag byte of their
   own. */
#define PETAL_SLOT_EMPTY   0u /* reserved (or not yet), not committed */
#define PETAL_SLOT_READY   1u /* committed: the deliverer runs it */
#define PETAL_SLOT_SKIPPED 2u /* passed by the deliverer before its commit: its subscriber takes it back */
#define PETAL_SLOT_STATE_MASK 3u
#define PETAL_SLOT_TAG_SHIFT  2

/* A slot's payload: two words of its owner's (the C future keeps a function and its context, the
   Swift facade a callback's two words). */
typedef struct petal_slot_words {
    void *words[2];
} petal_slot_words;

/* A waiter block: up to PETAL_BLOCK_SLOTS callbacks in three cache lines, each slot's payload on
   the same line as its commit flag, so that a subscriber writes the one line of its slot (and
   the cell's word) and never a line shared by all seven. The header line holds the links and
   slot 0, which is its pusher's, filled before the push; each row after it holds three slots
   and their flags (petal_block_row). Every field is sized so that the layout is the same with
   the 64-byte alignment (C) and without it (Swift's view): the spare bytes pad each line. Only
   petal_block_slot and petal_block_flag know where a slot is. */
typedef struct petal_block {
    PETAL_BLOCK_ALIGNAS struct petal_block *next; /* the next older block */
    void *memory;                                 /* what petal_block_free gives back to free() */
    volatile petal_word refs;                     /* stragglers' accounting (petal_block_finish) */
    unsigned capacity;                            /* slots, 1 ... PETAL_BLOCK_SLOTS */
    unsigned below;    /* slots reserved in `next` when this block was pushed (its pusher's) */
    unsigned reserved; /* slots reserved in this block, once taken (petal_blocks_in_order's) */
    volatile unsigned first_flag; /* slot 0's commit flag */
    petal_slot_words first_slot;  /* slot 0's payload */
    /* Another block its pusher's thread allocated a few blocks before this one, or NULL: an
       address for petal_blocks_in_order to prefetch, never dereferenced (it may have been freed
       since). petal_block_cache.c says why it is there. */
    struct petal_block *hint;
#if UINTPTR_MAX <= 0xFFFFFFFFu /* 64-bit targets fill the line exactly */
    unsigned char spare[64 - 5 * sizeof(void *) - sizeof(petal_word) - 4 * sizeof(unsigned)];
#endif
} petal_block;

/* How many blocks back on its thread a cached block's hint points (a power of two): 2 and 8
   measured slower. */
#define PETAL_BLOCK_HINT_DISTANCE 4u

/* Slots per row, and a row: the payloads and commit flags of slots 1-3 (the first row) or 4-6
   (the second), one cache line. A block of one slot (a caller-owned waiter) has no rows. */
#define PETAL_ROW_SLOTS 3u
typedef struct petal_block_row {
    petal_slot_words slots[PETAL_ROW_SLOTS];
    volatile unsigned flags[PETAL_ROW_SLOTS];
    unsigned char spare[64 - PETAL_ROW_SLOTS * (2 * sizeof(void *) + sizeof(unsigned))];
} petal_block_row;

/* The bytes of a block of PETAL_BLOCK_SLOTS slots: the header line and two rows. */
#define PETAL_BLOCK_BYTES 192u

/* The bytes a block of `capacity` slots needs: the header line, and the rows its slots after
   the first reach. */
#define PETAL_BLOCK_BYTES_FOR(capacity) (64u + 64u * (((capacity) + 1u) / PETAL_ROW_SLOTS))

#ifdef __cplusplus
static_assert(sizeof(petal_block) == 64, "a block header is 64 bytes in every language");
static_assert(sizeof(petal_block_row) == 64, "a block row is one cache line");
static_assert(sizeof(petal_block) + 2 * sizeof(petal_block_row) == PETAL_BLOCK_BYTES, "a block is three lines");
static_assert(PETAL_BLOCK_BYTES <= 255, "a place in a block fits the offset tables' bytes");
#else
_Static_assert(sizeof(petal_block) == 64, "a block header is 64 bytes in every language");
_Static_assert(sizeof(petal_block_row) == 64, "a block row is one cache line");
_Static_assert(sizeof(petal_block) + 2 * sizeof(petal_block_row) == PETAL_BLOCK_BYTES, "a block is three lines");
_Static_assert(PETAL_BLOCK_BYTES <= 255, "a place in a block fits the offset tables' bytes");
#endif

/* The cell. Zero-initialised memory is a valid PENDING cell with no waiters. */
typedef struct petal_cell {
    volatile petal_word word;
    volatile unsigned slot_flag; /* the inline slot's commit flag */
    volatile unsigned kind;      /* the outcome kind, and PETAL_KIND_WRITTEN once it is written */
} petal_cell;

/* Slot `index`'s commit flag and payload in a block: slot 0 in the header line, slot 1 + 3r + i
   at place i of row r. Byte offsets from a table rather than arithmetic on the index: one load
   from a line every caller has in its cache, and no branch. */
#define PETAL_ROW_FLAG(row, place) \
    (sizeof(petal_block) + (row) * sizeof(petal_block_row) + offsetof(petal_block_row, flags) + (place) * sizeof(unsigned))
#define PETAL_ROW_SLOT(row, place) \
    (sizeof(petal_block) + (row) * sizeof(petal_block_row) + (place) * sizeof(petal_slot_words))
static const unsigned char petal_block_flag_offsets[PETAL_BLOCK_SLOTS] = {
    offsetof(petal_block, first_flag), PETAL_ROW_FLAG(0, 0), PETAL_ROW_FLAG(0, 1), PETAL_ROW_FLAG(0, 2),
    PETAL_ROW_FLAG(1, 0),              PETAL_ROW_FLAG(1, 1), PETAL_ROW_FLAG(1, 2)};
static const unsigned char petal_block_slot_offsets[PETAL_BLOCK_SLOTS] = {
    offsetof(petal_block, first_slot), PETAL_ROW_SLOT(0, 0), PETAL_ROW_SLOT(0, 1), PETAL_ROW_SLOT(0, 2),
    PETAL_ROW_SLOT(1, 0),              PETAL_ROW_SLOT(1, 1), PETAL_ROW_SLOT(1, 2)};

PETAL_INLINE volatile unsigned *petal_block_flag(petal_block *block, unsigned index) {
    return (volatile unsigned *)(void *)((char *)block + petal_block_flag_offsets[index]);
}
PETAL_INLINE void *petal_block_slot(petal_block *block, unsigned index) {
    return (char *)block + petal_block_slot_offsets[index];
}

/* The inline slot's flag in a cell (for callers that cannot take the address of a field
   themselves, such as Swift). */
PETAL_INLINE volatile unsigned *petal_cell_slot_flag(petal_cell *cell) {
    return &cell->slot_flag;
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

/* What petal_cell_claim_taking returns to a caller that lost the claim: never a word it
   replaces, which is always PENDING. */
#define PETAL_CLAIM_LOST PETAL_PHASE_RESOLVED

/* Whether petal_cell_claim_taking's answer is a won claim (the PENDING word it replaced). */
PETAL_INLINE int petal_word_won_claim(petal_word answer) {
    return (answer & PETAL_PHASE_MASK) == PETAL_PHASE_PENDING;
}

/* Whether the batch of a word taken by publish starts with the inline slot. Settling an inline
   slot nobody reserved (a caller-owned waiter was pushed first) only marks it SKIPPED, and no
   one can reserve it after an outcome is published, so "a list or a reservation" is enough. */
PETAL_INLINE int petal_word_includes_inline(petal_word taken) {
    return petal_word_has_waiters(taken);
}

/* ------------------------------------------------------------------------------------------- */
/* Waiter blocks' memory: allocated by their owners, freed by whoever touches them last.        */
/* ------------------------------------------------------------------------------------------- */

/* A new waiter block of `size` bytes (at least PETAL_BLOCK_BYTES_FOR(capacity)), 64-byte
   aligned, with `capacity` slots, every flag EMPTY; NULL without memory. Blocks of up to
   PETAL_BLOCK_CACHE_SIZE bytes come from this thread's block cache (petal_block_cache.c): a
   block goes back to the thread that allocated it when it is freed, wherever that happens, so
   a future drained on one thread and subscribed to on others costs no malloc or free in the
   steady state. */
PETAL_API petal_block *petal_block_allocate(size_t size, unsigned capacity);

/* Frees a block from petal_block_allocate, on any thread: back to its thread's cache, or to
   free() once that cache is full or its thread has exited. */
PETAL_API void petal_block_free(petal_block *block);

/* Frees a list of blocks linked by `next` (a drain's), as petal_block_free does each, but
   returning the blocks of each other thread with one CAS for all of them. */
PETAL_API void petal_block_free_list(petal_block *list);

/* The largest block the cache keeps: a block of seven slots (PETAL_BLOCK_BYTES, the C future's
   and the Swift facade's). Every cached block is this size, so any fits any cached request;
   larger blocks go straight to malloc and free. */
#define PETAL_BLOCK_CACHE_SIZE 192u

/* For the C tests: the block caches in existence (one per thread that allocated a block and
   has not exited, or whose blocks are still out), and whether caching is on in this build (off
   under AddressSanitizer). Not exported from the shared library. */
size_t petal_block_cache_homes(void);
int petal_block_cache_enabled(void);

#ifdef __cplusplus
}
#endif

#endif /* PETAL_CELL_LAYOUT_H */
