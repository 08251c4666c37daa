/*
 * petal_fuzz.c - a libFuzzer target for Petal's C API (petal.h): the convenience future and the
 * cell protocol (petal_cell.h) driven directly, from several threads at once, with exact invariant checks.
 *
 * RUNNING IT
 *
 *   Scripts/fuzz [seconds]        builds .build-fuzz/petal_fuzz with clang
 *                                 (-fsanitize=fuzzer,address,undefined) and fuzzes for 60 s
 *                                 from a copy of Tests/Fuzz/corpus
 *   .build-fuzz/petal_fuzz -runs=5000 .build-fuzz/artifacts/crash-<sha1>
 *                                 replays a crash file 5000 times (a second or two): the threads
 *                                 race, so one replay rarely hits the interleaving that failed
 *   PETAL_FUZZ_FREE_AFTER_RESOLVED=0 Scripts/fuzz
 *                                 without the operation that frees a future as soon as its
 *                                 status says resolved (see fz_private_finish)
 *   Tests/Fuzz/make-corpus.py     rewrites the seed corpus and the dictionary (petal.dict)
 *
 * THE INPUT is a small program. Byte 0 configures the run (bits 0-1: 2-4 worker threads; bit 2:
 * cell 1 starts resolved, with the kind in bits 3-4); then every 4 bytes are one instruction
 *
 *     [thread:2 | opcode:6] [a] [b] [c]
 *
 * appended to that thread's stream (at most FZ_OPS_PER_THREAD per thread, FZ_OPS_TOTAL in all;
 * the rest is ignored). Fixed-size instructions keep a mutation local to one operation. The
 * workers start together on a barrier and run their streams concurrently on four shared futures
 * (petal_future_*), two shared raw cells (petal_cell_* driven by the harness, as petal_future.c
 * drives them), futures of their own (chains, and futures handed to another thread to resolve)
 * and the trampoline. A worker leaves nothing half done: at the end of its
 * stream it commits, publishes and delivers what it holds. After the join the main thread
 * resolves whatever is still pending, which runs every remaining callback, and checks:
 *
 *   - every callback ran exactly once (or never, if its subscription reported failure);
 *   - per future or cell, the callbacks one thread subscribed ran in the order it subscribed
 *     them (a run ticket per target, taken with FULL ordering);
 *   - exactly one resolve (claim) won per future (cell), every later one of a thread that knew
 *     it was claimed returned PETAL_ERR_RESOLVED, and an invalid status PETAL_ERR_INVALID;
 *   - every status, payload, kind and outcome observed (by callbacks, status, wait) is the
 *     winner's; the payload encodes its status, so a torn pair is caught where it is read; a
 *     callback runs only once its cell has published the outcome (its future's status may say
 *     PENDING until every callback ran: see fz_future_seen);
 *   - a thread never sees a future go back to pending; waits on a resolved future return at once;
 *   - the trampoline never nests deeper than PETAL_TRAMPOLINE_DEPTH and is idle between
 *     operations; chains of futures longer than that run completely inside the first resolve;
 *     driven directly, petal_trampoline_enter answers exactly as documented, and deferred work
 *     runs once, in the order deferred, only when the outermost frame leaves;
 *   - raw cells: the inline slot is reserved at most once, every block slot settled SKIPPED is a
 *     commit refused, and every block allocated is freed exactly once;
 *   - memory: AddressSanitizer for use-after-free and overflows, LeakSanitizer (libFuzzer runs
 *     it when an input's mallocs and frees do not balance) for leaks: an iteration frees all.
 *
 * A violation prints what broke and aborts, which libFuzzer turns into a crash file. The harness
 * itself only does what petal.h and petal_cell.h allow: caller-owned waiters live until the iteration ends,
 * blocks pushed with petal_cell_push are full-size, nothing waits from a callback, and a future
 * is only freed after everything that may touch it is done, except in the one operation that
 * tests the contract "a future may be freed as soon as petal_future_wait returned a resolved
 * status, or petal_future_status said resolved" (PETAL_FUZZ_FREE_AFTER_RESOLVED).
 *
 * Nothing here sleeps to synchronise: threads meet on a barrier, hand futures over through
 * atomic mailboxes, and spin (yielding) only on a future that another thread has promised to
 * resolve. Deadlines are short and their number capped, so an execution takes well under a
 * millisecond of waiting.
 */
#ifndef _GNU_SOURCE
#  define _GNU_SOURCE /* pthread barriers, as the core's builds define it */
#endif
#include "petal_future_state.h"
#include "petal_trampoline_state.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* 1: FZ_OP_PRIVATE_FINISH frees (or re-initialises) a future as soon as it was seen resolved,
   while its resolver may still be delivering. 0: it keeps the future until the iteration ends. */
#ifndef PETAL_FUZZ_FREE_AFTER_RESOLVED
#  define PETAL_FUZZ_FREE_AFTER_RESOLVED 1
#endif

enum {
    FZ_THREADS_MAX = 4,
    FZ_IDENTITIES = FZ_THREADS_MAX + 1, /* the workers, then the main thread */
    FZ_FUTURES = 4,
    FZ_CELLS = 2,
    FZ_SHARED = FZ_FUTURES + FZ_CELLS, /* shared targets: futures 0-3, then cells */
    FZ_MAILBOXES = 2,
    FZ_INSTRUCTION = 4,      /* bytes per instruction */
    FZ_OPS_PER_THREAD = 48,
    FZ_OPS_TOTAL = 160,
    FZ_RECORDS = 384,        /* callbacks per thread and iteration (an op that finds none skips);
                                the arena stays below ASan's 128 KiB mmap threshold */
    FZ_TARGETS = 96,         /* private futures and chain links per thread and iteration */
    FZ_OBSERVATIONS = 128,   /* outcomes a thread saw outside callbacks, checked after the join */
    FZ_DEFERRED_FREES = 32,  /* private futures kept to the end (PETAL_FUZZ_FREE_AFTER_RESOLVED 0) */
    FZ_TIMED_WAITS = 4,      /* waits per thread with a deadline in the future */
    FZ_WAIT_MICROSECONDS = 64,
    FZ_CHAIN_MAX = 40,       /* more than twice PETAL_TRAMPOLINE_DEPTH */
    FZ_PRIVATE_SUBSCRIBERS = 6,
    FZ_DEFERRALS = 16,       /* items one FZ_OP_TRAMPOLINE defers */
};

/* ------------------------------------------------------------------------------------------- */
/* Failing.                                                                                     */
/* ------------------------------------------------------------------------------------------- */

static void fz_fail(const char *what, int line) {
    fprintf(stderr, "petal_fuzz.c:%d: invariant violated: %s\n", line, what);
    fflush(stderr);
    abort();
}

#define FZ_CHECK(condition, what)                                                             \
    do {                                                                                      \
        if (!(condition)) fz_fail(what, __LINE__);                                            \
    } while (0)

/* ------------------------------------------------------------------------------------------- */
/* Targets, records and threads.                                                                */
/* ------------------------------------------------------------------------------------------- */

typedef struct fz_record fz_record;

/* A caller-owned single waiter for a raw cell: a block of one slot whose payload is a record. */
typedef struct fz_cell_waiter {
    petal_block header;
    fz_record *entry;
} fz_cell_waiter;


/* A cell the harness drives itself, with the accounting the checks need. */
typedef struct fz_cell {
    petal_cell cell;
    fz_record *inline_entry; /* the inline slot's payload */
    uintptr_t outcome;       /* written by the claimer before publish, like a future's payload */
    volatile petal_word blocks_allocated, blocks_freed;
    volatile petal_word skipped, refused; /* block slots settled SKIPPED; block commits refused */
    volatile petal_word inline_reserved, inline_skipped, inline_refused;
} fz_cell;

/* Anything callbacks subscribe to: a future or a raw cell. */
typedef struct fz_target {
    int is_cell;
    int shared;             /* index of the threads' knowledge (0 .. FZ_SHARED-1), or -1 */
    petal_future *future;
    fz_cell *cell;
    volatile petal_word tickets;  /* run order of its callbacks */
    volatile petal_word wins;     /* resolves (claims) that won: must end at exactly 1 */
    volatile petal_word winner;   /* the winner's outcome, stored by the winner */
    unsigned next_sequence[FZ_IDENTITIES]; /* each thread's subscription order (its own entry) */
} fz_target;

/* What a callback does when it runs. */
enum {
    FZ_ACT_NONE,
    FZ_ACT_RESOLVE,   /* resolve (claim, publish, deliver) a shared target */
    FZ_ACT_SUBSCRIBE, /* subscribe a new callback (which does FZ_ACT_NONE or FZ_ACT_RESOLVE) */
    FZ_ACT_STATUS,    /* read a shared target's status and check it */
    FZ_ACT_KINDS,
    FZ_ACT_CHAIN = FZ_ACT_KINDS /* a chain link: see fz_op_chain */
};

typedef struct fz_action {
    unsigned char kind;
    unsigned char target; /* shared target index */
    unsigned char how;    /* resolve: how (fz_future_resolve); subscribe: how (fz_subscribe) */
    unsigned char arg;    /* resolve: status; subscribe: the child's action (packed) */
} fz_action;

typedef struct fz_chain fz_chain;

struct fz_record {
    petal_waiter node;        /* for petal_future_subscribe_node: 64-byte aligned, first */
    fz_cell_waiter cell_node; /* for petal_cell_push_waiter */
    fz_target *target;
    unsigned thread;          /* the identity of the thread that subscribed it */
    unsigned sequence;        /* its place in that thread's subscriptions to the target */
    int registered;           /* 0: the subscription reported failure, it must never run */
    fz_action action;
    fz_chain *chain;          /* FZ_ACT_CHAIN: the chain and this link's index */
    unsigned link;
    volatile petal_word runs;
    petal_word ticket;              /* written by the thread that ran it, read after the join */
    uintptr_t seen;           /* the outcome it saw */
};

struct fz_chain {
    unsigned length;
    unsigned mode;        /* 0: all subscribed first; 1: each link subscribes the next, then
                             resolves it; 2: resolves the next, then subscribes to it */
    unsigned node;        /* subscribe with caller-owned waiters */
    petal_future **links;
    fz_record **records;
    fz_action tail;       /* what the last link does */
    unsigned deepest;     /* the deepest trampoline depth a link ran at */
};

/* A raw cell's operations a thread has started and not finished: a reservation filled but not
   committed, a claim not published, a taken batch not delivered. */
typedef struct fz_held {
    fz_record *record;
    int reserved;         /* PETAL_RESERVED_INLINE or PETAL_RESERVED_SLOT */
    petal_block *block;
    unsigned index;
    int claimed;
    unsigned kind;
    int taking;           /* claimed with petal_cell_claim_taking, which replaced `taken` */
    petal_word taken;
    int delivering;
    petal_word batch;
    int first;            /* the batch is publish's: it starts with the inline slot */
} fz_held;

typedef struct fz_state fz_state;

typedef struct fz_observation {
    fz_target *target;
    uintptr_t outcome;
} fz_observation;

typedef struct fz_thread {
    fz_state *state;
    unsigned identity;
    pthread_t handle;
    const unsigned char *ops[FZ_OPS_PER_THREAD];
    unsigned op_count;
    fz_record *records; /* an arena, freed after the join */
    unsigned record_count;
    fz_target *targets;
    unsigned target_count;
    fz_observation observations[FZ_OBSERVATIONS];
    unsigned observation_count;
    /* What this thread has seen happen to each shared target: never to be unseen. */
    unsigned char claimed[FZ_SHARED];
    unsigned char published[FZ_SHARED];
    unsigned timed_waits;
    fz_held held[FZ_CELLS];
    /* A future of this thread's own, maybe posted to a mailbox for another thread to resolve. */
    petal_future *private_future;
    fz_target *private_target;
    int private_posted;
    unsigned private_mailbox;
    petal_future *deferred_frees[FZ_DEFERRED_FREES];
    unsigned deferred_count;
} fz_thread;

struct fz_state {
    unsigned threads;
    petal_future futures[FZ_FUTURES];
    fz_cell cells[FZ_CELLS];
    fz_target shared[FZ_SHARED];
    volatile petal_word mailboxes[FZ_MAILBOXES]; /* a private future's fz_target *, or 0 */
    volatile petal_word serial;                  /* makes every outcome distinct */
    fz_thread thread[FZ_IDENTITIES];
};

/* The thread running: callbacks find their thread's arena and knowledge through it. */
static _Thread_local fz_thread *fz_self;

/* An outcome: distinct per resolve attempt, never 0, its status (kind) in the low two bits. */
static uintptr_t fz_outcome(fz_state *state, unsigned status) {
    return ((uintptr_t)petal_atomic_fetch_add(&state->serial, 1) + 1) << 2 | status;
}

static fz_target *fz_shared_target(fz_state *state, unsigned index) {
    return &state->shared[index % FZ_SHARED];
}

static fz_record *fz_record_new(fz_thread *me, fz_target *target, fz_action action) {
    if (me->record_count == FZ_RECORDS) return NULL;
    fz_record *record = &me->records[me->record_count++];
    memset(record, 0, sizeof *record);
    record->target = target;
    record->thread = me->identity;
    record->sequence = target->next_sequence[me->identity]++;
    record->registered = 1;
    record->action = action;
    return record;
}

static fz_target *fz_target_new(fz_thread *me, petal_future *future) {
    if (me->target_count == FZ_TARGETS) return NULL;
    fz_target *target = &me->targets[me->target_count++];
    memset(target, 0, sizeof *target);
    target->shared = -1;
    target->future = future;
    return target;
}

static void fz_learn(fz_thread *me, const fz_target *target, int published) {
    if (target->shared < 0) return;
    me->claimed[target->shared] = 1;
    if (published) me->published[target->shared] = 1;
}

static void fz_observe(fz_thread *me, fz_target *target, uintptr_t outcome) {
    if (me->observation_count < FZ_OBSERVATIONS) {
        me->observations[me->observation_count++] = (fz_observation){target, outcome};
    }
}

/* ------------------------------------------------------------------------------------------- */
/* Running a callback.                                                                          */
/* ------------------------------------------------------------------------------------------- */

static void fz_act(fz_thread *me, fz_record *record);

/* What a callback of a future sees (0: nothing). The cell must have published its outcome: the
   protocol runs callbacks only after publish. The status may still say PENDING while the
   resolver delivers: a future may be freed as soon as its status says resolved, which cannot
   hold while callbacks still run with it (today the status says resolved at publish). Whatever
   it says must be the winner's, checked after the join. */
static uintptr_t fz_future_seen(fz_thread *me, fz_target *target) {
    FZ_CHECK(petal_word_has_outcome(petal_cell_load(petal_future_cell(target->future))), "a callback ran before its future's outcome was published");
    fz_learn(me, target, 0);
    petal_status status = petal_future_status(target->future);
    if (status == PETAL_STATUS_PENDING) return 0;
    uintptr_t payload = (uintptr_t)petal_future_payload(target->future);
    FZ_CHECK(payload != 0 && (payload & 3) == (uintptr_t)status, "a callback saw a status and payload of different resolves");
    fz_learn(me, target, 1);
    return payload;
}

static uintptr_t fz_cell_seen(fz_thread *me, fz_target *target) {
    fz_cell *cell = target->cell;
    petal_word word = petal_cell_load(&cell->cell);
    FZ_CHECK(petal_word_has_outcome(word), "a cell callback ran before the outcome was published");
    uintptr_t outcome = cell->outcome; /* published by the load above */
    FZ_CHECK(outcome != 0 && (outcome & 3) == petal_cell_kind(&cell->cell), "a cell callback saw a kind and outcome of different claims");
    fz_learn(me, target, 1);
    return outcome;
}

static void fz_run(fz_record *record) {
    fz_thread *me = fz_self;
    fz_target *target = record->target;
    FZ_CHECK(record->registered, "a callback whose subscription failed ran");
    FZ_CHECK(petal_atomic_fetch_add_full(&record->runs, 1) == 0, "a callback ran twice");
    /* FULL: a run that happens before another takes the smaller ticket. */
    record->ticket = petal_atomic_fetch_add_full(&target->tickets, 1);
    record->seen = target->is_cell ? fz_cell_seen(me, target) : fz_future_seen(me, target);
    fz_act(me, record);
}

static void fz_future_callback(petal_future *future, void *context) {
    fz_record *record = context;
    unsigned depth = petal_trampoline_depth();
    FZ_CHECK(future == record->target->future, "a callback got another future");
    FZ_CHECK(depth >= 1 && depth <= PETAL_TRAMPOLINE_DEPTH, "a callback ran outside the trampoline's depth limits");
    fz_run(record);
}

/* ------------------------------------------------------------------------------------------- */
/* Raw cells: the protocol of petal_cell.h, driven the way petal_future.c drives it.            */
/* ------------------------------------------------------------------------------------------- */

/* Slot `index`'s record, in the first of the slot's two words. */
static fz_record **fz_entry(petal_block *block, unsigned index) {
    return (fz_record **)petal_block_slot(block, index);
}

static petal_block *fz_cell_block_new(fz_cell *cell, fz_record *first) {
    petal_block *block = petal_block_allocate(PETAL_BLOCK_BYTES, PETAL_BLOCK_SLOTS) /* full-size, as petal_cell_push requires */;
    FZ_CHECK(block != NULL, "out of memory");
    petal_atomic_fetch_add(&cell->blocks_allocated, 1);
    *fz_entry(block, 0) = first;
    *petal_block_flag(block, 0) = PETAL_SLOT_READY; /* plain: private until pushed */
    return block;
}

static void fz_cell_block_free(fz_cell *cell, petal_block *block) {
    petal_atomic_fetch_add(&cell->blocks_freed, 1);
    petal_block_free(block);
}

/* Subscribes `record` until it is committed, pushed or run (the cell was RESOLVED). `yield`
   yields between reserve and commit: a publish that passes then makes a straggler. */
static void fz_cell_subscribe(fz_cell *cell, fz_record *record, int yield) {
    petal_block *spare = NULL; /* allocated at most once, kept across retries */
    petal_reservation reservation;
    for (;;) {
        switch (petal_cell_reserve(&cell->cell, &reservation)) {
        case PETAL_ALREADY_RESOLVED:
            if (spare != NULL) fz_cell_block_free(cell, spare);
            fz_run(record);
            return;
        case PETAL_RESERVED_INLINE:
            FZ_CHECK(petal_atomic_fetch_add(&cell->inline_reserved, 1) == 0, "the inline slot was reserved twice");
            cell->inline_entry = record;
            if (yield) sched_yield();
            if (petal_slot_commit(&cell->cell.slot_flag)) goto subscribed;
            petal_atomic_fetch_add(&cell->inline_refused, 1);
            break; /* skipped: the record is still ours; reserve again */
        case PETAL_RESERVED_SLOT: {
            petal_block *block = reservation.block;
            *fz_entry(block, reservation.index) = record;
            if (yield) sched_yield();
            if (petal_slot_commit(petal_block_flag(block, reservation.index))) goto subscribed;
            petal_atomic_fetch_add(&cell->refused, 1);
            if (petal_block_leave(block)) fz_cell_block_free(cell, block);
            break;
        }
        default: /* PETAL_NEEDS_BLOCK */
            if (spare == NULL) spare = fz_cell_block_new(cell, record);
            if (petal_cell_push(&cell->cell, spare, &reservation)) return;
            break;
        }
    }
subscribed:
    if (spare != NULL) fz_cell_block_free(cell, spare);
}

static void fz_cell_subscribe_waiter(fz_cell *cell, fz_record *record) {
    petal_block *header = &record->cell_node.header;
    header->memory = NULL; /* ours: the deliverer must never free it */
    header->refs = 0;
    header->capacity = 1;
    header->below = 0;
    header->reserved = 0;
    *petal_block_flag(header, 0) = PETAL_SLOT_READY;
    *fz_entry(header, 0) = record;
    if (petal_cell_push_waiter(&cell->cell, header) == PETAL_ALREADY_RESOLVED) fz_run(record);
}

static void fz_cell_deliver_blocks(fz_cell *cell, petal_word taken) {
    petal_block *block = petal_blocks_in_order(taken);
    while (block != NULL) {
        petal_block *next = block->next; /* before running: the block may be freed after */
        unsigned reserved = petal_block_reserved(block);
        int owned = block->memory != NULL;
        FZ_CHECK(reserved >= 1 && reserved <= block->capacity, "a taken block has no reserved slot, or more than it holds");
        unsigned stragglers = 0;
        for (unsigned index = 0; index < reserved; index++) {
            if (petal_slot_settle(petal_block_flag(block, index))) fz_run(*fz_entry(block, index));
            else stragglers++;
        }
        FZ_CHECK(owned || stragglers == 0, "a caller-owned waiter was skipped");
        petal_atomic_fetch_add(&cell->skipped, stragglers);
        if (owned && petal_block_finish(block, stragglers)) fz_cell_block_free(cell, block);
        block = next;
    }
}

/* Delivers the batch `held` owns, then takes the next one: returns 1 while more remain. */
static int fz_cell_deliver_batch(fz_cell *cell, fz_held *held) {
    if (held->first && petal_word_includes_inline(held->batch)) {
        if (petal_slot_settle(&cell->cell.slot_flag)) fz_run(cell->inline_entry);
        else petal_atomic_fetch_add(&cell->inline_skipped, 1);
    }
    fz_cell_deliver_blocks(cell, held->batch);
    petal_word more = petal_cell_take_more(&cell->cell);
    FZ_CHECK((more & PETAL_PHASE_MASK) == PETAL_PHASE_DELIVERING, "take_more found a cell that was not delivering");
    held->first = 0;
    held->batch = more;
    held->delivering = petal_word_list(more) != NULL;
    return held->delivering;
}

/* Publishes a claim `held` owns; delivers everything at once if `now`. */
static void fz_cell_publish(fz_thread *me, fz_target *target, fz_held *held, int now) {
    fz_cell *cell = target->cell;
    held->claimed = 0;
    petal_word taken;
    if (held->taking && petal_word_has_waiters(held->taken)) {
        /* The claim took the waiters: the mark publishes the outcome, and the batch is theirs. */
        taken = held->taken;
        FZ_CHECK((taken & PETAL_PHASE_MASK) == PETAL_PHASE_PENDING, "a claim took a word that was not pending");
        FZ_CHECK((petal_cell_load(&cell->cell) & PETAL_PHASE_MASK) == PETAL_PHASE_DELIVERING,
                 "a claim that took waiters left the cell not delivering");
        petal_cell_mark_written(&cell->cell, held->kind);
    } else {
        taken = petal_cell_publish(&cell->cell, held->kind);
        FZ_CHECK((taken & PETAL_PHASE_MASK) == PETAL_PHASE_CLAIMED, "publish replaced a word that was not claimed");
    }
    fz_learn(me, target, 1);
    if (!petal_word_has_waiters(taken)) return;
    held->delivering = 1;
    held->batch = taken;
    held->first = 1;
    if (now) {
        while (fz_cell_deliver_batch(cell, held)) {
        }
    }
}

/* Claims a cell (with petal_cell_claim_taking if `kind`'s third bit says so, as Petal's
   resolvers do); the winner writes its outcome and holds the claim. Returns 1 if it won. */
static int fz_cell_claim(fz_thread *me, fz_target *target, fz_held *held, unsigned kind) {
    fz_cell *cell = target->cell;
    int knew = target->shared >= 0 && me->claimed[target->shared];
    int taking = (kind >> 2) & 1;
    petal_word taken = 0;
    int won;
    if (taking) {
        taken = petal_cell_claim_taking(&cell->cell);
        won = petal_word_won_claim(taken);
    } else {
        won = petal_cell_claim(&cell->cell);
    }
    if (!won) {
        fz_learn(me, target, 0);
        return 0;
    }
    FZ_CHECK(!knew, "a claim won on a cell this thread knew was claimed");
    FZ_CHECK(petal_atomic_fetch_add_full(&target->wins, 1) == 0, "two claims won the same cell");
    held->kind = kind & PETAL_KIND_MAX;
    cell->outcome = fz_outcome(me->state, held->kind); /* ours alone until publish releases it */
    petal_atomic_store(&target->winner, cell->outcome);
    held->claimed = 1;
    held->taking = taking;
    held->taken = taken;
    fz_learn(me, target, 0);
    return 1;
}

/* Resolves a cell at once (claim, publish, deliver): what a callback does. */
static void fz_cell_resolve(fz_thread *me, fz_target *target, unsigned kind) {
    fz_held held = {0};
    if (fz_cell_claim(me, target, &held, kind)) fz_cell_publish(me, target, &held, 1);
}

static void fz_cell_status(fz_thread *me, fz_target *target) {
    fz_cell *cell = target->cell;
    petal_word word = petal_cell_load(&cell->cell);
    if (!petal_cell_outcome_visible(&cell->cell, word)) {
        FZ_CHECK(target->shared < 0 || !me->published[target->shared], "a published cell went back to having no outcome");
        return;
    }
    uintptr_t outcome = cell->outcome;
    FZ_CHECK((outcome & 3) == petal_cell_kind(&cell->cell), "a cell's kind and outcome disagree");
    fz_learn(me, target, 1);
    fz_observe(me, target, outcome);
}

/* ------------------------------------------------------------------------------------------- */
/* Futures.                                                                                     */
/* ------------------------------------------------------------------------------------------- */

/* Resolves a future one of five ways (`how`): resolve with `arg`'s status, fulfil, reject,
   cancel, or an invalid status. Returns the result. */
static int fz_future_resolve(fz_thread *me, fz_target *target, unsigned how, unsigned arg) {
    petal_future *future = target->future;
    int knew = target->shared >= 0 && me->claimed[target->shared];
    unsigned status = how % 5 == 0 ? arg % 3 : how % 5 - 1;
    if (how % 5 == 4) {
        /* Outside the enumeration on purpose: the API must refuse it and change nothing. */
        petal_status invalid = arg % 2 ? PETAL_STATUS_PENDING : (petal_status)(3 + arg % 61);
        int rc = petal_future_resolve(future, invalid, (void *)(uintptr_t)0x5);
        FZ_CHECK(rc == PETAL_ERR_INVALID, "resolving with an invalid status was not refused");
        return rc;
    }
    uintptr_t outcome = fz_outcome(me->state, status);
    void *payload = (void *)outcome;
    int rc;
    switch (how % 5) {
    case 1: rc = petal_future_fulfil(future, payload); break;
    case 2: rc = petal_future_reject(future, payload); break;
    case 3: rc = petal_future_cancel(future, payload); break;
    default: rc = petal_future_resolve(future, (petal_status)status, payload); break;
    }
    if (rc == PETAL_OK) {
        FZ_CHECK(!knew, "a resolve won on a future this thread knew was resolved");
        FZ_CHECK(petal_atomic_fetch_add_full(&target->wins, 1) == 0, "two resolves of one future won");
        petal_atomic_store(&target->winner, outcome);
        /* Delivered when a top-level resolve returns; from a callback, maybe only deferred. */
        fz_learn(me, target, petal_trampoline_depth() == 0);
    } else {
        FZ_CHECK(rc == PETAL_ERR_RESOLVED, "resolve returned neither PETAL_OK nor PETAL_ERR_RESOLVED");
        fz_learn(me, target, 0);
    }
    return rc;
}

/* Status and payload of a shared future: pending only if this thread never saw it resolved. */
static void fz_future_status(fz_thread *me, fz_target *target) {
    petal_status status = petal_future_status(target->future);
    uintptr_t payload = (uintptr_t)petal_future_payload(target->future);
    if (status == PETAL_STATUS_PENDING) {
        FZ_CHECK(target->shared < 0 || !me->published[target->shared], "a resolved future went back to pending");
        return;
    }
    FZ_CHECK(status >= PETAL_STATUS_FULFILLED && status <= PETAL_STATUS_CANCELLED, "status out of range");
    FZ_CHECK(payload != 0 && (payload & 3) == (uintptr_t)status, "status and payload of different resolves");
    fz_learn(me, target, 1);
    fz_observe(me, target, payload);
}

static void fz_deadline_in(struct timespec *deadline, long microseconds) {
    clock_gettime(CLOCK_REALTIME, deadline);
    deadline->tv_nsec += microseconds * 1000;
    while (deadline->tv_nsec >= 1000000000L) {
        deadline->tv_nsec -= 1000000000L;
        deadline->tv_sec += 1;
    }
}

/* Waits with a deadline in the past, in the near future, an invalid one, or none (only on a
   future this thread saw resolved: nobody else promises to resolve it). */
static void fz_future_wait(fz_thread *me, fz_target *target, unsigned mode, unsigned arg) {
    int known = target->shared >= 0 && me->published[target->shared];
    struct timespec deadline;
    const struct timespec *use = &deadline;
    mode %= 4;
    if (mode == 1 && me->timed_waits == FZ_TIMED_WAITS) mode = 0; /* the budget is spent */
    switch (mode) {
    case 0:
        fz_deadline_in(&deadline, 0);
        deadline.tv_sec -= 1 + (time_t)(arg % 3);
        break;
    case 1:
        me->timed_waits++;
        fz_deadline_in(&deadline, (long)(arg % FZ_WAIT_MICROSECONDS));
        break;
    case 2:
        fz_deadline_in(&deadline, 0);
        deadline.tv_nsec = arg % 2 ? -1 - (long)arg : 1000000000L + (long)arg;
        break;
    default:
        if (known) use = NULL;
        else fz_deadline_in(&deadline, 0);
        break;
    }
    int rc = petal_future_wait(target->future, use);
    if (rc == PETAL_ERR_TIMEDOUT || rc == PETAL_ERR_INVALID) {
        FZ_CHECK(!known, "waiting on a resolved future did not return its status at once");
        FZ_CHECK((rc == PETAL_ERR_INVALID) == (mode == 2), "wait timed out on an invalid deadline, or called a valid one invalid");
        return;
    }
    FZ_CHECK(rc >= PETAL_STATUS_FULFILLED && rc <= PETAL_STATUS_CANCELLED, "wait returned neither a status nor an error it documents");
    uintptr_t payload = (uintptr_t)petal_future_payload(target->future);
    FZ_CHECK(payload != 0 && (payload & 3) == (uintptr_t)rc, "wait's status and the payload are of different resolves");
    fz_learn(me, target, 1);
    fz_observe(me, target, payload);
}

/* ------------------------------------------------------------------------------------------- */
/* Subscribing and acting.                                                                      */
/* ------------------------------------------------------------------------------------------- */

/* A callback's action from two input bytes. A subscribing callback's child only resolves or
   does nothing, which bounds the callbacks an iteration can make. */
static fz_action fz_action_decode(unsigned b, unsigned c, int may_subscribe) {
    fz_action action = {
        .kind = (unsigned char)(b % FZ_ACT_KINDS),
        .target = (unsigned char)(c % FZ_SHARED),
        .how = (unsigned char)(b / FZ_ACT_KINDS),
        .arg = (unsigned char)(c / FZ_SHARED),
    };
    if (action.kind == FZ_ACT_SUBSCRIBE && !may_subscribe) action.kind = FZ_ACT_RESOLVE;
    return action;
}

/* Subscribes `record` to its target: for a future, with an allocated block or a caller-owned
   waiter (`how`); for a cell, with reserve and commit (yielding in between, or not) or a
   caller-owned waiter. */
static void fz_subscribe_record(fz_record *record, unsigned how) {
    fz_target *target = record->target;
    if (target->is_cell) {
        if (how % 3 == 2) fz_cell_subscribe_waiter(target->cell, record);
        else fz_cell_subscribe(target->cell, record, how % 3 == 1);
        return;
    }
    if (how % 2) {
        petal_future_subscribe_node(target->future, &record->node, fz_future_callback, record);
    } else if (petal_future_subscribe(target->future, fz_future_callback, record) != PETAL_OK) {
        record->registered = 0; /* PETAL_ERR_NOMEM: documented as not registered */
    }
}

static void fz_subscribe(fz_thread *me, fz_target *target, unsigned how, fz_action action) {
    fz_record *record = fz_record_new(me, target, action);
    if (record != NULL) fz_subscribe_record(record, how);
}

static void fz_resolve(fz_thread *me, fz_target *target, unsigned how, unsigned arg) {
    if (target->is_cell) fz_cell_resolve(me, target, how ^ arg);
    else fz_future_resolve(me, target, how, arg);
}

static void fz_status(fz_thread *me, fz_target *target) {
    if (target->is_cell) fz_cell_status(me, target);
    else fz_future_status(me, target);
}

static void fz_chain_step(fz_thread *me, fz_record *record);

static void fz_act(fz_thread *me, fz_record *record) {
    fz_action action = record->action;
    fz_target *target = fz_shared_target(me->state, action.target);
    switch (action.kind) {
    case FZ_ACT_RESOLVE: fz_resolve(me, target, action.how, action.arg); break;
    case FZ_ACT_SUBSCRIBE: fz_subscribe(me, target, action.how, fz_action_decode(action.arg, action.how, 0)); break;
    case FZ_ACT_STATUS: fz_status(me, target); break;
    case FZ_ACT_CHAIN: fz_chain_step(me, record); break;
    default: break;
    }
}

/* ------------------------------------------------------------------------------------------- */
/* Chains: futures that resolve each other from their callbacks, deeper than the trampoline.    */
/* ------------------------------------------------------------------------------------------- */

static void fz_chain_step(fz_thread *me, fz_record *record) {
    fz_chain *chain = record->chain;
    unsigned link = record->link;
    unsigned depth = petal_trampoline_depth();
    if (depth > chain->deepest) chain->deepest = depth;
    if (link + 1 == chain->length) {
        fz_act(me, &(fz_record){.action = chain->tail});
        return;
    }
    fz_record *next = chain->records[link + 1];
    fz_target *next_target = next->target;
    if (chain->mode == 1) fz_subscribe_record(next, chain->node);
    fz_future_resolve(me, next_target, 1, 0);
    if (chain->mode == 2) fz_subscribe_record(next, chain->node);
}

/* ------------------------------------------------------------------------------------------- */
/* The trampoline driven directly.                                                              */
/* ------------------------------------------------------------------------------------------- */

typedef struct fz_trampoline_run fz_trampoline_run;

typedef struct fz_deferral {
    petal_deferred item; /* for petal_trampoline_defer_item */
    fz_trampoline_run *run;
    unsigned index;
    int chained;         /* defers one more from inside its own work */
} fz_deferral;

struct fz_trampoline_run {
    fz_deferral deferrals[FZ_DEFERRALS];
    unsigned deferred, ran;
    int may_run; /* set just before the outermost frame leaves */
};

static void fz_defer(fz_trampoline_run *run, int caller_owned, int chained);

static void fz_deferred_work(void *context) {
    fz_deferral *deferral = context;
    fz_trampoline_run *run = deferral->run;
    FZ_CHECK(run->may_run, "deferred work ran before the outermost frame left");
    FZ_CHECK(deferral->index == run->ran, "deferred work ran out of order, or twice");
    FZ_CHECK(petal_trampoline_depth() == 1, "deferred work ran elsewhere than in the outermost frame");
    run->ran++;
    if (deferral->chained && run->deferred < FZ_DEFERRALS) fz_defer(run, deferral->index % 2, 0);
}

static void fz_defer(fz_trampoline_run *run, int caller_owned, int chained) {
    fz_deferral *deferral = &run->deferrals[run->deferred];
    deferral->run = run;
    deferral->index = run->deferred++;
    deferral->chained = chained;
    if (caller_owned) {
        deferral->item.work = fz_deferred_work;
        deferral->item.context = deferral;
        petal_trampoline_defer_item(&deferral->item);
    } else {
        FZ_CHECK(petal_trampoline_defer(fz_deferred_work, deferral) == 0, "petal_trampoline_defer failed");
    }
}

/* Work deferred on an idle thread runs at once; then frames nest up to the depth limit (or until
   something is deferred: later work must not overtake it), deferring at some levels, and every
   deferred item runs in order when the outermost frame leaves, items deferred while draining
   included. */
static void fz_op_trampoline(unsigned a, unsigned b) {
    fz_trampoline_run run = {.may_run = 1};
    fz_defer(&run, b & 1, (b >> 1) & 1);
    FZ_CHECK(run.ran == run.deferred, "work deferred on an idle trampoline did not run at once");
    run.may_run = 0;
    unsigned levels = 1 + a % (PETAL_TRAMPOLINE_DEPTH + 8), entered = 0;
    for (unsigned level = 0; level < levels; level++) {
        int expected = entered < PETAL_TRAMPOLINE_DEPTH && run.ran == run.deferred;
        int answer = level % 2 ? petal_trampoline_enter() : petal_trampoline_enter_fast();
        FZ_CHECK(answer == expected, "petal_trampoline_enter answered against its contract");
        if (!answer) break;
        entered++;
        FZ_CHECK(petal_trampoline_depth() == entered, "the trampoline's depth is not the frames entered");
        if ((b >> (2 + level % 6)) & 1 && run.deferred < FZ_DEFERRALS) fz_defer(&run, level % 2, level % 3 == 0);
    }
    for (; entered > 0; entered--) {
        run.may_run = entered == 1;
        if (entered % 2) petal_trampoline_leave();
        else petal_trampoline_leave_fast();
    }
    FZ_CHECK(run.ran == run.deferred, "deferred work was lost");
}

/* ------------------------------------------------------------------------------------------- */
/* The operations.                                                                              */
/* ------------------------------------------------------------------------------------------- */

enum {
    FZ_OP_SUBSCRIBE,      /* a: future, b c: action */
    FZ_OP_SUBSCRIBE_NODE, /* a: future, b c: action */
    FZ_OP_RESOLVE,        /* a: future, b: how, c: status */
    FZ_OP_STATUS,         /* a: future */
    FZ_OP_WAIT,           /* a: future, b: deadline kind, c: microseconds */
    FZ_OP_CHAIN,          /* a: mode, b: length, c: tail action */
    FZ_OP_PRIVATE_NEW,    /* a: mailbox, b: subscribers, c: their actions */
    FZ_OP_MAILBOX_TAKE,   /* a: mailbox, b: how, c: status */
    FZ_OP_PRIVATE_FINISH, /* b: how to see it resolved, and whether to free or re-initialise */
    FZ_OP_CELL_SUBSCRIBE, /* a: cell, b: how (and action), c: action */
    FZ_OP_CELL_RESERVE,   /* a: cell, b c: action: reserve and fill, commit later */
    FZ_OP_CELL_COMMIT,    /* a: cell */
    FZ_OP_CELL_CLAIM,     /* a: cell, b: kind */
    FZ_OP_CELL_PUBLISH,   /* a: cell, b: deliver at once */
    FZ_OP_CELL_DELIVER,   /* a: cell: one batch */
    FZ_OP_CELL_STATUS,    /* a: cell */
    FZ_OP_TRAMPOLINE,     /* a: levels, b: where to defer */
    FZ_OP_YIELD,          /* a: spins, or a yield */
    FZ_OP_COUNT
};

static fz_target *fz_future_target(fz_state *state, unsigned a) {
    return &state->shared[a % FZ_FUTURES];
}

static fz_target *fz_cell_target(fz_state *state, unsigned a) {
    return &state->shared[FZ_FUTURES + a % FZ_CELLS];
}

/* A chain of 1 .. FZ_CHAIN_MAX private futures whose callbacks resolve the next one, resolved
   at its head. From the top level, everything has run when that resolve returns (the
   outermost frame drains the trampoline), so the links are freed right after. */
static void fz_op_chain(fz_thread *me, unsigned a, unsigned b, unsigned c) {
    fz_chain chain = {
        .length = 1 + b % FZ_CHAIN_MAX,
        .mode = a % 3,
        .node = (a / 3) % 2,
        .tail = fz_action_decode(c, c >> 3, 1),
    };
    if (me->record_count + chain.length > FZ_RECORDS || me->target_count + chain.length > FZ_TARGETS) return;
    petal_future *links[FZ_CHAIN_MAX];
    fz_record *records[FZ_CHAIN_MAX];
    chain.links = links;
    chain.records = records;
    for (unsigned i = 0; i < chain.length; i++) {
        links[i] = malloc(sizeof(petal_future));
        FZ_CHECK(links[i] != NULL, "out of memory");
        petal_future_init(links[i]);
        records[i] = fz_record_new(me, fz_target_new(me, links[i]), (fz_action){.kind = FZ_ACT_CHAIN});
        records[i]->chain = &chain;
        records[i]->link = i;
    }
    unsigned upfront = chain.mode == 0 ? chain.length : 1;
    for (unsigned i = 0; i < upfront; i++) fz_subscribe_record(records[i], chain.node);
    fz_future_resolve(me, records[0]->target, 1, 0);
    FZ_CHECK(petal_trampoline_depth() == 0, "the trampoline was not idle after a top-level resolve");
    FZ_CHECK(chain.deepest >= 1 && chain.deepest <= PETAL_TRAMPOLINE_DEPTH, "a chain nested deeper than the trampoline allows");
    for (unsigned i = 0; i < chain.length; i++) {
        FZ_CHECK(petal_atomic_load(&records[i]->runs) == 1, "a chain link had not run when its head's resolve returned");
        FZ_CHECK(petal_word_is_resolved(petal_cell_load(petal_future_cell(links[i]))), "a chain link was still delivering after its head's resolve returned");
        free(links[i]);
        records[i]->chain = NULL;
        records[i]->target->future = NULL;
    }
}

static void fz_private_finish(fz_thread *me, unsigned how);

/* A private future with subscribers, posted to a mailbox for any thread to resolve; the owner
   finishes it with FZ_OP_PRIVATE_FINISH (or at the end of its stream). */
static void fz_op_private_new(fz_thread *me, unsigned a, unsigned b, unsigned c) {
    if (me->private_future != NULL) fz_private_finish(me, b);
    if (me->deferred_count == FZ_DEFERRED_FREES) return; /* without PETAL_FUZZ_FREE_AFTER_RESOLVED */
    petal_future *future = malloc(sizeof *future);
    FZ_CHECK(future != NULL, "out of memory");
    petal_future_init(future);
    fz_target *target = fz_target_new(me, future);
    if (target == NULL) {
        free(future);
        return;
    }
    unsigned subscribers = 1 + b % FZ_PRIVATE_SUBSCRIBERS;
    for (unsigned i = 0; i < subscribers; i++) {
        /* Actions on shared targets only: nobody but the owner and its resolver may touch the
           private future. */
        fz_subscribe(me, target, (b >> 3) + i, fz_action_decode(c + i, c >> 2, 1));
    }
    me->private_future = future;
    me->private_target = target;
    me->private_mailbox = a % FZ_MAILBOXES;
    me->private_posted = petal_atomic_cas_full(&me->state->mailboxes[me->private_mailbox], 0, (petal_word)target);
}

/* Takes a mailbox's future and resolves it; never touches it again. */
static void fz_op_mailbox_take(fz_thread *me, unsigned a, unsigned b, unsigned c) {
    volatile petal_word *mailbox = &me->state->mailboxes[a % FZ_MAILBOXES];
    petal_word seen = petal_atomic_load(mailbox);
    while (seen != 0) {
        /* FULL: the owner's subscriptions (and its target) happen before our resolve. */
        petal_word previous = petal_atomic_fetch_cas_full(mailbox, seen, 0);
        if (previous == seen) break;
        seen = previous;
    }
    if (seen == 0) return;
    /* how 0-3: never the invalid status, the owner relies on a resolve. */
    fz_future_resolve(me, (fz_target *)seen, b % 4, c);
}

/* Finishes the private future: resolves it itself if it can take it back from the mailbox,
   otherwise sees it resolved by the thread that took it (polling the status, waiting with short
   deadlines, or waiting without one), then frees or re-initialises it at once. */
static void fz_private_finish(fz_thread *me, unsigned how) {
    petal_future *future = me->private_future;
    fz_target *target = me->private_target;
    if (future == NULL) return;
    int ours = !me->private_posted ||
               petal_atomic_cas_full(&me->state->mailboxes[me->private_mailbox], (petal_word)target, 0);
    if (ours) {
        FZ_CHECK(fz_future_resolve(me, target, 3, 0) == PETAL_OK, "a future nobody else could resolve was resolved");
    } else {
        int status;
        switch (how % 3) {
        case 0:
            while ((status = petal_future_status(future)) == PETAL_STATUS_PENDING) sched_yield();
            break;
        case 1:
            do {
                struct timespec deadline;
                fz_deadline_in(&deadline, FZ_WAIT_MICROSECONDS);
                status = petal_future_wait(future, &deadline);
            } while (status == PETAL_ERR_TIMEDOUT);
            break;
        default:
            status = petal_future_wait(future, NULL);
            break;
        }
        FZ_CHECK(status >= PETAL_STATUS_FULFILLED && status <= PETAL_STATUS_CANCELLED, "waiting for a private future failed");
        uintptr_t payload = (uintptr_t)petal_future_payload(future);
        FZ_CHECK(payload != 0 && (payload & 3) == (uintptr_t)status, "a private future's status and payload disagree");
        fz_observe(me, target, payload);
    }
    me->private_future = NULL;
    me->private_target = NULL;
#if PETAL_FUZZ_FREE_AFTER_RESOLVED
    if ((how / 3) % 2) {
        /* Re-initialised and used again: a resolver still delivering would now corrupt it. */
        petal_future_init(future);
        FZ_CHECK(petal_future_status(future) == PETAL_STATUS_PENDING, "a re-initialised future was not pending");
        FZ_CHECK(petal_future_fulfil(future, (void *)(uintptr_t)0x4) == PETAL_OK, "a re-initialised future could not be resolved");
        FZ_CHECK(petal_future_status(future) == PETAL_STATUS_FULFILLED, "a re-initialised future lost its resolution");
    }
    free(future);
#else
    me->deferred_frees[me->deferred_count++] = future;
#endif
}

static void fz_op_cell_commit(fz_thread *me, fz_target *target, fz_held *held);

static void fz_op_cell_reserve(fz_thread *me, fz_target *target, fz_held *held, fz_action action) {
    if (held->record != NULL) fz_op_cell_commit(me, target, held);
    fz_record *record = fz_record_new(me, target, action);
    if (record == NULL) return;
    fz_cell *cell = target->cell;
    petal_reservation reservation;
    switch (petal_cell_reserve(&cell->cell, &reservation)) {
    case PETAL_ALREADY_RESOLVED:
        fz_learn(me, target, 1);
        fz_run(record);
        return;
    case PETAL_RESERVED_INLINE:
        FZ_CHECK(petal_atomic_fetch_add(&cell->inline_reserved, 1) == 0, "the inline slot was reserved twice");
        cell->inline_entry = record;
        held->reserved = PETAL_RESERVED_INLINE;
        break;
    case PETAL_RESERVED_SLOT:
        *fz_entry(reservation.block, reservation.index) = record;
        held->reserved = PETAL_RESERVED_SLOT;
        held->block = reservation.block;
        held->index = reservation.index;
        break;
    default: /* PETAL_NEEDS_BLOCK: nothing to hold; subscribe the whole way */
        fz_cell_subscribe(cell, record, 0);
        return;
    }
    held->record = record;
}

/* Commits a held reservation; if the deliverer passed it, takes the record back and subscribes
   it again (as a new subscription: it runs after everything this thread subscribed since). */
static void fz_op_cell_commit(fz_thread *me, fz_target *target, fz_held *held) {
    fz_record *record = held->record;
    if (record == NULL) return;
    fz_cell *cell = target->cell;
    held->record = NULL;
    if (held->reserved == PETAL_RESERVED_INLINE) {
        if (petal_slot_commit(&cell->cell.slot_flag)) return;
        petal_atomic_fetch_add(&cell->inline_refused, 1);
    } else {
        if (petal_slot_commit(petal_block_flag(held->block, held->index))) return;
        petal_atomic_fetch_add(&cell->refused, 1);
        if (petal_block_leave(held->block)) fz_cell_block_free(cell, held->block);
    }
    record->sequence = target->next_sequence[me->identity]++;
    fz_cell_subscribe(cell, record, 0);
}

static void fz_cell_flush(fz_thread *me, unsigned index) {
    fz_target *target = fz_cell_target(me->state, index);
    fz_held *held = &me->held[index];
    fz_op_cell_commit(me, target, held);
    if (held->claimed) fz_cell_publish(me, target, held, 0);
    while (held->delivering && fz_cell_deliver_batch(target->cell, held)) {
    }
}

static void fz_execute(fz_thread *me, const unsigned char *op) {
    fz_state *state = me->state;
    unsigned a = op[1], b = op[2], c = op[3];
    switch ((op[0] & 63) % FZ_OP_COUNT) {
    case FZ_OP_SUBSCRIBE:
    case FZ_OP_SUBSCRIBE_NODE:
        fz_subscribe(me, fz_future_target(state, a), (op[0] & 63) % FZ_OP_COUNT == FZ_OP_SUBSCRIBE_NODE,
                     fz_action_decode(b, c, 1));
        break;
    case FZ_OP_RESOLVE: fz_future_resolve(me, fz_future_target(state, a), b, c); break;
    case FZ_OP_STATUS: fz_future_status(me, fz_future_target(state, a)); break;
    case FZ_OP_WAIT: fz_future_wait(me, fz_future_target(state, a), b, c); break;
    case FZ_OP_CHAIN: fz_op_chain(me, a, b, c); break;
    case FZ_OP_PRIVATE_NEW: fz_op_private_new(me, a, b, c); break;
    case FZ_OP_MAILBOX_TAKE: fz_op_mailbox_take(me, a, b, c); break;
    case FZ_OP_PRIVATE_FINISH: fz_private_finish(me, b); break;
    case FZ_OP_CELL_SUBSCRIBE:
        fz_subscribe(me, fz_cell_target(state, a), b % 3, fz_action_decode(c, b / 3, 1));
        break;
    case FZ_OP_CELL_RESERVE:
        fz_op_cell_reserve(me, fz_cell_target(state, a), &me->held[a % FZ_CELLS], fz_action_decode(c, b, 1));
        break;
    case FZ_OP_CELL_COMMIT: fz_op_cell_commit(me, fz_cell_target(state, a), &me->held[a % FZ_CELLS]); break;
    case FZ_OP_CELL_CLAIM: {
        fz_held *held = &me->held[a % FZ_CELLS];
        if (!held->claimed) fz_cell_claim(me, fz_cell_target(state, a), held, b);
        break;
    }
    case FZ_OP_CELL_PUBLISH: {
        fz_held *held = &me->held[a % FZ_CELLS];
        if (held->claimed) fz_cell_publish(me, fz_cell_target(state, a), held, b % 2);
        break;
    }
    case FZ_OP_CELL_DELIVER: {
        fz_held *held = &me->held[a % FZ_CELLS];
        if (held->delivering) fz_cell_deliver_batch(fz_cell_target(state, a)->cell, held);
        break;
    }
    case FZ_OP_CELL_STATUS: fz_cell_status(me, fz_cell_target(state, a)); break;
    case FZ_OP_TRAMPOLINE: fz_op_trampoline(a, b); break;
    default:
        if (a % 4 == 0) {
            sched_yield();
        } else {
            /* A few hundred cycles, to shift this thread against the others. */
            for (volatile unsigned spin = 0; spin < a * 4u; spin++) {
            }
        }
        break;
    }
    FZ_CHECK(petal_trampoline_depth() == 0, "the trampoline was not idle between operations");
}

static void fz_work(fz_thread *me) {
    fz_self = me;
    for (unsigned i = 0; i < me->op_count; i++) fz_execute(me, me->ops[i]);
    /* Leave nothing half done: another thread may be spinning on the private future. */
    fz_private_finish(me, 0);
    for (unsigned index = 0; index < FZ_CELLS; index++) fz_cell_flush(me, index);
}

/* The workers persist across iterations (creating threads under ASan costs more than a whole
   iteration) and meet the main thread on two barriers: the active ones leave the first at once
   and run concurrently; the second is the join. */
static pthread_barrier_t fz_start, fz_done;
static fz_state *fz_current; /* written before fz_start, read after it: the barrier orders it */

static void *fz_worker(void *argument) {
    unsigned index = (unsigned)(uintptr_t)argument;
    for (;;) {
        pthread_barrier_wait(&fz_start);
        fz_state *state = fz_current;
        if (index < state->threads) fz_work(&state->thread[index]);
        pthread_barrier_wait(&fz_done);
    }
    return NULL;
}

static void fz_start_workers(void) {
    FZ_CHECK(pthread_barrier_init(&fz_start, NULL, FZ_THREADS_MAX + 1) == 0, "pthread_barrier_init");
    FZ_CHECK(pthread_barrier_init(&fz_done, NULL, FZ_THREADS_MAX + 1) == 0, "pthread_barrier_init");
    for (unsigned t = 0; t < FZ_THREADS_MAX; t++) {
        pthread_t thread;
        FZ_CHECK(pthread_create(&thread, NULL, fz_worker, (void *)(uintptr_t)t) == 0, "pthread_create");
        pthread_detach(thread);
    }
}

/* ------------------------------------------------------------------------------------------- */
/* One iteration.                                                                               */
/* ------------------------------------------------------------------------------------------- */

static fz_state *fz_setup(const uint8_t *data, size_t size) {
    fz_state *state = calloc(1, sizeof *state);
    FZ_CHECK(state != NULL, "out of memory");
    unsigned config = size > 0 ? data[0] : 0;
    state->threads = 2 + (config & 3) % 3;
    for (unsigned i = 0; i < FZ_FUTURES; i++) {
        petal_future_init(&state->futures[i]);
        state->shared[i] = (fz_target){.shared = (int)i, .future = &state->futures[i]};
    }
    for (unsigned i = 0; i < FZ_CELLS; i++) {
        fz_cell *cell = &state->cells[i];
        fz_target *target = &state->shared[FZ_FUTURES + i];
        *target = (fz_target){.is_cell = 1, .shared = FZ_FUTURES + (int)i, .cell = cell};
        petal_cell_init(&cell->cell);
        if (i == 1 && (config >> 2) & 1) {
            /* Created resolved: the initialisation is the one winner. */
            unsigned kind = (config >> 3) & PETAL_KIND_MAX;
            petal_cell_init_resolved(&cell->cell, kind);
            cell->outcome = fz_outcome(state, kind);
            target->wins = 1;
            target->winner = cell->outcome;
        }
    }
    for (unsigned t = 0; t < FZ_IDENTITIES; t++) {
        fz_thread *thread = &state->thread[t];
        thread->state = state;
        thread->identity = t;
        if (t >= state->threads && t != FZ_THREADS_MAX) continue; /* idle this iteration */
        thread->records = aligned_alloc(_Alignof(fz_record), FZ_RECORDS * sizeof(fz_record));
        thread->targets = malloc(FZ_TARGETS * sizeof(fz_target));
        FZ_CHECK(thread->records != NULL && thread->targets != NULL, "out of memory");
    }
    unsigned total = 0;
    for (size_t at = 1; at + FZ_INSTRUCTION <= size && total < FZ_OPS_TOTAL; at += FZ_INSTRUCTION) {
        fz_thread *thread = &state->thread[(data[at] >> 6) % state->threads];
        if (thread->op_count == FZ_OPS_PER_THREAD) continue;
        thread->ops[thread->op_count++] = &data[at];
        total++;
    }
    return state;
}

/* Resolves whatever is still pending from the main thread, which runs every callback left:
   late subscriptions made by those callbacks find their targets resolved, or resolved later
   in this same pass. */
static void fz_finalise(fz_state *state) {
    fz_thread *me = &state->thread[FZ_THREADS_MAX];
    fz_self = me;
    for (unsigned i = 0; i < FZ_FUTURES; i++) {
        fz_target *target = &state->shared[i];
        petal_word wins = petal_atomic_load(&target->wins);
        int rc = fz_future_resolve(me, target, 3, 0);
        FZ_CHECK((rc == PETAL_OK) == (wins == 0), "a pending future could not be resolved after the join, or a resolved one could");
    }
    for (unsigned i = 0; i < FZ_CELLS; i++) fz_cell_resolve(me, &state->shared[FZ_FUTURES + i], 2);
    FZ_CHECK(petal_trampoline_depth() == 0, "the trampoline was not idle after the final resolves");
}

static int fz_record_order(const void *left, const void *right) {
    const fz_record *x = *(fz_record *const *)left, *y = *(fz_record *const *)right;
    if (x->target != y->target) return (uintptr_t)x->target < (uintptr_t)y->target ? -1 : 1;
    return x->sequence < y->sequence ? -1 : x->sequence > y->sequence;
}

static void fz_verify(fz_state *state) {
    for (unsigned i = 0; i < FZ_SHARED; i++) {
        fz_target *target = &state->shared[i];
        FZ_CHECK(petal_atomic_load(&target->wins) == 1, "a shared future or cell was not resolved exactly once");
        petal_word word = target->is_cell ? petal_cell_load(&target->cell->cell) : petal_cell_load(petal_future_cell(target->future));
        FZ_CHECK(word == PETAL_PHASE_RESOLVED, "a word was not RESOLVED with an empty list after everything ran");
        if (!target->is_cell) {
            FZ_CHECK((uintptr_t)petal_future_payload(target->future) == target->winner, "the final payload is not the winner's");
            FZ_CHECK((uintptr_t)petal_future_status(target->future) == (target->winner & 3), "the final status is not the winner's");
        } else {
            fz_cell *cell = target->cell;
            FZ_CHECK(cell->outcome == target->winner, "a cell's outcome is not its winner's");
            FZ_CHECK(petal_atomic_load(&cell->blocks_allocated) == petal_atomic_load(&cell->blocks_freed), "a cell's blocks were not all freed exactly once");
            FZ_CHECK(petal_atomic_load(&cell->skipped) == petal_atomic_load(&cell->refused), "skipped block slots and refused commits differ");
            FZ_CHECK(petal_atomic_load(&cell->inline_refused) <= petal_atomic_load(&cell->inline_skipped), "an inline commit was refused that the deliverer never skipped");
            FZ_CHECK(petal_atomic_load(&cell->inline_skipped) <= 1, "the inline slot was skipped twice");
        }
    }
    static fz_record *sorted[FZ_RECORDS];
    for (unsigned t = 0; t < FZ_IDENTITIES; t++) {
        fz_thread *thread = &state->thread[t];
        for (unsigned i = 0; i < thread->target_count; i++) {
            FZ_CHECK(petal_atomic_load(&thread->targets[i].wins) == 1, "a private future was not resolved exactly once");
        }
        for (unsigned i = 0; i < thread->observation_count; i++) {
            fz_observation *seen = &thread->observations[i];
            FZ_CHECK(seen->outcome == seen->target->winner, "a status, payload or kind observed was not the winner's");
        }
        for (unsigned i = 0; i < thread->record_count; i++) {
            fz_record *record = &thread->records[i];
            FZ_CHECK(petal_atomic_load(&record->runs) == (petal_word)record->registered, "a callback did not run exactly once");
            FZ_CHECK(!record->registered || record->seen == 0 || record->seen == record->target->winner, "a callback saw another outcome than the winner's");
            sorted[i] = record;
        }
        /* Per target, this thread's subscriptions ran in the order it made them. */
        qsort(sorted, thread->record_count, sizeof sorted[0], fz_record_order);
        for (unsigned i = 1; i < thread->record_count; i++) {
            const fz_record *before = sorted[i - 1], *after = sorted[i];
            if (before->target != after->target || !before->registered || !after->registered) continue;
            FZ_CHECK(before->ticket < after->ticket, "callbacks of one thread ran out of subscription order");
        }
    }
}

static void fz_teardown(fz_state *state) {
    for (unsigned t = 0; t < FZ_IDENTITIES; t++) {
        fz_thread *thread = &state->thread[t];
        for (unsigned i = 0; i < thread->deferred_count; i++) free(thread->deferred_frees[i]);
        free(thread->records);
        free(thread->targets);
    }
    free(state);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fz_start_workers);
    fz_state *state = fz_setup(data, size);
    fz_current = state;
    pthread_barrier_wait(&fz_start);
    pthread_barrier_wait(&fz_done);
    fz_current = NULL;
    for (unsigned t = 0; t < state->threads; t++) {
        FZ_CHECK(state->thread[t].private_future == NULL, "a worker left its private future unfinished");
    }
    for (unsigned m = 0; m < FZ_MAILBOXES; m++) FZ_CHECK(petal_atomic_load(&state->mailboxes[m]) == 0, "a mailbox still held a future");
    fz_finalise(state);
    fz_verify(state);
    fz_teardown(state);
    return 0;
}
