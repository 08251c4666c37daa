/*
 * Contract violations of the C API get a clear answer in debug builds: an assertion that names
 * the broken rule, instead of a crash somewhere else or a list looped into itself. Each case
 * runs in a child process and must die of SIGABRT with the rule's message on standard error.
 * This test compiles the core itself without NDEBUG (see CMakeLists.txt), whatever the build
 * type.
 */
#include "petal_test.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void nothing(petal_future *future, void *context) {
    (void)future;
    (void)context;
}

/* Runs `violation` in a child; checks that it aborted and said `expected` on stderr. */
static void check_aborts(void (*violation)(void), const char *expected) {
    int pipe_fds[2];
    CHECK(pipe(pipe_fds) == 0);
    fflush(NULL);
    pid_t child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        dup2(pipe_fds[1], STDERR_FILENO);
        close(pipe_fds[0]);
        violation();
        _exit(0); /* not reached when the assertion fires */
    }
    close(pipe_fds[1]);
    char output[1024] = {0};
    size_t used = 0;
    ssize_t got;
    while (used < sizeof output - 1 && (got = read(pipe_fds[0], output + used, sizeof output - 1 - used)) > 0) {
        used += (size_t)got;
    }
    close(pipe_fds[0]);
    int status = 0;
    CHECK(waitpid(child, &status, 0) == child);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
    if (strstr(output, expected) == NULL) {
        fprintf(stderr, "expected \"%s\" in: %s\n", expected, output);
        CHECK(!"the assertion's message");
    }
}

static void subscribe_null_callback(void) {
    petal_future future;
    petal_future_init(&future);
    petal_future_subscribe(&future, NULL, NULL);
}

static void subscribe_null_future(void) {
    petal_future_subscribe(NULL, nothing, NULL);
}

static void resolve_null_future(void) {
    petal_future_fulfil(NULL, NULL);
}

static void wait_null_future(void) {
    petal_future_wait(NULL, NULL);
}

static void misaligned_waiter(void) {
    static petal_waiter waiters[2];
    petal_future future;
    petal_future_init(&future);
    petal_future_subscribe_node(&future, (petal_waiter *)((char *)&waiters[0] + 16), nothing, NULL);
}

static void waiter_subscribed_twice(void) {
    static petal_waiter waiter;
    petal_future future;
    petal_future_init(&future);
    petal_future_subscribe_node(&future, &waiter, nothing, NULL);
    petal_future_subscribe_node(&future, &waiter, nothing, NULL);
}

static void test_violations_abort_with_the_rule(void) {
    check_aborts(subscribe_null_callback, "NULL future or callback");
    check_aborts(subscribe_null_future, "NULL future or callback");
    check_aborts(resolve_null_future, "NULL future");
    check_aborts(wait_null_future, "NULL future");
    check_aborts(misaligned_waiter, "waiter not 64-byte aligned");
    check_aborts(waiter_subscribed_twice, "waiter subscribed again before its callback ran");
}

static void test_a_waiter_may_be_reused_once_its_callback_ran(void) {
    /* The same memory, subscribed again after its callback ran: allowed, and not mistaken for a
       repeat (the list it was in is gone). */
    petal_waiter waiter;
    for (int round = 0; round < 3; round++) {
        petal_future future;
        petal_future_init(&future);
        petal_future_subscribe_node(&future, &waiter, nothing, NULL);
        CHECK(petal_future_fulfil(&future, NULL) == PETAL_OK);
    }
}

static void test_return_codes_differ_from_statuses(void) {
    const int codes[] = {PETAL_ERR_RESOLVED, PETAL_ERR_NOMEM, PETAL_ERR_TIMEDOUT, PETAL_ERR_INVALID};
    const int statuses[] = {PETAL_STATUS_PENDING, PETAL_STATUS_FULFILLED, PETAL_STATUS_REJECTED, PETAL_STATUS_CANCELLED};
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 4; j++) CHECK(codes[i] != statuses[j]);
        for (int j = i + 1; j < 4; j++) CHECK(codes[i] != codes[j]);
    }
}

int main(void) {
#ifdef NDEBUG
    fprintf(stderr, "test_contract must be built without NDEBUG\n");
    return EXIT_FAILURE;
#endif
    RUN_TEST(test_violations_abort_with_the_rule);
    RUN_TEST(test_a_waiter_may_be_reused_once_its_callback_ran);
    RUN_TEST(test_return_codes_differ_from_statuses);
    return petal_test_finish("test_contract");
}
