/*
 * petal_block_cache.c - waiter blocks' memory: a cache per thread, to which a block returns
 * from whichever thread frees it.
 *
 * WHY
 *
 *   A hot future's blocks are allocated by its subscribers' threads and freed by the thread
 *   that delivers (petal_cell.h): memory flows one way between threads. malloc's own per-thread
 *   caches serve a thread from what that thread freed, so here they never hit: every subscriber's
 *   block came from the arena under its lock, and every delivered block went back through the
 *   arena's slow path (glibc: its lock, and the coalescing of free neighbours), about a fifth of
 *   the cost of draining a hot future with subscribers on two or four threads (the benchmark's
 *   "hot promise: drain", measured with and without the frees). Returning a block to its own
 *   thread costs one CAS instead (a drain returns each thread's blocks together, with one CAS,
 *   in the order it walked them: see petal_block_free_list), and that thread takes back all it
 *   was given with one exchange.
 *
 * HOW
 *
 *   Each thread that allocates a block gets a home (allocated on first use):
 *     local    blocks this thread freed, ready to reuse (this thread's only);
 *     remote   a stack of blocks other threads returned: pushed with a release CAS by any
 *              thread, emptied whole with one acquire exchange by the owner alone, so no pop
 *              ever reads a block another pop could be taking (no ABA);
 *     taken    what the owner last emptied `remote` of, reused one block at a time;
 *     refs     the blocks of this home that exist (taken from malloc, not yet given back to
 *              free), plus one while the thread lives: whoever drops it to zero frees the home.
 *   A block records its home in the word before it (the raw allocation's first 8 bytes).
 *
 *   When the thread exits (a pthread key's destructor), its home is ABANDONED: its local, taken
 *   and remote blocks go back to free(), and a block returned later goes straight to free() too
 *   (the pusher sees ABANDONED in the stack's word). Memory stays bounded: a thread keeps at most
 *   PETAL_BLOCK_CACHE_LIMIT blocks it freed itself, and what others returned (waiting in
 *   `remote`, then in `taken`, until this thread allocates again or exits) never outnumbers the
 *   blocks it had out at once.
 *
 *   A block's hint is the block its thread allocated PETAL_BLOCK_HINT_DISTANCE blocks before
 *   it (`recent`, a ring). The deliverer puts a hot future's blocks in order by walking their
 *   headers newest first (petal_blocks_in_order), one dependent miss per block, and the blocks
 *   of subscribers on other cores miss all the way to those cores. A thread's blocks of a hot
 *   future follow one another, so the hint is a header the walk reaches a few blocks later,
 *   which it prefetches: four chains of misses in flight instead of one. A hint is only ever
 *   prefetched, so it may be stale (a block since freed, or of another future) at no risk.
 *   Measured with `DrainProbe "C core" --together` (Benchmarks/README.md has the figures).
 *
 *   The protocol on a home's `remote` and `refs` is model-checked: Tests/Model/
 *   petal_block_cache.pml, tied to the functions here by Scripts/check-model-conformance.
 *
 *   Under AddressSanitizer the cache is off (every block is malloc'd and freed), so a use of a
 *   freed block is still caught; PETAL_BLOCK_CACHE=0 in the environment turns it off too, for
 *   valgrind and other leak checkers, and for tests that count mallocs.
 */
#include "petal_cell_layout.h"
#include "petal_trampoline_state.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

/* 0 under AddressSanitizer: blocks go straight to malloc and free. */
#define PETAL_BLOCK_CACHE_BUILT 1
#if defined(__has_feature)
#  if __has_feature(address_sanitizer)
#    undef PETAL_BLOCK_CACHE_BUILT
#    define PETAL_BLOCK_CACHE_BUILT 0
#  endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#  undef PETAL_BLOCK_CACHE_BUILT
#  define PETAL_BLOCK_CACHE_BUILT 0
#endif

/* Blocks a thread keeps ready in `local`: enough for a future with 448 subscribers. */
#define PETAL_BLOCK_CACHE_LIMIT 64u

/* The raw allocation: the home's address, then the block at the next 64-byte boundary. */
#define PETAL_BLOCK_PREFIX  8u
#define PETAL_BLOCK_SLACK   (PETAL_BLOCK_PREFIX + 56u) /* malloc aligns to 16: 56 more bytes align any */

/* In `remote`: the home's thread has exited; return blocks to free(). Blocks are 64-byte
   aligned, so bit 0 of a stack's head is free. */
#define PETAL_HOME_ABANDONED ((petal_word)1)

typedef struct petal_block_home {
    volatile petal_word remote; /* the returned blocks' stack (linked by `next`), or ABANDONED */
    volatile petal_word refs;   /* this home's blocks that exist, + 1 while its thread lives */
    petal_block *local;         /* blocks this thread freed, linked by `next` (its only) */
    unsigned local_count;       /* at most PETAL_BLOCK_CACHE_LIMIT */
    unsigned recent_next;       /* where the next block goes in `recent` */
    petal_block *taken;         /* blocks taken back from `remote`, not yet reused (its only) */
    petal_block *recent[PETAL_BLOCK_HINT_DISTANCE]; /* the blocks this thread allocated last */
} petal_block_home;

/* A thread's home: NULL until its first block; PETAL_HOME_EXITED once its key's destructor ran
   (a block allocated later, by another destructor, goes uncached), or when the cache is off. */
#define PETAL_HOME_EXITED ((petal_block_home *)1)
static PETAL_THREAD_LOCAL petal_block_home *petal_block_home_current;

/* Homes made and not yet freed (petal_block_cache_homes); touched twice per thread. */
static volatile petal_word petal_block_homes_alive;

static void petal_block_home_free(petal_block_home *home) {
    free(home);
    (void)petal_atomic_fetch_add_full(&petal_block_homes_alive, (petal_word)-1);
}

static petal_block_home **petal_block_home_slot(petal_block *block) {
    return (petal_block_home **)block->memory;
}

/* Gives one block of `home` (or of none) back to free(); the last one out frees the home. */
static void petal_block_release(petal_block *block, petal_block_home *home) {
    free(block->memory);
    /* FULL: every use of the home by this thread happens before its free by another. */
    if (home != NULL && petal_atomic_fetch_add_full(&home->refs, (petal_word)-1) == 1) petal_block_home_free(home);
}

/* Releases every block of a list linked by `next`. */
static void petal_block_release_list(petal_block *block, petal_block_home *home) {
    while (block != NULL) {
        petal_block *next = block->next;
        petal_block_release(block, home);
        block = next;
    }
}

/* Empties `remote` in one exchange (the owner only). ACQUIRE: every returning thread's use of
   its blocks happens before their reuse here. `keep` is PETAL_HOME_ABANDONED when the thread
   exits, otherwise 0. */
static petal_block *petal_block_home_take(petal_block_home *home, petal_word keep) {
    petal_word old = petal_atomic_load(&home->remote);
    while (!petal_atomic_cas_acquire(&home->remote, old, keep)) old = petal_atomic_load(&home->remote);
    return (petal_block *)(uintptr_t)old;
}

static pthread_key_t petal_block_home_key;
static pthread_once_t petal_block_home_once = PTHREAD_ONCE_INIT;
static int petal_block_cache_off; /* PETAL_BLOCK_CACHE=0: written once, under the once */

/* The key's destructor: the thread exits; its home is abandoned. */
static void petal_block_home_exit(void *value) {
    petal_block_home *home = value;
    petal_block_home_current = PETAL_HOME_EXITED;
    petal_block_release_list(home->local, home);
    home->local = NULL;
    petal_block_release_list(home->taken, home);
    home->taken = NULL;
    petal_block *returned = petal_block_home_take(home, PETAL_HOME_ABANDONED);
    petal_block_release_list(returned, home);
    /* The thread's own reference: blocks still out free the home when the last comes back. */
    if (petal_atomic_fetch_add_full(&home->refs, (petal_word)-1) == 1) petal_block_home_free(home);
}

static void petal_block_home_setup(void) {
    const char *setting = getenv("PETAL_BLOCK_CACHE");
    petal_block_cache_off = setting != NULL && setting[0] == '0';
    if (!petal_block_cache_off && pthread_key_create(&petal_block_home_key, petal_block_home_exit) != 0)
        petal_block_cache_off = 1;
}

/* This thread's home, made on first use; NULL when there is none to be had (no memory, or the
   thread is exiting). */
static petal_block_home *petal_block_home_get(void) {
    petal_block_home *home = petal_block_home_current;
    if (home != NULL) return home == PETAL_HOME_EXITED ? NULL : home;
    (void)pthread_once(&petal_block_home_once, petal_block_home_setup);
    if (petal_block_cache_off) {
        petal_block_home_current = PETAL_HOME_EXITED; /* asked once per thread */
        return NULL;
    }
    home = calloc(1, sizeof *home);
    if (home == NULL) return NULL;
    home->refs = 1;
    if (pthread_setspecific(petal_block_home_key, home) != 0) {
        free(home);
        return NULL;
    }
    (void)petal_atomic_fetch_add_full(&petal_block_homes_alive, 1);
    petal_block_home_current = home;
    return home;
}

/* A block from this thread's cache: one it freed itself, or else one returned by another
   thread (all of those taken back at once, when none is left). The returned blocks are not
   walked when they are taken (their headers sit in the returning thread's cache: a walk would
   be a chain of misses), only popped one at a time as they are reused; they never outnumber the
   blocks this thread had out at once. */
static petal_block *petal_block_reuse(petal_block_home *home) {
    petal_block *block = home->local;
    if (block != NULL) {
        home->local = block->next;
        home->local_count -= 1;
        return block;
    }
    block = home->taken;
    if (block == NULL) {
        /* A plain load first: most calls find nothing returned and skip the exchange. */
        if (petal_atomic_load(&home->remote) == 0) return NULL;
        block = petal_block_home_take(home, 0);
    }
    home->taken = block->next;
    return block;
}

petal_block *petal_block_allocate(size_t size, unsigned capacity) {
    assert(capacity >= 1 && capacity <= PETAL_BLOCK_SLOTS && size >= PETAL_BLOCK_BYTES_FOR(capacity) &&
           "petal_block_allocate: a block of `capacity` slots needs PETAL_BLOCK_BYTES_FOR(capacity) bytes");
    petal_block_home *home = NULL;
    petal_block *block = NULL;
    if (PETAL_BLOCK_CACHE_BUILT && size <= PETAL_BLOCK_CACHE_SIZE) home = petal_block_home_get();
    if (home != NULL) {
        block = petal_block_reuse(home);
        size = PETAL_BLOCK_CACHE_SIZE; /* any cached block fits any cached size */
    }
    if (block == NULL) {
        char *memory = malloc(size + PETAL_BLOCK_SLACK);
        if (memory == NULL) return NULL;
        block = (petal_block *)(((uintptr_t)memory + PETAL_BLOCK_PREFIX + 63) & ~(uintptr_t)63);
        block->memory = memory;
        *petal_block_home_slot(block) = home;
        /* Relaxed: the count only has to be exact when it falls to zero (FULL there). */
        if (home != NULL) (void)petal_atomic_fetch_add(&home->refs, 1);
    }
    if (home != NULL) {
        unsigned index = home->recent_next;
        block->hint = home->recent[index];
        home->recent[index] = block;
        home->recent_next = (index + 1) & (PETAL_BLOCK_HINT_DISTANCE - 1);
    } else {
        block->hint = NULL;
    }
    block->refs = 0;
    block->capacity = capacity;
    block->below = 0;
    block->reserved = 0;
    /* A full block (every waiter block of a future) empties its flags with constant stores:
       the loop over a known count unrolls and its table loads fold. */
    if (capacity == PETAL_BLOCK_SLOTS) {
        for (unsigned slot = 0; slot < PETAL_BLOCK_SLOTS; slot++) *petal_block_flag(block, slot) = PETAL_SLOT_EMPTY;
    } else {
        for (unsigned slot = 0; slot < capacity; slot++) *petal_block_flag(block, slot) = PETAL_SLOT_EMPTY;
    }
    return block;
}

/* Keeps a block this thread allocated, or gives it back to free() when it keeps enough. */
static void petal_block_keep(petal_block *block, petal_block_home *home) {
    if (home->local_count < PETAL_BLOCK_CACHE_LIMIT) {
        block->next = home->local;
        home->local = block;
        home->local_count += 1;
    } else {
        petal_block_release(block, home);
    }
}

/* Returns a chain of blocks of another thread's `home` (first ... last, linked by `next`) with
   one CAS, or gives them to free() if that thread has exited. */
static void petal_block_return(petal_block *first, petal_block *last, petal_block_home *home) {
    petal_word old = petal_atomic_load(&home->remote);
    for (;;) {
        if (old == PETAL_HOME_ABANDONED) {
            last->next = NULL;
            petal_block_release_list(first, home);
            return;
        }
        last->next = (petal_block *)(uintptr_t)old;
        /* RELEASE: this thread's uses of the blocks (their callbacks run, their headers read)
           happen before the owner's reuse, which takes the stack with ACQUIRE. */
        if (petal_atomic_cas_release(&home->remote, old, (petal_word)(uintptr_t)first)) return;
        old = petal_atomic_load(&home->remote);
    }
}

void petal_block_free(petal_block *block) {
    petal_block_home *home = *petal_block_home_slot(block);
    if (home == NULL) {
        free(block->memory);
    } else if (home == petal_block_home_current) {
        petal_block_keep(block, home);
    } else {
        petal_block_return(block, block, home);
    }
}

/* Homes a list is returned to at once: a drain's blocks come from its subscribers' threads. */
#define PETAL_BLOCK_RETURN_HOMES 4

void petal_block_free_list(petal_block *list) {
    struct {
        petal_block_home *home;
        petal_block *first, *last;
    } chains[PETAL_BLOCK_RETURN_HOMES];
    unsigned used = 0;
    while (list != NULL) {
        petal_block *block = list;
        list = block->next;
        petal_block_home *home = *petal_block_home_slot(block);
        if (home == NULL || home == petal_block_home_current) {
            petal_block_free(block);
            continue;
        }
        unsigned chain = 0;
        while (chain < used && chains[chain].home != home) chain++;
        if (chain == used) {
            if (used == PETAL_BLOCK_RETURN_HOMES) {
                petal_block_return(block, block, home); /* a fifth home: on its own */
                continue;
            }
            chains[used].home = home;
            chains[used].last = block;
            block->next = NULL;
            used += 1;
        } else {
            block->next = chains[chain].first;
        }
        /* Each chain reverses the list: a drain lists its blocks newest first, so its owner
           takes them back oldest first, the order it used them in (the order the drain walks). */
        chains[chain].first = block;
    }
    for (unsigned chain = 0; chain < used; chain++)
        petal_block_return(chains[chain].first, chains[chain].last, chains[chain].home);
}

size_t petal_block_cache_homes(void) {
    return (size_t)petal_atomic_load_full(&petal_block_homes_alive);
}

int petal_block_cache_enabled(void) {
    if (!PETAL_BLOCK_CACHE_BUILT) return 0;
    (void)pthread_once(&petal_block_home_once, petal_block_home_setup);
    return !petal_block_cache_off;
}
