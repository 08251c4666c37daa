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

/* Non-zero while a callback-context carrier is installed (Swift: CallbackContext.carrier).
 * Written by the carrier's setter with FULL ordering after the carrier is published; read with
 * ACQUIRE by every subscription, so a thread that sees it set finds the carrier. */
PETAL_API extern petal_atomic_word petal_callback_context_enabled;

/* The flag's address, for Swift (which may not name a mutable C global from concurrent code):
 * inlines to the address itself. */
PETAL_INLINE petal_atomic_word *petal_callback_context_flag(void) {
    return &petal_callback_context_enabled;
}

#endif
