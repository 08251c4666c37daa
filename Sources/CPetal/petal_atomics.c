/* Which atomics the library was compiled with: the backend petal_atomics.h chose here. */
#include "petal_atomics.h"

const char *petal_atomics_backend(void) {
    return PETAL_ATOMICS_BACKEND;
}
