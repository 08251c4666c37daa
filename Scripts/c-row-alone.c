/*
 * Scripts/c-row-alone.c: two cells of the suite's C row, alone, outside the suite's Swift
 * process: the fulfil race and the deep chain, for petal_future and the mutex C future, and
 * for the race a prototype of a resolution in one read-modify-write.
 *
 *   race    Every thread fulfils the same 256 futures, in the same order, starting together;
 *           exactly one wins each (the suite's "fulfil race").
 *   chain   Every thread runs 4 chains of 100 links a round, each link a callback that fulfils
 *           the next future with the payload of its own (the suite's "chain K=100").
 *
 * The futures:
 *   petal   petal_future, as the suite's "C core" contender makes it (malloc, petal_future_init);
 *   mutex   the suite's C future behind a pthread mutex (Benchmarks/Sources/CBenchFutures);
 *   onecas  (race only) a prototype, not Petal: the state word and the payload side by side,
 *           moved together by one 16-byte compare-and-swap (cmpxchg16b). It resolves only (no
 *           subscribers): it bounds what a resolution of one read-modify-write could reach.
 *
 * Why the race is what it is: petal_future_resolve makes two read-modify-writes when nobody
 * waits, the claim (PENDING -> CLAIMED), then the publish (CLAIMED -> RESOLVED, which must see
 * a waiter pushed in between). A loser that reads the word between the two pulls its line away
 * from the winner, whose publish then waits for it again; the loser moves on to the next future
 * at once, so the threads stay abreast and meet on every line. One read-modify-write leaves the
 * line with the winner; so does the mutex future, whose loser is slow enough (it takes the
 * lock) that one thread runs ahead of the other.
 *
 * Prints the time a round takes per future (race) or per link (chain), all threads together,
 * and for the race how the wins split. The process has another thread before it measures, so
 * that glibc's mutex makes atomic operations even at one thread, as it does in the suite.
 *
 *   c-row-alone race|chain petal|mutex|onecas THREADS ROUNDS
 */
#include "bench_mutex_future.h"
#include "petal.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { FUTURES = 256, MAX_THREADS = 16, CHAINS = 4, LINKS = 100 };

/* The prototype: bit 0 of the word says resolved; the payload is the other half of the pair. */
typedef union {
    _Alignas(16) unsigned __int128 pair;
    uint64_t halves[2]; /* [0]: the word (x86_64 is little-endian); [1]: the payload */
} onecas_future;

static int onecas_fulfil(onecas_future *future, void *value) {
    /* A plain read of the word's half first, as petal_cell_claim_taking loads before its CAS: a
       loser that finds the future resolved takes the line shared, not exclusive. A torn read
       (the pair changing under it) costs only a failed CAS. */
    unsigned __int128 old = *(volatile uint64_t *)&future->halves[0];
    for (;;) {
        if ((uint64_t)old & 1) return 0;
        unsigned __int128 next = ((unsigned __int128)(uintptr_t)value << 64) | ((uint64_t)old | 1);
        /* Full barrier (a locked instruction): publishes the payload with the word. */
        unsigned __int128 seen = __sync_val_compare_and_swap(&future->pair, old, next);
        if (seen == old) return 1;
        old = seen;
    }
}

typedef enum { PETAL, MUTEX, ONECAS } variant;
static variant chosen;
static int chaining;
static int threads, rounds;
static void *futures[FUTURES];
static atomic_int round_started, finished;
static atomic_long wins[MAX_THREADS];
static atomic_long chains_ended;

static void *make(void) {
    switch (chosen) {
    case PETAL: {
        petal_future *future = malloc(sizeof *future);
        if (future != NULL) petal_future_init(future);
        return future;
    }
    case MUTEX: return bench_mutex_future_new();
    case ONECAS: {
        onecas_future *future = aligned_alloc(16, sizeof *future);
        if (future != NULL) future->pair = 0;
        return future;
    }
    }
    return NULL;
}

static int fulfil(void *future, void *value) {
    switch (chosen) {
    case PETAL: return petal_future_fulfil(future, value) == PETAL_OK;
    case MUTEX: return bench_mutex_future_fulfil(future, value);
    case ONECAS: return onecas_fulfil(future, value);
    }
    return 0;
}

static void release(void *future) {
    if (chosen == MUTEX) bench_mutex_future_free(future);
    else free(future);
}

/* One thread's share of a race's round: every future, in order. */
static void race(int me) {
    long won = 0;
    for (int i = 0; i < FUTURES; i++) won += fulfil(futures[i], (void *)(intptr_t)(me + 1));
    atomic_fetch_add(&wins[me], won);
}

/* A link: fulfils the next future with this one's payload, as the suite's bench_c_forward. */
static void petal_forward(petal_future *future, void *next) {
    petal_future_fulfil(next, petal_future_payload(future));
}
static void mutex_forward(bench_mutex_future *future, void *next) {
    bench_mutex_future_fulfil(next, bench_mutex_future_payload(future));
}
/* The chain's end: checks the value that came through. */
static void petal_end(petal_future *future, void *context) {
    (void)context;
    if (petal_future_payload(future) == (void *)7) atomic_fetch_add_explicit(&chains_ended, 1, memory_order_relaxed);
}
static void mutex_end(bench_mutex_future *future, void *context) {
    (void)context;
    if (bench_mutex_future_payload(future) == (void *)7) {
        atomic_fetch_add_explicit(&chains_ended, 1, memory_order_relaxed);
    }
}

/* One thread's share of a chain's round: CHAINS chains of LINKS links, each made, subscribed,
   fulfilled at its head and freed, as the suite's Contender.runChain. */
static void chain(void) {
    for (int k = 0; k < CHAINS; k++) {
        void *links[LINKS + 1];
        for (int i = 0; i <= LINKS; i++) {
            if ((links[i] = make()) == NULL) abort();
        }
        if (chosen == PETAL) {
            for (int i = 0; i < LINKS; i++) {
                if (petal_future_subscribe(links[i], petal_forward, links[i + 1]) != PETAL_OK) abort();
            }
            if (petal_future_subscribe(links[LINKS], petal_end, NULL) != PETAL_OK) abort();
        } else {
            for (int i = 0; i < LINKS; i++) {
                if (bench_mutex_future_subscribe(links[i], mutex_forward, links[i + 1]) != 0) abort();
            }
            if (bench_mutex_future_subscribe(links[LINKS], mutex_end, NULL) != 0) abort();
        }
        fulfil(links[0], (void *)7);
        for (int i = 0; i <= LINKS; i++) release(links[i]);
    }
}

static void run_share(int me) {
    if (chaining) chain();
    else race(me);
    atomic_fetch_add(&finished, 1);
}

static void *worker(void *argument) {
    int me = (int)(intptr_t)argument;
    for (int round = 1; round <= rounds; round++) {
        /* Yielding, not spinning: the suite runs four threads on two cores. */
        while (atomic_load(&round_started) < round) sched_yield();
        run_share(me);
    }
    return NULL;
}

static void *nothing(void *argument) { return argument; }

static double nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec * 1e9 + (double)now.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 5) goto usage;
    if (strcmp(argv[1], "chain") == 0) chaining = 1;
    else if (strcmp(argv[1], "race") != 0) goto usage;
    if (strcmp(argv[2], "petal") == 0) chosen = PETAL;
    else if (strcmp(argv[2], "mutex") == 0) chosen = MUTEX;
    else if (strcmp(argv[2], "onecas") == 0 && !chaining) chosen = ONECAS;
    else goto usage;
    threads = atoi(argv[3]);
    rounds = atoi(argv[4]);
    if (threads < 1 || threads > MAX_THREADS || rounds < 1) goto usage;

    pthread_t other;
    if (pthread_create(&other, NULL, nothing, NULL) != 0 || pthread_join(other, NULL) != 0) return 1;
    pthread_t workers[MAX_THREADS];
    for (int i = 1; i < threads; i++) {
        if (pthread_create(&workers[i], NULL, worker, (void *)(intptr_t)i) != 0) return 1;
    }
    double total = 0;
    for (int round = 1; round <= rounds; round++) {
        for (int i = 0; i < FUTURES && !chaining; i++) {
            if ((futures[i] = make()) == NULL) return 1;
        }
        atomic_store(&finished, 0);
        double began = nanoseconds();
        atomic_store(&round_started, round);
        run_share(0);
        while (atomic_load(&finished) < threads) sched_yield();
        total += nanoseconds() - began;
        for (int i = 0; i < FUTURES && !chaining; i++) release(futures[i]);
    }
    for (int i = 1; i < threads; i++) pthread_join(workers[i], NULL);

    if (chaining) {
        long expected = (long)rounds * threads * CHAINS;
        if (atomic_load(&chains_ended) != expected) {
            fprintf(stderr, "%s: %ld chains ended with 7, of %ld\n", argv[2], atomic_load(&chains_ended), expected);
            return 1;
        }
        printf("%s T=%d %.1f ns a link\n", argv[2], threads, total / rounds / (threads * CHAINS * LINKS));
        return 0;
    }
    long all = 0;
    for (int i = 0; i < threads; i++) all += atomic_load(&wins[i]);
    if (all != (long)rounds * FUTURES) {
        fprintf(stderr, "%s: %ld wins for %ld futures\n", argv[2], all, (long)rounds * FUTURES);
        return 1;
    }
    printf("%s T=%d %.1f ns a future, wins", argv[2], threads, total / rounds / FUTURES);
    for (int i = 0; i < threads; i++) printf(" %.0f%%", 100.0 * (double)atomic_load(&wins[i]) / (double)all);
    printf("\n");
    return 0;

usage:
    fprintf(stderr, "usage: c-row-alone race|chain petal|mutex|onecas THREADS ROUNDS\n");
    return 64;
}
