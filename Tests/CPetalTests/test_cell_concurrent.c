/*
 * The cell protocol (v2: waiter blocks) under real races, driven directly as petal_future.c
 * drives it: subscribers reserve, fill and commit slots (the inline slot, then slots of shared
 * blocks) or push blocks of their own, while two resolvers race to claim, publish and deliver,
 * round after round on a fresh cell. Checked every round, exactly:
 *
 *   - one claim winner, and every callback ran with its outcome and kind;
 *   - every callback ran exactly once (by the deliverer, or by its subscriber after RESOLVED);
 *   - order: a callback whose subscribe returned before another's began ran first (this
 *     includes each subscriber's FIFO order);
 *   - strict order: a subscriber that sees RESOLVED finds every delivered callback already run;
 *   - stragglers: every slot the deliverer skipped is a commit some subscriber saw refused;
 *   - tags: every commit carries its callback's own number (petal_slot_commit_tagged, as the
 *     Swift facade records a callback's case), and the deliverer reads that number back from
 *     the flag it settles (petal_slot_settle_tagged);
 *   - memory: every block allocated was freed exactly once, by the deliverer, by its last
 *     straggler, or (a spare never pushed) by its subscriber.
 *
 * Stragglers are made to happen: subscribers yield between reserve and commit now and then,
 * and each round one subscriber holds a reservation until the deliverer has settled it. The
 * run counts them and fails if the straggler path never ran.
 *
 * Records written by whichever thread runs a callback are plain memory: only the cell's
 * release/acquire orders them, so ThreadSanitizer reports a race if the protocol's ordering is
 * wrong, and the checks fail if its sequencing is.
 */
#define _GNU_SOURCE
#include "petal_test.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#endif

enum {
    SUBSCRIBERS = 4,
    CALLBACKS = 24, /* per subscriber: with the others', several blocks per round */
    RESOLVERS = 2,  /* resolver r publishes kind r */
    THREADS = SUBSCRIBERS + RESOLVERS,
    TOTAL = SUBSCRIBERS * CALLBACKS,
    DEFAULT_ROUNDS = 10000 /* the threads persist, so a round costs microseconds */
};

/* ------------------------------------------------------------------------------------------- */
/* Waiting for another thread.                                                                  */
/* ------------------------------------------------------------------------------------------- */

/* Seven threads share the cores, and each waits on the others several times a round. A wait
   that only yields is cheap on an idle machine, but beside other busy processes (CI runs this
   beside the Swift builds) the waiting threads keep taking the core from the one they wait
   for: 10,000 rounds then took 60-300 s instead of 1.5 s, and under TSan ran past CTest's
   limit. So a wait yields a few times, then sleeps on `moves`, which every change a thread may
   wait for bumps (announce); it wakes on the next bump, or after a tenth of a millisecond in
   case it missed one, and checks again. The wait is for the condition, never for a time.

   The words are relaxed C11 atomics and the sleep a raw futex, neither of which orders memory
   (ThreadSanitizer sees no synchronisation in them): a lock here would order the threads'
   writes for the protocol, and could hide from TSan an ordering the protocol itself lacks. */
static atomic_uint moves;
static atomic_uint sleepers;
enum { YIELDS_BEFORE_SLEEP = 32 };

static void announce(void) {
    atomic_fetch_add_explicit(&moves, 1, memory_order_relaxed);
#ifdef __linux__
    if (atomic_load_explicit(&sleepers, memory_order_relaxed) != 0) {
        syscall(SYS_futex, (unsigned *)&moves, FUTEX_WAKE_PRIVATE, 0x7fffffff, NULL, NULL, 0);
    }
#endif
}

/* One wait of WAIT_UNTIL: `seen` is `moves` as read before the condition was found false. */
static void wait_for_move(unsigned seen, unsigned tries) {
#ifdef __linux__
    if (tries >= YIELDS_BEFORE_SLEEP) {
        atomic_fetch_add_explicit(&sleepers, 1, memory_order_relaxed);
        struct timespec limit = {0, 100 * 1000};
        /* Returns at once if `moves` is no longer `seen`: a change since the check. */
        syscall(SYS_futex, (unsigned *)&moves, FUTEX_WAIT_PRIVATE, seen, &limit, NULL, 0);
        atomic_fetch_sub_explicit(&sleepers, 1, memory_order_relaxed);
        return;
    }
#else
    (void)seen;
    (void)tries;
#endif
    sched_yield();
}

/* Waits until `condition` holds (it is evaluated again after every wait). */
#define WAIT_UNTIL(condition)                                                                 \
    for (unsigned tries_ = 0;; tries_++) {                                                    \
        unsigned seen_ = atomic_load_explicit(&moves, memory_order_relaxed);                  \
        if (condition) break;                                                                 \
        wait_for_move(seen_, tries_);                                                         \
    }

typedef struct callback callback;

/* A caller-owned single waiter (a block of capacity 1, its callback in slot 0, in the header
   line), embedded in its callback. */
typedef struct waiter_block {
    petal_block header;
} waiter_block;

struct callback {
    waiter_block waiter; /* first: 64-byte aligned inside the 64-byte aligned round */
    unsigned subscriber;
    unsigned index;
    volatile petal_word runs;       /* exactly-once: must end at 1 */
    petal_word begin, end;          /* tickets: subscribe began / returned (the subscriber's own) */
    petal_word run_ticket;          /* position in the round's run order */
    int self_run;             /* its subscriber ran it after seeing RESOLVED */
    unsigned delivered_seen;  /* then: how many callbacks the deliverer had run */
};

/* Slot `index`'s callback, in the first of the slot's two words. */
static callback **entry_of(petal_block *block, unsigned index) {
    return (callback **)petal_block_slot(block, index);
}

typedef struct record {
    unsigned count;
    unsigned order[CALLBACKS]; /* indexes in the order its callbacks ran */
} record;

typedef struct round_state {
    petal_cell cell;
    callback *inline_entry;   /* the inline slot's payload */
    int outcome;              /* the winner's "payload", written before publish */
    int use_waiters;          /* some subscriptions are caller-owned waiters */
    unsigned holder;          /* the subscriber that holds one reservation until it is settled */
    int finish_after_leaves;  /* the deliverer lets a block's stragglers leave before finishing */
    int claim_takes;          /* resolvers claim with petal_cell_claim_taking, as Petal's do */
    petal_word resolve_after[RESOLVERS]; /* tickets a resolver waits for: varies who meets whom */
    volatile petal_word winners;
    volatile petal_word winner_kind;
    volatile petal_word tickets;
    volatile petal_word run_tickets;
    /* The deliverer's (plain: one thread, read by others only after RESOLVED or the round). */
    unsigned delivered;
    unsigned skipped;         /* block slots settled as SKIPPED */
    unsigned inline_skipped;
    /* The subscribers'. */
    volatile petal_word refused;         /* block commits refused: stragglers */
    volatile petal_word inline_refused;
    volatile petal_word held;            /* stragglers made on purpose by the holder */
    volatile petal_word self_runs;
    volatile petal_word subscribers_idle; /* subscribers done, or the holder parked in its wait */
    /* Blocks: every allocation and every free, by whom. */
    volatile petal_word allocated;
    volatile petal_word freed_by_deliverer;
    volatile petal_word freed_after_leaves; /* of them, blocks whose stragglers had all left */
    volatile petal_word freed_by_straggler;
    volatile petal_word freed_spares;
    volatile petal_word allocation_count;
    volatile petal_word free_count;
    petal_block *allocations[TOTAL];
    petal_block *frees[TOTAL];
    callback callbacks[SUBSCRIBERS][CALLBACKS];
    record records[SUBSCRIBERS];
} round_state;

/* ------------------------------------------------------------------------------------------- */
/* Blocks, counted.                                                                             */
/* ------------------------------------------------------------------------------------------- */

/* The number a callback's commits carry: unique in the round, never 0. */
static unsigned tag_of(const callback *c) {
    return 1 + c->subscriber * CALLBACKS + c->index;
}

static petal_block *block_new(round_state *round, callback *first) {
    petal_block *block = petal_block_allocate(PETAL_BLOCK_BYTES, PETAL_BLOCK_SLOTS);
    if (block == NULL) abort(); /* the round cannot go on without it */
    petal_word at = petal_atomic_fetch_add(&round->allocation_count, 1);
    if (at < TOTAL) round->allocations[at] = block;
    *entry_of(block, 0) = first;
    *petal_block_flag(block, 0) = petal_slot_ready(tag_of(first)); /* plain: private until pushed */
    return block;
}

static void block_free(round_state *round, petal_block *block, volatile petal_word *by) {
    petal_atomic_fetch_add(by, 1);
    petal_word at = petal_atomic_fetch_add(&round->free_count, 1);
    if (at < TOTAL) round->frees[at] = block;
    petal_block_free(block);
}

/* ------------------------------------------------------------------------------------------- */
/* Running a callback.                                                                          */
/* ------------------------------------------------------------------------------------------- */

static void run_callback(round_state *round, callback *c) {
    CHECK(petal_atomic_fetch_add(&c->runs, 1) == 0);
    c->run_ticket = petal_atomic_fetch_add(&round->run_tickets, 1);
    /* Never before the outcome, and with the winner's. */
    CHECK(petal_word_has_outcome(petal_cell_load(&round->cell)));
    unsigned kind = (unsigned)petal_atomic_load(&round->winner_kind);
    CHECK(petal_cell_kind(&round->cell) == kind);
    CHECK(round->outcome == 1000 + (int)kind);
    record *r = &round->records[c->subscriber];
    if (r->count < CALLBACKS) r->order[r->count] = c->index;
    r->count++;
}

/* ------------------------------------------------------------------------------------------- */
/* Resolvers: claim, publish, deliver.                                                          */
/* ------------------------------------------------------------------------------------------- */

static void deliver_blocks(round_state *round, petal_word taken) {
    petal_block *block = petal_blocks_in_order(taken);
    while (block != NULL) {
        /* Read before running: a caller-owned waiter's owner may reuse it once it ran. */
        petal_block *next = block->next;
        int owned = block->memory != NULL;
        unsigned reserved = petal_block_reserved(block); /* annotated by petal_blocks_in_order */
        unsigned stragglers = 0;
        for (unsigned index = 0; index < reserved; index++) {
            unsigned flag = petal_slot_settle_tagged(petal_block_flag(block, index));
            if (flag != 0) {
                CHECK(petal_slot_tag(flag) == tag_of(*entry_of(block, index)));
                run_callback(round, *entry_of(block, index));
                round->delivered++;
            } else {
                stragglers++;
            }
        }
        round->skipped += stragglers;
        announce(); /* the holder may wait for a flag settled here */
        /* Left alone, the deliverer nearly always finishes before its stragglers leave (they
           are still filling their slots). Every other round it waits for them instead, so that
           finish also meets refs already down by every leave. Stragglers leave on their own:
           the wait ends. If the deliverer counted stragglers nobody is (a block settled past
           its reserved slots), it ends once every subscriber is done or parked as the holder
           (nobody can leave any more), and the round fails its checks instead of hanging. */
        if (owned && stragglers > 0 && round->finish_after_leaves) {
            WAIT_UNTIL(petal_atomic_load(&block->refs) == (petal_word)0 - stragglers ||
                       petal_atomic_load(&round->subscribers_idle) >= SUBSCRIBERS);
        }
        if (owned && petal_block_finish(block, stragglers)) {
            if (stragglers > 0) petal_atomic_fetch_add(&round->freed_after_leaves, 1);
            block_free(round, block, &round->freed_by_deliverer);
        }
        block = next;
    }
}

static void resolve(round_state *round, unsigned kind) {
    /* Wait for the subscribers to be this far along (a condition, not a time): at once, or
       with blocks already filled. Never past what they reach while the holder holds. */
    WAIT_UNTIL(petal_atomic_load(&round->tickets) >= round->resolve_after[kind]);
    /* Half the rounds claim as Petal's resolvers do, taking the waiters if there are any; the
       other half claim, then publish. */
    petal_word taken = 0;
    if (round->claim_takes) {
        taken = petal_cell_claim_taking(&round->cell);
        if (!petal_word_won_claim(taken)) return;
    } else if (!petal_cell_claim(&round->cell)) {
        return;
    }
    petal_atomic_fetch_add(&round->winners, 1);
    petal_atomic_store(&round->winner_kind, kind);
    round->outcome = 1000 + (int)kind; /* ours alone until the mark or publish releases it */
    if (round->claim_takes && petal_word_has_waiters(taken)) {
        petal_cell_mark_written(&round->cell, kind);
    } else {
        taken = petal_cell_publish(&round->cell, kind);
    }
    announce(); /* the holder may wait for RESOLVED */
    if (!petal_word_has_waiters(taken)) return;
    if (petal_word_includes_inline(taken)) {
        unsigned flag = petal_slot_settle_tagged(&round->cell.slot_flag);
        announce();
        if (flag != 0) {
            CHECK(petal_slot_tag(flag) == tag_of(round->inline_entry));
            run_callback(round, round->inline_entry);
            round->delivered++;
        } else {
            round->inline_skipped++;
        }
    }
    deliver_blocks(round, taken);
    for (;;) {
        petal_word more = petal_cell_take_more(&round->cell);
        if (petal_word_list(more) == NULL) return;
        deliver_blocks(round, more);
    }
}

/* ------------------------------------------------------------------------------------------- */
/* Subscribers.                                                                                 */
/* ------------------------------------------------------------------------------------------- */

/* Between reserve and commit: sometimes yield (a natural straggler if a publish passes), and
   once a round, for the holder, wait until the deliverer has settled the slot (a sure one).
   Waiting on the flag terminates: a reserved slot is settled, in this batch or a later one,
   before the cell turns RESOLVED (if a broken protocol skips it, the wait ends there and the
   commit that follows loses the callback, which the checks report). */
static void between_reserve_and_commit(round_state *round, callback *c, volatile unsigned *flag, int *hold) {
    if (*hold) {
        *hold = 0;
        petal_atomic_fetch_add_full(&round->subscribers_idle, 1);
        announce();
        WAIT_UNTIL(petal_atomic_uint_load_acquire(flag) != PETAL_SLOT_EMPTY ||
                   petal_word_is_resolved(petal_cell_load(&round->cell)));
        petal_atomic_fetch_add_full(&round->subscribers_idle, (petal_word)-1);
        announce();
        if (petal_atomic_uint_load_acquire(flag) != PETAL_SLOT_EMPTY) petal_atomic_fetch_add(&round->held, 1);
        return;
    }
    if ((c->index + c->subscriber) % 3 == 0) sched_yield();
}

static void subscribe_waiter(round_state *round, callback *c) {
    c->waiter.header.memory = NULL; /* the caller's: never freed by the deliverer */
    c->waiter.header.refs = 0;
    c->waiter.header.capacity = 1;
    *petal_block_flag(&c->waiter.header, 0) = petal_slot_ready(tag_of(c));
    *entry_of(&c->waiter.header, 0) = c;
    if (petal_cell_push_waiter(&round->cell, &c->waiter.header) == PETAL_ALREADY_RESOLVED) {
        c->self_run = 1;
        c->delivered_seen = round->delivered;
        petal_atomic_fetch_add(&round->self_runs, 1);
        run_callback(round, c);
    }
}

static void subscribe(round_state *round, callback *c, int *hold) {
    petal_block *spare = NULL; /* allocated at most once, kept across retries */
    petal_reservation reservation = {0};
    for (;;) {
        switch (petal_cell_reserve(&round->cell, &reservation)) {
        case PETAL_ALREADY_RESOLVED:
            if (spare != NULL) block_free(round, spare, &round->freed_spares);
            /* Strict order: the deliverer is done, so its count is final (checked later). */
            c->self_run = 1;
            c->delivered_seen = round->delivered;
            petal_atomic_fetch_add(&round->self_runs, 1);
            run_callback(round, c);
            return;
        case PETAL_RESERVED_INLINE:
            between_reserve_and_commit(round, c, &round->cell.slot_flag, hold);
            round->inline_entry = c;
            if (petal_slot_commit_tagged(&round->cell.slot_flag, tag_of(c))) goto subscribed;
            petal_atomic_fetch_add(&round->inline_refused, 1);
            break; /* skipped: the callback is still ours; reserve again */
        case PETAL_RESERVED_SLOT: {
            petal_block *block = reservation.block;
            unsigned index = reservation.index;
            between_reserve_and_commit(round, c, petal_block_flag(block, index), hold);
            *entry_of(block, index) = c;
            if (petal_slot_commit_tagged(petal_block_flag(block, index), tag_of(c))) goto subscribed;
            petal_atomic_fetch_add(&round->refused, 1);
            if (petal_block_leave(block)) block_free(round, block, &round->freed_by_straggler);
            announce(); /* the deliverer may wait for this leave */
            break;
        }
        default: /* PETAL_NEEDS_BLOCK */
            if (spare == NULL) spare = block_new(round, c);
            if (petal_cell_push(&round->cell, spare, &reservation)) return;
            break;
        }
    }
subscribed:
    if (spare != NULL) block_free(round, spare, &round->freed_spares);
}

static void subscribe_all(round_state *round, unsigned id) {
    int hold = id == round->holder;
    for (unsigned i = 0; i < CALLBACKS; i++) {
        callback *c = &round->callbacks[id][i];
        c->begin = petal_atomic_fetch_add(&round->tickets, 1);
        announce(); /* a resolver may wait for the tickets */
        if (round->use_waiters && (i + id) % 5 == 4) subscribe_waiter(round, c);
        else subscribe(round, c, &hold);
        c->end = petal_atomic_fetch_add(&round->tickets, 1);
        announce();
    }
    petal_atomic_fetch_add_full(&round->subscribers_idle, 1);
    announce();
}

/* ------------------------------------------------------------------------------------------- */
/* The harness: persistent threads meeting once per round.                                     */
/* ------------------------------------------------------------------------------------------- */

typedef struct harness {
    round_state round;
    unsigned rounds;
    volatile petal_word generation; /* the round the main thread has prepared (1-based) */
    volatile petal_word arrived;    /* THREADS per round: the start barrier */
    volatile petal_word finished;   /* THREADS per round: the main thread may check */
    volatile petal_word stop;       /* set with the next generation after an inconsistent round */
} harness;

typedef struct thread_arg {
    harness *harness;
    unsigned id;
    int resolver;
} thread_arg;

/* Waits until *counter reaches target (the acquire load orders the round's writes). */
static void spin_until(volatile petal_word *counter, petal_word target) {
    WAIT_UNTIL(petal_atomic_load_acquire(counter) >= target);
}

static void *player(void *raw) {
    thread_arg *arg = raw;
    harness *h = arg->harness;
    for (petal_word number = 1; number <= h->rounds; number++) {
        spin_until(&h->generation, number);
        if (petal_atomic_load_acquire(&h->stop)) break;
        petal_atomic_fetch_add_full(&h->arrived, 1);
        announce();
        spin_until(&h->arrived, number * THREADS);
        if (arg->resolver) resolve(&h->round, arg->id);
        else subscribe_all(&h->round, arg->id);
        /* RELEASE: this round's writes happen before the main thread's checks. */
        petal_atomic_fetch_add_release(&h->finished, 1);
        announce();
    }
    return NULL;
}

static void prepare(round_state *round, unsigned number, int use_waiters) {
    memset(round, 0, sizeof *round);
    petal_cell_init(&round->cell);
    round->use_waiters = use_waiters;
    round->holder = number % SUBSCRIBERS;
    /* With waiters too: a waiter pushed over a partly filled block must not make the deliverer
       count stragglers that nobody is (then the wait ends when the subscribers are idle, and
       the block is not freed: the checks fail). */
    round->finish_after_leaves = number % 2;
    round->claim_takes = (number / 2) % 2 == 0;
    /* Both resolvers set off at the same mark, so they race for the claim. Two tickets per
       subscription; the holder stops at its first reservation, so the others alone must be
       able to reach the mark: at most their 2 * CALLBACKS tickets each. */
    for (unsigned r = 0; r < RESOLVERS; r++) {
        unsigned step = number % 7; /* 0 .. 6 */
        round->resolve_after[r] = (petal_word)step * 2 * CALLBACKS * (SUBSCRIBERS - 1) / 6;
    }
    for (unsigned s = 0; s < SUBSCRIBERS; s++) {
        for (unsigned i = 0; i < CALLBACKS; i++) {
            round->callbacks[s][i].subscriber = s;
            round->callbacks[s][i].index = i;
        }
    }
}

static int compare_pointers(const void *a, const void *b) {
    uintptr_t x = (uintptr_t)*(petal_block *const *)a, y = (uintptr_t)*(petal_block *const *)b;
    return x < y ? -1 : x > y;
}

/* Returns whether the round was consistent. */
static int check_round(round_state *round) {
    unsigned long before = petal_test_failure_count();
    CHECK(petal_atomic_load(&round->winners) == 1);
    unsigned kind = (unsigned)petal_atomic_load(&round->winner_kind);
    CHECK(kind < RESOLVERS);
    CHECK(petal_cell_load(&round->cell) == PETAL_PHASE_RESOLVED);
    CHECK(petal_cell_kind(&round->cell) == kind);

    /* Exactly once, each subscriber's in order, and split between deliverer and self-runs. */
    for (unsigned s = 0; s < SUBSCRIBERS; s++) {
        for (unsigned i = 0; i < CALLBACKS; i++) CHECK(petal_atomic_load(&round->callbacks[s][i].runs) == 1);
        record *r = &round->records[s];
        CHECK(r->count == CALLBACKS);
        for (unsigned i = 0; i < CALLBACKS && i < r->count; i++) CHECK(r->order[i] == i);
    }
    CHECK(round->delivered + petal_atomic_load(&round->self_runs) == TOTAL);
    CHECK(petal_atomic_load(&round->run_tickets) == TOTAL);

    /* Strict order: a subscriber that saw RESOLVED saw the deliverer's final count. */
    const callback *all = &round->callbacks[0][0];
    for (unsigned a = 0; a < TOTAL; a++) {
        if (all[a].self_run) CHECK(all[a].delivered_seen == round->delivered);
    }
    /* Order: returned before another began => ran before it. */
    for (unsigned a = 0; a < TOTAL; a++) {
        for (unsigned b = 0; b < TOTAL; b++) {
            if (all[a].end < all[b].begin) CHECK(all[a].run_ticket < all[b].run_ticket);
        }
    }

    /* Every skipped block slot is a refused commit, and the reverse, with caller-owned waiters
       too: the deliverer settles exactly the reserved slots (a waiter pushed over a partly
       filled block records how many, petal_blocks_in_order hands that on), so it never counts
       a straggler that nobody is. The inline slot may be skipped without a reservation (a
       waiter pushed first), never refused without a skip. */
    CHECK(round->skipped == petal_atomic_load(&round->refused));
    CHECK(petal_atomic_load(&round->inline_refused) <= round->inline_skipped);
    CHECK(round->inline_skipped <= 1);

    /* Every block allocated was freed exactly once. */
    petal_word allocated = petal_atomic_load(&round->allocation_count);
    petal_word freed = petal_atomic_load(&round->free_count);
    CHECK(allocated <= TOTAL && freed <= TOTAL);
    CHECK(freed == allocated);
    CHECK(petal_atomic_load(&round->freed_by_deliverer) + petal_atomic_load(&round->freed_by_straggler) +
              petal_atomic_load(&round->freed_spares) == freed);
    if (allocated == freed && allocated <= TOTAL) {
        qsort(round->allocations, allocated, sizeof(petal_block *), compare_pointers);
        qsort(round->frees, freed, sizeof(petal_block *), compare_pointers);
        for (petal_word i = 0; i < allocated; i++) CHECK(round->allocations[i] == round->frees[i]);
    }
    return petal_test_failure_count() == before;
}

typedef struct totals {
    unsigned long rounds;
    unsigned long stragglers;       /* refused block commits */
    unsigned long held;             /* of them and inline ones, made on purpose */
    unsigned long inline_stragglers;
    unsigned long freed_by_straggler;
    unsigned long freed_by_deliverer;
    unsigned long freed_after_leaves;
    unsigned long spares;
    unsigned long self_runs;
    unsigned long blocks;
} totals;

static totals run_races(int use_waiters) {
    totals sum = {0};
    /* The blocks and waiters inside need 64-byte alignment; ask for it. */
    harness *h = aligned_alloc(_Alignof(harness), sizeof(harness));
    CHECK(h != NULL);
    if (h == NULL) return sum;
    memset(h, 0, sizeof *h);
    h->rounds = petal_test_rounds(DEFAULT_ROUNDS);

    pthread_t threads[THREADS];
    thread_arg args[THREADS];
    for (unsigned t = 0; t < THREADS; t++) {
        int resolver = t >= SUBSCRIBERS;
        args[t] = (thread_arg){h, resolver ? t - SUBSCRIBERS : t, resolver};
        int created = pthread_create(&threads[t], NULL, player, &args[t]);
        CHECK(created == 0);
        if (created != 0) abort(); /* the barrier would wait for it forever */
    }

    for (petal_word number = 1; number <= h->rounds; number++) {
        /* Every player is parked in spin_until(generation): the round state is ours. */
        prepare(&h->round, (unsigned)number, use_waiters);
        petal_atomic_store_release(&h->generation, number);
        announce();
        spin_until(&h->finished, number * THREADS);
        sum.rounds++;
        round_state *round = &h->round;
        sum.stragglers += petal_atomic_load(&round->refused);
        sum.held += petal_atomic_load(&round->held);
        sum.inline_stragglers += petal_atomic_load(&round->inline_refused);
        sum.freed_by_straggler += petal_atomic_load(&round->freed_by_straggler);
        sum.freed_by_deliverer += petal_atomic_load(&round->freed_by_deliverer);
        sum.freed_after_leaves += petal_atomic_load(&round->freed_after_leaves);
        sum.spares += petal_atomic_load(&round->freed_spares);
        sum.self_runs += petal_atomic_load(&round->self_runs);
        sum.blocks += petal_atomic_load(&round->allocation_count);
        if (!check_round(round)) {
            fprintf(stderr, "round %u of %u was inconsistent\n", (unsigned)number, h->rounds);
            /* Release the parked players into an exit rather than another round. */
            petal_atomic_store(&h->stop, 1);
            petal_atomic_store_release(&h->generation, number + 1);
            announce();
            break;
        }
    }
    for (unsigned t = 0; t < THREADS; t++) CHECK(pthread_join(threads[t], NULL) == 0);
    free(h);
    fprintf(stderr,
            "%lu rounds, %lu blocks: %lu stragglers in blocks (%lu held on purpose, with inline ones), "
            "%lu inline; blocks freed by a straggler %lu, by the deliverer %lu (%lu after its "
            "stragglers left), spares %lu; self-runs after RESOLVED %lu\n",
            sum.rounds, sum.blocks, sum.stragglers, sum.held, sum.inline_stragglers,
            sum.freed_by_straggler, sum.freed_by_deliverer, sum.freed_after_leaves, sum.spares,
            sum.self_runs);
    return sum;
}

/* Below this many rounds (PETAL_TEST_ROUNDS set low) a path may go untaken by chance. */
enum { ROUNDS_FOR_COVERAGE = 100 };

static void test_races_on_blocks(void) {
    totals sum = run_races(0);
    /* The paths this test exists for ran: stragglers (the holder makes one in most rounds),
       blocks freed by their last straggler and by the deliverer, and subscribers that found
       RESOLVED. */
    if (sum.rounds < ROUNDS_FOR_COVERAGE) return;
    CHECK(sum.stragglers + sum.inline_stragglers > sum.held); /* natural ones too */
    CHECK(sum.held > 0);
    CHECK(sum.freed_by_straggler > 0);
    CHECK(sum.freed_by_deliverer > 0);
    CHECK(sum.freed_after_leaves > 0);
    CHECK(sum.self_runs > 0);
}

static void test_races_with_caller_waiters(void) {
    /* The same with every fifth subscription a caller-owned waiter (petal_cell_push_waiter),
       as petal_future_subscribe_node and petal_future_wait do. */
    totals sum = run_races(1);
    if (sum.rounds < ROUNDS_FOR_COVERAGE) return;
    CHECK(sum.stragglers + sum.inline_stragglers > 0);
    /* Now that finish may wait for the leaves here too, both freeing paths ran as well. */
    CHECK(sum.held > 0);
    CHECK(sum.freed_by_straggler > 0);
    CHECK(sum.freed_after_leaves > 0);
}

int main(void) {
    RUN_TEST(test_races_on_blocks);
    RUN_TEST(test_races_with_caller_waiters);
    return petal_test_finish("test_cell_concurrent");
}
