/*
 * Process-wide flags that Petal's Swift code reads on its hot paths.
 *
 * Why in C: a Swift global with an initialiser is reached through a lazy-initialisation check on
 * every access (tens of instructions on a path that costs a thousand); a C global is one load.
 * Not part of the C API: this header is in the Clang module CPetal only, never installed for C
 * programs, and the core's C code never reads these.
 */
#ifndef PETAL_SWIFT_FLAGS_H
#define PETAL_SWIFT_FLAGS_H

#include "petal_atomics.h"
#include "petal_trampoline_state.h" /* PETAL_THREAD_LOCAL */

#include <stdint.h>

/* Non-zero while a callback-context carrier is installed (Swift: CallbackContext.carrier).
 * Written by the carrier's setter with FULL ordering after the carrier is published; read with
 * ACQUIRE by every subscription, so a thread that sees it set finds the carrier. */
PETAL_API extern petal_atomic_word petal_callback_context_enabled;

/* The flag's address, for Swift (which may not name a mutable C global from concurrent code):
 * inlines to the address itself. */
PETAL_INLINE petal_atomic_word *petal_callback_context_flag(void) {
    return &petal_callback_context_enabled;
}

/* The request deadline bound on this thread by synchronous code (Swift: Deadline.withValue's
 * synchronous form, Deadline.withoutValue, and a carried callback while it runs), read before
 * the deadline's task-local.
 *
 * Why a thread slot and not the task-local alone: binding a task-local pushes a malloc'd item
 * on the task (outside a task, on a thread-local fallback), and every callback carrying a
 * deadline bound one where it ran; a synchronous binding never outlives its frame, so a slot the
 * frame saves, sets and restores holds it with plain stores, no allocation and no atomics.
 * Only this thread reads or writes it, so nothing here is atomic.
 *
 * The instant is ContinuousClock.Instant's own two words (its Duration's representation),
 * copied as they are: exact, with no conversion either way. The clock is unretained: the Swift
 * frame that sets the slot holds the deadline, and so its clock, until it restores the slot.
 * clock == NULL means nothing is bound here by synchronous code, and Swift reads the task-local;
 * withoutValue's "no deadline" marker is a deadline of a clock of its own, so it needs no state
 * word of its own. */
typedef struct petal_deadline_slot {
    uint64_t instant_low;
    uint64_t instant_high;
    void *clock;
} petal_deadline_slot;

PETAL_API extern PETAL_THREAD_LOCAL petal_deadline_slot petal_deadline_bound;

/* This thread's slot, for Swift (which does not import thread-local C globals): inlines to the
 * thread-local access itself. */
PETAL_INLINE petal_deadline_slot *petal_deadline_slot_current(void) {
    return &petal_deadline_bound;
}

/* The RetryBudget whose loop is running an attempt's body on this thread (unretained: the loop
 * holds it until it restores the slot), or NULL. A loop on the same budget that begins there
 * deposits nothing: its first call is that attempt (Swift: RetryBudget+Nesting). Only this
 * thread reads or writes it, so nothing here is atomic; a thread-local rather than a pthread
 * key because every budgeted retry and hedge sets, reads and restores it (a key's get and set
 * cost about 95 instructions a hedged call, measured). */
PETAL_API extern PETAL_THREAD_LOCAL const void *petal_attempt_budget;

/* This thread's slot, for Swift (which does not import thread-local C globals). */
PETAL_INLINE const void **petal_attempt_budget_current(void) {
    return &petal_attempt_budget;
}

/* This thread's sampling sequence (Swift: SampleDraw): a Weyl sequence, the golden ratio's step
 * added on each draw, from a seed the first draw takes (0 means unseeded). It decides which of a
 * breaker's successes are counted, one in up to 64: each thread's draws under any mask are
 * spread evenly over its calls, whatever the order of their outcomes: a sparse window's few
 * samples stand for its successes within a few draws' weight, where independent coin flips (the
 * low bits of each call's start, as before) left a window of a hundred calls after a burst a
 * few percent likely to read 30% failures as more than half. Only this thread reads or writes
 * it, so nothing here is atomic; a thread-local rather than a counter in the breaker, whose
 * line every thread would write. */
PETAL_API extern PETAL_THREAD_LOCAL uint64_t petal_sample_sequence;

/* This thread's sequence, for Swift (which does not import thread-local C globals). */
PETAL_INLINE uint64_t *petal_sample_sequence_current(void) {
    return &petal_sample_sequence;
}

#endif
