/* The state of petal_repeat_cache.h: the per-thread caches, zero-initialised (no site), and the
   flag, set from the start because the default handler is installed from the start. */
#include "petal_repeat_cache.h"

PETAL_THREAD_LOCAL petal_repeat_cache petal_repeat_cache_current;
petal_atomic_word petal_repeat_counting_enabled = {1};
