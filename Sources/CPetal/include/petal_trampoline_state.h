/*
 * petal_trampoline_state.h - the trampoline's per-thread state and the inline fast paths that
 * read it, so that entering and leaving inline work costs no call (two out-of-line calls per
 * resolution otherwise).
 *
 * Internal: petal_future.c, petal_trampoline.c, the C tests, the fuzzer and the Swift facade
 * use it; a C program calls petal_trampoline_enter and petal_trampoline_leave from petal.h.
 * CMake installs this header only next to the Swift module. The state itself stays exported
 * from libpetal (PETAL_API) for Swift code that inlines these fast paths.
 */
#ifndef PETAL_TRAMPOLINE_STATE_H
#define PETAL_TRAMPOLINE_STATE_H

#include "petal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The trampoline's per-thread state, exposed so that the fast paths below inline into their
   callers. Only this thread touches it. */
typedef struct petal_trampoline_state {
    unsigned depth;        /* nested inline frames on this thread */
    petal_deferred *head;  /* oldest deferred item, run first */
    petal_deferred *tail;
} petal_trampoline_state;

#ifdef __cplusplus
#  define PETAL_THREAD_LOCAL thread_local
#else
#  define PETAL_THREAD_LOCAL _Thread_local
#endif

PETAL_API extern PETAL_THREAD_LOCAL petal_trampoline_state petal_trampoline_current;

/* petal_trampoline_enter, inline. */
PETAL_INLINE int petal_trampoline_enter_fast(void) {
    petal_trampoline_state *t = &petal_trampoline_current;
    if (t->depth >= PETAL_TRAMPOLINE_DEPTH || t->head != NULL) return 0;
    t->depth += 1;
    return 1;
}

/* petal_trampoline_leave, inline unless the outermost frame has deferred work to run. */
PETAL_INLINE void petal_trampoline_leave_fast(void) {
    petal_trampoline_state *t = &petal_trampoline_current;
    if (t->depth == 1 && t->head != NULL) {
        petal_trampoline_leave();
        return;
    }
    t->depth -= 1;
}

#ifdef __cplusplus
}
#endif

#endif /* PETAL_TRAMPOLINE_STATE_H */
