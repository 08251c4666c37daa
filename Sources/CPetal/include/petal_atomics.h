/*
 * petal_atomics.h - the atomics under Petal's core and its Swift facade: libatomic_ops, Petal's
 * name for its word, and the side words the Swift facade runs its own state machines on.
 *
 * Internal: the C API (petal.h) needs none of it, so Petal installs it only next to the Swift
 * module, whose inlinable code calls it, never in the C include directory. Every operation here
 * inlines to an instruction: a program linking libpetal needs libatomic_ops' headers to compile
 * the core, not its library to run it (cmake/CheckAtomicsInline.cmake checks the libraries).
 */
#ifndef PETAL_ATOMICS_H
#define PETAL_ATOMICS_H

#include "petal.h"

#include <atomic_ops.h>

#ifdef __cplusplus
extern "C" {
#endif

/* libatomic_ops spells its word type as a macro; Swift and C++ users get a real type name. */
typedef AO_t petal_word;

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

#ifdef __cplusplus
}
#endif

#endif /* PETAL_ATOMICS_H */
