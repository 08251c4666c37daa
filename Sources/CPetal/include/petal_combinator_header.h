/*
 * The header of a Swift combinator's shared state (CombinatorState, a ManagedBuffer whose tail
 * holds what the inputs contributed), declared once, here, with its layout checked whenever it
 * is compiled. Swift reaches each field through the accessors below, by name: never by an
 * offset of its own, and never through a Swift access to the whole header, which would cover the
 * word other threads move with C atomics (ThreadSanitizer rightly reports such an access).
 *
 * Not part of the C API: this header is in the Clang module CPetal only, never installed for C
 * programs, and the core's C code never reads it.
 */
#ifndef PETAL_COMBINATOR_HEADER_H
#define PETAL_COMBINATOR_HEADER_H

#include <stddef.h>
#include <stdint.h>

#include "petal_atomics.h"
#include "petal_field_address.h"

typedef struct petal_combinator_header {
    /* The combinator's word (Swift's CombinatorWord: REMAINING, WRITING, DECIDED, RESULT_TAKEN,
     * TAIL_RELEASED), moved only by the C atomics. First, so that it has a cache line's start
     * to itself whenever the allocation does. */
    volatile petal_word word;
    /* The combined future's storage, retained, until the input that completes or decides takes
     * it (then NULL); a state freed undecided releases it. Plain: only the one thread that won
     * the word touches it, then the deinit, which acquires the word first. */
    void *_Nullable result;
    /* How many tail elements were initialised. Written before the state is shared, then only
     * read. */
    intptr_t tail_count;
} petal_combinator_header;

/* The layout is the declaration's: three words, in this order, with no gap. */
_Static_assert(offsetof(petal_combinator_header, word) == 0, "the word is first");
_Static_assert(offsetof(petal_combinator_header, result) == sizeof(petal_word), "no gap after the word");
_Static_assert(offsetof(petal_combinator_header, tail_count) == offsetof(petal_combinator_header, result) + sizeof(void *),
               "no gap after the result");
_Static_assert(sizeof(petal_combinator_header) == sizeof(petal_word) + sizeof(void *) + sizeof(intptr_t),
               "three words");

/* The fields' addresses, for Swift (see petal_field_address.h). */
PETAL_FIELD_ADDRESS(petal_combinator_header, word, volatile petal_word)
PETAL_FIELD_ADDRESS(petal_combinator_header, result, void *_Nullable)
PETAL_FIELD_ADDRESS(petal_combinator_header, tail_count, intptr_t)

#endif
