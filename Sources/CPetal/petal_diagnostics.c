/* Diagnostics for size regression tests: what the allocator really reserved for a block. */
#include "petal.h"

#if defined(__APPLE__)
#  include <malloc/malloc.h>
size_t petal_allocation_size(const void *block) { return malloc_size(block); }
#elif defined(__GLIBC__) || defined(__linux__)
#  include <malloc.h>
size_t petal_allocation_size(const void *block) { return malloc_usable_size((void *)block); }
#else
size_t petal_allocation_size(const void *block) { (void)block; return 0; }
#endif
