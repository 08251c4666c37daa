/*
 * The atomics backend (petal_atomics.h): the library was built on the backend these headers
 * choose (and on the one the build asked for), each petal_atomic_* operation returns what its
 * contract says, and the release/acquire pairs the protocol relies on publish plain writes
 * across threads (ThreadSanitizer, which sees both backends' atomics, reports a race otherwise).
 */
#include "petal_test.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>

static void test_library_and_headers_agree_on_the_backend(void) {
    const char *built = petal_atomics_backend();
    fprintf(stderr, "     atomics: library %s, headers %s\n", built, PETAL_ATOMICS_BACKEND);
    CHECK(strcmp(built, PETAL_ATOMICS_BACKEND) == 0);
#if defined(PETAL_ATOMICS_C11)
    CHECK(strcmp(built, "C11") == 0);
#elif defined(PETAL_ATOMICS_ATOMIC_OPS)
    CHECK(strcmp(built, "libatomic_ops") == 0);
#endif
}

static void test_word_operations_return_what_they_promise(void) {
    volatile petal_word word = 0;
    petal_atomic_store(&word, 5);
    CHECK(petal_atomic_load(&word) == 5);
    petal_atomic_store_release(&word, 6);
    CHECK(petal_atomic_load_acquire(&word) == 6);
    CHECK(petal_atomic_load_full(&word) == 6);

    CHECK(petal_atomic_fetch_add(&word, 1) == 6);
    CHECK(petal_atomic_fetch_add_release(&word, 2) == 7);
    CHECK(petal_atomic_fetch_add_full(&word, (petal_word)-1) == 9);
    CHECK(petal_atomic_load(&word) == 8);

    CHECK(petal_atomic_cas_acquire(&word, 8, 10) == 1);
    CHECK(petal_atomic_cas_acquire(&word, 8, 11) == 0);
    CHECK(petal_atomic_cas_release(&word, 10, 12) == 1);
    CHECK(petal_atomic_cas_release(&word, 10, 13) == 0);
    CHECK(petal_atomic_cas_full(&word, 12, 14) == 1);
    CHECK(petal_atomic_cas_full(&word, 12, 15) == 0);
    CHECK(petal_atomic_load(&word) == 14);

    CHECK(petal_atomic_fetch_cas(&word, 14, 16) == 14);
    CHECK(petal_atomic_fetch_cas(&word, 14, 17) == 16);
    CHECK(petal_atomic_fetch_cas_acquire(&word, 16, 20) == 16);
    CHECK(petal_atomic_fetch_cas_acquire(&word, 16, 21) == 20);
    CHECK(petal_atomic_fetch_cas(&word, 20, 16) == 20);
    CHECK(petal_atomic_fetch_cas_full(&word, 16, 18) == 16);
    CHECK(petal_atomic_fetch_cas_full(&word, 16, 19) == 18);
    CHECK(petal_atomic_load(&word) == 18);

    /* A whole word: the cell keeps a pointer in it. */
    petal_word high = (petal_word)1 << (sizeof(petal_word) * 8 - 1);
    CHECK(petal_atomic_fetch_cas_full(&word, 18, high | 3) == 18);
    CHECK(petal_atomic_load_acquire(&word) == (high | 3));
}

static void test_flag_operations_return_what_they_promise(void) {
    volatile unsigned flag = PETAL_SLOT_EMPTY;
    CHECK(petal_atomic_uint_cas_release(&flag, PETAL_SLOT_EMPTY, PETAL_SLOT_READY) == 1);
    CHECK(petal_atomic_uint_cas_release(&flag, PETAL_SLOT_EMPTY, PETAL_SLOT_SKIPPED) == 0);
    CHECK(petal_atomic_uint_load_acquire(&flag) == PETAL_SLOT_READY);
    CHECK(petal_atomic_uint_fetch_cas_full(&flag, PETAL_SLOT_EMPTY, PETAL_SLOT_SKIPPED) == PETAL_SLOT_READY);
    CHECK(petal_atomic_uint_fetch_cas_full(&flag, PETAL_SLOT_READY, PETAL_SLOT_SKIPPED) == PETAL_SLOT_READY);
    CHECK(petal_atomic_uint_load_acquire(&flag) == PETAL_SLOT_SKIPPED);
}

static void test_side_words_report_the_value_seen(void) {
    petal_atomic_word word = {0};
    petal_word expected = 1;
    CHECK(petal_atomic_word_exchange(&word, &expected, 2) == 0);
    CHECK(expected == 0);
    CHECK(petal_atomic_word_exchange(&word, &expected, 2) == 1);
    CHECK(petal_atomic_word_load(&word) == 2);

    petal_atomic_u32 small = {7};
    unsigned seen = 0;
    CHECK(petal_atomic_u32_exchange(&small, &seen, 8) == 0);
    CHECK(seen == 7);
    CHECK(petal_atomic_u32_exchange(&small, &seen, 8) == 1);
    CHECK(petal_atomic_u32_load(&small) == 8);
}

/* Message passing through each releasing operation the protocol uses, each acquired by a load:
   the payload changes hands twice a round, and each side must see the other's plain write. */
#define HANDOFF_ROUNDS 2000

typedef struct handoff {
    long payload;             /* plain: owned by whoever last acquired it */
    volatile petal_word word; /* writer to reader: the round, by store, fetch_add or CAS */
    volatile unsigned flag;   /* reader to writer: READY once the reader answered */
} handoff;

static void *handoff_reader(void *argument) {
    handoff *h = argument;
    for (petal_word round = 1; round <= HANDOFF_ROUNDS; round++) {
        while (petal_atomic_load_acquire(&h->word) < round) sched_yield();
        CHECK(h->payload == (long)round);
        h->payload = -(long)round;
        CHECK(petal_atomic_uint_cas_release(&h->flag, PETAL_SLOT_EMPTY, PETAL_SLOT_READY));
    }
    return NULL;
}

static void test_release_publishes_to_acquire_across_threads(void) {
    handoff h = {0, 0, PETAL_SLOT_EMPTY};
    pthread_t reader;
    CHECK(pthread_create(&reader, NULL, handoff_reader, &h) == 0);
    for (petal_word round = 1; round <= HANDOFF_ROUNDS; round++) {
        h.payload = (long)round;
        switch (round % 3) {
        case 0: petal_atomic_store_release(&h.word, round); break;
        case 1: petal_atomic_fetch_add_release(&h.word, 1); break;
        default: CHECK(petal_atomic_cas_release(&h.word, round - 1, round)); break;
        }
        while (petal_atomic_uint_load_acquire(&h.flag) != PETAL_SLOT_READY) sched_yield();
        CHECK(h.payload == -(long)round);
        /* Reset before the next release of the word, which the reader acquires first. */
        CHECK(petal_atomic_uint_fetch_cas_full(&h.flag, PETAL_SLOT_READY, PETAL_SLOT_EMPTY) == PETAL_SLOT_READY);
    }
    pthread_join(reader, NULL);
}

int main(void) {
    RUN_TEST(test_library_and_headers_agree_on_the_backend);
    RUN_TEST(test_word_operations_return_what_they_promise);
    RUN_TEST(test_flag_operations_return_what_they_promise);
    RUN_TEST(test_side_words_report_the_value_seen);
    RUN_TEST(test_release_publishes_to_acquire_across_threads);
    return petal_test_finish("test_atomics");
}
