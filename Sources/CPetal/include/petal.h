/*
 * petal.h - Petal's C API, for C and C++ programs: a future with a void * payload, a status code,
 * and callbacks as function pointer + context; the per-thread trampoline that keeps callbacks
 * stack-safe; a diagnostic.
 *
 * This is the header Petal installs. It includes standard headers only and compiles as C11 and
 * as C++11 or later: a C program needs Petal's include directory and nothing else, whichever
 * atomics the library was built on. Under it lies the lock-free core, which the library compiles
 * and the Swift module inlines, in headers that are not installed for C users (they need the
 * atomics):
 *
 *   petal_atomics.h           the atomics (libatomic_ops or C11), the word type, the Swift
 *                             facade's side words
 *   petal_cell_layout.h       the cell's word, bit by bit, and the waiter block
 *   petal_cell.h              the cell protocol: its phases, transitions and memory orderings
 *   petal_trampoline_state.h  the trampoline's thread-local state and its inline fast paths
 *   petal_future_state.h      the core's view of the storage a C program allocates (below)
 */
#ifndef PETAL_H
#define PETAL_H

#include <stddef.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* C11 spells alignment _Alignas, C++11 alignas: the header is for both. */
#ifdef __cplusplus
#  define PETAL_ALIGNAS(bytes) alignas(bytes)
#else
#  define PETAL_ALIGNAS(bytes) _Alignas(bytes)
#endif

#if defined(_WIN32) || defined(__CYGWIN__)
#  define PETAL_API
#elif defined(__GNUC__)
#  define PETAL_API __attribute__((visibility("default")))
#else
#  define PETAL_API
#endif

/* Petal's inline functions are small and sit on hot paths: inline them even where the
   compiler's cost model would not (Swift's importer otherwise calls some out of line). */
#if defined(__GNUC__)
#  define PETAL_INLINE static inline __attribute__((always_inline))
#else
#  define PETAL_INLINE static inline
#endif

/* Waiter blocks, caller-owned waiters among them, are 64-byte aligned: the core keeps six tag
   bits in the low bits of a pointer to one. Swift cannot import a type aligned beyond 16 bytes,
   and never declares a block or a waiter itself (it only holds pointers to blocks), so Swift
   sees the same declarations without the attribute. */
#if defined(__swift__)
#  define PETAL_BLOCK_ALIGNAS
#else
#  define PETAL_BLOCK_ALIGNAS PETAL_ALIGNAS(64)
#endif

/* ------------------------------------------------------------------------------------------- */
/* The trampoline: stack-safe inline execution.                                                 */
/* ------------------------------------------------------------------------------------------- */

/* How deep inline callbacks may nest on one thread before further work is deferred to the
   outermost frame. Small: each level costs a few hundred bytes of stack at most, and a deferral
   costs at most one allocation. */
#define PETAL_TRAMPOLINE_DEPTH 16

typedef void (*petal_work_fn)(void *context);

/* A deferred item. Callers of petal_trampoline_defer_item own it, typically inside a block that
   also holds the work's data, so deferring allocates nothing beyond that block. */
typedef struct petal_deferred {
    struct petal_deferred *next; /* the trampoline's queue link */
    petal_work_fn work;          /* called once with `context`; may free the item itself */
    void *context;
} petal_deferred;

/* Asks to run inline work now. Returns 1 if the caller may run it (it must then call
   petal_trampoline_leave), or 0 if it must defer it with petal_trampoline_defer: the thread is
   already PETAL_TRAMPOLINE_DEPTH callbacks deep, or earlier work is deferred and still waits
   (running later work first would break the thread's FIFO order). */
PETAL_API int petal_trampoline_enter(void);

/* Ends inline work begun by a successful petal_trampoline_enter. The outermost frame then runs
   every deferred item, in the order deferred, before returning. */
PETAL_API void petal_trampoline_leave(void);

/* Defers `work(context)` to the outermost inline frame of this thread, or runs it at once when
   no inline frame is active. Returns 0, or -1 if no memory could be had (nothing is queued). */
PETAL_API int petal_trampoline_defer(petal_work_fn work, void *context);

/* The same with an item the caller owns (its `work` and `context` set; `next` is the queue's):
   nothing is allocated, so it cannot fail. The trampoline reads the item before calling `work`,
   which may therefore free it. */
PETAL_API void petal_trampoline_defer_item(petal_deferred *item);

/* Runs, now and in order, every item this thread has deferred (and whatever they defer in
   turn), instead of leaving them to the outermost inline frame. A thread about to block calls
   it first: the work it would wait for may be in its own queue, and the frame that would run
   it is the one about to block. Costs one thread-local load when nothing is deferred. */
PETAL_API void petal_trampoline_run_deferred(void);

/* The current nesting depth of this thread (0 outside any inline work), for tests. */
PETAL_API unsigned petal_trampoline_depth(void);

/* ------------------------------------------------------------------------------------------- */
/* The C convenience future.                                                                    */
/* ------------------------------------------------------------------------------------------- */

typedef enum petal_status {
    PETAL_STATUS_PENDING = -1,
    PETAL_STATUS_FULFILLED = 0,
    PETAL_STATUS_REJECTED = 1,
    PETAL_STATUS_CANCELLED = 2
} petal_status;

/* Return codes of the convenience layer: all distinct from every petal_status, so one int
   holding either can be told apart. */
#define PETAL_OK 0
#define PETAL_ERR_RESOLVED -2 /* a second resolve: ignored, nothing was stored */
#define PETAL_ERR_NOMEM -3
#define PETAL_ERR_TIMEDOUT -4
#define PETAL_ERR_INVALID -5 /* an argument out of range (a status, a deadline's tv_nsec) */

typedef struct petal_future petal_future;

/* A callback: runs once, on the thread that resolves the future (or that subscribes to an
   already resolved one), with the future and the context given at subscription. Callbacks run
   through the trampoline: one that resolves another future nests only PETAL_TRAMPOLINE_DEPTH
   deep; deeper work runs, in order, when the outermost callback returns. */
typedef void (*petal_callback_fn)(petal_future *future, void *context);

/* One entry of a C future's waiter payload: a callback and its context. */
typedef struct petal_callback_slot {
    petal_callback_fn callback;
    void *context;
} petal_callback_slot;

/* STORAGE YOU ALLOCATE, CONTENTS THE CORE OWNS. C programs allocate futures and waiters
   themselves (static, automatic, inside their own structs, malloc), so their size and alignment
   are ABI; what is inside belongs to the lock-free core, whose types need its atomics. Both
   are therefore declared here as bytes of exactly the core's size and alignment, not as opaque
   types, which would cost every future an allocation by the library. The core reads and writes
   those bytes only through its own view of them (petal_future_state.h), in functions compiled
   into the library, and petal_future.c checks that view's size and alignment against these
   with _Static_assert: a change on either side breaks the build instead of the ABI. Your code
   must not touch the bytes: the functions below are the whole interface.

   A future is the core's cell (one word, two unsigned side fields), the payload, and the first
   subscriber's callback, which needs no allocation. */
#define PETAL_FUTURE_SIZE \
    (sizeof(size_t) + 2 * sizeof(unsigned) + sizeof(void *) + sizeof(petal_callback_slot))

struct petal_future {
    union {
        unsigned char bytes[PETAL_FUTURE_SIZE];
        /* Not data: the core's alignment, the largest of its members'. */
        size_t word_alignment;
        void *pointer_alignment;
        petal_callback_fn function_alignment;
    } petal_private;
};

/* A caller-owned waiter for petal_future_subscribe_node (no allocation): a waiter block of one
   slot, one 64-byte cache line holding the links and the callback. It must stay valid until its
   callback has run; its contents need no initialisation. */
typedef struct petal_waiter {
    PETAL_BLOCK_ALIGNAS unsigned char petal_private[64];
} petal_waiter;

/* Makes `future` PENDING. Not atomic: call it before the future is shared. */
PETAL_API void petal_future_init(petal_future *future);

/* Resolves the future with a status (not PENDING) and a payload: the value when fulfilled, an
   error object when rejected or cancelled (may be NULL). The first call wins and runs the
   callbacks in subscription order on this thread; later calls return PETAL_ERR_RESOLVED and
   change nothing. */
PETAL_API int petal_future_resolve(petal_future *future, petal_status status, void *payload);

PETAL_INLINE int petal_future_fulfil(petal_future *future, void *value) {
    return petal_future_resolve(future, PETAL_STATUS_FULFILLED, value);
}
PETAL_INLINE int petal_future_reject(petal_future *future, void *error) {
    return petal_future_resolve(future, PETAL_STATUS_REJECTED, error);
}
PETAL_INLINE int petal_future_cancel(petal_future *future, void *indirect_error) {
    return petal_future_resolve(future, PETAL_STATUS_CANCELLED, indirect_error);
}

/* Subscribes a callback. If the future is already resolved the callback runs now, on this
   thread, before this returns. The first subscriber of a future allocates nothing; later ones
   share waiter blocks of seven callbacks, one allocation each (PETAL_ERR_NOMEM if that fails;
   the callback is then not registered). */
PETAL_API int petal_future_subscribe(petal_future *future, petal_callback_fn callback, void *context);

/* Subscribes with caller-owned waiter memory: never allocates, and never frees `waiter` (its
   contents need no initialisation). */
PETAL_API void petal_future_subscribe_node(petal_future *future, petal_waiter *waiter,
                                           petal_callback_fn callback, void *context);

/* The status: PETAL_STATUS_PENDING until the future is resolved, which for every thread but
   the resolver's means until its resolution is complete: every callback has run and the
   resolver will never touch the future again. (The resolving thread, and the callbacks it runs,
   see the status as soon as the outcome is published: a callback may read its own future.) */
PETAL_API petal_status petal_future_status(const petal_future *future);

/* The payload once petal_future_status says resolved on this thread, NULL before. */
PETAL_API void *petal_future_payload(const petal_future *future);

/* Blocks until the future is resolved (as petal_future_status defines it: every callback
   subscribed before has run), or until `deadline` (CLOCK_REALTIME; NULL waits forever).
   Returns the status, or PETAL_ERR_TIMEDOUT / PETAL_ERR_INVALID (a deadline with tv_nsec
   outside [0, 1e9)). It allocates nothing and leaves nothing in the future (it sleeps in a
   parking table): a wait that times out costs no memory, however often it is repeated. Before
   blocking it runs the work this thread has deferred (petal_trampoline_run_deferred), which may
   be the resolution it would wait for. A wait from a callback for its own future returns at
   once; a wait for a future that only this thread's caller can resolve blocks until the
   deadline. */
PETAL_API int petal_future_wait(petal_future *future, const struct timespec *deadline);

/* FREEING A FUTURE. A future's memory is its owner's. It may be freed (or re-initialised) as
   soon as petal_future_wait returned a resolved status, or petal_future_status said resolved,
   on any thread, except inside the future's own callbacks (which see the outcome while it is
   still being delivered): from then on the resolver never touches it again. Freeing it earlier
   is a use-after-free in the resolver. A caller-owned waiter (petal_future_subscribe_node) may
   be freed once its callback has run.

   CONTRACT VIOLATIONS, which debug builds (without NDEBUG) assert and release builds do not
   check: a NULL future, callback or waiter; a waiter off its 64-byte alignment (declare it as
   a petal_waiter, or use aligned_alloc); a waiter subscribed again before its callback ran (it
   would link the list into a loop; debug builds catch it when it is still the newest). */

/* ------------------------------------------------------------------------------------------- */
/* Diagnostics.                                                                                 */
/* ------------------------------------------------------------------------------------------- */

/* The bytes the allocator reserved for a heap block (0 where the platform cannot say), so tests
   can pin the size of the objects that carry cells. */
PETAL_API size_t petal_allocation_size(const void *block);

/* The atomics the library was built on: "libatomic_ops" or "C11" (see petal_atomics.h). The
   choice changes no layout and no behaviour; tests and bug reports ask which one ran. */
PETAL_API const char *petal_atomics_backend(void);

#ifdef __cplusplus
}
#endif

#endif /* PETAL_H */
