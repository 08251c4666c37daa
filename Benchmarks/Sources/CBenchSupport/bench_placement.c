#define _GNU_SOURCE /* sched_setaffinity */
#include "bench_support.h"

#include <sched.h>
#include <time.h>

int bench_pin_to_cpu(int cpu) {
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set);
#else
    (void)cpu;
    return -1;
#endif
}

long long bench_now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}
