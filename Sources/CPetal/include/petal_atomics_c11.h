/*
 * petal_atomics_c11.h - the C11 <stdatomic.h> backend of petal_atomics.h, for platforms without
 * libatomic_ops (Apple's, the static musl SDK) or when PETAL_ATOMICS_C11 asks for it.
 *
 * Each operation keeps exactly the ordering of the libatomic_ops operation it stands for, so
 * the protocol's reasoning (petal_cell.h) and its model (Tests/Model) hold on both backends
 * unchanged. libatomic_ops' suffixes map to C11 orders as follows:
 *
 *   (none)    atomic, orders nothing else             memory_order_relaxed
 *   _acquire  later accesses stay after it             memory_order_acquire
 *   _release  earlier accesses stay before it          memory_order_release
 *   _full     a full barrier: every earlier access     memory_order_seq_cst: the only C11 order
 *             stays before it, every later one after    that also keeps a store before a later
 *                                                       load, which acq_rel allows to swap
 *
 * A failed compare-and-swap writes nothing; its ordering is that of the load it still is:
 * acquire for _acquire (libatomic_ops' own C11 mapping does the same), relaxed for _release
 * (there is no release load), seq_cst for _full.
 *
 * The words stay plain `volatile petal_word` (size_t) in memory, as in the libatomic_ops
 * backend: the structs that hold them have one layout whatever the backend, and Swift, which
 * cannot import _Atomic types, declares and reads them. Each operation views its word as
 * _Atomic(petal_word), which the assertions below prove has the same size and alignment, and
 * lock-free, so nothing here calls libatomic (CheckAtomicsInline.cmake checks the libraries).
 *
 * Included only by petal_atomics.h (a textual header of the Clang module CPetal).
 */
#ifndef PETAL_ATOMICS_C11_H
#define PETAL_ATOMICS_C11_H

#ifndef PETAL_ATOMICS_H
#  error "include petal_atomics.h, which chooses the backend"
#endif
#ifdef __cplusplus
#  error "the C11 atomics backend is for C (and Swift's Clang importer): C++ programs use petal.h alone"
#endif

#include <stdatomic.h>
#include <stddef.h>

/* What petal_atomics_backend() and PETAL_ATOMICS_BACKEND report. */
#define PETAL_ATOMICS_BACKEND "C11"

/* The word type of the libatomic_ops backend (AO_t is size_t): one petal_word for Swift (Int),
   and the same layout for every struct that holds one, whatever the backend. */
typedef size_t petal_word;

typedef _Atomic(petal_word) petal_c11_word;
typedef _Atomic(unsigned) petal_c11_uint;
typedef _Atomic(unsigned char) petal_c11_uchar;

_Static_assert(sizeof(petal_c11_word) == sizeof(petal_word) && _Alignof(petal_c11_word) == _Alignof(petal_word),
               "an atomic word has the layout of a plain one");
_Static_assert(sizeof(petal_c11_uint) == sizeof(unsigned) && _Alignof(petal_c11_uint) == _Alignof(unsigned),
               "an atomic unsigned has the layout of a plain one");
_Static_assert(sizeof(petal_c11_uchar) == 1, "an atomic byte has the layout of a plain one");
/* size_t is as wide as a pointer wherever Petal runs (the cell keeps a pointer in its word). */
_Static_assert(sizeof(petal_word) == sizeof(void *), "a word holds a pointer");
#if ATOMIC_POINTER_LOCK_FREE != 2 || ATOMIC_INT_LOCK_FREE != 2 || ATOMIC_CHAR_LOCK_FREE != 2
#  error "Petal's C11 backend needs lock-free word, int and byte atomics (no libatomic calls)"
#endif

/* The atomic view of a word or a flag. A load's word may be const: reading it writes nothing. */
#define PETAL_C11_WORD(word) ((volatile petal_c11_word *)(word))
#define PETAL_C11_UINT(word) ((volatile petal_c11_uint *)(word))
#define PETAL_C11_UCHAR(byte) ((volatile petal_c11_uchar *)(byte))

/* A load and a store through the atomic view VIEW, with the ordering each use's comment gives.
   A load's word may be const: reading it writes nothing. */
#define PETAL_C11_LOAD(NAME, TYPE, VIEW, ORDER) \
    PETAL_INLINE TYPE NAME(const volatile TYPE *word) { return atomic_load_explicit(VIEW(word), ORDER); }
#define PETAL_C11_STORE(NAME, TYPE, VIEW, ORDER) \
    PETAL_INLINE void NAME(volatile TYPE *word, TYPE value) { atomic_store_explicit(VIEW(word), value, ORDER); }

/* AO_load: atomic and unordered, so RELAXED. */
PETAL_C11_LOAD(petal_atomic_load, petal_word, PETAL_C11_WORD, memory_order_relaxed)

/* AO_load_acquire: ACQUIRE. */
PETAL_C11_LOAD(petal_atomic_load_acquire, petal_word, PETAL_C11_WORD, memory_order_acquire)

/* AO_load_full: a full barrier, so SEQ_CST (see the top). */
PETAL_C11_LOAD(petal_atomic_load_full, petal_word, PETAL_C11_WORD, memory_order_seq_cst)

/* AO_store: RELAXED. */
PETAL_C11_STORE(petal_atomic_store, petal_word, PETAL_C11_WORD, memory_order_relaxed)

/* AO_store_release: RELEASE. */
PETAL_C11_STORE(petal_atomic_store_release, petal_word, PETAL_C11_WORD, memory_order_release)

/* AO_fetch_and_add: RELAXED. */
PETAL_INLINE petal_word petal_atomic_fetch_add(volatile petal_word *word, petal_word delta) {
    return atomic_fetch_add_explicit(PETAL_C11_WORD(word), delta, memory_order_relaxed);
}

/* AO_fetch_and_add_release: RELEASE. */
PETAL_INLINE petal_word petal_atomic_fetch_add_release(volatile petal_word *word, petal_word delta) {
    return atomic_fetch_add_explicit(PETAL_C11_WORD(word), delta, memory_order_release);
}

/* AO_fetch_and_add_full: a full barrier, so SEQ_CST. */
PETAL_INLINE petal_word petal_atomic_fetch_add_full(volatile petal_word *word, petal_word delta) {
    return atomic_fetch_add_explicit(PETAL_C11_WORD(word), delta, memory_order_seq_cst);
}

/* AO_or_full: a full barrier, so SEQ_CST. */
PETAL_INLINE void petal_atomic_or_full(volatile petal_word *word, petal_word bits) {
    atomic_fetch_or_explicit(PETAL_C11_WORD(word), bits, memory_order_seq_cst);
}

/* AO_and_full: a full barrier, so SEQ_CST. */
PETAL_INLINE void petal_atomic_and_full(volatile petal_word *word, petal_word bits) {
    atomic_fetch_and_explicit(PETAL_C11_WORD(word), bits, memory_order_seq_cst);
}

/* A compare-and-swap through the atomic view VIEW, with the orderings on success and on failure
   that each use's comment gives: NAME returns 1 if it swapped, FETCH_NAME the value it saw (old
   if it swapped). */
#define PETAL_C11_CAS(NAME, TYPE, VIEW, SUCCESS, FAILURE)                                            \
    PETAL_INLINE int NAME(volatile TYPE *word, TYPE old, TYPE desired) {                            \
        return atomic_compare_exchange_strong_explicit(VIEW(word), &old, desired, SUCCESS, FAILURE); \
    }
#define PETAL_C11_FETCH_CAS(FETCH_NAME, TYPE, VIEW, SUCCESS, FAILURE)                               \
    PETAL_INLINE TYPE FETCH_NAME(volatile TYPE *word, TYPE old, TYPE desired) {                     \
        atomic_compare_exchange_strong_explicit(VIEW(word), &old, desired, SUCCESS, FAILURE);       \
        return old;                                                                                 \
    }

/* AO_compare_and_swap_acquire: ACQUIRE on success and on failure (see the top). */
PETAL_C11_CAS(petal_atomic_cas_acquire, petal_word, PETAL_C11_WORD, memory_order_acquire, memory_order_acquire)

/* AO_compare_and_swap_release: RELEASE on success; a failure stores nothing to release, and
   there is no release load, so RELAXED. */
PETAL_C11_CAS(petal_atomic_cas_release, petal_word, PETAL_C11_WORD, memory_order_release, memory_order_relaxed)

/* AO_compare_and_swap_full: a full barrier either way, so SEQ_CST on success and failure. */
PETAL_C11_CAS(petal_atomic_cas_full, petal_word, PETAL_C11_WORD, memory_order_seq_cst, memory_order_seq_cst)

/* AO_fetch_compare_and_swap: RELAXED either way. */
PETAL_C11_FETCH_CAS(petal_atomic_fetch_cas, petal_word, PETAL_C11_WORD, memory_order_relaxed, memory_order_relaxed)

/* AO_fetch_compare_and_swap_acquire: ACQUIRE on success and on failure, as
   petal_atomic_cas_acquire (the value a failure returns is read with ACQUIRE). */
PETAL_C11_FETCH_CAS(petal_atomic_fetch_cas_acquire, petal_word, PETAL_C11_WORD, memory_order_acquire,
                    memory_order_acquire)

/* AO_fetch_compare_and_swap_full: SEQ_CST either way, as petal_atomic_cas_full. */
PETAL_C11_FETCH_CAS(petal_atomic_fetch_cas_full, petal_word, PETAL_C11_WORD, memory_order_seq_cst,
                    memory_order_seq_cst)

/* AO_int_load_acquire: ACQUIRE. */
PETAL_C11_LOAD(petal_atomic_uint_load_acquire, unsigned, PETAL_C11_UINT, memory_order_acquire)

/* AO_int_compare_and_swap_release: RELEASE, RELAXED on failure, as petal_atomic_cas_release. */
PETAL_C11_CAS(petal_atomic_uint_cas_release, unsigned, PETAL_C11_UINT, memory_order_release, memory_order_relaxed)

/* AO_int_fetch_compare_and_swap_full: SEQ_CST either way, as petal_atomic_cas_full. */
PETAL_C11_FETCH_CAS(petal_atomic_uint_fetch_cas_full, unsigned, PETAL_C11_UINT, memory_order_seq_cst,
                    memory_order_seq_cst)

/* AO_int_load: RELAXED (no suffix, no ordering). */
PETAL_C11_LOAD(petal_atomic_uint_load, unsigned, PETAL_C11_UINT, memory_order_relaxed)

/* AO_int_store: RELAXED (no suffix, no ordering). */
PETAL_C11_STORE(petal_atomic_uint_store, unsigned, PETAL_C11_UINT, memory_order_relaxed)

/* AO_int_store_release: RELEASE. */
PETAL_C11_STORE(petal_atomic_uint_store_release, unsigned, PETAL_C11_UINT, memory_order_release)

/* AO_char_load: RELAXED (no suffix, no ordering). */
PETAL_C11_LOAD(petal_atomic_uchar_load, unsigned char, PETAL_C11_UCHAR, memory_order_relaxed)

/* AO_char_store: RELAXED (no suffix, no ordering). */
PETAL_C11_STORE(petal_atomic_uchar_store, unsigned char, PETAL_C11_UCHAR, memory_order_relaxed)

#endif /* PETAL_ATOMICS_C11_H */
