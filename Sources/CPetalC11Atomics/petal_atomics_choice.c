/* SwiftPM builds no C target without a source file; the target's point is its header. */
#include "petal_atomics_choice.h"

/* Not called: the target needs one declaration to be a valid translation unit. */
int petal_atomics_choice_is_c11(void);
int petal_atomics_choice_is_c11(void) {
    return 1;
}
