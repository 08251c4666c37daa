// stall-watch PERIOD_US THRESHOLD_US SECONDS: how long this machine keeps a thread that must
// run from running. One thread per online CPU, pinned to it, at SCHED_FIFO priority 90 (above
// every thread of a server and its load), sleeps until the next multiple of PERIOD_US and reads
// the clock on waking. A wake-up later than THRESHOLD_US is a stall of that CPU that nothing in
// user space could have avoided: what holds such a thread off is the kernel (a section it will
// not preempt, an interrupt) or the hypervisor (the virtual CPU not running). Prints each stall
// as "CPU START_NS END_NS" on CLOCK_BOOTTIME (Swift's ContinuousClock on Linux, so a server on
// the same machine can stamp its events on the same clock), then a line per CPU on stderr.
// Needs CAP_SYS_NICE (root): without it, it says so and stops.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { most_stalls = 100000 };

struct stall {
    long long start, end;
};

struct watcher {
    pthread_t thread;
    int cpu;
    long long period, threshold, duration;
    long wakes, count;
    long long longest;
    struct stall *stalls;
    int error;
};

static long long boot_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_BOOTTIME, &now);
    return now.tv_sec * 1000000000LL + now.tv_nsec;
}

static void *watch(void *argument) {
    struct watcher *w = argument;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(w->cpu, &set);
    struct sched_param priority = {.sched_priority = 90};
    if ((w->error = pthread_setaffinity_np(pthread_self(), sizeof set, &set)) != 0) return NULL;
    if ((w->error = pthread_setschedparam(pthread_self(), SCHED_FIFO, &priority)) != 0) return NULL;
    long long start = boot_ns(), due = start;
    while (due - start < w->duration) {
        due += w->period;
        struct timespec at = {.tv_sec = due / 1000000000LL, .tv_nsec = due % 1000000000LL};
        while (clock_nanosleep(CLOCK_BOOTTIME, TIMER_ABSTIME, &at, NULL) == EINTR) {}
        long long woke = boot_ns(), late = woke - due;
        w->wakes++;
        if (late > w->longest) w->longest = late;
        if (late > w->threshold && w->count < most_stalls) w->stalls[w->count++] = (struct stall){due, woke};
        // After a stall, the next wake-up is a period from now, not a burst of missed ones.
        if (late > w->period) due = woke;
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4 || atol(argv[1]) <= 0 || atol(argv[2]) < 0 || atol(argv[3]) <= 0) {
        fprintf(stderr, "usage: stall-watch PERIOD_US THRESHOLD_US SECONDS\n");
        return 64;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    struct watcher *watchers = calloc((size_t)cpus, sizeof *watchers);
    for (long c = 0; c < cpus; c++) {
        struct watcher *w = &watchers[c];
        *w = (struct watcher){.cpu = (int)c, .period = atol(argv[1]) * 1000LL, .threshold = atol(argv[2]) * 1000LL,
                              .duration = atol(argv[3]) * 1000000000LL};
        w->stalls = malloc(most_stalls * sizeof *w->stalls);
        if (!w->stalls || pthread_create(&w->thread, NULL, watch, w) != 0) {
            fprintf(stderr, "stall-watch: cannot start a watcher\n");
            return 1;
        }
    }
    int failed = 0;
    for (long c = 0; c < cpus; c++) {
        pthread_join(watchers[c].thread, NULL);
        if (watchers[c].error) {
            fprintf(stderr, "stall-watch: CPU %ld: %s (SCHED_FIFO needs root)\n", c, strerror(watchers[c].error));
            failed = 1;
        }
    }
    if (failed) return 1;
    for (long c = 0; c < cpus; c++)
        for (long i = 0; i < watchers[c].count; i++)
            printf("%ld %lld %lld\n", c, watchers[c].stalls[i].start, watchers[c].stalls[i].end);
    for (long c = 0; c < cpus; c++)
        fprintf(stderr, "CPU %ld: %ld wake-ups, %ld later than the threshold, the latest %.3f ms\n", c,
                watchers[c].wakes, watchers[c].count, (double)watchers[c].longest / 1e6);
    return 0;
}
