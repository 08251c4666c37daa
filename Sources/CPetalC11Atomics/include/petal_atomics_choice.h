/*
 * The C11Atomics trait's choice, for SwiftPM: CPetal depends on this target only when the trait
 * is on, and then petal_atomics.h finds this header. A header, not a cSettings define, because
 * SwiftPM passes a C target's defines to its own compilation alone, while its dependencies'
 * include directories reach the Clang importer of every Swift target too: the core's C and the
 * Swift code that inlines the core must choose the same atomics.
 */
#ifndef PETAL_ATOMICS_CHOICE_H
#define PETAL_ATOMICS_CHOICE_H

#ifndef PETAL_ATOMICS_C11
#  define PETAL_ATOMICS_C11 1
#endif

#endif
