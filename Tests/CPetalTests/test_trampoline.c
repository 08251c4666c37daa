/*
 * The per-thread trampoline: the depth limit, deferral to the outermost frame in FIFO order on
 * the same thread, and a chain long enough that plain recursion would overflow the stack.
 */
#define _GNU_SOURCE
#include "petal_test.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct work_log {
    int ids[32];
    int count;
    unsigned depths[32];  /* the trampoline depth each item saw when it ran */
    pthread_t threads[32];
} work_log;

typedef struct work_item {
    work_log *log;
    int id;
} work_item;

static void log_work(void *context) {
    work_item *item = context;
    work_log *log = item->log;
    if (log->count < 32) {
        log->ids[log->count] = item->id;
        log->depths[log->count] = petal_trampoline_depth();
        log->threads[log->count] = pthread_self();
    }
    log->count++;
}

static void test_enter_up_to_the_limit(void) {
    CHECK(petal_trampoline_depth() == 0);
    for (unsigned i = 1; i <= PETAL_TRAMPOLINE_DEPTH; i++) {
        CHECK(petal_trampoline_enter() == 1);
        CHECK(petal_trampoline_depth() == i);
    }
    CHECK(petal_trampoline_enter() == 0);
    CHECK(petal_trampoline_enter() == 0); /* a refusal does not count as a frame */
    CHECK(petal_trampoline_depth() == PETAL_TRAMPOLINE_DEPTH);
    for (unsigned i = PETAL_TRAMPOLINE_DEPTH; i >= 1; i--) {
        petal_trampoline_leave();
        CHECK(petal_trampoline_depth() == i - 1);
    }
    /* Fully unwound: the whole budget is available again. */
    CHECK(petal_trampoline_enter() == 1);
    petal_trampoline_leave();
    CHECK(petal_trampoline_depth() == 0);
}

static void test_deferred_at_limit_runs_at_outermost_leave(void) {
    work_log log = {0};
    work_item items[3] = {{&log, 0}, {&log, 1}, {&log, 2}};
    for (unsigned i = 0; i < PETAL_TRAMPOLINE_DEPTH; i++) CHECK(petal_trampoline_enter() == 1);
    CHECK(petal_trampoline_enter() == 0);
    for (int i = 0; i < 3; i++) CHECK(petal_trampoline_defer(log_work, &items[i]) == 0);
    CHECK(log.count == 0);

    /* Inner leaves unwind without running anything. */
    for (unsigned i = PETAL_TRAMPOLINE_DEPTH; i > 1; i--) {
        petal_trampoline_leave();
        CHECK(log.count == 0);
    }
    CHECK(petal_trampoline_depth() == 1);
    petal_trampoline_leave();

    CHECK(log.count == 3);
    pthread_t self = pthread_self();
    for (int i = 0; i < 3 && i < log.count; i++) {
        CHECK(log.ids[i] == i); /* FIFO */
        CHECK(pthread_equal(log.threads[i], self));
        /* Drained by the outermost frame, so each item may nest again. */
        CHECK(log.depths[i] == 1);
    }
    CHECK(petal_trampoline_depth() == 0);
}

static void test_run_deferred_drains_the_queue_in_place(void) {
    work_log log = {0};
    work_item items[3] = {{&log, 0}, {&log, 1}, {&log, 2}};
    for (unsigned i = 0; i < PETAL_TRAMPOLINE_DEPTH; i++) CHECK(petal_trampoline_enter() == 1);
    for (int i = 0; i < 3; i++) CHECK(petal_trampoline_defer(log_work, &items[i]) == 0);
    CHECK(log.count == 0);

    /* A thread about to block, deep inside inline work, runs what it deferred first. */
    petal_trampoline_run_deferred();
    CHECK(log.count == 3);
    for (int i = 0; i < 3 && i < log.count; i++) {
        CHECK(log.ids[i] == i);       /* FIFO, as the outermost frame would */
        CHECK(log.depths[i] == 1);    /* each item starts a fresh nest, bounded again */
    }
    CHECK(petal_trampoline_depth() == PETAL_TRAMPOLINE_DEPTH); /* the caller's frames remain */
    CHECK(petal_trampoline_enter() == 0);                       /* still at the limit */

    /* Nothing is left for the outermost frame, and an empty queue costs nothing. */
    petal_trampoline_run_deferred();
    for (unsigned i = PETAL_TRAMPOLINE_DEPTH; i > 0; i--) petal_trampoline_leave();
    CHECK(log.count == 3);
    CHECK(petal_trampoline_depth() == 0);
}

static void test_defer_outside_a_frame_runs_at_once(void) {
    work_log log = {0};
    work_item item = {&log, 42};
    CHECK(petal_trampoline_depth() == 0);
    CHECK(petal_trampoline_defer(log_work, &item) == 0);
    CHECK(log.count == 1); /* before defer returned */
    CHECK(log.ids[0] == 42);
    CHECK(pthread_equal(log.threads[0], pthread_self()));
    CHECK(log.depths[0] >= 1); /* it ran as inline work, not outside the trampoline */
    CHECK(petal_trampoline_depth() == 0);
}

/* Work that defers more work: the inner item must still run before the outer defer returns. */
typedef struct deferring {
    work_log *log;
    work_item inner;
} deferring;

static void defer_inner(void *context) {
    deferring *d = context;
    work_item self = {d->log, 1};
    log_work(&self);
    CHECK(petal_trampoline_defer(log_work, &d->inner) == 0);
    CHECK(d->log->count == 1); /* queued behind us, not run inside us */
}

static void test_defer_from_immediate_work(void) {
    work_log log = {0};
    deferring d = {&log, {&log, 2}};
    CHECK(petal_trampoline_defer(defer_inner, &d) == 0);
    CHECK(log.count == 2);
    CHECK(log.ids[0] == 1 && log.ids[1] == 2);
    CHECK(petal_trampoline_depth() == 0);
}

static void test_enter_refused_while_work_is_queued(void) {
    work_log log = {0};
    work_item item = {&log, 7};
    CHECK(petal_trampoline_enter() == 1);
    CHECK(petal_trampoline_defer(log_work, &item) == 0); /* queued: a frame is active */
    CHECK(log.count == 0);
    /* Far below the limit, yet running new work inline would overtake the queued item. */
    CHECK(petal_trampoline_enter() == 0);
    CHECK(petal_trampoline_depth() == 1);
    petal_trampoline_leave();
    CHECK(log.count == 1);
    CHECK(petal_trampoline_depth() == 0);
    CHECK(petal_trampoline_enter() == 1); /* the queue is empty again */
    petal_trampoline_leave();
}

/* Each step "resolves the next": inline while the trampoline allows, deferred otherwise. */
enum { CHAIN_LENGTH = 1000000 };

typedef struct chain {
    unsigned long count;
    unsigned max_depth;
} chain;

static void chain_step(void *context) {
    chain *c = context;
    c->count++;
    unsigned depth = petal_trampoline_depth();
    if (depth > c->max_depth) c->max_depth = depth;
    if (c->count == CHAIN_LENGTH) return;
    if (petal_trampoline_enter()) {
        chain_step(c);
        petal_trampoline_leave();
    } else {
        CHECK(petal_trampoline_defer(chain_step, c) == 0);
    }
}

static void test_long_chain_is_stack_safe(void) {
    chain c = {0, 0};
    chain_step(&c);
    CHECK(c.count == CHAIN_LENGTH);
    /* The chain really nested up to the limit and never beyond it. */
    CHECK(c.max_depth == PETAL_TRAMPOLINE_DEPTH);
    CHECK(petal_trampoline_depth() == 0);
}

static void *run_on_other_thread(void *raw) {
    (void)raw;
    /* The trampoline is per thread: a fresh thread starts at depth 0 with an empty queue. */
    unsigned depth = petal_trampoline_depth();
    int entered = petal_trampoline_enter();
    if (entered) petal_trampoline_leave();
    return (void *)(uintptr_t)(depth == 0 && entered);
}

/* A caller-owned item that frees itself from its own work, as the Swift layer's blocks do. */
typedef struct owned_block {
    petal_deferred item;
    work_item payload;
} owned_block;

static void owned_block_run(void *context) {
    owned_block *block = context;
    work_item payload = block->payload;
    free(block); /* the trampoline must not touch the item after calling us */
    log_work(&payload);
}

static owned_block *owned_block_make(work_log *log, int id) {
    owned_block *block = malloc(sizeof *block);
    CHECK(block != NULL);
    block->item.work = owned_block_run;
    block->item.context = block;
    block->payload = (work_item){log, id};
    return block;
}

static void test_caller_owned_items_keep_fifo_with_allocated_ones(void) {
    work_log log = {0};
    work_item plain[2] = {{&log, 1}, {&log, 3}};
    for (unsigned i = 0; i < PETAL_TRAMPOLINE_DEPTH; i++) CHECK(petal_trampoline_enter() == 1);
    petal_trampoline_defer_item(&owned_block_make(&log, 0)->item);
    CHECK(petal_trampoline_defer(log_work, &plain[0]) == 0);
    petal_trampoline_defer_item(&owned_block_make(&log, 2)->item);
    CHECK(petal_trampoline_defer(log_work, &plain[1]) == 0);
    CHECK(log.count == 0);
    for (unsigned i = 0; i < PETAL_TRAMPOLINE_DEPTH; i++) petal_trampoline_leave();
    CHECK(log.count == 4);
    for (int i = 0; i < 4 && i < log.count; i++) {
        CHECK(log.ids[i] == i);
        CHECK(log.depths[i] == 1);
    }
}

static void test_caller_owned_item_outside_a_frame_runs_at_once(void) {
    work_log log = {0};
    petal_trampoline_defer_item(&owned_block_make(&log, 7)->item);
    CHECK(log.count == 1);
    CHECK(log.ids[0] == 7);
    CHECK(log.depths[0] == 1);
    CHECK(petal_trampoline_depth() == 0);
}

static void test_state_is_per_thread(void) {
    for (unsigned i = 0; i < PETAL_TRAMPOLINE_DEPTH; i++) CHECK(petal_trampoline_enter() == 1);
    pthread_t thread;
    void *fresh = NULL;
    CHECK(pthread_create(&thread, NULL, run_on_other_thread, NULL) == 0);
    CHECK(pthread_join(thread, &fresh) == 0);
    CHECK(fresh == (void *)(uintptr_t)1);
    for (unsigned i = 0; i < PETAL_TRAMPOLINE_DEPTH; i++) petal_trampoline_leave();
    CHECK(petal_trampoline_depth() == 0);
}

int main(void) {
    RUN_TEST(test_enter_up_to_the_limit);
    RUN_TEST(test_deferred_at_limit_runs_at_outermost_leave);
    RUN_TEST(test_run_deferred_drains_the_queue_in_place);
    RUN_TEST(test_defer_outside_a_frame_runs_at_once);
    RUN_TEST(test_defer_from_immediate_work);
    RUN_TEST(test_enter_refused_while_work_is_queued);
    RUN_TEST(test_long_chain_is_stack_safe);
    RUN_TEST(test_caller_owned_items_keep_fifo_with_allocated_ones);
    RUN_TEST(test_caller_owned_item_outside_a_frame_runs_at_once);
    RUN_TEST(test_state_is_per_thread);
    return petal_test_finish("test_trampoline");
}
