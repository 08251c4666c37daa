/*
 * petal_atomics_ao.h - the libatomic_ops backend of petal_atomics.h: each petal_atomic_*
 * operation is the libatomic_ops operation of the same ordering suffix.
 *
 * Included only by petal_atomics.h, which chose it (a textual header of the Clang module
 * CPetal: the module must build where <atomic_ops.h> is missing and this header is never used).
 */
#ifndef PETAL_ATOMICS_AO_H
#define PETAL_ATOMICS_AO_H

#ifndef PETAL_ATOMICS_H
#  error "include petal_atomics.h, which chooses the backend"
#endif

#include <atomic_ops.h>

/* What petal_atomics_backend() and PETAL_ATOMICS_BACKEND report. */
#define PETAL_ATOMICS_BACKEND "libatomic_ops"

#ifdef __cplusplus
extern "C" {
#endif

/* libatomic_ops spells its word type as a macro for size_t; Swift and C++ users get a real type
   name, and the C11 backend declares the very same type, so Swift sees one petal_word (Int). */
typedef AO_t petal_word;

/* The orderings are libatomic_ops' own, named by the suffix: see petal_atomics.h. */

/* A load and a store: NAME calls libatomic_ops' AO, of the same suffix. */
#define PETAL_AO_LOAD(NAME, TYPE, AO) \
    PETAL_INLINE TYPE NAME(const volatile TYPE *word) { return AO(word); }
#define PETAL_AO_STORE(NAME, TYPE, AO) \
    PETAL_INLINE void NAME(volatile TYPE *word, TYPE value) { AO(word, value); }

PETAL_AO_LOAD(petal_atomic_load, petal_word, AO_load)
PETAL_AO_LOAD(petal_atomic_load_acquire, petal_word, AO_load_acquire)
PETAL_AO_LOAD(petal_atomic_load_full, petal_word, AO_load_full)
PETAL_AO_STORE(petal_atomic_store, petal_word, AO_store)
PETAL_AO_STORE(petal_atomic_store_release, petal_word, AO_store_release)
PETAL_INLINE petal_word petal_atomic_fetch_add(volatile petal_word *word, petal_word delta) {
    return AO_fetch_and_add(word, delta);
}
PETAL_INLINE petal_word petal_atomic_fetch_add_release(volatile petal_word *word, petal_word delta) {
    return AO_fetch_and_add_release(word, delta);
}
PETAL_INLINE petal_word petal_atomic_fetch_add_full(volatile petal_word *word, petal_word delta) {
    return AO_fetch_and_add_full(word, delta);
}
PETAL_INLINE void petal_atomic_or_full(volatile petal_word *word, petal_word bits) {
    AO_or_full(word, bits);
}
PETAL_INLINE void petal_atomic_and_full(volatile petal_word *word, petal_word bits) {
    AO_and_full(word, bits);
}
PETAL_INLINE int petal_atomic_cas_acquire(volatile petal_word *word, petal_word old, petal_word desired) {
    return AO_compare_and_swap_acquire(word, old, desired);
}
PETAL_INLINE int petal_atomic_cas_release(volatile petal_word *word, petal_word old, petal_word desired) {
    return AO_compare_and_swap_release(word, old, desired);
}
PETAL_INLINE int petal_atomic_cas_full(volatile petal_word *word, petal_word old, petal_word desired) {
    return AO_compare_and_swap_full(word, old, desired);
}
PETAL_INLINE petal_word petal_atomic_fetch_cas(volatile petal_word *word, petal_word old, petal_word desired) {
    return AO_fetch_compare_and_swap(word, old, desired);
}
PETAL_INLINE petal_word petal_atomic_fetch_cas_acquire(volatile petal_word *word, petal_word old,
                                                       petal_word desired) {
    return AO_fetch_compare_and_swap_acquire(word, old, desired);
}
PETAL_INLINE petal_word petal_atomic_fetch_cas_full(volatile petal_word *word, petal_word old,
                                                    petal_word desired) {
    return AO_fetch_compare_and_swap_full(word, old, desired);
}

PETAL_AO_LOAD(petal_atomic_uint_load_acquire, unsigned, AO_int_load_acquire)
PETAL_INLINE int petal_atomic_uint_cas_release(volatile unsigned *word, unsigned old, unsigned desired) {
    return AO_int_compare_and_swap_release(word, old, desired);
}
PETAL_INLINE unsigned petal_atomic_uint_fetch_cas_full(volatile unsigned *word, unsigned old, unsigned desired) {
    return AO_int_fetch_compare_and_swap_full(word, old, desired);
}
PETAL_AO_LOAD(petal_atomic_uint_load, unsigned, AO_int_load)
PETAL_AO_STORE(petal_atomic_uint_store, unsigned, AO_int_store)
PETAL_AO_STORE(petal_atomic_uint_store_release, unsigned, AO_int_store_release)
PETAL_AO_LOAD(petal_atomic_uchar_load, unsigned char, AO_char_load)
PETAL_AO_STORE(petal_atomic_uchar_store, unsigned char, AO_char_store)

#ifdef __cplusplus
}
#endif

#endif /* PETAL_ATOMICS_AO_H */
