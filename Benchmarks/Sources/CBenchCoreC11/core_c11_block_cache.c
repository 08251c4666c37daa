/* petal_block_cache.c on C11 atomics, with bench_c11_ names (core_c11_names.h). */
#include "core_c11_names.h"

#include "../../../Sources/CPetal/petal_block_cache.c"
