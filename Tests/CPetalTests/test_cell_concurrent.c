/*
 * The cell protocol under real races: subscribers, an inline-slot user and two resolvers start
 * together on one cell, round after round. Every waiter must run exactly once, each subscriber's
 * waiters in its own subscription order, and exactly one resolver may win.
 *
 * The per-subscriber records are plain memory written by whichever thread runs a waiter: the
 * resolver for delivered waiters, the subscriber itself once it sees RESOLVED. Only the cell's
 * release/acquire orders those writes, so ThreadSanitizer reports a race if the protocol's
 * ordering is wrong, and the order check fails if its sequencing is.
 */
#define _GNU_SOURCE
#include "petal_test.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>

enum {
    SUBSCRIBERS = 4,
    NODES = 8,              /* per subscriber */
    RESOLVERS = 2,          /* resolver r publishes kind r */
    THREADS = SUBSCRIBERS + RESOLVERS,
    DEFAULT_ROUNDS = 5000   /* cheap: the threads persist, so a round costs microseconds */
};

typedef struct waiter {
    petal_node node; /* first: the list links waiters through it */
    unsigned subscriber;
    unsigned index;
    volatile AO_t runs; /* exactly-once: must end at 1 */
} waiter;

typedef struct record {
    unsigned count;
    unsigned order[NODES]; /* indexes in the order the waiters ran */
    int saw_resolved;      /* the subscriber ran at least one waiter itself */
    unsigned seen_kind;    /* the kind it observed when it did */
} record;

typedef struct round_state {
    petal_cell cell;
    waiter *slot;          /* the inline slot's contents, published by commit_slot */
    unsigned slot_user;    /* which subscriber tries the slot this round */
    volatile AO_t winners;
    volatile AO_t winner_kind;
    volatile AO_t slot_committed;
    waiter waiters[SUBSCRIBERS][NODES];
    record records[SUBSCRIBERS];
} round_state;

/* The threads live for the whole test and meet once per round: creating six threads per round
   would cost more than the races themselves, and cold threads rarely overlap. */
typedef struct harness {
    round_state round;
    unsigned rounds;
    volatile AO_t generation; /* the round the main thread has prepared (1-based) */
    volatile AO_t arrived;    /* THREADS per round: the start barrier */
    volatile AO_t finished;   /* THREADS per round: the main thread may check */
    volatile AO_t stop;       /* set with the next generation after an inconsistent round */
} harness;

typedef struct thread_arg {
    harness *harness;
    unsigned id;
    void (*play)(round_state *round, unsigned id);
} thread_arg;

/* Spins until *counter reaches target. Yielding keeps the spin cheap when there are more
   threads than cores; it is not a synchronisation on time. */
static void spin_until(volatile AO_t *counter, AO_t target) {
    while (AO_load_acquire(counter) < target) sched_yield();
}

static void run_waiter(round_state *round, waiter *w) {
    AO_fetch_and_add1(&w->runs);
    record *r = &round->records[w->subscriber];
    if (r->count < NODES) r->order[r->count] = w->index;
    r->count++;
}

static void run_list(round_state *round, petal_node *node) {
    while (node != NULL) {
        petal_node *next = node->next;
        run_waiter(round, (waiter *)node);
        node = next;
    }
}

static void resolve(round_state *round, unsigned kind) {
    if (!petal_cell_claim(&round->cell)) return;
    AO_fetch_and_add1(&round->winners);
    AO_store(&round->winner_kind, kind);
    petal_word taken = petal_cell_publish(&round->cell, kind);
    if (!petal_word_has_waiters(taken)) return;
    /* The slot is the oldest waiter, so it runs before the taken list. */
    if (petal_word_slot_ready(taken)) run_waiter(round, round->slot);
    run_list(round, petal_list_in_order(taken));
    petal_node *more;
    while ((more = petal_cell_take_more(&round->cell)) != NULL) run_list(round, more);
}

static void subscribe_or_run(round_state *round, unsigned id, waiter *w) {
    petal_word observed;
    if (petal_cell_subscribe(&round->cell, &w->node, &observed) == PETAL_SUBSCRIBED) return;
    record *r = &round->records[id];
    r->saw_resolved = 1;
    r->seen_kind = petal_word_kind(observed);
    run_waiter(round, w);
}

static void subscribe_all(round_state *round, unsigned id) {
    unsigned first = 0;
    if (id == round->slot_user) {
        petal_word observed;
        if (petal_cell_reserve_slot(&round->cell, &observed)) {
            round->slot = &round->waiters[id][0];
            if (petal_cell_commit_slot(&round->cell, &observed)) {
                AO_store(&round->slot_committed, 1);
                first = 1;
            }
            /* A failed commit: the publisher skipped the slot; index 0 goes the usual way. */
        }
    }
    for (unsigned i = first; i < NODES; i++) subscribe_or_run(round, id, &round->waiters[id][i]);
}

static void *player(void *raw) {
    thread_arg *arg = raw;
    harness *h = arg->harness;
    for (AO_t number = 1; number <= h->rounds; number++) {
        spin_until(&h->generation, number);
        if (AO_load_acquire(&h->stop)) break;
        AO_fetch_and_add1_full(&h->arrived);
        spin_until(&h->arrived, number * THREADS);
        arg->play(&h->round, arg->id);
        /* RELEASE: this round's writes happen before the main thread's checks. */
        AO_fetch_and_add1_release(&h->finished);
    }
    return NULL;
}

static void prepare(round_state *round, unsigned number) {
    memset(round, 0, sizeof *round);
    petal_cell_init(&round->cell);
    round->slot_user = number % SUBSCRIBERS;
    for (unsigned s = 0; s < SUBSCRIBERS; s++) {
        for (unsigned i = 0; i < NODES; i++) {
            round->waiters[s][i].subscriber = s;
            round->waiters[s][i].index = i;
        }
    }
}

/* Returns whether the round was consistent. */
static int check_round(round_state *round) {
    unsigned long before = petal_test_failure_count();
    CHECK(AO_load(&round->winners) == 1);
    unsigned kind = (unsigned)AO_load(&round->winner_kind);
    CHECK(kind < RESOLVERS);
    petal_word word = petal_cell_load(&round->cell);
    CHECK(petal_word_is_resolved(word));
    CHECK(petal_word_kind(word) == kind);
    CHECK(petal_word_list(word) == NULL);
    for (unsigned s = 0; s < SUBSCRIBERS; s++) {
        for (unsigned i = 0; i < NODES; i++) CHECK(AO_load(&round->waiters[s][i].runs) == 1);
        record *r = &round->records[s];
        CHECK(r->count == NODES);
        /* Strictly increasing, with exactly NODES entries: each index once, in order. */
        for (unsigned i = 0; i < NODES && i < r->count; i++) CHECK(r->order[i] == i);
        if (r->saw_resolved) CHECK(r->seen_kind == kind);
    }
    return petal_test_failure_count() == before;
}

static void test_races(void) {
    /* The nodes inside need 16-byte alignment; ask for it rather than rely on malloc's. */
    harness *h = aligned_alloc(_Alignof(harness), sizeof(harness));
    CHECK(h != NULL);
    if (h == NULL) return;
    memset(h, 0, sizeof *h);
    h->rounds = petal_test_rounds(DEFAULT_ROUNDS);

    pthread_t threads[THREADS];
    thread_arg args[THREADS];
    for (unsigned t = 0; t < THREADS; t++) {
        int subscribing = t < SUBSCRIBERS;
        /* Resolver r publishes kind r, so the final word names the winner. */
        args[t] = (thread_arg){h, subscribing ? t : t - SUBSCRIBERS, subscribing ? subscribe_all : resolve};
        int created = pthread_create(&threads[t], NULL, player, &args[t]);
        CHECK(created == 0);
        if (created != 0) abort(); /* the barrier would wait for it forever */
    }

    unsigned slot_commits = 0, self_runs = 0, played = 0;
    for (AO_t number = 1; number <= h->rounds; number++) {
        /* Every player is parked in spin_until(generation): the round state is ours. */
        prepare(&h->round, (unsigned)number);
        AO_store_release(&h->generation, number);
        spin_until(&h->finished, number * THREADS);
        played++;
        if (!check_round(&h->round)) {
            fprintf(stderr, "round %u of %u was inconsistent\n", (unsigned)number, h->rounds);
            /* Release the parked players into an exit rather than another round. */
            AO_store(&h->stop, 1);
            AO_store_release(&h->generation, number + 1);
            break;
        }
        slot_commits += (unsigned)AO_load(&h->round.slot_committed);
        for (unsigned s = 0; s < SUBSCRIBERS; s++) self_runs += (unsigned)h->round.records[s].saw_resolved;
    }
    for (unsigned t = 0; t < THREADS; t++) CHECK(pthread_join(threads[t], NULL) == 0);
    /* Not assertions (they depend on scheduling), but they show which paths the run covered. */
    fprintf(stderr, "%u rounds: inline slot committed in %u, subscribers ran their own waiters %u times\n",
            played, slot_commits, self_runs);
    free(h);
}

int main(void) {
    RUN_TEST(test_races);
    return petal_test_finish("test_cell_concurrent");
}
