/*
 * The cases of test_bench_futures.c for one of the benchmarks' C futures, named by BENCH_KIND
 * (mutex or treiber): every bench_<kind>_future_* call and test_<kind>_* function below is
 * spelled through the macros, so the file is included once per kind. No include guard, on
 * purpose.
 */
#define BENCH_PASTE3(a, b, c) a##b##c
#define BENCH_NAME3(a, b, c) BENCH_PASTE3(a, b, c)
/* bench_<kind>_future, and its functions bench_<kind>_future_<name>. */
#define FUTURE BENCH_NAME3(bench_, BENCH_KIND, _future)
#define FN(name) BENCH_NAME3(FUTURE, _, name)
/* This kind's own test functions and helpers: test_<kind>_<name>. */
#define LOCAL(name) BENCH_NAME3(test_, BENCH_KIND, _##name)

/* A callback's record: the order it ran in, the payload it read, the thread it ran on. */
typedef struct {
    atomic_uint *clock;
    unsigned ran_at; /* 1 + the clock's reading, 0 until it ran */
    unsigned runs;
    void *payload;
    pthread_t thread;
} LOCAL(probe);

static void LOCAL(record)(FUTURE *future, void *context) {
    LOCAL(probe) *probe = context;
    probe->ran_at = atomic_fetch_add(probe->clock, 1) + 1;
    probe->runs += 1;
    probe->payload = FN(payload)(future);
    probe->thread = pthread_self();
}

static void LOCAL(callbacks_run_in_subscription_order)(void) {
    static int value;
    atomic_uint clock = 0;
    LOCAL(probe) probes[10];
    FUTURE *future = FN(new)();
    CHECK(future != NULL);
    for (unsigned i = 0; i < 10; i++) {
        probes[i] = (LOCAL(probe)){.clock = &clock};
        CHECK(FN(subscribe)(future, LOCAL(record), &probes[i]) == 0);
    }
    for (unsigned i = 0; i < 10; i++) CHECK(probes[i].runs == 0);
    CHECK(FN(fulfil)(future, &value));
    for (unsigned i = 0; i < 10; i++) {
        CHECK(probes[i].runs == 1);
        CHECK(probes[i].ran_at == i + 1);
        CHECK(probes[i].payload == &value);
    }
    FN(free)(future);
}

static void LOCAL(second_fulfil_loses)(void) {
    static int first, second;
    atomic_uint clock = 0;
    LOCAL(probe) probe = {.clock = &clock};
    FUTURE *future = FN(new)();
    CHECK(FN(subscribe)(future, LOCAL(record), &probe) == 0);
    CHECK(FN(fulfil)(future, &first));
    CHECK(!FN(fulfil)(future, &second));
    CHECK(probe.runs == 1);
    CHECK(FN(payload)(future) == &first);
    FN(free)(future);
}

static void LOCAL(late_subscriber_runs_at_once)(void) {
    static int value;
    atomic_uint clock = 0;
    LOCAL(probe) early = {.clock = &clock}, late = {.clock = &clock};
    FUTURE *future = FN(new)();
    CHECK(FN(subscribe)(future, LOCAL(record), &early) == 0);
    CHECK(FN(fulfil)(future, &value));
    CHECK(FN(subscribe)(future, LOCAL(record), &late) == 0);
    CHECK(late.runs == 1); /* before subscribe returned */
    CHECK(late.ran_at == 2);
    CHECK(late.payload == &value);
    CHECK(pthread_equal(late.thread, pthread_self()));
    FN(free)(future);
}

/* Run under ASan (Scripts/test --full): the nodes of callbacks that never ran are freed. */
static void LOCAL(free_releases_callbacks_that_never_ran)(void) {
    atomic_uint clock = 0;
    LOCAL(probe) probes[3];
    FUTURE *future = FN(new)();
    for (unsigned i = 0; i < 3; i++) {
        probes[i] = (LOCAL(probe)){.clock = &clock};
        CHECK(FN(subscribe)(future, LOCAL(record), &probes[i]) == 0);
    }
    FN(free)(future);
    CHECK(atomic_load(&clock) == 0);
}

/* One round of threads subscribing while one fulfils, or of threads all fulfilling. */
typedef struct {
    FUTURE *future;
    atomic_uint arrived;
    atomic_uint calls;
    atomic_uint wins;
    void *value;
    /* Each callback's count of runs, and the payload it read, per subscribing thread. */
    atomic_uint runs[BENCH_TEST_THREADS][BENCH_TEST_CALLBACKS];
    void *payloads[BENCH_TEST_THREADS][BENCH_TEST_CALLBACKS];
} LOCAL(round);

typedef struct {
    LOCAL(round) *round;
    unsigned thread;
    unsigned index;
} LOCAL(slot);

static void LOCAL(count)(FUTURE *future, void *context) {
    LOCAL(slot) *slot = context;
    LOCAL(round) *round = slot->round;
    round->payloads[slot->thread][slot->index] = FN(payload)(future);
    atomic_fetch_add(&round->runs[slot->thread][slot->index], 1);
    atomic_fetch_add(&round->calls, 1);
}

typedef struct {
    LOCAL(round) *round;
    unsigned thread;
    LOCAL(slot) slots[BENCH_TEST_CALLBACKS];
} LOCAL(worker);

/* Thread 0 fulfils; the others subscribe BENCH_TEST_CALLBACKS callbacks each. */
static void *LOCAL(subscribe_or_fulfil)(void *raw) {
    LOCAL(worker) *worker = raw;
    LOCAL(round) *round = worker->round;
    bench_test_start(&round->arrived, BENCH_TEST_THREADS);
    if (worker->thread == 0) {
        if (FN(fulfil)(round->future, round->value)) atomic_fetch_add(&round->wins, 1);
        return NULL;
    }
    for (unsigned i = 0; i < BENCH_TEST_CALLBACKS; i++) {
        worker->slots[i] = (LOCAL(slot)){round, worker->thread, i};
        CHECK(FN(subscribe)(round->future, LOCAL(count), &worker->slots[i]) == 0);
    }
    return NULL;
}

/* Every thread fulfils with a value of its own. */
static void *LOCAL(fulfil)(void *raw) {
    LOCAL(worker) *worker = raw;
    LOCAL(round) *round = worker->round;
    bench_test_start(&round->arrived, BENCH_TEST_THREADS);
    if (FN(fulfil)(round->future, &worker->slots[0])) atomic_fetch_add(&round->wins, 1);
    return NULL;
}

static void LOCAL(run_round)(LOCAL(round) *round, LOCAL(worker) *workers, void *(*body)(void *)) {
    pthread_t threads[BENCH_TEST_THREADS];
    for (unsigned t = 0; t < BENCH_TEST_THREADS; t++) {
        workers[t].round = round;
        workers[t].thread = t;
        int created = pthread_create(&threads[t], NULL, body, &workers[t]);
        CHECK(created == 0);
        if (created != 0) abort(); /* the start line would wait for it forever */
    }
    for (unsigned t = 0; t < BENCH_TEST_THREADS; t++) CHECK(pthread_join(threads[t], NULL) == 0);
}

static void LOCAL(threads_subscribe_while_one_fulfils)(void) {
    static int value;
    unsigned rounds = petal_test_rounds(500);
    LOCAL(round) *round = malloc(sizeof *round);
    LOCAL(worker) *workers = malloc(BENCH_TEST_THREADS * sizeof *workers);
    CHECK(round != NULL && workers != NULL);
    if (round == NULL || workers == NULL) abort();
    for (unsigned number = 0; number < rounds; number++) {
        memset(round, 0, sizeof *round);
        round->future = FN(new)();
        round->value = &value;
        LOCAL(run_round)(round, workers, LOCAL(subscribe_or_fulfil));

        unsigned long before = petal_test_failure_count();
        CHECK(atomic_load(&round->wins) == 1);
        CHECK(atomic_load(&round->calls) == (BENCH_TEST_THREADS - 1) * BENCH_TEST_CALLBACKS);
        for (unsigned t = 1; t < BENCH_TEST_THREADS; t++) {
            for (unsigned i = 0; i < BENCH_TEST_CALLBACKS; i++) {
                CHECK(atomic_load(&round->runs[t][i]) == 1);
                CHECK(round->payloads[t][i] == &value);
            }
        }
        FN(free)(round->future);
        if (petal_test_failure_count() != before) {
            fprintf(stderr, "round %u of %u was inconsistent\n", number, rounds);
            break;
        }
    }
    free(workers);
    free(round);
}

static void LOCAL(threads_race_to_fulfil)(void) {
    unsigned rounds = petal_test_rounds(500);
    LOCAL(round) *round = malloc(sizeof *round);
    LOCAL(worker) *workers = malloc(BENCH_TEST_THREADS * sizeof *workers);
    CHECK(round != NULL && workers != NULL);
    if (round == NULL || workers == NULL) abort();
    for (unsigned number = 0; number < rounds; number++) {
        memset(round, 0, sizeof *round);
        round->future = FN(new)();
        LOCAL(slot) early = {round, 0, 0};
        CHECK(FN(subscribe)(round->future, LOCAL(count), &early) == 0);
        LOCAL(run_round)(round, workers, LOCAL(fulfil));

        unsigned long before = petal_test_failure_count();
        CHECK(atomic_load(&round->wins) == 1);
        CHECK(atomic_load(&round->calls) == 1);
        /* The payload is one of the values, and the callback read the same. */
        void *payload = FN(payload)(round->future);
        unsigned owners = 0;
        for (unsigned t = 0; t < BENCH_TEST_THREADS; t++) owners += payload == &workers[t].slots[0];
        CHECK(owners == 1);
        CHECK(round->payloads[0][0] == payload);
        FN(free)(round->future);
        if (petal_test_failure_count() != before) {
            fprintf(stderr, "round %u of %u was inconsistent\n", number, rounds);
            break;
        }
    }
    free(workers);
    free(round);
}

#undef LOCAL
#undef FN
#undef FUTURE
#undef BENCH_NAME3
#undef BENCH_PASTE3
