/*
 * Scripts/breaker-sampling.c: how often a circuit breaker's sampled window opens on a backend
 * failing 3 calls in 10 (threshold one half, 100 calls at least), when two threads calling it
 * are scheduled in bursts, as on a machine running hundreds of test threads.
 *
 * A model of BreakerWindow's time window, not its code: periods of 10 ms, a window of 10, the
 * mask chosen as a thread starts a period, from the 10 periods before it (one success in 2 to 64
 * counted, as that many calls, once the window held 2,048); failures counted every one, each
 * followed by the check. Each thread runs for a time, then waits, both drawn from exponential
 * distributions, and makes a call every `call` microseconds while it runs (20% jitter), 50,000
 * in all; failing calls are its 0th, 1st and 2nd of each 10. A success is sampled by a coin per
 * call (`coins`: the low bits of a call's start, which `BreakerWindow` used before) or by the
 * thread's Weyl sequence (`weyl`: `SampleDraw`).
 *
 *   breaker-sampling coins|weyl RUN_MS WAIT_MS CALL_US RUNS
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 88172645463325252ull;
static double uniform(void) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}
static double exponential(double mean) { return -mean * log(1 - uniform()); }

enum { RING = 16, WINDOW = 10, THREADS = 2, CALLS = 50000 };
typedef struct { long period, calls, failures; } bucket;

/* One run of 50,000 calls a thread: 1 if the breaker opened. */
static int run(int weyl, double run_ms, double wait_ms, double call_us) {
    bucket ring[RING];
    memset(ring, 0xff, sizeof ring);
    long mask = 0, index[THREADS] = {0}, last[THREADS] = {-1, -1};
    double now[THREADS] = {0}, until[THREADS];
    int running[THREADS];
    uint64_t draws[THREADS];
    for (int t = 0; t < THREADS; t++) {
        until[t] = exponential(run_ms) * 1000;
        running[t] = 1;
        draws[t] = (uint64_t)(uniform() * 18446744073709551615.0);
    }
    for (;;) {
        int t = index[0] >= CALLS ? 1 : index[1] >= CALLS ? 0 : now[0] <= now[1] ? 0 : 1;
        if (index[t] >= CALLS) return 0;
        if (now[t] >= until[t] || !running[t]) {
            now[t] = until[t];
            running[t] = !running[t];
            until[t] = now[t] + exponential(running[t] ? run_ms : wait_ms) * 1000;
            continue;
        }
        long period = (long)(now[t] / 10000.0);
        int failed = index[t] % 10 < 3;
        /* Drawn as the call is admitted, whatever its outcome, as the hedged loop does. */
        draws[t] += 0x9E3779B97F4A7C15ull;
        int kept = weyl ? (long)(draws[t] >> 58) * (mask + 1) < 64 : uniform() * (mask + 1) < 1;
        long weight = failed ? 1 : kept ? mask + 1 : 0;
        index[t] += 1;
        now[t] += call_us * (0.8 + 0.4 * uniform());
        if (weight == 0) continue;
        bucket *b = &ring[period % RING];
        if (b->period != period) {
            b->period = period; b->calls = 0; b->failures = 0;
            if (period != last[t]) {
                long calls = 0, share = 1;
                for (long p = period - WINDOW; p < period; p++)
                    if (p >= 0 && ring[p % RING].period == p) calls += ring[p % RING].calls;
                while (share < 64 && calls >= 2048 * share) share *= 2;
                mask = share - 1;
            }
        }
        last[t] = period;
        b->calls += weight;
        b->failures += failed;
        if (!failed) continue;
        long calls = 0, failures = 0;
        for (long p = period - WINDOW + 1; p <= period; p++)
            if (p >= 0 && ring[p % RING].period == p) {
                calls += ring[p % RING].calls;
                failures += ring[p % RING].failures;
            }
        if (calls >= 100 && 2 * failures >= calls) return 1;
    }
}

int main(int argc, char **argv) {
    if (argc != 6 || (strcmp(argv[1], "coins") && strcmp(argv[1], "weyl"))) {
        fprintf(stderr, "usage: breaker-sampling coins|weyl RUN_MS WAIT_MS CALL_US RUNS\n");
        return 64;
    }
    int weyl = !strcmp(argv[1], "weyl"), runs = atoi(argv[5]), opened = 0;
    for (int i = 0; i < runs; i++) opened += run(weyl, atof(argv[2]), atof(argv[3]), atof(argv[4]));
    printf("%-5s run %5.1f ms, wait %5.1f ms, a call every %.1f us: opened in %d of %d runs\n",
           argv[1], atof(argv[2]), atof(argv[3]), atof(argv[4]), opened, runs);
    return 0;
}
