/*
 * One way to hand Swift a field of a header declared in C: an inline function named for the
 * struct and the field that returns the field's address, so that Swift reaches the field by name
 * and never by an offset of its own. Non-null, so that Swift gets plain pointers, not implicitly
 * unwrapped ones it would check on every access (spelled here: `#pragma clang assume_nonnull`
 * around a use does not reach into a macro defined outside it).
 *
 * Not part of the C API: in the Clang module CPetal only, never installed for C programs.
 */
#ifndef PETAL_FIELD_ADDRESS_H
#define PETAL_FIELD_ADDRESS_H

#include "petal_atomics.h"

#if defined(__clang__)
#  define PETAL_FIELD_NONNULL _Nonnull
#else
#  define PETAL_FIELD_NONNULL
#endif

/* Declares `TYPE *STRUCT_FIELD(STRUCT *header)`, returning `&header->FIELD`; each inlines to an
 * address computation. */
#define PETAL_FIELD_ADDRESS(STRUCT, FIELD, TYPE)                                                   \
    PETAL_INLINE TYPE *PETAL_FIELD_NONNULL STRUCT##_##FIELD(STRUCT *PETAL_FIELD_NONNULL header) {  \
        return &header->FIELD;                                                                     \
    }

#endif
