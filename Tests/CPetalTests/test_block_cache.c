/*
 * Waiter blocks' memory (petal_block_cache.c): every block is 64-byte aligned and fresh (every
 * flag EMPTY, its capacity set) however it was obtained; a block freed on its own thread, or
 * returned from another (alone, or in a list of several threads' blocks, as a drain frees
 * them), is reused by the thread that allocated it; a block's hint names the block its thread
 * allocated a few before it; and no cache outlives its
 * thread and its last block: threads that exit with blocks still out, freed afterwards by
 * others, leave exactly as many caches as there were before (petal_block_cache_homes).
 *
 * Under AddressSanitizer the cache is off (petal_block_cache_enabled): the reuse checks are
 * skipped there, and every other check still holds. Run under ThreadSanitizer, the handoffs
 * check the cache's ordering: a block's last use by one thread against its reuse by another.
 */
#define _GNU_SOURCE
#include "petal_test.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

enum {
    BATCH = 48,          /* blocks per handoff: several blocks' worth of a hot future */
    PRODUCERS = 3,
    DEFAULT_ROUNDS = 400 /* each round starts and ends threads */
};

/* A fresh block, as petal_block_allocate promises it. */
static void check_fresh(petal_block *block, unsigned capacity) {
    CHECK(block != NULL);
    if (block == NULL) return;
    CHECK(((uintptr_t)block & 63) == 0);
    CHECK(block->capacity == capacity);
    CHECK(block->refs == 0 && block->below == 0 && block->reserved == 0);
    for (unsigned slot = 0; slot < capacity; slot++) CHECK(*petal_block_flag(block, slot) == PETAL_SLOT_EMPTY);
}

/* Writes over a block as a user would (every flag, the whole payload), so a reused block that
   is not made fresh again fails check_fresh. */
static void scribble(petal_block *block, size_t size) {
    for (unsigned slot = 0; slot < block->capacity; slot++) {
        *petal_block_flag(block, slot) = PETAL_SLOT_READY;
        memset(petal_block_slot(block, slot), 0xA5, sizeof(petal_slot_words));
    }
    block->below = 3;
    block->reserved = 5;
    block->refs = 7;
    size_t used = PETAL_BLOCK_BYTES_FOR(block->capacity);
    memset((char *)block + used, 0xA5, size - used);
}

static int contains(petal_block *const *blocks, unsigned count, const petal_block *block) {
    for (unsigned i = 0; i < count; i++)
        if (blocks[i] == block) return 1;
    return 0;
}

/* More blocks than a thread keeps of its own frees (64): what other threads return is kept
   whole, however many. */
enum { RETURNED = 100 };

/* This thread takes `count` blocks at once, each fresh and, with the cache on, one of
   `expected` (all live together, so they are `expected` exactly), then frees them. */
static void check_gets_back(petal_block *const *expected, unsigned count, size_t size, unsigned capacity) {
    petal_block *again[RETURNED];
    CHECK(count <= RETURNED);
    if (count > RETURNED) return;
    for (unsigned i = 0; i < count; i++) {
        again[i] = petal_block_allocate(size, capacity);
        check_fresh(again[i], capacity);
        if (petal_block_cache_enabled()) CHECK(contains(expected, count, again[i]));
    }
    for (unsigned i = 0; i < count; i++) petal_block_free(again[i]);
}

static void test_sizes_and_freshness(void) {
    /* Cached sizes (the C future's, the Swift facade's) and a size past the cache. */
    const size_t sizes[] = {PETAL_BLOCK_BYTES_FOR(1), PETAL_BLOCK_BYTES, PETAL_BLOCK_CACHE_SIZE, PETAL_BLOCK_CACHE_SIZE + 1,
                            4096};
    for (unsigned round = 0; round < 3; round++) {
        for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            /* As many slots as the size holds, down to one. */
            unsigned capacity = i == 0 ? 1 : 1 + (i + round) % PETAL_BLOCK_SLOTS;
            petal_block *block = petal_block_allocate(sizes[i], capacity);
            check_fresh(block, capacity);
            if (block == NULL) continue;
            scribble(block, sizes[i]);
            petal_block_free(block);
        }
    }
}

static void test_same_thread_reuse(void) {
    if (!petal_block_cache_enabled()) return;
    petal_block *blocks[BATCH];
    for (unsigned i = 0; i < BATCH; i++) blocks[i] = petal_block_allocate(PETAL_BLOCK_CACHE_SIZE, PETAL_BLOCK_SLOTS);
    for (unsigned i = 0; i < BATCH; i++) {
        scribble(blocks[i], PETAL_BLOCK_CACHE_SIZE);
        petal_block_free(blocks[i]);
    }
    /* Every one comes back, and fresh. */
    check_gets_back(blocks, BATCH, 176, 1);
}

/* With the cache on, a block's hint is the block its thread allocated PETAL_BLOCK_HINT_DISTANCE
   blocks before it, whatever happened to that one since; with it off, there are no hints. */
static void test_hints(void) {
    petal_block *blocks[BATCH];
    for (unsigned i = 0; i < BATCH; i++) {
        blocks[i] = petal_block_allocate(PETAL_BLOCK_CACHE_SIZE, PETAL_BLOCK_SLOTS);
        if (petal_block_cache_enabled() && i >= PETAL_BLOCK_HINT_DISTANCE) {
            CHECK(blocks[i]->hint == blocks[i - PETAL_BLOCK_HINT_DISTANCE]);
        } else if (!petal_block_cache_enabled()) {
            CHECK(blocks[i]->hint == NULL);
        }
        /* Freed at once, so the next allocation reuses it: a stale hint is still a hint. */
        if (i % 3 == 0) petal_block_free(blocks[i]);
    }
    for (unsigned i = 0; i < BATCH; i++) {
        if (i % 3 != 0) petal_block_free(blocks[i]);
    }
}

/* A thread that frees the blocks it is handed. */
static void *free_all(void *raw) {
    petal_block **blocks = raw;
    for (unsigned i = 0; i < RETURNED; i++) {
        scribble(blocks[i], PETAL_BLOCK_CACHE_SIZE);
        petal_block_free(blocks[i]);
    }
    return NULL;
}

static void test_returned_from_another_thread(void) {
    petal_block *blocks[RETURNED];
    for (unsigned i = 0; i < RETURNED; i++) blocks[i] = petal_block_allocate(PETAL_BLOCK_CACHE_SIZE, PETAL_BLOCK_SLOTS);
    pthread_t freer;
    CHECK(pthread_create(&freer, NULL, free_all, blocks) == 0);
    CHECK(pthread_join(freer, NULL) == 0);
    /* The freer's blocks went home: this thread gets every one of them back, fresh. */
    check_gets_back(blocks, RETURNED, PETAL_BLOCK_CACHE_SIZE, 2);
}

/* petal_block_free_list: one list mixing the blocks of six other threads (more homes than it
   returns to at once), this thread's own and uncached ones; every thread gets exactly its own
   blocks back. */
enum { OWNERS = 6, OWNED = 10 };

/* The handshake between the owners and the main thread (no pthread_barrier: macOS has none). */
typedef struct owners_gate {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    unsigned handed; /* owners that allocated their blocks */
    int freed;       /* the main thread freed them all */
} owners_gate;

typedef struct owner {
    petal_block *blocks[OWNED];
    owners_gate *gate;
} owner;

static void *own_and_reclaim(void *raw) {
    owner *self = raw;
    for (unsigned i = 0; i < OWNED; i++) self->blocks[i] = petal_block_allocate(PETAL_BLOCK_CACHE_SIZE, PETAL_BLOCK_SLOTS);
    pthread_mutex_lock(&self->gate->lock);
    self->gate->handed += 1;
    pthread_cond_broadcast(&self->gate->changed);
    while (!self->gate->freed) pthread_cond_wait(&self->gate->changed, &self->gate->lock);
    pthread_mutex_unlock(&self->gate->lock);
    check_gets_back(self->blocks, OWNED, 176, 3);
    return NULL;
}

static void test_free_list_returns_each_home_its_own(void) {
    size_t before = petal_block_cache_homes();
    owners_gate gate = {.handed = 0, .freed = 0};
    pthread_mutex_init(&gate.lock, NULL);
    pthread_cond_init(&gate.changed, NULL);
    owner owners[OWNERS];
    pthread_t threads[OWNERS];
    for (unsigned t = 0; t < OWNERS; t++) {
        owners[t].gate = &gate;
        CHECK(pthread_create(&threads[t], NULL, own_and_reclaim, &owners[t]) == 0);
    }
    pthread_mutex_lock(&gate.lock);
    while (gate.handed < OWNERS) pthread_cond_wait(&gate.changed, &gate.lock);
    pthread_mutex_unlock(&gate.lock);
    /* Interleaved: owner 0's first block, owner 1's first, ..., then a block of this thread's
       and an uncached one every few blocks. */
    petal_block *list = NULL;
    petal_block *mine[OWNED];
    for (unsigned i = 0; i < OWNED; i++) {
        for (unsigned t = 0; t < OWNERS; t++) {
            petal_block *block = owners[t].blocks[i];
            scribble(block, PETAL_BLOCK_CACHE_SIZE);
            block->next = list;
            list = block;
        }
        mine[i] = petal_block_allocate(PETAL_BLOCK_CACHE_SIZE, 1);
        mine[i]->next = list;
        list = mine[i];
        petal_block *big = petal_block_allocate(PETAL_BLOCK_CACHE_SIZE + 64, 1);
        big->next = list;
        list = big;
    }
    petal_block_free_list(list);
    pthread_mutex_lock(&gate.lock);
    gate.freed = 1;
    pthread_cond_broadcast(&gate.changed);
    pthread_mutex_unlock(&gate.lock);
    for (unsigned t = 0; t < OWNERS; t++) CHECK(pthread_join(threads[t], NULL) == 0);
    pthread_mutex_destroy(&gate.lock);
    pthread_cond_destroy(&gate.changed);
    /* This thread's own came back to it too. */
    check_gets_back(mine, OWNED, PETAL_BLOCK_CACHE_SIZE, 2);
    CHECK(petal_block_cache_homes() == before);
}

/* Producers allocate a batch each and exit, their blocks still out; the consumers, started
   after, free them (every producer's cache is then abandoned), except the first producer's
   batch, which the consumers free while its producer may still be running. */
typedef struct handoff {
    petal_block *blocks[BATCH];
    pthread_mutex_t lock;
    pthread_cond_t filled;
    int ready;
} handoff;

static void *produce(void *raw) {
    handoff *slot = raw;
    petal_block *local[BATCH];
    for (unsigned i = 0; i < BATCH; i++) {
        local[i] = petal_block_allocate(PETAL_BLOCK_CACHE_SIZE, PETAL_BLOCK_SLOTS);
        check_fresh(local[i], PETAL_BLOCK_SLOTS);
        scribble(local[i], PETAL_BLOCK_CACHE_SIZE);
    }
    /* Some reuse on the producer's own thread first, so its cache holds blocks when it exits. */
    for (unsigned i = 0; i < BATCH / 2; i++) petal_block_free(local[i]);
    for (unsigned i = 0; i < BATCH / 2; i++) local[i] = petal_block_allocate(PETAL_BLOCK_CACHE_SIZE, 1);
    pthread_mutex_lock(&slot->lock);
    memcpy(slot->blocks, local, sizeof local);
    slot->ready = 1;
    pthread_cond_signal(&slot->filled);
    pthread_mutex_unlock(&slot->lock);
    /* A little more cached work after the handoff, racing the consumers' returns. */
    petal_block *extra = petal_block_allocate(PETAL_BLOCK_CACHE_SIZE, 1);
    petal_block_free(extra);
    return NULL;
}

static void *consume(void *raw) {
    handoff *slot = raw;
    pthread_mutex_lock(&slot->lock);
    while (!slot->ready) pthread_cond_wait(&slot->filled, &slot->lock);
    pthread_mutex_unlock(&slot->lock);
    for (unsigned i = 0; i < BATCH; i++) petal_block_free(slot->blocks[i]);
    return NULL;
}

static void test_exits_with_blocks_out(void) {
    const char *env = getenv("PETAL_TEST_ROUNDS");
    unsigned rounds = env != NULL ? (unsigned)strtoul(env, NULL, 10) : DEFAULT_ROUNDS;
    if (rounds == 0) rounds = DEFAULT_ROUNDS;
    /* This thread's own cache exists by now (the tests above), and stays. */
    size_t before = petal_block_cache_homes();
    for (unsigned round = 0; round < rounds; round++) {
        handoff slots[PRODUCERS];
        pthread_t producers[PRODUCERS], consumers[PRODUCERS];
        for (unsigned p = 0; p < PRODUCERS; p++) {
            slots[p].ready = 0;
            pthread_mutex_init(&slots[p].lock, NULL);
            pthread_cond_init(&slots[p].filled, NULL);
            CHECK(pthread_create(&producers[p], NULL, produce, &slots[p]) == 0);
        }
        /* The first batch is freed while its producer may still run; the others after theirs
           have exited. */
        CHECK(pthread_create(&consumers[0], NULL, consume, &slots[0]) == 0);
        for (unsigned p = 1; p < PRODUCERS; p++) CHECK(pthread_join(producers[p], NULL) == 0);
        for (unsigned p = 1; p < PRODUCERS; p++) CHECK(pthread_create(&consumers[p], NULL, consume, &slots[p]) == 0);
        CHECK(pthread_join(producers[0], NULL) == 0);
        for (unsigned p = 0; p < PRODUCERS; p++) {
            CHECK(pthread_join(consumers[p], NULL) == 0);
            pthread_mutex_destroy(&slots[p].lock);
            pthread_cond_destroy(&slots[p].filled);
        }
        /* Every producer's and consumer's cache is gone with its thread and its last block. */
        CHECK(petal_block_cache_homes() == before);
    }
}

int main(void) {
    RUN_TEST(test_sizes_and_freshness);
    RUN_TEST(test_same_thread_reuse);
    RUN_TEST(test_hints);
    RUN_TEST(test_returned_from_another_thread);
    RUN_TEST(test_free_list_returns_each_home_its_own);
    RUN_TEST(test_exits_with_blocks_out);
    return petal_test_finish("test_block_cache");
}
