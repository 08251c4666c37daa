/*
 * petal_atomics.h - the atomics under Petal's core and its Swift facade: the word type, the few
 * atomic operations the core uses (petal_atomic_*), and the side words the Swift facade runs its
 * own state machines on.
 *
 * Internal: the C API (petal.h) needs none of it, so Petal installs it only next to the Swift
 * module, whose inlinable code calls it, never in the C include directory. Every operation here
 * is static inline and compiles to an instruction: a program linking libpetal needs the atomics'
 * headers to compile the core, not a library to run it (cmake/CheckAtomicsInline.cmake checks
 * the libraries). Swift calls these wrappers, never a backend's own names.
 *
 * TWO BACKENDS, ONE SET OF OPERATIONS
 *
 *   libatomic_ops  petal_atomics_ao.h   the default wherever <atomic_ops.h> is found (the Linux
 *                                       packages libatomic-ops-dev, libatomic_ops-devel)
 *   C11            petal_atomics_c11.h  <stdatomic.h>, wherever it is not (Apple platforms, the
 *                                       static musl SDK), or when PETAL_ATOMICS_C11 is defined
 *
 * PETAL_ATOMICS_C11 forces C11 (it wins over everything); PETAL_ATOMICS_ATOMIC_OPS forces
 * libatomic_ops, failing to compile where it is missing rather than quietly falling back. The
 * build systems set them: CMake's PETAL_ATOMICS option, SwiftPM's C11Atomics trait (through
 * petal_atomics_choice.h). Both backends give each operation the same ordering, named by its
 * suffix as in libatomic_ops: none (relaxed), _acquire, _release, _full (a full barrier: C11's
 * seq_cst); a failed CAS orders like a load of the same suffix. Both keep words as plain size_t
 * in memory, so every layout is the same on both.
 *
 *   petal_atomic_load[_acquire|_full]               a word
 *   petal_atomic_store[_release]
 *   petal_atomic_fetch_add[_release|_full]          returns the value before
 *   petal_atomic_cas_{acquire,release,full}         1 if it swapped
 *   petal_atomic_fetch_cas[_acquire|_full]          returns the value seen (old if it swapped)
 *   petal_atomic_uint_load_acquire                  an unsigned (commit flags, a cell's kind)
 *   petal_atomic_uint_store_release
 *   petal_atomic_uint_cas_release
 *   petal_atomic_uint_fetch_cas_full
 */
#ifndef PETAL_ATOMICS_H
#define PETAL_ATOMICS_H

#include "petal.h"

/* SwiftPM's C11Atomics trait puts this header on the include path (Package.swift says why). */
#if defined(__has_include)
#  if __has_include(<petal_atomics_choice.h>)
#    include <petal_atomics_choice.h>
#  endif
#endif

#if defined(PETAL_ATOMICS_C11)
#  include "petal_atomics_c11.h"
#elif defined(PETAL_ATOMICS_ATOMIC_OPS)
#  include "petal_atomics_ao.h"
#elif defined(__has_include)
#  if __has_include(<atomic_ops.h>)
#    include "petal_atomics_ao.h"
#  else
#    include "petal_atomics_c11.h"
#  endif
#else
/* A compiler too old to ask: libatomic_ops, as before there was a choice. */
#  include "petal_atomics_ao.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------- */
/* Side words: small atomics for the Swift facade's own state machines (a job's state, a        */
/* future's cancellation-request word). Synchronization.Atomic is invisible to ThreadSanitizer */
/* (and needs macOS 15); these are not, and inline to one instruction. The caller keeps the     */
/* word at a stable address (never a stored property).                                          */
/* ------------------------------------------------------------------------------------------- */

/* A machine word for a state machine owned by the Swift facade. */
typedef struct petal_atomic_word {
    volatile petal_word value;
} petal_atomic_word;

/* ACQUIRE: whatever the thread that stored the value seen wrote before its (FULL) CAS is
   visible to the reader, so a state read here can be acted on. */
PETAL_INLINE petal_word petal_atomic_word_load(const petal_atomic_word *word) {
    return petal_atomic_load_acquire(&word->value);
}

/* Replaces *expected with desired if the word still holds it; returns 1 if it did, otherwise 0
   with the value seen in *expected. FULL: a transition both publishes what its thread wrote
   before it (release) and sees what earlier transitions published (acquire). */
PETAL_INLINE int petal_atomic_word_exchange(petal_atomic_word *word, petal_word *expected,
                                             petal_word desired) {
    petal_word seen = petal_atomic_fetch_cas_full(&word->value, *expected, desired);
    if (seen == *expected) return 1;
    *expected = seen;
    return 0;
}

/* Adds delta and returns the value before: one locked add, where a compare-and-swap loop is a
   load, the swap, and a retry whenever another thread added first (a counter every call of a
   busy policy bumps). FULL, as petal_atomic_word_exchange: more than a counter needs, and the
   same instruction on x86, where every locked instruction is a full barrier. */
PETAL_INLINE petal_word petal_atomic_word_add(petal_atomic_word *word, petal_word delta) {
    return petal_atomic_fetch_add_full(&word->value, delta);
}

/* Sets bits, whatever else the word holds: one locked or. For a word that only gathers flags
   between two clears (a histogram's occupied buckets), where nothing depends on the value
   before: no compare-and-swap, so no protocol. FULL, as petal_atomic_word_add. */
PETAL_INLINE void petal_atomic_word_or(petal_atomic_word *word, petal_word bits) {
    petal_atomic_or_full(&word->value, bits);
}

/* Keeps only `bits` of the word, whatever else it holds: one locked and, as petal_atomic_word_or
   sets them. FULL, as petal_atomic_word_add. */
PETAL_INLINE void petal_atomic_word_and(petal_atomic_word *word, petal_word bits) {
    petal_atomic_and_full(&word->value, bits);
}

/* Stores a value. RELEASE: what the storing thread wrote before is visible to a thread whose
   (ACQUIRE) load sees the value. For a word with one writer at a time (under its owner's lock)
   that others only read or add to: a compare-and-swap loop there would only be a store. */
PETAL_INLINE void petal_atomic_word_store(petal_atomic_word *word, petal_word value) {
    petal_atomic_store_release(&word->value, value);
}

/* The same for a 32-bit word, so that one fits in a header's padding. */
typedef struct petal_atomic_u32 {
    volatile unsigned value;
} petal_atomic_u32;

/* ACQUIRE, as petal_atomic_word_load. */
PETAL_INLINE unsigned petal_atomic_u32_load(const petal_atomic_u32 *word) {
    return petal_atomic_uint_load_acquire(&word->value);
}

/* FULL, as petal_atomic_word_exchange. */
PETAL_INLINE int petal_atomic_u32_exchange(petal_atomic_u32 *word, unsigned *expected, unsigned desired) {
    unsigned seen = petal_atomic_uint_fetch_cas_full(&word->value, *expected, desired);
    if (seen == *expected) return 1;
    *expected = seen;
    return 0;
}

/* RELAXED: atomic, but ordered with nothing else. For a flag whose readers want only its own
   value, because whatever they read beside it is ordered by other means (a future's failure
   word: written before the cell's publish or after an acquire of it, read after the last
   release of the future). */
PETAL_INLINE unsigned petal_atomic_u32_load_relaxed(const petal_atomic_u32 *word) {
    return petal_atomic_uint_load(&word->value);
}

/* RELAXED, as petal_atomic_u32_load_relaxed. */
PETAL_INLINE void petal_atomic_u32_store_relaxed(petal_atomic_u32 *word, unsigned value) {
    petal_atomic_uint_store(&word->value, value);
}

/* A byte for a flag that one thread clears and others only read (a chained future's "requests
   may yet pass", in the header's padding). */
typedef struct petal_atomic_u8 {
    volatile unsigned char value;
} petal_atomic_u8;

/* RELAXED: a reader wants only the flag itself; acting on a stale value must be harmless (the
   flag's owner says why it is). */
PETAL_INLINE unsigned char petal_atomic_u8_load_relaxed(const petal_atomic_u8 *byte) {
    return petal_atomic_uchar_load(&byte->value);
}

/* RELAXED, as petal_atomic_u8_load_relaxed. */
PETAL_INLINE void petal_atomic_u8_store_relaxed(petal_atomic_u8 *byte, unsigned char value) {
    petal_atomic_uchar_store(&byte->value, value);
}

#ifdef __cplusplus
}
#endif

#endif /* PETAL_ATOMICS_H */
