/*
 * The C convenience future: resolution, callback order (inline slot, shared waiter blocks,
 * caller-owned waiters, late and re-entrant subscriptions), blocking waits, allocations per
 * subscriber, and concurrent subscribers and resolvers.
 * Run it under valgrind as well: caller-owned waiters must never be freed, and waits (which
 * sleep in a parking table, not in the future) must leave nothing behind.
 */
#define _GNU_SOURCE
#include "petal_test.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------------------------------- */
/* Counting the future's allocations. Where glibc's allocator is the one in use (no sanitizer   */
/* replaces it), malloc and free are replaced by forwarders to glibc's own that count the calls */
/* a thread makes while its `counting` is on, so "one block per seven subscribers" and "every   */
/* block freed" are numbers to check. Under sanitizers, or valgrind (which redirects these      */
/* very functions), nothing is counted and the checks that need counts are skipped; the leak    */
/* checkers cover the frees there.                                                              */
/* ------------------------------------------------------------------------------------------- */

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#  define PETAL_TEST_SANITIZED 1
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#    define PETAL_TEST_SANITIZED 1
#  endif
#endif

#if defined(__GLIBC__) && !defined(PETAL_TEST_SANITIZED)
#  define PETAL_TEST_COUNTS_ALLOCATIONS 1
#else
#  define PETAL_TEST_COUNTS_ALLOCATIONS 0
#endif

static _Thread_local int counting;
static volatile petal_word counted_mallocs;
static volatile petal_word counted_frees;

#if PETAL_TEST_COUNTS_ALLOCATIONS
/* glibc's allocator under its exported internal names: the replacement stays the same heap. */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *memory, size_t size);
extern void __libc_free(void *memory);

void *malloc(size_t size) {
    void *memory = __libc_malloc(size);
    if (counting && memory != NULL) petal_atomic_fetch_add(&counted_mallocs, 1);
    return memory;
}

void *calloc(size_t count, size_t size) {
    return __libc_calloc(count, size);
}

void *realloc(void *memory, size_t size) {
    return __libc_realloc(memory, size);
}

void free(void *memory) {
    if (counting && memory != NULL) petal_atomic_fetch_add(&counted_frees, 1);
    __libc_free(memory);
}
#endif

typedef struct allocations {
    petal_word mallocs;
    petal_word frees;
} allocations;

static allocations allocations_now(void) {
    return (allocations){petal_atomic_load_full(&counted_mallocs), petal_atomic_load_full(&counted_frees)};
}

/* Whether this run counts: one allocation, made through a volatile pointer so that the compiler
   cannot elide it, must be seen. */
static int allocations_counted(void) {
    static int known, counted;
    if (known) return counted;
    void *(*volatile allocate)(size_t) = malloc;
    void (*volatile release)(void *) = free;
    petal_word before = petal_atomic_load_full(&counted_mallocs);
    counting = 1;
    release(allocate(1));
    counting = 0;
    counted = petal_atomic_load_full(&counted_mallocs) - before == 1;
    known = 1;
    return counted;
}

/* Checks the mallocs and frees counted since `before` (where allocations are counted). A macro,
   so a failure names the test's line. */
#define CHECK_ALLOCATIONS_SINCE(before, expected_mallocs, expected_frees)                    \
    do {                                                                                     \
        if (allocations_counted()) {                                                         \
            allocations now_ = allocations_now();                                            \
            CHECK(now_.mallocs - (before).mallocs == (petal_word)(expected_mallocs));              \
            CHECK(now_.frees - (before).frees == (petal_word)(expected_frees));                    \
        }                                                                                    \
    } while (0)

/* ------------------------------------------------------------------------------------------- */
/* A log of callback runs, checked against the expected order.                                 */
/* ------------------------------------------------------------------------------------------- */

enum { LOG_CAPACITY = 64 };

typedef struct call_log {
    int ids[LOG_CAPACITY];
    int count;
} call_log;

typedef struct probe {
    call_log *log;
    int id;
    petal_status expected_status; /* what the callback must see when it runs */
    void *expected_payload;
} probe;

static void log_append(call_log *log, int id) {
    if (log->count < LOG_CAPACITY) log->ids[log->count] = id;
    log->count++;
}

static void check_log(const call_log *log, const int *expected, int count) {
    CHECK(log->count == count);
    for (int i = 0; i < count && i < log->count; i++) CHECK(log->ids[i] == expected[i]);
}

static void record_call(petal_future *future, void *context) {
    probe *p = context;
    /* A callback runs with the outcome already published. */
    CHECK(petal_future_status(future) == p->expected_status);
    CHECK(petal_future_payload(future) == p->expected_payload);
    log_append(p->log, p->id);
}

static void probes_init(probe *probes, int count, call_log *log, petal_status status, void *payload) {
    for (int i = 0; i < count; i++) {
        probes[i].log = log;
        probes[i].id = i;
        probes[i].expected_status = status;
        probes[i].expected_payload = payload;
    }
}

static struct timespec seconds_from_now(long seconds) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    now.tv_sec += seconds;
    return now;
}

/* ------------------------------------------------------------------------------------------- */

static void test_resolve_once(void) {
    petal_future future;
    petal_future_init(&future);
    int first = 1, second = 2;
    CHECK(petal_future_status(&future) == PETAL_STATUS_PENDING);
    CHECK(petal_future_payload(&future) == NULL);
    CHECK(petal_future_fulfil(&future, &first) == PETAL_OK);
    CHECK(petal_future_fulfil(&future, &second) == PETAL_ERR_RESOLVED);
    CHECK(petal_future_reject(&future, &second) == PETAL_ERR_RESOLVED);
    CHECK(petal_future_cancel(&future, NULL) == PETAL_ERR_RESOLVED);
    CHECK(petal_future_status(&future) == PETAL_STATUS_FULFILLED);
    CHECK(petal_future_payload(&future) == &first);
}

static void test_invalid_status_is_refused(void) {
    petal_future future;
    petal_future_init(&future);
    int value = 1;
    CHECK(petal_future_resolve(&future, PETAL_STATUS_PENDING, &value) == PETAL_ERR_INVALID);
    CHECK(petal_future_resolve(&future, (petal_status)3, &value) == PETAL_ERR_INVALID);
    /* Refused resolutions claim nothing: a valid one still wins. */
    CHECK(petal_future_status(&future) == PETAL_STATUS_PENDING);
    CHECK(petal_future_reject(&future, &value) == PETAL_OK);
    CHECK(petal_future_status(&future) == PETAL_STATUS_REJECTED);
}

static void test_each_outcome(void) {
    const petal_status statuses[] = {PETAL_STATUS_FULFILLED, PETAL_STATUS_REJECTED,
                                     PETAL_STATUS_CANCELLED};
    int payloads[3];
    for (int i = 0; i < 3; i++) {
        petal_future future;
        petal_future_init(&future);
        call_log log = {0};
        probe early;
        probes_init(&early, 1, &log, statuses[i], &payloads[i]);
        CHECK(petal_future_subscribe(&future, record_call, &early) == PETAL_OK);
        int result = -100;
        switch (statuses[i]) {
        case PETAL_STATUS_FULFILLED: result = petal_future_fulfil(&future, &payloads[i]); break;
        case PETAL_STATUS_REJECTED: result = petal_future_reject(&future, &payloads[i]); break;
        case PETAL_STATUS_CANCELLED: result = petal_future_cancel(&future, &payloads[i]); break;
        default: break;
        }
        CHECK(result == PETAL_OK);
        CHECK(petal_future_status(&future) == statuses[i]);
        CHECK(petal_future_payload(&future) == &payloads[i]);
        CHECK(petal_future_wait(&future, NULL) == (int)statuses[i]);
        CHECK(log.count == 1);
    }
    /* A rejection may carry no error object. */
    petal_future future;
    petal_future_init(&future);
    CHECK(petal_future_reject(&future, NULL) == PETAL_OK);
    CHECK(petal_future_status(&future) == PETAL_STATUS_REJECTED);
    CHECK(petal_future_payload(&future) == NULL);
}

static void test_callbacks_in_subscription_order(void) {
    petal_future future;
    petal_future_init(&future);
    int value = 7;
    call_log log = {0};
    enum { COUNT = 6 };
    probe probes[COUNT];
    probes_init(probes, COUNT, &log, PETAL_STATUS_FULFILLED, &value);

    CHECK(petal_future_subscribe(&future, record_call, &probes[0]) == PETAL_OK);
    /* The first subscriber takes the inline slot: COUNT 1, nothing linked, committed. */
    petal_word word = petal_cell_load(petal_future_cell(&future));
    CHECK(word == PETAL_COUNT_ONE);
    CHECK(petal_future_cell(&future)->slot_flag == PETAL_SLOT_READY);
    CHECK(petal_future_state_of(&future)->inline_slot.callback == record_call);
    CHECK(petal_future_state_of(&future)->inline_slot.context == &probes[0]);

    CHECK(petal_future_subscribe(&future, record_call, &probes[1]) == PETAL_OK);
    /* The second allocates a block of seven and takes its first slot. */
    word = petal_cell_load(petal_future_cell(&future));
    petal_block *block = petal_word_list(word);
    CHECK(petal_word_count(word) == 1);
    CHECK(block != NULL && block->next == NULL && block->capacity == PETAL_BLOCK_SLOTS);
    CHECK(petal_future_state_of(&future)->inline_slot.context == &probes[0]);
    for (int i = 2; i < COUNT; i++) {
        CHECK(petal_future_subscribe(&future, record_call, &probes[i]) == PETAL_OK);
    }
    /* The others share that block: no new one, COUNT counting them. */
    word = petal_cell_load(petal_future_cell(&future));
    CHECK(petal_word_list(word) == block);
    CHECK(petal_word_count(word) == COUNT - 1);
    CHECK(log.count == 0); /* nothing runs before the resolution */

    CHECK(petal_future_fulfil(&future, &value) == PETAL_OK);
    const int expected[COUNT] = {0, 1, 2, 3, 4, 5};
    check_log(&log, expected, COUNT);
    CHECK(petal_word_is_resolved(petal_cell_load(petal_future_cell(&future))));
}

static void test_subscribe_after_resolve_runs_at_once(void) {
    petal_future future;
    petal_future_init(&future);
    int error = 3;
    call_log log = {0};
    probe probes[3];
    probes_init(probes, 3, &log, PETAL_STATUS_REJECTED, &error);
    CHECK(petal_future_reject(&future, &error) == PETAL_OK);
    for (int i = 0; i < 3; i++) {
        CHECK(petal_future_subscribe(&future, record_call, &probes[i]) == PETAL_OK);
        CHECK(log.count == i + 1); /* ran before subscribe returned */
    }
    const int expected[] = {0, 1, 2};
    check_log(&log, expected, 3);
}

static void test_subscribe_node_with_caller_memory(void) {
    petal_future future;
    petal_future_init(&future);
    int value = 11;
    call_log log = {0};
    probe probes[5];
    probes_init(probes, 5, &log, PETAL_STATUS_FULFILLED, &value);
    /* Garbage: a waiter's contents need no initialisation. */
    petal_waiter waiters[3];
    memset(waiters, 0xA5, sizeof waiters);
    /* The core's view of each (petal.h declares a waiter as bytes). */
    petal_waiter_state *nodes[3];
    for (int i = 0; i < 3; i++) nodes[i] = petal_waiter_state_of(&waiters[i]);
    CHECK(((uintptr_t)&nodes[1]->block & PETAL_TAG_MASK) == 0);

    CHECK(petal_future_subscribe(&future, record_call, &probes[0]) == PETAL_OK);  /* slot */
    petal_future_subscribe_node(&future, &waiters[0], record_call, &probes[1]);  /* caller's */
    CHECK(petal_future_subscribe(&future, record_call, &probes[2]) == PETAL_OK);  /* allocated */
    petal_future_subscribe_node(&future, &waiters[1], record_call, &probes[3]);
    petal_word word = petal_cell_load(petal_future_cell(&future));
    CHECK(petal_word_list(word) == &nodes[1]->block);
    CHECK(petal_word_count(word) == PETAL_BLOCK_FULL); /* a waiter takes no reservations */
    CHECK(nodes[1]->block.next != NULL && nodes[1]->block.next->next == &nodes[0]->block);
    /* Each push recorded the slots reserved below it: the inline slot's 1 under the first
       waiter, 1 of the allocated block's 7 under the second (which the deliverer settles). */
    CHECK(nodes[0]->block.below == 1);
    CHECK(nodes[1]->block.below == 1);

    CHECK(petal_future_fulfil(&future, &value) == PETAL_OK);
    const int expected[] = {0, 1, 2, 3, 4};
    check_log(&log, expected, 4);

    /* After the resolution a caller-owned waiter runs at once, like any subscription. */
    petal_future_subscribe_node(&future, &waiters[2], record_call, &probes[4]);
    check_log(&log, expected, 5);
    /* Still ours: the future left the memory alone (valgrind reports an invalid free if not). */
    const petal_callback_slot *first = (const petal_callback_slot *)petal_block_slot(&nodes[0]->block, 0);
    CHECK(first->callback == record_call && first->context == &probes[1]);
    CHECK(nodes[0]->block.memory == NULL && nodes[1]->block.memory == NULL);
}

/* A callback that subscribes its `next` probe to the same future from inside the delivery. */
typedef struct chained_probe {
    probe base;
    struct chained_probe *next;
    int use_node; /* subscribe the next one with caller memory instead of allocating */
    petal_waiter waiter;
} chained_probe;

static void subscribe_next(petal_future *future, void *context);

static void subscribe_chained(petal_future *future, chained_probe *p) {
    if (p->use_node) {
        memset(&p->waiter, 0, sizeof p->waiter);
        petal_future_subscribe_node(future, &p->waiter, subscribe_next, p);
    } else {
        CHECK(petal_future_subscribe(future, subscribe_next, p) == PETAL_OK);
    }
}

static void subscribe_next(petal_future *future, void *context) {
    chained_probe *p = context;
    record_call(future, &p->base);
    if (p->next != NULL) subscribe_chained(future, p->next);
}

static void test_subscribe_from_inside_a_callback(void) {
    petal_future future;
    petal_future_init(&future);
    int value = 5;
    call_log log = {0};
    /* 0 and 1 are queued before the resolution; 0 subscribes 10, which subscribes 11 (caller
       memory), which subscribes 12. Each must run after everything already queued. */
    chained_probe probes[5];
    memset(probes, 0, sizeof probes);
    const int ids[5] = {0, 1, 10, 11, 12};
    for (int i = 0; i < 5; i++) {
        probes_init(&probes[i].base, 1, &log, PETAL_STATUS_FULFILLED, &value);
        probes[i].base.id = ids[i];
    }
    probes[0].next = &probes[2];
    probes[2].next = &probes[3];
    probes[3].next = &probes[4];
    probes[2].use_node = 0;
    probes[3].use_node = 1;
    probes[4].use_node = 0;
    subscribe_chained(&future, &probes[0]);
    subscribe_chained(&future, &probes[1]);

    CHECK(petal_future_fulfil(&future, &value) == PETAL_OK);
    const int expected[] = {0, 1, 10, 11, 12};
    check_log(&log, expected, 5);
    CHECK(petal_word_is_resolved(petal_cell_load(petal_future_cell(&future))));

    /* On a resolved future the same chain runs depth-first, inside the subscribe call. */
    call_log late_log = {0};
    for (int i = 0; i < 5; i++) probes[i].base.log = &late_log;
    subscribe_chained(&future, &probes[2]);
    const int late_expected[] = {10, 11, 12};
    check_log(&late_log, late_expected, 3);
}

typedef struct relay {
    petal_future *target;
    void *payload;
    int result;
    int target_calls_when_done; /* how many of the target's callbacks had run on return */
    call_log *target_log;
} relay;

static void resolve_other(petal_future *future, void *context) {
    (void)future;
    relay *r = context;
    r->result = petal_future_fulfil(r->target, r->payload);
    r->target_calls_when_done = r->target_log->count;
}

static void test_callback_resolves_another_future(void) {
    petal_future first, second;
    petal_future_init(&first);
    petal_future_init(&second);
    int value = 1, relayed = 2;
    call_log second_log = {0};
    probe second_probes[3];
    probes_init(second_probes, 3, &second_log, PETAL_STATUS_FULFILLED, &relayed);
    for (int i = 0; i < 3; i++) {
        CHECK(petal_future_subscribe(&second, record_call, &second_probes[i]) == PETAL_OK);
    }
    relay forward = {&second, &relayed, -100, -1, &second_log};
    relay again = {&second, &value, -100, -1, &second_log};
    CHECK(petal_future_subscribe(&first, resolve_other, &forward) == PETAL_OK);
    CHECK(petal_future_subscribe(&first, resolve_other, &again) == PETAL_OK);

    CHECK(petal_future_fulfil(&first, &value) == PETAL_OK);
    CHECK(forward.result == PETAL_OK);
    /* The inner resolution delivered its callbacks inline, before the callback returned. */
    CHECK(forward.target_calls_when_done == 3);
    CHECK(again.result == PETAL_ERR_RESOLVED);
    CHECK(petal_future_status(&second) == PETAL_STATUS_FULFILLED);
    CHECK(petal_future_payload(&second) == &relayed);
    const int expected[] = {0, 1, 2};
    check_log(&second_log, expected, 3);
}

/* ------------------------------------------------------------------------------------------- */
/* Blocking waits.                                                                              */
/* ------------------------------------------------------------------------------------------- */

typedef struct wake_job {
    petal_future *future;
    void *payload;
    int result;
} wake_job;

static void *fulfil_once_waited_on(void *raw) {
    wake_job *job = raw;
    /* The waiter marks the cell PARKED before it sleeps; resolving only once it has makes the
       test take the sleeping path every time instead of when the scheduler happens to. */
    while (!petal_word_has_parked(petal_cell_load(petal_future_cell(job->future)))) sched_yield();
    job->result = petal_future_fulfil(job->future, job->payload);
    return NULL;
}

static void test_wait_for_another_thread(void) {
    for (int i = 0; i < 50; i++) {
        petal_future future;
        petal_future_init(&future);
        int value = i;
        wake_job job = {&future, &value, -100};
        pthread_t thread;
        CHECK(pthread_create(&thread, NULL, fulfil_once_waited_on, &job) == 0);
        CHECK(petal_future_wait(&future, NULL) == PETAL_STATUS_FULFILLED);
        CHECK(petal_future_payload(&future) == &value);
        CHECK(pthread_join(thread, NULL) == 0);
        CHECK(job.result == PETAL_OK);
    }
}

static void test_wait_with_past_deadline(void) {
    petal_future future;
    petal_future_init(&future);
    struct timespec past = seconds_from_now(-1);
    struct timespec epoch = {0, 0};
    allocations before = allocations_now();
    counting = 1;
    CHECK(petal_future_wait(&future, &past) == PETAL_ERR_TIMEDOUT);
    CHECK(petal_future_wait(&future, &epoch) == PETAL_ERR_TIMEDOUT);
    counting = 0;
    CHECK(petal_future_status(&future) == PETAL_STATUS_PENDING);
    /* A wait that gives up leaves nothing: no allocation, nothing in the list, only the mark
       that someone may sleep (the resolver then broadcasts once, to nobody). */
    CHECK_ALLOCATIONS_SINCE(before, 0, 0);
    CHECK(petal_word_list(petal_cell_load(petal_future_cell(&future))) == NULL);
    CHECK(petal_word_has_parked(petal_cell_load(petal_future_cell(&future))));

    int value = 9;
    call_log log = {0};
    probe after;
    probes_init(&after, 1, &log, PETAL_STATUS_CANCELLED, &value);
    CHECK(petal_future_subscribe(&future, record_call, &after) == PETAL_OK);
    CHECK(petal_future_cancel(&future, &value) == PETAL_OK);
    CHECK(log.count == 1);
    CHECK(petal_word_is_resolved(petal_cell_load(petal_future_cell(&future))));

    /* Resolved: a deadline no longer matters. */
    CHECK(petal_future_wait(&future, &past) == PETAL_STATUS_CANCELLED);
    struct timespec later = seconds_from_now(60);
    CHECK(petal_future_wait(&future, &later) == PETAL_STATUS_CANCELLED);
}

/* ------------------------------------------------------------------------------------------- */
/* Concurrent subscribers racing one resolver.                                                  */
/* ------------------------------------------------------------------------------------------- */

enum { RACE_SUBSCRIBERS = 4, RACE_CALLBACKS = 64, RACE_THREADS = RACE_SUBSCRIBERS + 1 };

typedef struct race race;

typedef struct race_probe {
    race *race;
    unsigned thread;
    unsigned index;
} race_probe;

struct race {
    petal_future future;
    int value;
    volatile petal_word arrived;
    volatile petal_word calls;
    /* Written by whichever thread runs the callback; only the future orders those writes. */
    unsigned next_index[RACE_SUBSCRIBERS];
    race_probe probes[RACE_SUBSCRIBERS][RACE_CALLBACKS];
    petal_waiter waiters[RACE_SUBSCRIBERS][RACE_CALLBACKS];
    int resolve_result;
};

typedef struct race_arg {
    race *race;
    unsigned thread;
} race_arg;

static void race_start(race *r) {
    petal_atomic_fetch_add_full(&r->arrived, 1);
    while (petal_atomic_load_acquire(&r->arrived) < RACE_THREADS) sched_yield();
}

static void race_callback(petal_future *future, void *context) {
    race_probe *p = context;
    race *r = p->race;
    CHECK(petal_future_status(future) == PETAL_STATUS_FULFILLED);
    CHECK(petal_future_payload(future) == &r->value);
    /* Per-thread subscription order survives the race. */
    CHECK(p->index == r->next_index[p->thread]);
    r->next_index[p->thread] = p->index + 1;
    petal_atomic_fetch_add(&r->calls, 1);
}

static void *race_subscriber(void *raw) {
    race_arg *arg = raw;
    race *r = arg->race;
    race_start(r);
    for (unsigned i = 0; i < RACE_CALLBACKS; i++) {
        race_probe *p = &r->probes[arg->thread][i];
        /* Mix both flavours; the first call of some thread also competes for the slot. */
        if (i % 3 == 2) {
            petal_future_subscribe_node(&r->future, &r->waiters[arg->thread][i], race_callback, p);
        } else {
            CHECK(petal_future_subscribe(&r->future, race_callback, p) == PETAL_OK);
        }
    }
    return NULL;
}

static void *race_resolver(void *raw) {
    race_arg *arg = raw;
    race *r = arg->race;
    race_start(r);
    r->resolve_result = petal_future_fulfil(&r->future, &r->value);
    return NULL;
}

static void test_many_threads_subscribe_while_resolving(void) {
    unsigned rounds = petal_test_rounds(200);
    race *r = aligned_alloc(_Alignof(race), sizeof(race));
    CHECK(r != NULL);
    if (r == NULL) return;
    for (unsigned round = 0; round < rounds; round++) {
        memset(r, 0, sizeof *r);
        petal_future_init(&r->future);
        for (unsigned t = 0; t < RACE_SUBSCRIBERS; t++) {
            for (unsigned i = 0; i < RACE_CALLBACKS; i++) {
                r->probes[t][i] = (race_probe){r, t, i};
            }
        }
        pthread_t threads[RACE_THREADS];
        race_arg args[RACE_THREADS];
        for (unsigned t = 0; t < RACE_THREADS; t++) {
            args[t] = (race_arg){r, t};
            int created = pthread_create(&threads[t], NULL,
                                         t < RACE_SUBSCRIBERS ? race_subscriber : race_resolver, &args[t]);
            CHECK(created == 0);
            if (created != 0) abort(); /* the start barrier would wait for it forever */
        }
        for (unsigned t = 0; t < RACE_THREADS; t++) CHECK(pthread_join(threads[t], NULL) == 0);

        unsigned long before = petal_test_failure_count();
        CHECK(r->resolve_result == PETAL_OK);
        CHECK(petal_atomic_load(&r->calls) == RACE_SUBSCRIBERS * RACE_CALLBACKS);
        for (unsigned t = 0; t < RACE_SUBSCRIBERS; t++) CHECK(r->next_index[t] == RACE_CALLBACKS);
        CHECK(petal_word_is_resolved(petal_cell_load(petal_future_cell(&r->future))));
        if (petal_test_failure_count() != before) {
            fprintf(stderr, "round %u of %u was inconsistent\n", round, rounds);
            break;
        }
    }
    free(r);
}

static void count_callback(petal_future *future, void *context) {
    (void)future;
    *(int *)context += 1;
}

/* Regression: the future used to free a caller's waiter whose `owned` field held garbage. */
static void test_subscribe_node_never_frees_caller_memory(void) {
    petal_future future;
    petal_future_init(&future);
    petal_waiter waiter;
    memset(&waiter, 0xff, sizeof waiter);
    int ran = 0;
    petal_future_subscribe_node(&future, &waiter, count_callback, &ran);
    CHECK(petal_future_fulfil(&future, NULL) == PETAL_OK);
    CHECK(ran == 1);
    petal_waiter late;
    memset(&late, 0xff, sizeof late);
    petal_future_subscribe_node(&future, &late, count_callback, &ran);
    CHECK(ran == 2);
}

/* Regression: an invalid deadline used to spin forever instead of failing. */
static void test_wait_with_invalid_deadline(void) {
    petal_future future;
    petal_future_init(&future);
    struct timespec invalid = {.tv_sec = 0, .tv_nsec = 2000000000L};
    CHECK(petal_future_wait(&future, &invalid) == PETAL_ERR_INVALID);
    CHECK(petal_future_fulfil(&future, NULL) == PETAL_OK);
    CHECK(petal_future_wait(&future, &invalid) == PETAL_STATUS_FULFILLED);
}

/* Regression: callbacks used to recurse without the trampoline, overflowing the stack. */
#define PETAL_CHAIN_LENGTH 1000000
static petal_future *chain_futures;
static long chain_ran;

static void chain_step(petal_future *future, void *context) {
    (void)context;
    chain_ran += 1;
    long index = (long)(future - chain_futures);
    if (index + 1 < PETAL_CHAIN_LENGTH) petal_future_fulfil(&chain_futures[index + 1], NULL);
}

static void test_million_future_chain_is_stack_safe(void) {
    chain_futures = calloc(PETAL_CHAIN_LENGTH, sizeof *chain_futures);
    CHECK(chain_futures != NULL);
    if (chain_futures == NULL) return;
    chain_ran = 0;
    for (long i = 0; i < PETAL_CHAIN_LENGTH; i++) {
        petal_future_init(&chain_futures[i]);
        CHECK(petal_future_subscribe(&chain_futures[i], chain_step, NULL) == PETAL_OK);
    }
    CHECK(petal_future_fulfil(&chain_futures[0], NULL) == PETAL_OK);
    CHECK(chain_ran == PETAL_CHAIN_LENGTH);
    CHECK(petal_future_status(&chain_futures[PETAL_CHAIN_LENGTH - 1]) == PETAL_STATUS_FULFILLED);
    CHECK(petal_trampoline_depth() == 0);
    free(chain_futures);
}

/* Regression (found by the spin model): a caller-memory node subscribed first used to be
   overtaken by a later subscriber that took the still-free inline slot. */
static int order_log[4];
static int order_count;
static void log_first(petal_future *future, void *context) { (void)future; (void)context; order_log[order_count++] = 1; }
static void log_second(petal_future *future, void *context) { (void)future; (void)context; order_log[order_count++] = 2; }

static void test_node_subscriber_is_not_overtaken_by_the_slot(void) {
    petal_future future;
    petal_future_init(&future);
    petal_waiter waiter;
    order_count = 0;
    petal_future_subscribe_node(&future, &waiter, log_first, NULL);
    CHECK(petal_future_subscribe(&future, log_second, NULL) == PETAL_OK);
    CHECK(petal_future_fulfil(&future, NULL) == PETAL_OK);
    CHECK(order_count == 2);
    CHECK(order_log[0] == 1 && order_log[1] == 2);
}

/* ------------------------------------------------------------------------------------------- */
/* Waiter blocks: a hot future, and caller-owned waiters between blocks.                        */
/* ------------------------------------------------------------------------------------------- */

enum { HOT_SUBSCRIBERS = 1000 };
static int hot_ids[HOT_SUBSCRIBERS];
static int hot_next;

static void hot_callback(petal_future *future, void *context) {
    (void)future;
    int id = *(const int *)context;
    CHECK(id == hot_next); /* subscription order */
    hot_next = id + 1;
}

static void test_hot_future_shares_blocks(void) {
    /* The first subscriber takes the inline slot; the other 999 share blocks of seven. */
    enum { BLOCKS = (HOT_SUBSCRIBERS - 1 + PETAL_BLOCK_SLOTS - 1) / PETAL_BLOCK_SLOTS }; /* 143 */
    enum { IN_HEAD = HOT_SUBSCRIBERS - 1 - (BLOCKS - 1) * PETAL_BLOCK_SLOTS };              /* 5 */
    petal_future future;
    petal_future_init(&future);
    hot_next = 0;
    allocations before = allocations_now();
    counting = 1;
    for (int i = 0; i < HOT_SUBSCRIBERS; i++) {
        hot_ids[i] = i;
        CHECK(petal_future_subscribe(&future, hot_callback, &hot_ids[i]) == PETAL_OK);
    }
    counting = 0;
    CHECK_ALLOCATIONS_SINCE(before, BLOCKS, 0);

    /* The list, newest first: BLOCKS blocks, every older one full, the newest holding IN_HEAD,
       each slot committed with its subscriber's callback, in order. */
    petal_word word = petal_cell_load(petal_future_cell(&future));
    CHECK(petal_word_count(word) == IN_HEAD);
    CHECK(petal_future_cell(&future)->slot_flag == PETAL_SLOT_READY &&
          petal_future_state_of(&future)->inline_slot.context == &hot_ids[0]);
    int blocks = 0;
    int last_id = HOT_SUBSCRIBERS;
    for (petal_block *block = petal_word_list(word); block != NULL; block = block->next) {
        blocks++;
        CHECK(((uintptr_t)block & PETAL_TAG_MASK) == 0);
        CHECK(block->memory != NULL && block->capacity == PETAL_BLOCK_SLOTS && block->refs == 0);
        unsigned filled = block == petal_word_list(word) ? IN_HEAD : PETAL_BLOCK_SLOTS;
        for (unsigned slot = PETAL_BLOCK_SLOTS; slot-- > 0;) {
            if (slot >= filled) {
                CHECK(*petal_block_flag(block, slot) == PETAL_SLOT_EMPTY);
                continue;
            }
            CHECK(*petal_block_flag(block, slot) == PETAL_SLOT_READY);
            const petal_callback_slot *entry = (const petal_callback_slot *)petal_block_slot(block, slot);
            CHECK(entry->callback == hot_callback);
            CHECK(entry->context == &hot_ids[last_id - 1]);
            last_id--;
        }
    }
    CHECK(blocks == BLOCKS);
    CHECK(last_id == 1); /* every id from 1 to 999, none twice */

    before = allocations_now();
    counting = 1;
    CHECK(petal_future_fulfil(&future, NULL) == PETAL_OK);
    counting = 0;
    CHECK(hot_next == HOT_SUBSCRIBERS);
    CHECK_ALLOCATIONS_SINCE(before, 0, BLOCKS); /* each block freed once, nothing allocated */
}

static void test_waiter_after_a_partly_filled_block_leaks_nothing(void) {
    /* Two allocated subscribers leave the newest block with one of seven slots used; then a
       caller-owned waiter is pushed over it.
       Resolving must run all four and free that block. */
    petal_future future;
    petal_future_init(&future);
    int ran = 0;
    petal_waiter waiter;
    allocations before = allocations_now();
    counting = 1;
    CHECK(petal_future_subscribe(&future, count_callback, &ran) == PETAL_OK); /* inline */
    CHECK(petal_future_subscribe(&future, count_callback, &ran) == PETAL_OK); /* a block */
    petal_future_subscribe_node(&future, &waiter, count_callback, &ran);
    CHECK(petal_future_subscribe(&future, count_callback, &ran) == PETAL_OK); /* a block */
    CHECK(petal_future_fulfil(&future, NULL) == PETAL_OK);
    counting = 0;
    CHECK(ran == 4);
    CHECK_ALLOCATIONS_SINCE(before, 2, 2);
}

/* ------------------------------------------------------------------------------------------- */
/* Subscribers racing several resolvers.                                                        */
/* ------------------------------------------------------------------------------------------- */

enum {
    STORM_SUBSCRIBERS = 4,
    STORM_CALLBACKS = 250,
    STORM_RESOLVERS = 2, /* resolver 0 fulfils, resolver 1 rejects */
    STORM_THREADS = STORM_SUBSCRIBERS + STORM_RESOLVERS,
    STORM_TOTAL = STORM_SUBSCRIBERS * STORM_CALLBACKS
};

typedef struct storm storm;

typedef struct storm_probe {
    storm *storm;
    unsigned thread;
    unsigned index;
    volatile petal_word runs;
    petal_status seen_status; /* what the callback saw: written by whoever ran it */
    void *seen_payload;
} storm_probe;

struct storm {
    petal_future future;
    int values[STORM_RESOLVERS];
    volatile petal_word arrived;
    volatile petal_word subscribed;               /* subscriptions returned so far */
    petal_word resolve_after[STORM_RESOLVERS];    /* how many a resolver waits for */
    volatile petal_word calls;
    unsigned next_index[STORM_SUBSCRIBERS]; /* plain: only the future orders these writes */
    int results[STORM_RESOLVERS];
    storm_probe probes[STORM_SUBSCRIBERS][STORM_CALLBACKS];
};

typedef struct storm_arg {
    storm *storm;
    unsigned id;
} storm_arg;

static void storm_start(storm *s) {
    petal_atomic_fetch_add_full(&s->arrived, 1);
    while (petal_atomic_load_acquire(&s->arrived) < STORM_THREADS) sched_yield();
}

static void storm_callback(petal_future *future, void *context) {
    storm_probe *p = context;
    storm *s = p->storm;
    CHECK(petal_atomic_fetch_add(&p->runs, 1) == 0);
    p->seen_status = petal_future_status(future);
    p->seen_payload = petal_future_payload(future);
    CHECK(p->index == s->next_index[p->thread]); /* each thread's subscription order */
    s->next_index[p->thread] = p->index + 1;
    petal_atomic_fetch_add(&s->calls, 1);
}

static void *storm_subscriber(void *raw) {
    storm_arg *arg = raw;
    storm *s = arg->storm;
    storm_start(s);
    counting = 1;
    for (unsigned i = 0; i < STORM_CALLBACKS; i++) {
        CHECK(petal_future_subscribe(&s->future, storm_callback, &s->probes[arg->id][i]) == PETAL_OK);
        petal_atomic_fetch_add(&s->subscribed, 1);
        if ((i + arg->id) % 8 == 0) sched_yield(); /* let a resolver in mid-block */
    }
    counting = 0;
    return NULL;
}

static void *storm_resolver(void *raw) {
    storm_arg *arg = raw;
    storm *s = arg->storm;
    storm_start(s);
    /* A condition, not a time: resolve at once, or once this many subscriptions returned. */
    while (petal_atomic_load(&s->subscribed) < s->resolve_after[arg->id]) sched_yield();
    counting = 1;
    s->results[arg->id] = arg->id == 0 ? petal_future_fulfil(&s->future, &s->values[0])
                                       : petal_future_reject(&s->future, &s->values[1]);
    counting = 0;
    return NULL;
}

static void test_subscribers_race_resolvers(void) {
    unsigned rounds = petal_test_rounds(100);
    storm *s = malloc(sizeof *s);
    CHECK(s != NULL);
    if (s == NULL) return;
    for (unsigned round = 0; round < rounds; round++) {
        memset(s, 0, sizeof *s);
        petal_future_init(&s->future);
        for (unsigned r = 0; r < STORM_RESOLVERS; r++) {
            s->resolve_after[r] = (petal_word)((round + 2 * r) % 5) * STORM_TOTAL / 4; /* 0 .. all */
        }
        for (unsigned t = 0; t < STORM_SUBSCRIBERS; t++) {
            for (unsigned i = 0; i < STORM_CALLBACKS; i++) {
                s->probes[t][i] = (storm_probe){.storm = s, .thread = t, .index = i};
            }
        }
        allocations before = allocations_now();
        pthread_t threads[STORM_THREADS];
        storm_arg args[STORM_THREADS];
        for (unsigned t = 0; t < STORM_THREADS; t++) {
            int resolver = t >= STORM_SUBSCRIBERS;
            args[t] = (storm_arg){s, resolver ? t - STORM_SUBSCRIBERS : t};
            int created = pthread_create(&threads[t], NULL, resolver ? storm_resolver : storm_subscriber, &args[t]);
            CHECK(created == 0);
            if (created != 0) abort(); /* the start barrier would wait for it forever */
        }
        for (unsigned t = 0; t < STORM_THREADS; t++) CHECK(pthread_join(threads[t], NULL) == 0);

        unsigned long failures = petal_test_failure_count();
        /* Exactly one resolver won; every callback ran once and saw its outcome. */
        CHECK((s->results[0] == PETAL_OK) + (s->results[1] == PETAL_OK) == 1);
        CHECK(s->results[0] == PETAL_ERR_RESOLVED || s->results[1] == PETAL_ERR_RESOLVED);
        unsigned winner = s->results[0] == PETAL_OK ? 0 : 1;
        petal_status status = winner == 0 ? PETAL_STATUS_FULFILLED : PETAL_STATUS_REJECTED;
        CHECK(petal_future_status(&s->future) == status);
        CHECK(petal_future_payload(&s->future) == &s->values[winner]);
        CHECK(petal_atomic_load(&s->calls) == STORM_TOTAL);
        for (unsigned t = 0; t < STORM_SUBSCRIBERS; t++) {
            CHECK(s->next_index[t] == STORM_CALLBACKS);
            for (unsigned i = 0; i < STORM_CALLBACKS; i++) {
                storm_probe *p = &s->probes[t][i];
                CHECK(petal_atomic_load(&p->runs) == 1);
                CHECK(p->seen_status == status);
                CHECK(p->seen_payload == &s->values[winner]);
            }
        }
        CHECK(petal_cell_load(petal_future_cell(&s->future)) == PETAL_PHASE_RESOLVED);
        /* Every block a subscriber allocated was freed (by the deliverer, a straggler, or the
           subscriber itself when a spare went unused). */
        allocations now = allocations_now();
        if (allocations_counted()) CHECK(now.mallocs - before.mallocs == now.frees - before.frees);
        if (petal_test_failure_count() != failures) {
            fprintf(stderr, "round %u of %u was inconsistent\n", round, rounds);
            break;
        }
    }
    free(s);
}

int main(void) {
    /* The checks count every malloc and free of a block: without the block cache, each is one. */
    setenv("PETAL_BLOCK_CACHE", "0", 1);
    if (!allocations_counted()) fprintf(stderr, "(allocations are not counted in this run)\n");
    RUN_TEST(test_resolve_once);
    RUN_TEST(test_invalid_status_is_refused);
    RUN_TEST(test_each_outcome);
    RUN_TEST(test_callbacks_in_subscription_order);
    RUN_TEST(test_subscribe_after_resolve_runs_at_once);
    RUN_TEST(test_subscribe_node_with_caller_memory);
    RUN_TEST(test_subscribe_from_inside_a_callback);
    RUN_TEST(test_callback_resolves_another_future);
    RUN_TEST(test_wait_for_another_thread);
    RUN_TEST(test_wait_with_past_deadline);
    RUN_TEST(test_many_threads_subscribe_while_resolving);
    RUN_TEST(test_subscribe_node_never_frees_caller_memory);
    RUN_TEST(test_wait_with_invalid_deadline);
    RUN_TEST(test_million_future_chain_is_stack_safe);
    RUN_TEST(test_node_subscriber_is_not_overtaken_by_the_slot);
    RUN_TEST(test_hot_future_shares_blocks);
    RUN_TEST(test_subscribers_race_resolvers);
    RUN_TEST(test_waiter_after_a_partly_filled_block_leaks_nothing);
    return petal_test_finish("test_future");
}
