/*
 * The header of a Swift future's storage (FutureStorage, a ManagedBuffer whose tail holds the
 * value or the error), declared once, here, with its layout checked whenever it is compiled:
 * by every C file that includes it and by the Clang importer when the Swift module Petal is
 * built. Swift reaches each field through the accessors below, by name, never by an offset of
 * its own, and never through a Swift access to the whole header: such an access would cover the
 * cell's word, which other threads move with C atomics (ThreadSanitizer rightly reports that).
 *
 * Not part of the C API: this header is in the Clang module CPetal only, never installed for C
 * programs, and the core's C code never reads it.
 */
#ifndef PETAL_FUTURE_HEADER_H
#define PETAL_FUTURE_HEADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "petal_atomics.h"
#include "petal_cell_layout.h"
#include "petal_field_address.h"

/* 48 bytes on 64-bit platforms, a multiple of 8, so that the tail after it (the value, or the error) starts
 * 8-aligned whatever the value. */
typedef struct petal_future_header {
    /* The C cell: the word (phase, reservation count, waiter blocks), the inline slot's commit
     * flag and the outcome kind. First: the C core addresses the cell as the header. */
    petal_cell cell;
    /* The future's cancellation record (a retained pointer) or 0, almost always: installed once
     * by compare-and-swap by the first user of cancellation, released by the deinit. Or
     * PETAL_CANCELLATION_MAY_PASS, written at creation: no record yet, but requests may pass
     * through this future (see may_pass); the first user of cancellation replaces it. */
    petal_atomic_word cancellation;
    /* Raw storage for the first subscriber's callback (the payload of Swift's Callback<Value>:
     * two words for every Value, its case in the cell's slot_flag), initialised by the subscriber
     * that reserved the slot before its release commit, and moved out by whoever runs it. */
    uintptr_t slot[2];
    /* Whether a chained future still holds its step: written before the storage is shared and
     * by the one delivering thread; read by the deinit, after the last release. */
    bool holds_step;
    /* Whether this is a chained future, which a cancellation request cancels at once. Written at
     * creation, then only read: a byte of its own, as holds_step is written while requests may
     * read this one. */
    bool is_chained;
    /* Whether a future whose cancellation slot holds PETAL_CANCELLATION_MAY_PASS may still pass
     * requests on: 1 from creation until its step finds that the future it follows cannot be
     * asked, then 0 (written once, by that step; read by those linking to the future). */
    petal_atomic_u8 may_pass;
    unsigned char padding;
    /* What diagnostics know of a failure: observed or not, and the promise site it came from.
     * Relaxed 32-bit atomics, on failure paths only. */
    petal_atomic_u32 failure;
} petal_future_header;

/* The cancellation slot's value for a future that has no record yet but may pass requests on
 * (a chained future whose step returns a future): never a record's address, which is aligned.
 * Whoever reads the slot as an attachment skips it. */
#define PETAL_CANCELLATION_MAY_PASS 1

/* The layout the Swift code relies on, checked wherever this header is compiled. In words, so
 * that it holds for 32-bit pointers too (arm64_32: 32 bytes); on 64-bit platforms, 48. */
_Static_assert(offsetof(petal_future_header, cell) == 0, "the cell is first: the core addresses it as the header");
_Static_assert(offsetof(petal_future_header, cancellation) == sizeof(petal_cell), "no gap after the cell");
_Static_assert(offsetof(petal_future_header, slot) % sizeof(uintptr_t) == 0, "the slot is word-aligned");
_Static_assert(offsetof(petal_future_header, holds_step) == offsetof(petal_future_header, slot) + 2 * sizeof(uintptr_t),
               "the slot is two words, the flags right after it");
_Static_assert(offsetof(petal_future_header, is_chained) == offsetof(petal_future_header, holds_step) + 1,
               "the flags are two bytes side by side");
_Static_assert(offsetof(petal_future_header, may_pass) == offsetof(petal_future_header, is_chained) + 1,
               "the may-pass flag follows the chained flag");
_Static_assert(offsetof(petal_future_header, failure) == offsetof(petal_future_header, padding) + 1,
               "the failure word fills the padding");
_Static_assert(sizeof(petal_future_header) % 8 == 0, "the tail starts 8-aligned");
_Static_assert(sizeof(void *) != 8 || sizeof(petal_future_header) == 48, "48 bytes: a Future<Int> is one 80-byte chunk");

/* The fields' addresses, for Swift (see petal_field_address.h). */
PETAL_FIELD_ADDRESS(petal_future_header, cell, petal_cell)
PETAL_FIELD_ADDRESS(petal_future_header, cancellation, petal_atomic_word)
PETAL_FIELD_ADDRESS(petal_future_header, slot, void) /* two words */
PETAL_FIELD_ADDRESS(petal_future_header, holds_step, bool)
PETAL_FIELD_ADDRESS(petal_future_header, is_chained, bool)
PETAL_FIELD_ADDRESS(petal_future_header, may_pass, petal_atomic_u8)
PETAL_FIELD_ADDRESS(petal_future_header, failure, petal_atomic_u32)

#endif
