/*
 * The C core compiled a second time, on C11 atomics, into the same benchmark binary as the
 * library (built on the package's default backend, libatomic_ops on Linux): every external
 * symbol of the core gets a bench_c11_ name, so the two copies link side by side and each
 * contender drives its own. Each core_c11_*.c file includes this first, then one source of the
 * core as it is.
 */
#ifndef BENCH_CORE_C11_NAMES_H
#define BENCH_CORE_C11_NAMES_H

/* Before any header of the core: petal_atomics.h picks its backend from it. */
#define PETAL_ATOMICS_C11 1

#define petal_atomics_backend bench_c11_atomics_backend
#define petal_block_allocate bench_c11_block_allocate
#define petal_block_free bench_c11_block_free
#define petal_block_free_list bench_c11_block_free_list
#define petal_block_cache_enabled bench_c11_block_cache_enabled
#define petal_block_cache_homes bench_c11_block_cache_homes
#define petal_future_init bench_c11_future_init
#define petal_future_payload bench_c11_future_payload
#define petal_future_resolve bench_c11_future_resolve
#define petal_future_status bench_c11_future_status
#define petal_future_subscribe bench_c11_future_subscribe
#define petal_future_subscribe_node bench_c11_future_subscribe_node
#define petal_future_wait bench_c11_future_wait
#define petal_allocation_size bench_c11_allocation_size
#define petal_trampoline_current bench_c11_trampoline_current
#define petal_trampoline_defer bench_c11_trampoline_defer
#define petal_trampoline_defer_item bench_c11_trampoline_defer_item
#define petal_trampoline_depth bench_c11_trampoline_depth
#define petal_trampoline_enter bench_c11_trampoline_enter
#define petal_trampoline_leave bench_c11_trampoline_leave
#define petal_trampoline_run_deferred bench_c11_trampoline_run_deferred

#endif
