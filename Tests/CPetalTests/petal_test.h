/*
 * A minimal assertion helper for the C core tests: no framework, so the tests build wherever the
 * core builds, and run unchanged under sanitizers and valgrind.
 *
 * CHECK keeps going after a failure (one run shows every broken expectation); the failure count
 * is atomic because the concurrent tests check from several threads. Include this header first
 * in a test, after defining _GNU_SOURCE if the test needs POSIX declarations.
 */
#ifndef PETAL_TEST_H
#define PETAL_TEST_H

#include "petal_future_state.h"
#include "petal_trampoline_state.h"

#include <stdio.h>
#include <stdlib.h>

static volatile petal_word petal_test_failures;

/* Beyond this many, failures are only counted: a broken invariant in a loop of a million steps
   must not bury the first report under a million lines. */
#define PETAL_TEST_MAX_REPORTS 50

static inline void petal_test_fail(const char *file, int line, const char *expression) {
    petal_word earlier = petal_atomic_fetch_add_full(&petal_test_failures, 1);
    if (earlier < PETAL_TEST_MAX_REPORTS) {
        fprintf(stderr, "%s:%d: CHECK failed: %s\n", file, line, expression);
        fflush(stderr);
    }
}

#define CHECK(expression)                                                                     \
    do {                                                                                      \
        if (!(expression)) petal_test_fail(__FILE__, __LINE__, #expression);                  \
    } while (0)

static inline unsigned long petal_test_failure_count(void) {
    return (unsigned long)petal_atomic_load_full(&petal_test_failures);
}

/* Runs one test function and names it, so a failure's file:line comes with its context. */
#define RUN_TEST(function)                                                                    \
    do {                                                                                      \
        unsigned long before_ = petal_test_failure_count();                                   \
        function();                                                                           \
        unsigned long failed_ = petal_test_failure_count() - before_;                         \
        fprintf(stderr, "%s %s\n", failed_ == 0 ? "ok  " : "FAIL", #function);                 \
    } while (0)

/* The process status: non-zero on any failure, so CTest marks the test failed. */
static inline int petal_test_finish(const char *name) {
    unsigned long failures = petal_test_failure_count();
    if (failures == 0) {
        fprintf(stderr, "%s: all checks passed\n", name);
        return EXIT_SUCCESS;
    }
    fprintf(stderr, "%s: %lu check(s) failed\n", name, failures);
    return EXIT_FAILURE;
}

/* How many rounds a stress test runs: `fallback`, or PETAL_TEST_ROUNDS when set, so slow
   configurations (ThreadSanitizer on a small machine) can scale down without a rebuild. */
static inline unsigned petal_test_rounds(unsigned fallback) {
    const char *text = getenv("PETAL_TEST_ROUNDS");
    if (text == NULL || *text == '\0') return fallback;
    char *end = NULL;
    unsigned long rounds = strtoul(text, &end, 10);
    if (*end != '\0' || rounds == 0) return fallback;
    return (unsigned)rounds;
}

#endif /* PETAL_TEST_H */
