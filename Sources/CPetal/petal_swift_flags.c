/* The flags of petal_swift_flags.h: zero-initialised, so no Swift code runs to set them up. */
#include "petal_swift_flags.h"

petal_atomic_word petal_callback_context_enabled = {0};

/* Zero-initialised too: a thread starts with nothing bound (clock == NULL). */
PETAL_THREAD_LOCAL petal_deadline_slot petal_deadline_bound = {0, 0, 0};

/* No attempt runs on a new thread. */
PETAL_THREAD_LOCAL const void *petal_attempt_budget = 0;

/* Unseeded: a thread's first draw seeds it (Swift: SampleDraw.seed). */
PETAL_THREAD_LOCAL uint64_t petal_sample_sequence = 0;
