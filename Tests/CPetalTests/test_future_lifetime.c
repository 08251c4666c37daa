/*
 * When a C future may be freed, and waits that never hang on their own thread's work: the
 * contract in petal.h ("freeable once petal_future_wait or petal_future_status says resolved,
 * outside its own callbacks") and petal_future_wait's run of this thread's deferred work.
 * Run it under ASan and TSan too: the free-after-wait rounds are the use-after-free they catch.
 * And a wait that gives up leaves nothing in the future, however often it is repeated.
 */
#define _GNU_SOURCE
#include "petal_test.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <time.h>

static struct timespec seconds_from_now(long seconds) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    now.tv_sec += seconds;
    return now;
}

/* ------------------------------------------------------------------------------------------- */
/* Nobody outside the delivery sees "resolved" while callbacks still run.                       */
/* ------------------------------------------------------------------------------------------- */

/* A thread that, asked during a delivery, reports what it sees of the future then. */
typedef struct observer {
    petal_future *future;
    volatile petal_word asked;    /* the round number the deliverer asks about */
    volatile petal_word answered; /* the round number answered */
    int status;             /* petal_future_status seen */
    void *payload;          /* petal_future_payload seen */
    int waited;             /* petal_future_wait with a past deadline */
} observer;

static void *observe(void *raw) {
    observer *o = raw;
    for (petal_word round = 1;; round++) {
        petal_word asked;
        while ((asked = petal_atomic_load_acquire(&o->asked)) < round) sched_yield();
        if (asked == (petal_word)-1) return NULL;
        o->status = petal_future_status(o->future);
        o->payload = petal_future_payload(o->future);
        struct timespec past = seconds_from_now(-1);
        o->waited = petal_future_wait(o->future, &past);
        petal_atomic_store_release(&o->answered, round);
    }
}

typedef struct asking {
    observer *observer;
    petal_word round;
    int own_status; /* what the deliverer itself sees, from inside the callback */
} asking;

/* A callback that asks the observer thread, and waits for its answer (it never blocks on the
   future, so this cannot deadlock whatever the answer). */
static void ask_observer(petal_future *future, void *context) {
    asking *a = context;
    a->own_status = petal_future_status(future);
    petal_atomic_store_release(&a->observer->asked, a->round);
    while (petal_atomic_load_acquire(&a->observer->answered) < a->round) sched_yield();
}

static void test_other_threads_see_pending_until_delivery_ends(void) {
    petal_future future;
    observer o = {.future = &future};
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, observe, &o) == 0);
    int value = 7;
    for (petal_word round = 1; round <= 20; round++) {
        petal_future_init(&future);
        asking first = {&o, round, -100};
        CHECK(petal_future_subscribe(&future, ask_observer, &first) == PETAL_OK);
        CHECK(petal_future_fulfil(&future, &value) == PETAL_OK);
        /* The callback sees its own future resolved; the observer, asked mid-delivery, does
           not: the future is not yet free to be freed. */
        CHECK(first.own_status == PETAL_STATUS_FULFILLED);
        CHECK(o.status == PETAL_STATUS_PENDING);
        CHECK(o.payload == NULL);
        CHECK(o.waited == PETAL_ERR_TIMEDOUT);
        /* Delivered: now everyone sees it. */
        CHECK(petal_future_status(&future) == PETAL_STATUS_FULFILLED);
        CHECK(petal_future_payload(&future) == &value);
    }
    petal_atomic_store_release(&o.asked, (petal_word)-1);
    CHECK(pthread_join(thread, NULL) == 0);
}

/* ------------------------------------------------------------------------------------------- */
/* A waiter is woken only after the last callback.                                              */
/* ------------------------------------------------------------------------------------------- */

typedef struct freeing_round {
    petal_future *future; /* heap memory the waiting thread frees as soon as its wait returns */
    volatile petal_word subscribed;
    volatile petal_word calls;
    int value;
} freeing_round;

static void count_call(petal_future *future, void *context) {
    (void)future;
    freeing_round *r = context;
    petal_atomic_fetch_add_full(&r->calls, 1);
}

/* Subscribes callbacks before and after the waiter (some in the inline slot, some in blocks),
   then fulfils: the resolver keeps delivering after the waiter's position. */
static void *subscribe_and_fulfil(void *raw) {
    freeing_round *r = raw;
    CHECK(petal_future_subscribe(r->future, count_call, r) == PETAL_OK);
    petal_atomic_store_release(&r->subscribed, 1);
    /* The waiter sleeps after this thread's first callback: wait until it has marked the cell. */
    while (!petal_word_has_parked(petal_cell_load(petal_future_cell(r->future)))) sched_yield();
    for (int i = 0; i < 9; i++) CHECK(petal_future_subscribe(r->future, count_call, r) == PETAL_OK);
    CHECK(petal_future_fulfil(r->future, &r->value) == PETAL_OK);
    return NULL;
}

static void test_future_freed_right_after_wait(void) {
    unsigned rounds = petal_test_rounds(2000);
    for (unsigned round = 0; round < rounds; round++) {
        petal_future *future = malloc(sizeof *future);
        CHECK(future != NULL);
        if (future == NULL) return;
        petal_future_init(future);
        freeing_round *r = calloc(1, sizeof *r);
        CHECK(r != NULL);
        if (r == NULL) return;
        r->future = future;
        pthread_t thread;
        CHECK(pthread_create(&thread, NULL, subscribe_and_fulfil, r) == 0);
        while (petal_atomic_load_acquire(&r->subscribed) == 0) sched_yield();
        CHECK(petal_future_wait(future, NULL) == PETAL_STATUS_FULFILLED);
        /* Every callback has run by the time the wait returns... */
        CHECK(petal_atomic_load_full(&r->calls) == 10);
        /* ...and the resolver is done with the future: scribbling over it and freeing it at once
           must go unnoticed (ASan reports the use-after-free otherwise; without it, the
           resolver would read garbage as its waiter list). */
        memset(future, 0xA5, sizeof *future);
        free(future);
        CHECK(pthread_join(thread, NULL) == 0);
        free(r);
    }
}

/* ------------------------------------------------------------------------------------------- */
/* A wait from deep inside inline work runs the thread's deferred work instead of hanging.      */
/* ------------------------------------------------------------------------------------------- */

static void fulfil_next(petal_future *future, void *context) {
    petal_future *next = context;
    CHECK(petal_future_fulfil(next, petal_future_payload(future)) == PETAL_OK);
}

static void test_wait_inside_nested_callbacks_never_hangs(void) {
    int value = 3;
    /* Every depth, around the trampoline's limit and past it: at the limit, the fulfil of `a`
       defers a's delivery (and with it the fulfil of `b`) to this thread's outermost frame,
       which is the one now waiting. */
    for (unsigned depth = 0; depth <= PETAL_TRAMPOLINE_DEPTH + 2; depth++) {
        unsigned entered = 0;
        while (entered < depth && petal_trampoline_enter()) entered++;
        petal_future a, b;
        petal_future_init(&a);
        petal_future_init(&b);
        CHECK(petal_future_subscribe(&a, fulfil_next, &b) == PETAL_OK);
        CHECK(petal_future_fulfil(&a, &value) == PETAL_OK);
        /* A deadline only so that a regression fails rather than hangs. */
        struct timespec deadline = seconds_from_now(30);
        CHECK(petal_future_wait(&b, &deadline) == PETAL_STATUS_FULFILLED);
        CHECK(petal_future_payload(&b) == &value);
        CHECK(petal_future_status(&a) == PETAL_STATUS_FULFILLED);
        while (entered > 0) {
            petal_trampoline_leave();
            entered--;
        }
        CHECK(petal_trampoline_depth() == 0);
    }
}

/* A callback may wait for its own future: it sees the outcome at once. */
static void wait_for_own_future(petal_future *future, void *context) {
    int *status = context;
    struct timespec deadline = seconds_from_now(30);
    *status = petal_future_wait(future, &deadline);
}

static void test_callback_waiting_for_its_own_future_returns_at_once(void) {
    petal_future future;
    petal_future_init(&future);
    int first = -100, later = -100;
    CHECK(petal_future_subscribe(&future, wait_for_own_future, &first) == PETAL_OK);
    CHECK(petal_future_subscribe(&future, wait_for_own_future, &later) == PETAL_OK);
    CHECK(petal_future_reject(&future, NULL) == PETAL_OK);
    CHECK(first == PETAL_STATUS_REJECTED);
    CHECK(later == PETAL_STATUS_REJECTED);
}

/* ------------------------------------------------------------------------------------------- */
/* Sleepers of many futures share the parking table; each wakes for its own.                    */
/* ------------------------------------------------------------------------------------------- */

enum { PARK_FUTURES = 4, PARK_WAITERS_EACH = 3 };

typedef struct parking_round {
    petal_future futures[PARK_FUTURES];
    int values[PARK_FUTURES];
    volatile petal_word parked;
    int results[PARK_FUTURES][PARK_WAITERS_EACH];
} parking_round;

typedef struct parking_waiter {
    parking_round *round;
    unsigned future;
    unsigned index;
} parking_waiter;

static void *wait_parked(void *raw) {
    parking_waiter *w = raw;
    petal_future *future = &w->round->futures[w->future];
    petal_atomic_fetch_add_full(&w->round->parked, 1);
    /* Alternate the two sleeping forms: for ever, and with a deadline far enough away. */
    struct timespec deadline = seconds_from_now(60);
    w->round->results[w->future][w->index] = petal_future_wait(future, w->index % 2 ? &deadline : NULL);
    return NULL;
}

static void test_sleepers_of_many_futures_wake_for_their_own(void) {
    unsigned rounds = petal_test_rounds(100);
    for (unsigned round = 0; round < rounds; round++) {
        parking_round r;
        memset(&r, 0, sizeof r);
        for (unsigned f = 0; f < PARK_FUTURES; f++) petal_future_init(&r.futures[f]);
        pthread_t threads[PARK_FUTURES][PARK_WAITERS_EACH];
        parking_waiter waiters[PARK_FUTURES][PARK_WAITERS_EACH];
        for (unsigned f = 0; f < PARK_FUTURES; f++) {
            for (unsigned i = 0; i < PARK_WAITERS_EACH; i++) {
                waiters[f][i] = (parking_waiter){&r, f, i};
                CHECK(pthread_create(&threads[f][i], NULL, wait_parked, &waiters[f][i]) == 0);
            }
        }
        while (petal_atomic_load_acquire(&r.parked) < PARK_FUTURES * PARK_WAITERS_EACH) sched_yield();
        /* Resolve in an order that differs per round, each differently; a waiter woken by
           another future's broadcast must sleep again until its own resolves. */
        for (unsigned k = 0; k < PARK_FUTURES; k++) {
            unsigned f = (k + round) % PARK_FUTURES;
            petal_status status = (petal_status)(f % 3);
            CHECK(petal_future_resolve(&r.futures[f], status, &r.values[f]) == PETAL_OK);
        }
        for (unsigned f = 0; f < PARK_FUTURES; f++) {
            for (unsigned i = 0; i < PARK_WAITERS_EACH; i++) {
                CHECK(pthread_join(threads[f][i], NULL) == 0);
                CHECK(r.results[f][i] == (int)(f % 3));
            }
            CHECK(petal_future_payload(&r.futures[f]) == &r.values[f]);
        }
    }
}

/* A thread that polls a future nobody resolves, twenty thousand times: each wait gives up at
   once and leaves nothing (the list stays empty; ASan's leak check and valgrind agree). */
static void test_polling_a_pending_future_holds_nothing(void) {
    petal_future future;
    petal_future_init(&future);
    struct timespec past = seconds_from_now(-1);
    for (unsigned i = 0; i < 20000; i++) CHECK(petal_future_wait(&future, &past) == PETAL_ERR_TIMEDOUT);
    CHECK(petal_word_list(petal_cell_load(petal_future_cell(&future))) == NULL);
    CHECK(petal_future_fulfil(&future, NULL) == PETAL_OK);
    CHECK(petal_future_wait(&future, &past) == PETAL_STATUS_FULFILLED);
}

int main(void) {
    RUN_TEST(test_other_threads_see_pending_until_delivery_ends);
    RUN_TEST(test_future_freed_right_after_wait);
    RUN_TEST(test_wait_inside_nested_callbacks_never_hangs);
    RUN_TEST(test_callback_waiting_for_its_own_future_returns_at_once);
    RUN_TEST(test_sleepers_of_many_futures_wake_for_their_own);
    RUN_TEST(test_polling_a_pending_future_holds_nothing);
    return petal_test_finish("test_future_lifetime");
}
